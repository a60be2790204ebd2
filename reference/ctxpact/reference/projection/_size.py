"""The approximate size of items: code points of a string, of compact JSON text otherwise.

DIF-1: ai4j measured Java's ``toString`` forms: those are not portable.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from json.encoder import encode_basestring

from ctxpact.reference._arguments import checked_items
from ctxpact.spec import JsonValue, SchemaValidationError, check_json, encode_json

_ROOT = "$"


def _refuse(value: object) -> object:
    # The writer's hook for a value that is not JSON: checked items never reach it.
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _compact_writer() -> Callable[[JsonValue], str]:
    """The compact JSON text of a value (ctxpact.spec.compact_json's text, a test checks it).

    A projection sizes every item, so the C writer is called directly: ``JSONEncoder.encode``
    builds a new one on every call, and a circularity check is not needed for items that
    passed :func:`ctxpact.spec.check_items` (a cycle is deeper than any limit).
    """
    try:
        from _json import make_encoder  # noqa: PLC0415 - absent on some interpreters
    except ImportError:  # pragma: no cover - CPython has the C writer
        return json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
    write = make_encoder(None, _refuse, encode_basestring, None, ":", ",", False, False, False)  # noqa: FBT003 - positional only

    def encode(value: JsonValue) -> str:
        return "".join(write(value, 0))

    return encode


_ENCODE = _compact_writer()


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
    encode = _ENCODE
    try:
        # Inlined _size: this comprehension is the dominant cost of a projection.
        return [
            len(item) if isinstance(item, str) else 0 if item is None else len(encode(item))
            for item in items
        ]
    except RecursionError:
        # The caller's stack is too deep for the C writer: measure without recursion.
        return [_size(item) for item in items]
    except (TypeError, ValueError) as error:
        for index, item in enumerate(items):
            check_json(item, f"{path}[{index}]")
        raise SchemaValidationError.single(path, f"Expected JSON items: {error}") from error


def json_length(value: JsonValue) -> int:
    """The number of code points of *value*'s compact JSON text (JSON-6), strings quoted.

    Unlike :func:`approx_chars`, a string counts its quotes and escapes and ``None`` counts
    4: this is the length a value adds as a member or an element of a larger value.
    """
    if isinstance(value, str):
        return len(encode_basestring(value))
    try:
        return len(_ENCODE(value))
    except RecursionError:
        return len(encode_json(value))


def _size(item: JsonValue) -> int:
    if isinstance(item, str):
        return len(item)
    if item is None:
        return 0
    try:
        return len(_ENCODE(item))
    except RecursionError:
        return len(encode_json(item))
