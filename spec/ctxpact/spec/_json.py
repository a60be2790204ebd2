"""The one alias for JSON values, and the helpers every record shares for them.

Items in a memory or a projection are arbitrary JSON values (JSON-1): the structure-aware
rules look only at JSON objects and let every other value through unchanged.
"""

from __future__ import annotations

import json
import math
from typing import TypeAlias, Union

from ctxpact.spec._errors import SchemaValidationError

#: Any value that JSON can carry. Objects are ``dict`` with ``str`` keys, arrays are ``list``.
JsonValue: TypeAlias = Union[  # noqa: UP007 - the recursive alias must be evaluable at runtime
    bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"], None
]
#: A JSON object.
JsonObject: TypeAlias = dict[str, JsonValue]


def copy_json(value: object, path: str = "$") -> JsonValue:
    """Return a deep copy of *value*, checking on the way that it is a JSON value.

    Tuples are accepted where arrays are expected and come back as lists, so a record's
    tuple of items copies to a JSON array.

    Raises:
        SchemaValidationError: naming the JSON path of the first value JSON cannot carry
            (a set, a non-string key, NaN, ...).

    """
    if isinstance(value, str | bool | int) or value is None:
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SchemaValidationError.single(path, f"{value!r} is not a finite JSON number")
        return value
    if isinstance(value, dict):
        copied: dict[str, JsonValue] = {}
        for key, member in value.items():
            if not isinstance(key, str):
                raise SchemaValidationError.single(
                    path, f"Expected a string object key but got {type(key).__name__} {key!r}"
                )
            copied[key] = copy_json(member, f"{path}.{key}")
        return copied
    if isinstance(value, list | tuple):
        return [copy_json(member, f"{path}[{index}]") for index, member in enumerate(value)]
    raise SchemaValidationError.single(
        path, f"Expected a JSON value but got {type(value).__name__} {value!r:.60}"
    )


def compact_json(value: JsonValue) -> str:
    """Render *value* as compact JSON: separators ``,`` and ``:``, non-ASCII unescaped.

    This is the JSON text that SIZE-2 measures and that prompts embed.
    """
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


__all__ = ["JsonObject", "JsonValue", "compact_json", "copy_json"]
