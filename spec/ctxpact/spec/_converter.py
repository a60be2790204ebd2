"""The package's one cattrs converter, and the JSON functions built on it.

The converter maps snake_case attributes to the camelCase names of the schemas (JSON-2) and
forbids keys a schema does not define. It is configured once, here; the global cattrs
converter is never touched.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ctxpact.spec._errors import CtxpactError, SchemaValidationError, Violation
from ctxpact.spec._json import JsonObject, JsonValue, copy_json
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

#: Which schema describes each record.
SCHEMA_OF: dict[type[Any], str] = {
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


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True)

    def structure_factory(cls: type[Any]) -> Any:  # noqa: ANN401 - cattrs hook type
        return make_dict_structure_fn(
            cls, converter, _cattrs_forbid_extra_keys=True, **_overrides(cls)
        )

    def unstructure_factory(cls: type[Any]) -> Any:  # noqa: ANN401 - cattrs hook type
        return make_dict_unstructure_fn(cls, converter, **_overrides(cls))

    converter.register_structure_hook_factory(attrs.has, structure_factory)
    converter.register_unstructure_hook_factory(attrs.has, unstructure_factory)
    return converter


#: The converter. Use :func:`to_json` and :func:`from_json` rather than calling it directly.
converter = _make_converter()


def to_json(record: object) -> JsonObject:
    """Turn a ctxpact record into its JSON document (a fresh ``dict``; items are deep copies).

    Raises:
        SchemaValidationError: if an item is not a JSON value, naming its path.
        TypeError: if *record* is not a ctxpact record.

    """
    if type(record) not in SCHEMA_OF:
        raise TypeError(f"Expected a ctxpact record but got {type(record).__name__}")
    return cast("JsonObject", copy_json(converter.unstructure(record)))


def from_json(cls: type[T], data: object) -> T:
    """Build the record *cls* from its JSON document, after validating it against its schema.

    The document is not modified, and the record shares no object with it.

    Raises:
        SchemaValidationError: carrying every violation with its JSON path.
        TypeError: if *cls* is not a ctxpact record.

    """
    schema = SCHEMA_OF.get(cls)
    if schema is None:
        raise TypeError(f"Expected a ctxpact record class but got {cls!r}")
    validate(data, schema)
    try:
        return converter.structure(copy_json(data), cls)
    except (cattrs.BaseValidationError, CtxpactError, ValueError, TypeError) as error:
        # The schema and the records agree (tests/spec check it), so this is drift: say so
        # in the package's terms rather than leak a converter traceback.
        details = (
            cattrs.transform_error(error)
            if isinstance(error, cattrs.BaseValidationError)
            else [str(error)]
        )
        raise SchemaValidationError(
            [Violation(path="$", message=detail) for detail in details], schema=schema
        ) from error


__all__ = ["SCHEMA_OF", "camel_case", "converter", "from_json", "to_json"]
