"""The item shapes the reference reads and writes, shared by projection, compaction and memory.

Items are JSON values (JSON-1). Only JSON objects have structure; a key is read only when its
value has the JSON type the rule expects, so an odd item is passed over, never an error.
"""

from __future__ import annotations

from collections.abc import Iterator

from attrs import frozen

from ctxpact.spec import JsonObject, JsonValue

MESSAGE = "message"
FUNCTION_CALL = "function_call"
FUNCTION_CALL_OUTPUT = "function_call_output"
TOOL_USE = "tool_use"
REASONING = "reasoning"
INPUT_TEXT = "input_text"
USER = "user"
SYSTEM = "system"

# Java's String.trim() removes exactly the code points up to U+0020; the spec keeps that
# definition of "blank" so that every implementation agrees on which summaries are empty.
_JAVA_WHITESPACE = "".join(chr(code) for code in range(0x21))


def java_trim(text: str) -> str:
    """Strip the code points U+0000..U+0020 from both ends (the spec's "trim")."""
    return text.strip(_JAVA_WHITESPACE)


def is_blank(text: str | None) -> bool:
    """Whether *text* is ``None`` or empty after :func:`java_trim`."""
    return text is None or not java_trim(text)


def message(role: str, text: str | None) -> JsonObject:
    """A message item with one ``input_text`` part: ``{type, role, content: [{type, text}]}``."""
    return {"type": MESSAGE, "role": role, "content": [{"type": INPUT_TEXT, "text": text}]}


def user_message(text: str | None) -> JsonObject:
    """A user message item."""
    return message(USER, text)


def system_message(text: str | None) -> JsonObject:
    """A system message item, the form in which a memory's summary enters a prompt."""
    return message(SYSTEM, text)


def function_call_output(call_id: str, output: str | None) -> JsonObject:
    """A tool result item: ``{type: "function_call_output", call_id, output}``."""
    return {"type": FUNCTION_CALL_OUTPUT, "call_id": call_id, "output": output}


def is_tool_result(item: JsonValue) -> bool:
    """Whether *item* is a tool result: a JSON object whose ``type`` is ``function_call_output``."""
    return isinstance(item, dict) and item.get("type") == FUNCTION_CALL_OUTPUT


def is_user_message(item: JsonValue) -> bool:
    """Whether *item* is a JSON object whose ``role`` is exactly ``"user"`` (any ``type``)."""
    return isinstance(item, dict) and item.get("role") == USER


def is_reasoning(item: JsonValue) -> bool:
    """Whether *item* is a reasoning item: a JSON object whose ``type`` is ``reasoning``."""
    return isinstance(item, dict) and item.get("type") == REASONING


def _text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


@frozen(kw_only=True)
class ToolCallRef:
    """A tool call found in an item: its id, its name and where its arguments are.

    ``arguments`` is the raw argument source (JSON text, an object, or anything else, which
    the reader ignores); ``None`` when the call has none.
    """

    call_id: str | None
    name: str | None
    arguments: JsonValue


def _arguments(source: JsonObject) -> JsonValue:
    arguments = source.get("arguments")
    return source.get("input") if arguments is None else arguments


def iter_tool_calls(item: JsonValue) -> Iterator[ToolCallRef]:
    """Every tool call that *item* carries, in document order.

    Three shapes are recognised: Chat-style ``tool_calls[]`` entries (``id`` with ``name`` or
    ``function.name``; arguments beside the name), a Responses-style
    ``{type: "function_call", call_id, name, arguments}`` item, and Anthropic-style
    ``{type: "tool_use", id, name, input}`` parts; ``content`` lists are searched for parts
    of any of these shapes.
    """
    if not isinstance(item, dict):
        return
    kind = item.get("type")
    if kind == FUNCTION_CALL:
        yield ToolCallRef(
            call_id=_text(item.get("call_id")),
            name=_text(item.get("name")),
            arguments=_arguments(item),
        )
    elif kind == TOOL_USE:
        yield ToolCallRef(
            call_id=_text(item.get("id")),
            name=_text(item.get("name")),
            arguments=_arguments(item),
        )
    calls = item.get("tool_calls")
    if isinstance(calls, list):
        for call in calls:
            if not isinstance(call, dict):
                continue
            source = call
            name = _text(call.get("name"))
            function = call.get("function")
            if name is None and isinstance(function, dict):
                source = function
                name = _text(function.get("name"))
            yield ToolCallRef(
                call_id=_text(call.get("id")), name=name, arguments=_arguments(source)
            )
    content = item.get("content")
    if isinstance(content, list):
        for part in content:
            yield from iter_tool_calls(part)
