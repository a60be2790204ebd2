"""The item shapes the reference writes, shared by projection, compaction and memory.

Items are JSON values (JSON-1). Only JSON objects have structure; a key is read only when its
value has the JSON type the rule expects, so an odd item is passed over, never an error. How
tool calls and results are found, in every shape, is the spec's own reading
(:func:`ctxpact.spec.tool_calls`, :func:`ctxpact.spec.tool_results`, :func:`ctxpact.spec.pairing`).
"""

from __future__ import annotations

from ctxpact.spec import JsonObject, JsonValue

MESSAGE = "message"
FUNCTION_CALL_OUTPUT = "function_call_output"
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


def is_reasoning(item: JsonValue) -> bool:
    """Whether *item* is a reasoning item: a JSON object whose ``type`` is ``reasoning``."""
    return isinstance(item, dict) and item.get("type") == REASONING
