"""The package's one cattrs converter, and the JSON functions built on it.

The converter maps snake_case attributes to the camelCase names of the schemas (JSON-12) and
forbids keys a schema does not define. It is configured once, here; the global cattrs
converter is never touched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeVar, cast

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ctxpact.spec._errors import InvalidValueError, SchemaValidationError, Violation
from ctxpact.spec._json import JsonObject, JsonValue, copy_document
from ctxpact.spec._records import (
    JSON_ITEMS,
    AgentSessionSnapshot,
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextReport,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    StructuredSummary,
    ToolCall,
)
from ctxpact.spec._schemas import validate

T = TypeVar("T")

#: Which schema describes each record (read-only).
SCHEMA_OF: Mapping[type[Any], str] = MappingProxyType(
    {
        AgentSessionSnapshot: "session-snapshot",
        CompactResult: "compact-result",
        ContextBudget: "context-budget",
        ContextProjection: "context-projection",
        ContextReport: "context-report",
        MemorySnapshot: "memory-snapshot",
        ModelPrompt: "model-prompt",
        ModelResult: "model-result",
        StructuredSummary: "structured-summary",
        ToolCall: "tool-call",
    }
)


def camel_case(name: str) -> str:
    """``source_item_count`` -> ``sourceItemCount``."""
    head, *rest = name.split("_")
    return head + "".join(word.capitalize() for word in rest)


def _structure_items(value: Any, _: object) -> tuple[JsonValue, ...]:  # noqa: ANN401
    return tuple(value)


def _unstructure_items(value: tuple[JsonValue, ...]) -> list[JsonValue]:
    return list(value)


def _overrides(cls: type[Any]) -> dict[str, Any]:
    overrides = {}
    for attribute in attrs.fields(cls):
        name = camel_case(attribute.name)
        if attribute.metadata.get(JSON_ITEMS):
            # Items are opaque JSON values: passed through here, checked and copied by copy_json.
            overrides[attribute.name] = override(
                rename=name, struct_hook=_structure_items, unstruct_hook=_unstructure_items
            )
        else:
            overrides[attribute.name] = override(rename=name)
    return overrides


def _whole_int(value: object, _: object) -> int:
    # JSON-20: an integer member is a whole number however it was written, as JSON Schema's
    # "integer" says: 5.0 is read as 5 (and written back as 5); 5.5, "5" and true are refused.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Expected an integer but got {value!r}")
    return value


def _strict_bool(value: object, _: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"Expected a boolean but got {value!r}")
    return value


_SNAKE_SEGMENT = re.compile(r"\.([a-z][a-z0-9_]*)")


def _violations(error: cattrs.BaseValidationError) -> list[Violation]:
    found = []
    for line in cattrs.transform_error(error, format_exception=lambda exc, _: str(exc)):
        message, _, path = line.rpartition(" @ ")
        json_path = _SNAKE_SEGMENT.sub(lambda m: "." + camel_case(m.group(1)), path)
        found.append(Violation(path=json_path, message=message))
    return found


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True)
    converter.register_structure_hook(bool, _strict_bool)
    converter.register_structure_hook(int, _whole_int)

    def structure_factory(cls: type[Any]) -> Any:  # noqa: ANN401 - cattrs hook type
        return make_dict_structure_fn(cls, converter, **_overrides(cls))

    def unstructure_factory(cls: type[Any]) -> Any:  # noqa: ANN401 - cattrs hook type
        return make_dict_unstructure_fn(cls, converter, **_overrides(cls))

    converter.register_structure_hook_factory(attrs.has, structure_factory)
    converter.register_unstructure_hook_factory(attrs.has, unstructure_factory)
    return converter


#: The converter. Use :func:`to_json` and :func:`from_json` rather than calling it directly.
converter = _make_converter()


def to_json(record: object) -> JsonObject:
    """Turn a ctxpact record into its JSON document (a fresh ``dict``; items are deep copies).

    Works at any call depth; each item may nest up to ``MAX_JSON_DEPTH`` levels (JSON-17).

    Raises:
        SchemaValidationError: if an item is not a JSON value, naming its path (a
            :class:`~ctxpact.spec.JsonLimitError` when it is too deep or too large).
        TypeError: if *record* is not a ctxpact record.

    """
    if type(record) not in SCHEMA_OF:
        raise TypeError(f"Expected a ctxpact record but got {type(record).__name__}")
    return cast("JsonObject", copy_document(converter.unstructure(record)))


def from_json(cls: type[T], data: object) -> T:
    """Build the record *cls* from its JSON document, after validating it against its schema.

    The document is not modified, and the record shares no object with it. Values that are
    not JSON, or beyond the limits of JSON-17, are refused before the schema is consulted, so
    reading works at any call depth.

    Raises:
        SchemaValidationError: carrying every violation with its JSON path.
        TypeError: if *cls* is not a ctxpact record.

    """
    schema = SCHEMA_OF.get(cls)
    if schema is None:
        raise TypeError(f"Expected a ctxpact record class but got {cls!r}")
    document = copy_document(data)
    validate(document, schema)
    try:
        return converter.structure(document, cls)
    except cattrs.BaseValidationError as error:
        # What the schema does not say (a record's field types), the converter does.
        raise SchemaValidationError(_violations(error), schema=schema) from error
    except InvalidValueError as error:
        # A record's own rule that the schema does not express.
        path = f"$.{camel_case(error.field)}"
        raise SchemaValidationError(
            [Violation(path=path, message=str(error))], schema=schema
        ) from error


__all__ = ["SCHEMA_OF", "camel_case", "converter", "from_json", "to_json"]
