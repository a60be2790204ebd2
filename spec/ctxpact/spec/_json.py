"""The one alias for JSON values, the limits every value keeps, and the helpers built on them.

Items in a memory or a projection are arbitrary JSON values (JSON-1): the structure-aware
rules look only at JSON objects and let every other value through unchanged.

Every value ctxpact accepts is nested at most :data:`MAX_JSON_DEPTH` levels deep and holds
no integer of more than :data:`MAX_INTEGER_DIGITS` digits (JSON-17). The helpers here never
recurse on the Python stack: :func:`copy_json` and :func:`check_json` walk with a stack of
their own, and :func:`encode_json` and :func:`decode_json` run the standard library's C
code first and, when the caller's stack is too deep for it, an iterative version of the same
grammar. So a value that is accepted once can be written and read again from any call
depth, and a refusal is a :class:`~ctxpact.spec.JsonLimitError` naming the JSON path, never
a ``RecursionError`` or the interpreter's digit-limit ``ValueError``.
"""

from __future__ import annotations

import functools
import json
import math
import re
import reprlib
import sys
from collections.abc import Callable, Iterable, Iterator
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any, TypeAlias, Union, cast

from ctxpact.spec._errors import InvalidJsonError, JsonLimitError, SchemaValidationError, Violation

#: Any value that JSON can carry. Objects are ``dict`` with ``str`` keys, arrays are ``list``.
JsonValue: TypeAlias = Union[  # noqa: UP007 - the recursive alias must be evaluable at runtime
    bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"], None
]
#: A JSON object.
JsonObject: TypeAlias = dict[str, JsonValue]

#: How deeply a JSON value may nest (JSON-7's measure: the outermost array or object counts
#: 1), whatever holds it (JSON-8, JSON-17).
MAX_JSON_DEPTH = 256
#: How many decimal digits an integer in a JSON value may have (JSON-17): the interpreter's
#: default limit for converting integers to text.
MAX_INTEGER_DIGITS = 4300
#: How deeply a record document (or a harness message carrying one) may nest: its items, and
#: the few levels of records and arrays around them (JSON-17).
MAX_DOCUMENT_DEPTH = MAX_JSON_DEPTH + 8
#: The members of a record document whose array elements are items (JSON-12): each item is
#: measured from its own root, not from the document's.
ITEM_MEMBERS = frozenset({"items", "memoryItems"})

# No interpreter allows a digit limit below 640, and 2**2126 < 10**640: an integer this
# short is within every limit, without asking for the limit.
_ALWAYS_SHORT_BITS = 2126
_BITS_PER_DIGIT = math.log2(10)
_bounds: dict[int, int] = {}
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 2
_SHOWN.maxstring = _SHOWN.maxother = 60


class _Refused(Exception):  # noqa: N818 - internal signal, never escapes this module
    """Raised by the fast walks: something is wrong; the slow walk says what and where."""


def _shown(value: object) -> str:
    """A short description of *value* that cannot fail, however deep or large it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        digits = _digits_at_least(value)
        if digits > _SHOWN.maxother:
            return f"an integer of {digits:,} or more digits"
    try:
        return _SHOWN.repr(value)
    except Exception:  # noqa: BLE001 - a repr of the caller's object may raise anything
        return f"a {type(value).__name__} object"


def _digit_limit() -> int:
    limit = sys.get_int_max_str_digits()
    return MAX_INTEGER_DIGITS if limit == 0 else min(limit, MAX_INTEGER_DIGITS)


def _short_enough(value: int) -> bool:
    """Whether *value* has at most :data:`MAX_INTEGER_DIGITS` digits (and fits the interpreter)."""
    if value.bit_length() <= _ALWAYS_SHORT_BITS:
        return True
    limit = _digit_limit()
    bound = _bounds.get(limit)
    if bound is None:
        bound = _bounds[limit] = 10**limit
    return -bound < value < bound


def _digits_at_least(value: int) -> int:
    return max(1, math.floor((value.bit_length() - 1) / _BITS_PER_DIGIT))


def _scalar_problem(value: object) -> str | None:
    """What is wrong with *value* as a JSON scalar, or ``None`` when it is one."""
    if isinstance(value, str | bool) or value is None:
        return None
    if isinstance(value, int):
        if _short_enough(value):
            return None
        return (
            f"Expected an integer of at most {_digit_limit()} digits but got "
            f"{_shown(value)} (JSON-17)"
        )
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value!r} is not a finite JSON number"
    return f"Expected a JSON value but got {type(value).__name__} {_shown(value)}"


def _container(value: object) -> bool:
    return isinstance(value, dict | list | tuple)


def _members(value: Any) -> Iterator[tuple[object, object]]:  # noqa: ANN401 - a container
    if isinstance(value, dict):
        return iter(value.items())
    return enumerate(value)


_LEAVE = object()


def _first_refusal(value: object, path: str, items: frozenset[str] | None) -> Violation | None:
    """The first place, in document order, where *value* breaks JSON-9 or JSON-17."""
    # Each entry: the value, its path, its depth, and whether it is inside an item; _LEAVE
    # entries close a container, so that `open` holds the containers around the current one.
    stack: list[tuple[object, str, int, bool]] = [(value, path, 1, False)]
    open_containers: set[int] = set()
    while stack:
        current, where, depth, inside = stack.pop()
        if current is _LEAVE:
            open_containers.discard(depth)
            continue
        if not _container(current):
            problem = _scalar_problem(current)
            if problem is not None:
                return Violation(path=where, message=problem)
            continue
        if id(current) in open_containers:
            return Violation(
                path=where,
                message=f"Expected a JSON value but got a {type(current).__name__} that "
                "contains itself",
            )
        if depth > MAX_JSON_DEPTH:
            return Violation(
                path=where,
                message=f"Expected a value nested at most {MAX_JSON_DEPTH} levels deep but it "
                "goes deeper (JSON-17)",
            )
        open_containers.add(id(current))
        children: list[tuple[object, str, int, bool]] = []
        for key, member in _members(current):
            if isinstance(current, dict):
                if not isinstance(key, str):
                    return Violation(
                        path=where,
                        message=f"Expected a string object key but got {type(key).__name__} "
                        f"{_shown(key)}",
                    )
                starts_items = (
                    items is not None and not inside and key in items and _container(member)
                )
                # The elements of an items array are items: each counts its depth from 1.
                child_depth = 0 if starts_items else depth + 1
                children.append((member, f"{where}.{key}", child_depth, inside or starts_items))
            else:
                children.append((member, f"{where}[{key}]", depth + 1, inside))
        stack.append((_LEAVE, where, id(current), inside))
        stack.extend(reversed(children))
    return None


def _refusal(value: object, path: str, items: frozenset[str] | None) -> SchemaValidationError:
    found = _first_refusal(value, path, items)
    if found is None:  # pragma: no cover - the fast walks refuse only what the slow one finds
        found = Violation(path=path, message=f"Expected a JSON value but got {_shown(value)}")
    if "(JSON-17)" in found.message:
        return JsonLimitError([found])
    return SchemaValidationError([found])


def _fast_copy(value: object, items: frozenset[str] | None) -> JsonValue:  # noqa: C901, PLR0912 - one loop, kept flat for speed
    if not _container(value):
        if _scalar_problem(value) is not None:
            raise _Refused
        return cast("JsonValue", value)
    root: JsonValue = {} if isinstance(value, dict) else []
    stack: list[tuple[object, JsonValue, int, bool]] = [(value, root, 1, False)]
    pop, push = stack.pop, stack.append
    while stack:
        source, target, depth, inside = pop()
        if depth > MAX_JSON_DEPTH:
            raise _Refused
        if isinstance(source, dict):
            assert isinstance(target, dict)  # noqa: S101 - built alongside
            for key, member in source.items():
                if type(key) is not str and not isinstance(key, str):
                    raise _Refused
                kind = type(member)
                if kind is str or member is None or kind is bool:
                    target[key] = member
                elif kind is int:
                    if member.bit_length() > _ALWAYS_SHORT_BITS and not _short_enough(member):
                        raise _Refused
                    target[key] = member
                elif kind is dict or kind is list or kind is tuple or _container(member):
                    child: JsonValue = {} if isinstance(member, dict) else []
                    target[key] = child
                    if items is not None and not inside and key in items:
                        push((member, child, 0, True))
                    else:
                        push((member, child, depth + 1, inside))
                elif _scalar_problem(member) is None:
                    target[key] = member
                else:
                    raise _Refused
        else:
            assert isinstance(target, list)  # noqa: S101 - built alongside
            append = target.append
            for member in cast("list[Any]", source):
                kind = type(member)
                if kind is str or member is None or kind is bool:
                    append(member)
                elif kind is int:
                    if member.bit_length() > _ALWAYS_SHORT_BITS and not _short_enough(member):
                        raise _Refused
                    append(member)
                elif kind is dict or kind is list or kind is tuple or _container(member):
                    child = {} if isinstance(member, dict) else []
                    append(child)
                    push((member, child, depth + 1, inside))
                elif _scalar_problem(member) is None:
                    append(member)
                else:
                    raise _Refused
    return root


def _fast_check(roots: Iterable[object]) -> None:  # noqa: C901, PLR0912 - one loop, kept flat for speed
    # Level by level: no entry per container, and the depth is the level's number.
    level: list[object] = []
    for root in roots:
        if _container(root):
            level.append(root)
        elif _scalar_problem(root) is not None:
            raise _Refused
    depth = 1
    while level:
        if depth > MAX_JSON_DEPTH:
            raise _Refused
        below: list[object] = []
        push = below.append
        for source in level:
            if isinstance(source, dict):
                try:
                    "".join(source)  # every key a string, checked at C speed
                except TypeError:
                    raise _Refused from None
                members: Iterable[Any] = source.values()
            else:
                members = cast("list[Any]", source)
            for member in members:
                kind = type(member)
                if kind is str or member is None or kind is bool:
                    continue
                if kind is int:
                    if member.bit_length() > _ALWAYS_SHORT_BITS and not _short_enough(member):
                        raise _Refused
                    continue
                if kind is dict or kind is list or kind is tuple or _container(member):
                    push(member)
                elif _scalar_problem(member) is not None:
                    raise _Refused
        level = below
        depth += 1


def copy_json(value: object, path: str = "$") -> JsonValue:
    """Return a deep copy of *value*, checking on the way that it is a JSON value.

    Tuples are accepted where arrays are expected and come back as lists, so a record's
    tuple of items copies to a JSON array. Works at any call depth (no recursion).

    Raises:
        SchemaValidationError: naming the JSON path of the first value JSON cannot carry
            (a set, a non-string key, NaN, ...) (JSON-9).
        JsonLimitError: (a ``SchemaValidationError``) naming the path of the first place
            nested deeper than :data:`MAX_JSON_DEPTH` or holding an integer of more than
            :data:`MAX_INTEGER_DIGITS` digits; a cycle is refused this way too (JSON-17).

    """
    try:
        return _fast_copy(value, None)
    except _Refused:
        raise _refusal(value, path, None) from None


def copy_document(document: object, path: str = "$") -> JsonValue:
    """Like :func:`copy_json` for a record document: its items count their depth themselves.

    The elements of every ``items`` and ``memoryItems`` array outside the items are items
    (JSON-12), each of which may nest :data:`MAX_JSON_DEPTH` levels from its own root.
    """
    try:
        return _fast_copy(document, ITEM_MEMBERS)
    except _Refused:
        raise _refusal(document, path, ITEM_MEMBERS) from None


def check_json(value: object, path: str = "$") -> None:
    """Check that *value* is a JSON value within the limits, like :func:`copy_json`, no copy.

    Raises:
        SchemaValidationError: as :func:`copy_json` does.

    """
    try:
        _fast_check((value,))
    except _Refused:
        raise _refusal(value, path, None) from None


def check_items(items: Iterable[object], path: str = "$") -> None:
    """Check every element of *items* as :func:`check_json` does, each from its own root.

    The elements are named ``<path>[i]`` in errors; the list itself does not count as a level.

    Raises:
        SchemaValidationError: as :func:`copy_json` does.

    """
    values = items if isinstance(items, list | tuple) else list(items)
    try:
        _fast_check(values)
    except _Refused:
        for index, item in enumerate(values):
            found = _first_refusal(item, f"{path}[{index}]", None)
            if found is not None:
                raise _refusal(item, f"{path}[{index}]", None) from None
        raise  # pragma: no cover - the fast walk refuses only what the slow one finds


# -- writing -------------------------------------------------------------------------------

_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
_COMPACT_ASCII = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode


class _Text:
    """Literal output (punctuation, a member's name) between the values of the iterative writer."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_LITERALS: dict[object, str] = {True: "true", False: "false", None: "null"}


def _key_text(key: object) -> str:
    # The standard library's rule, so both writers give the same text.
    if isinstance(key, str):
        return key
    if isinstance(key, bool) or key is None:
        return _LITERALS[key]
    if isinstance(key, int | float):
        return _scalar_text(key)
    raise _Refused


def _scalar_text(value: object) -> str:
    if value is None or isinstance(value, bool):
        return _LITERALS[value]
    if isinstance(value, int):
        if not _short_enough(value):
            raise _Refused
        return int.__repr__(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Refused
        return float.__repr__(value)
    raise _Refused


def _encode_iteratively(value: object, *, ensure_ascii: bool, indent: int | None) -> str:
    quote = encode_basestring_ascii if ensure_ascii else encode_basestring
    colon = ":" if indent is None else ": "
    out: list[str] = []
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        current, level = stack.pop()
        if isinstance(current, _Text):
            out.append(current.text)
        elif isinstance(current, str):
            out.append(quote(current))
        elif isinstance(current, dict | list | tuple):
            members = list(_members(current))
            opening, closing = ("{", "}") if isinstance(current, dict) else ("[", "]")
            if not members:
                out.append(opening + closing)
                continue
            inner = "" if indent is None else "\n" + " " * (indent * (level + 1))
            outer = "" if indent is None else "\n" + " " * (indent * level)
            out.append(opening)
            pending: list[tuple[object, int]] = []
            for index, (key, member) in enumerate(members):
                lead = ("," if index else "") + inner
                if isinstance(current, dict):
                    lead += quote(_key_text(key)) + colon
                pending.extend(((_Text(lead), 0), (member, level + 1)))
            pending.append((_Text(outer + closing), 0))
            stack.extend(reversed(pending))
        else:
            out.append(_scalar_text(current))
    return "".join(out)


def encode_json(value: JsonValue, *, ensure_ascii: bool = False, indent: int | None = None) -> str:
    """The JSON text of *value*, as ``json.dumps`` writes it, at any call depth.

    Without *indent*: compact (separators ``,`` and ``:``, JSON-6); with it, pretty-printed
    with *indent* spaces per level. *ensure_ascii* escapes every non-ASCII character (lone
    surrogates included), so the text survives any encoding.

    Raises:
        SchemaValidationError: naming the path of a value JSON cannot carry (JSON-9).
        JsonLimitError: for an integer of more than :data:`MAX_INTEGER_DIGITS` digits.

    """
    try:
        if indent is None:
            return (_COMPACT_ASCII if ensure_ascii else _COMPACT)(value)
        return json.dumps(value, ensure_ascii=ensure_ascii, allow_nan=False, indent=indent)
    except RecursionError:
        pass  # the caller's stack is too deep for the C writer: write without recursion
    except (TypeError, ValueError):
        raise _refusal(value, "$", None) from None
    try:
        return _encode_iteratively(value, ensure_ascii=ensure_ascii, indent=indent)
    except _Refused:
        raise _refusal(value, "$", None) from None


def compact_json(value: JsonValue) -> str:
    """Render *value* as compact JSON: separators ``,`` and ``:``, non-ASCII unescaped.

    This is the JSON text that SIZE-2 measures and that prompts embed (JSON-6); see
    :func:`encode_json` for the errors.
    """
    return encode_json(value)


# -- reading -------------------------------------------------------------------------------

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?")
_CONSTANTS = ("NaN", "Infinity", "-Infinity")
_SCANSTRING: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]  # untyped in typeshed, documented in the module


class _Constant(Exception):  # noqa: N818 - internal signal
    def __init__(self, name: str) -> None:
        self.name = name


def _refuse_constant(name: str) -> object:
    raise _Constant(name)


class _Reader:
    """The strict JSON grammar (RFC 8259) with an explicit stack instead of recursion."""

    def __init__(
        self,
        text: str,
        max_depth: int | None,
        parse_int: Callable[[str], object],
        parse_float: Callable[[str], object],
    ) -> None:
        self.text = text
        self.max_depth = max_depth
        self.parse_int = parse_int
        self.parse_float = parse_float

    def fail(self, message: str, position: int) -> InvalidJsonError:
        return InvalidJsonError(message, self.text, position)

    def skip(self, position: int) -> int:
        found = _WHITESPACE.match(self.text, position)
        return position if found is None else found.end()

    def key(self, position: int) -> tuple[str, int]:
        text = self.text
        if text[position : position + 1] != '"':
            raise self.fail("Expecting property name enclosed in double quotes", position)
        name, position = _SCANSTRING(text, position + 1, True)  # noqa: FBT003 - strict
        position = self.skip(position)
        if text[position : position + 1] != ":":
            raise self.fail("Expecting ':' delimiter", position)
        return name, self.skip(position + 1)

    def scalar(self, position: int) -> tuple[object, int]:
        text = self.text
        character = text[position : position + 1]
        if character == '"':
            return _SCANSTRING(text, position + 1, True)  # noqa: FBT003 - strict
        for literal, value in (("null", None), ("true", True), ("false", False)):
            if text.startswith(literal, position):
                return value, position + len(literal)
        number = _NUMBER.match(text, position)
        if number is not None:
            whole, fraction, exponent = number.groups()
            if fraction or exponent:
                return self.parse_float(whole + (fraction or "") + (exponent or "")), number.end()
            return self.parse_int(whole), number.end()
        for constant in _CONSTANTS:
            if text.startswith(constant, position):
                raise _Constant(constant)
        raise self.fail("Expecting value", position)

    def read(self) -> object:  # noqa: C901, PLR0912 - the grammar in one loop
        text = self.text
        stack: list[tuple[dict[str, object] | list[object], list[str]]] = []
        position = self.skip(0)
        while True:
            # A value starts at position.
            character = text[position : position + 1]
            value: object
            if character in {"{", "["}:
                if self.max_depth is not None and len(stack) >= self.max_depth:
                    raise _TooDeep(position)
                position = self.skip(position + 1)
                closing = "}" if character == "{" else "]"
                if text[position : position + 1] == closing:
                    value, position = ({} if character == "{" else []), position + 1
                elif character == "{":
                    name, position = self.key(position)
                    stack.append(({}, [name]))
                    continue
                else:
                    stack.append(([], []))
                    continue
            else:
                value, position = self.scalar(position)
            # A value ended: put it in its container, then read what follows it.
            while True:
                if not stack:
                    position = self.skip(position)
                    if position != len(text):
                        raise self.fail("Extra data", position)
                    return value
                container, pending = stack[-1]
                if isinstance(container, dict):
                    container[pending[0]] = value
                else:
                    container.append(value)
                position = self.skip(position)
                character = text[position : position + 1]
                if character == ",":
                    position = self.skip(position + 1)
                    if isinstance(container, dict):
                        pending[0], position = self.key(position)
                    break
                if character == ("}" if isinstance(container, dict) else "]"):
                    stack.pop()
                    value, position = container, position + 1
                    continue
                raise self.fail("Expecting ',' delimiter", position)


class _TooDeep(Exception):  # noqa: N818 - internal signal
    def __init__(self, position: int) -> None:
        self.position = position


def _deeper_than(value: object, limit: int) -> bool:
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, dict):
            if depth > limit:
                return True
            stack.extend((member, depth + 1) for member in current.values())
        elif isinstance(current, list):
            if depth > limit:
                return True
            stack.extend((member, depth + 1) for member in current)
    return False


def _depth_exceeds(value: object, limit: int) -> str | None:
    """The path of the first array or object nested deeper than *limit*, or ``None``."""
    if not _deeper_than(value, limit):
        return None
    stack: list[tuple[object, str, int]] = [(value, "$", 1)]
    while stack:
        current, where, depth = stack.pop()
        if isinstance(current, dict | list):
            if depth > limit:
                return where
            children = [
                (
                    member,
                    f"{where}.{key}" if isinstance(current, dict) else f"{where}[{key}]",
                    depth + 1,
                )
                for key, member in _members(current)
            ]
            stack.extend(reversed(children))
    return None  # pragma: no cover - _deeper_than said there is one


def _too_deep(path: str, limit: int) -> JsonLimitError:
    return JsonLimitError(
        [
            Violation(
                path=path,
                message=f"Expected JSON text nested at most {limit} levels deep but got "
                "nesting too deep (JSON-17)",
            )
        ]
    )


def decode_json(
    text: str,
    *,
    max_depth: int | None = MAX_JSON_DEPTH,
    parse_int: Callable[[str], object] | None = None,
    parse_float: Callable[[str], object] | None = None,
) -> object:
    """Parse *text* as strict JSON (JSON-7), at any call depth.

    ``NaN``, ``Infinity`` and ``-Infinity`` are refused; a repeated member name keeps its
    first position and its last value (JSON-4). *max_depth* (``None``: no limit) refuses
    deeper text; *parse_int* and *parse_float* receive number tokens, as in ``json.loads``.

    Raises:
        InvalidJsonError: (a ``json.JSONDecodeError``) for text that is not strict JSON.
        JsonLimitError: for text nested deeper than *max_depth*, or an integer of more
            digits than the interpreter converts.

    """
    try:
        value = _decoder(parse_int, parse_float).decode(text)
    except RecursionError:
        value = _read_iteratively(text, max_depth, parse_int, parse_float)
    except _Constant as constant:
        raise InvalidJsonError(
            f"{constant.name} is not JSON", text, _at(text, constant.name)
        ) from None
    except json.JSONDecodeError as error:
        raise InvalidJsonError(error.msg, error.doc, error.pos) from None
    except ValueError as error:
        # The only other ValueError of the decoder: an integer beyond the digit limit.
        raise JsonLimitError([Violation(path="$", message=f"{error} (JSON-17)")]) from None
    else:
        if max_depth is not None and text.count("[") + text.count("{") > max_depth:
            deep = _depth_exceeds(value, max_depth)
            if deep is not None:
                raise _too_deep(deep, max_depth)
    return value


@functools.lru_cache(maxsize=16)
def _decoder(
    parse_int: Callable[[str], object] | None, parse_float: Callable[[str], object] | None
) -> json.JSONDecoder:
    # Building a decoder is a good part of the cost of a short text: keep one per hooks.
    return json.JSONDecoder(
        parse_constant=_refuse_constant, parse_int=parse_int, parse_float=parse_float
    )


def _at(text: str, constant: str) -> int:
    found = text.find(constant)
    return max(found, 0)


def _read_iteratively(
    text: str,
    max_depth: int | None,
    parse_int: Callable[[str], object] | None,
    parse_float: Callable[[str], object] | None,
) -> object:
    reader = _Reader(text, max_depth, parse_int or int, parse_float or float)
    try:
        return reader.read()
    except _Constant as constant:
        raise InvalidJsonError(
            f"{constant.name} is not JSON", text, _at(text, constant.name)
        ) from None
    except _TooDeep as deep:
        assert max_depth is not None  # noqa: S101 - only raised with a limit
        raise JsonLimitError(
            [
                Violation(
                    path="$",
                    message=f"Expected JSON text nested at most {max_depth} levels deep but "
                    f"got nesting too deep at character {deep.position} (JSON-17)",
                )
            ]
        ) from None
    except json.JSONDecodeError as error:
        raise InvalidJsonError(error.msg, error.doc, error.pos) from None
    except ValueError as error:
        raise JsonLimitError([Violation(path="$", message=f"{error} (JSON-17)")]) from None


__all__ = [
    "ITEM_MEMBERS",
    "MAX_DOCUMENT_DEPTH",
    "MAX_INTEGER_DIGITS",
    "MAX_JSON_DEPTH",
    "JsonObject",
    "JsonValue",
    "check_items",
    "check_json",
    "compact_json",
    "copy_document",
    "copy_json",
    "decode_json",
    "encode_json",
]
