"""The approximate size of items: code points of a string, of compact JSON text otherwise.

DIF-1: ai4j measured Java's ``toString`` forms: those are not portable.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from ctxpact.spec import JsonValue, SchemaValidationError, copy_json

# The same text as ctxpact.spec.compact_json (a test checks it), built once: json.dumps with
# non-default arguments builds a new encoder on every call, and a projection sizes every item.
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
_NOT_JSON = "Expected a JSON value but got {kind} {value!r:.60}"
_ROOT = "$"


def approx_chars(item: JsonValue) -> int:
    """The approximate size of one item, in Unicode code points.

    A string counts its own code points; ``None`` counts 0; any other value counts the code
    points of its compact JSON text (:func:`ctxpact.spec.compact_json`: separators ``,`` and
    ``:``, non-ASCII characters unescaped, the object's key order kept). So ``"héllo"`` is 5,
    ``42`` is 2, ``True`` is 4 and ``{"a": [1, "é"]}`` is 13.

    Implements SIZE-1 .. SIZE-5.

    Raises:
        SchemaValidationError: *item* is not a JSON value (a set, NaN, ...).

    """
    try:
        return _size(item)
    except (TypeError, ValueError) as error:
        raise _not_json(item, _ROOT) from error


def total_approx_chars(items: Iterable[JsonValue]) -> int:
    """The sum of :func:`approx_chars` over *items* (SIZE-6).

    Raises:
        SchemaValidationError: an item is not a JSON value; the path names it (``$[3]``).

    """
    return sum(item_sizes(tuple(items), path=_ROOT))


def item_sizes(items: Sequence[JsonValue], *, path: str) -> list[int]:
    """:func:`approx_chars` of each item, in order; errors name the item as ``<path>[i]``."""
    try:
        # Inlined _size: this comprehension is the dominant cost of a projection.
        return [
            len(item) if isinstance(item, str) else 0 if item is None else len(_ENCODE(item))
            for item in items
        ]
    except (TypeError, ValueError) as error:
        for index, item in enumerate(items):
            try:
                _size(item)
            except (TypeError, ValueError):
                raise _not_json(item, f"{path}[{index}]") from error
        raise


def _size(item: JsonValue) -> int:
    if isinstance(item, str):
        return len(item)
    return 0 if item is None else len(_ENCODE(item))


def _not_json(item: object, path: str) -> SchemaValidationError:
    # copy_json names the exact place inside the item; a cycle is the one thing it cannot.
    try:
        copy_json(item, path)
    except SchemaValidationError as error:
        return error
    except RecursionError:
        pass
    return SchemaValidationError.single(
        path, _NOT_JSON.format(kind=type(item).__name__, value=item)
    )
