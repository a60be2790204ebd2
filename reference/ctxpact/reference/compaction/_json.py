"""Strict, never-raising JSON reading for text that a model or a tool wrote.

Numbers are kept as the text they were written as (:class:`Raw`), so rendering an entry never
depends on how a language formats floats, and a 5,000-digit integer is no error.
"""

from __future__ import annotations

import json
from typing import NoReturn

from attrs import frozen

#: A parsed JSON value whose numbers are :class:`Raw` tokens.
Parsed = object


@frozen
class Raw:
    """JSON text emitted exactly as held: a number token as the model wrote it, or punctuation."""

    text: str


def _reject_constant(name: str) -> NoReturn:
    # json.loads accepts NaN, Infinity and -Infinity; strict JSON (RFC 8259) does not.
    raise ValueError(f"{name} is not a JSON value")


#: The greatest nesting depth that strict JSON accepts (JSON-7); the outermost value counts 1.
MAX_JSON_DEPTH = 256


def _depth_within(value: Parsed, limit: int) -> bool:
    """Whether no point of *value* is enclosed by more than *limit* arrays and objects."""
    stack: list[tuple[Parsed, int]] = [(value, 0)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, dict | list):
            if depth == limit:
                return False
            members = current.values() if isinstance(current, dict) else current
            stack.extend((member, depth + 1) for member in members)
    return True


def load_object(text: str) -> dict[str, Parsed] | None:
    """Parse *text* as strict JSON (JSON-7) and return it when it is an object, else ``None``.

    Never raises: invalid JSON, ``NaN``/``Infinity``, nesting deeper than
    :data:`MAX_JSON_DEPTH` and nesting too deep for the decoder all mean "not an object".
    """
    try:
        value = json.loads(text, parse_int=Raw, parse_float=Raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not _depth_within(value, MAX_JSON_DEPTH):
        return None
    return value


_OPEN_OBJECT = Raw("{")
_CLOSE_OBJECT = Raw("}")
_OPEN_ARRAY = Raw("[")
_CLOSE_ARRAY = Raw("]")
_COMMA = Raw(",")
_LITERALS = {True: "true", False: "false", None: "null"}


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _tokens(value: dict[str, Parsed] | list[Parsed]) -> list[Parsed]:
    """The punctuation and members of an object or array, in text order."""
    if isinstance(value, dict):
        tokens: list[Parsed] = [_OPEN_OBJECT]
        for index, (key, member) in enumerate(value.items()):
            if index:
                tokens.append(_COMMA)
            tokens.extend((Raw(_quote(key) + ":"), member))
        tokens.append(_CLOSE_OBJECT)
        return tokens
    tokens = [_OPEN_ARRAY]
    for index, member in enumerate(value):
        if index:
            tokens.append(_COMMA)
        tokens.append(member)
    tokens.append(_CLOSE_ARRAY)
    return tokens


def _scalar(value: Parsed) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, str):
        return _quote(value)
    if value is None or isinstance(value, bool):
        return _LITERALS[value]
    # Only the decoder's own output reaches render_json; anything else renders as a string.
    return _quote(str(value))


def render_json(value: Parsed) -> str:
    """The compact JSON text of a parsed value (separators ``,`` ``:``, non-ASCII unescaped).

    Iterative, so a value as deep as the decoder allows renders whatever the stack depth.
    """
    out: list[str] = []
    stack: list[Parsed] = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, dict | list):
            stack.extend(reversed(_tokens(current)))
        else:
            out.append(_scalar(current))
    return "".join(out)
