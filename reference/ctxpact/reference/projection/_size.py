"""The approximate size of items: code points of a string, of compact JSON text otherwise.

DIF-1: ai4j measured Java's ``toString`` forms: those are not portable.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence

from ctxpact.reference._arguments import checked_items
from ctxpact.spec import JsonValue, SchemaValidationError, check_json, encode_json

# The same text as ctxpact.spec.compact_json (a test checks it), built once: json.dumps with
# non-default arguments builds a new encoder on every call, and a projection sizes every item.
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
_ROOT = "$"


def approx_chars(item: JsonValue) -> int:
    """The approximate size of one item, in Unicode code points.

    A string counts its own code points; ``None`` counts 0; any other value counts the code
    points of its compact JSON text (:func:`ctxpact.spec.compact_json`: separators ``,`` and
    ``:``, non-ASCII characters unescaped, the object's key order kept). So ``"héllo"`` is 5,
    ``42`` is 2, ``True`` is 4 and ``{"a": [1, "é"]}`` is 13. Works at any call depth.

    Implements SIZE-1 .. SIZE-5.

    Raises:
        SchemaValidationError: *item* is not a JSON value (a set, NaN, a non-string key, ...),
            or is beyond the limits of JSON-17 (a ``JsonLimitError``).

    """
    check_json(item, _ROOT)
    return _size(item)


def total_approx_chars(items: Iterable[JsonValue]) -> int:
    """The sum of :func:`approx_chars` over *items* (SIZE-6).

    Raises:
        ArgumentTypeError: *items* is a string, a mapping or not a sequence.
        SchemaValidationError: an item is not a JSON value; the path names it (``$[3]``).

    """
    # A generator is read once into a tuple; anything else must be a sequence of items.
    values = tuple(items) if isinstance(items, Iterator) else items
    listed = checked_items("total_approx_chars", values)
    return sum(item_sizes(listed, path=_ROOT))


def item_sizes(items: Sequence[JsonValue], *, path: str) -> list[int]:
    """:func:`approx_chars` of each item, in order; errors name the item as ``<path>[i]``.

    The items are expected to be checked already (:func:`ctxpact.spec.check_items`); an
    unchecked one that is not JSON is still refused, by the JSON writer.
    """
    try:
        # Inlined _size: this comprehension is the dominant cost of a projection.
        return [
            len(item) if isinstance(item, str) else 0 if item is None else len(_ENCODE(item))
            for item in items
        ]
    except RecursionError:
        # The caller's stack is too deep for the C writer: measure without recursion.
        return [_size(item) for item in items]
    except (TypeError, ValueError) as error:
        for index, item in enumerate(items):
            check_json(item, f"{path}[{index}]")
        raise SchemaValidationError.single(path, f"Expected JSON items: {error}") from error


def _size(item: JsonValue) -> int:
    if isinstance(item, str):
        return len(item)
    if item is None:
        return 0
    try:
        return len(_ENCODE(item))
    except RecursionError:
        return len(encode_json(item))
