"""Strict, never-raising JSON reading for text that a model or a tool wrote.

Numbers are kept as the text they were written as (:class:`Raw`), so rendering an entry never
depends on how a language formats floats, and a 5,000-digit integer is no error.
"""

from __future__ import annotations

import json

from attrs import frozen

from ctxpact.spec import MAX_JSON_DEPTH, InvalidJsonError, SchemaValidationError, decode_json

#: A parsed JSON value whose numbers are :class:`Raw` tokens.
Parsed = object


@frozen
class Raw:
    """JSON text emitted exactly as held: a number token as the model wrote it, or punctuation."""

    text: str


def load_object(text: str) -> dict[str, Parsed] | None:
    """Parse *text* as strict JSON (JSON-7) and return it when it is an object, else ``None``.

    Never raises: invalid JSON, ``NaN``/``Infinity`` and nesting deeper than
    :data:`~ctxpact.spec.MAX_JSON_DEPTH` all mean "not an object", at any call depth.
    """
    try:
        value = decode_json(text, max_depth=MAX_JSON_DEPTH, parse_int=Raw, parse_float=Raw)
    except (InvalidJsonError, SchemaValidationError):
        return None
    return value if isinstance(value, dict) else None


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
