"""How a step's tool calls reach memory so that every output has its call (RUN-7).

A tool call whose id is blank gets a generated one; the memory items the model returned get
that id in the call they declare without one, and a tool call that no memory item declares
gets a Responses-style ``function_call`` item of its own, so no output is ever an orphan.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from attrs import evolve

from ctxpact.reference._items import is_blank
from ctxpact.spec import JsonObject, JsonValue, ToolCall, copy_json, tool_calls

#: The ``call_id`` given to a tool call whose id is blank: step and index within the step.
GENERATED_CALL_ID = "tool_step_{step}_{index}"
_FUNCTION_CALL = "function_call"


def named_calls(calls: Sequence[ToolCall], step: int) -> tuple[ToolCall, ...]:
    """*calls*, each with a blank id replaced by ``tool_step_<step>_<index>``."""
    return tuple(
        evolve(call, call_id=GENERATED_CALL_ID.format(step=step, index=index))
        if is_blank(call.call_id)
        else call
        for index, call in enumerate(calls)
    )


def _named(value: JsonValue, ids: Iterator[str]) -> JsonValue:
    """*value* with each tool call (§1.4 order) whose id is missing or blank given the next id.

    Changes *value* in place; the caller passes a copy.
    """
    if not isinstance(value, dict):
        return value
    kind = value.get("type")
    if kind == _FUNCTION_CALL:
        _fill(value, "call_id", ids)
    elif kind == "tool_use":
        _fill(value, "id", ids)
    entries = value.get("tool_calls")
    if isinstance(entries, list):
        for entry in entries:
            if isinstance(entry, dict):
                _fill(entry, "id", ids)
    content = value.get("content")
    if isinstance(content, list):
        for part in content:
            _named(part, ids)
    return value


def _fill(holder: JsonObject, key: str, ids: Iterator[str]) -> None:
    current = holder.get(key)
    if isinstance(current, str) and not is_blank(current):
        return  # an id (§1.4: a string); a missing, blank or non-string one gets the next
    generated = next(ids, None)
    if generated is not None:
        holder[key] = generated


def _lacks_id(item: JsonValue) -> bool:
    return any(call.call_id is None or is_blank(call.call_id) for call in tool_calls(item))


def declared_items(
    memory_items: Sequence[JsonValue], calls: Sequence[ToolCall], named: Sequence[ToolCall]
) -> list[JsonValue]:
    """The items a step appends before its tool outputs, every tool call declared in them.

    *calls* are the model's tool calls and *named* the same with generated ids. The tool calls
    that the memory items declare without an id (or with a blank one) get the generated ids
    of the blank calls, in order (the memory items are copied, never changed); then each tool
    call that no item declares by its id gets ``{"type": "function_call", "call_id", "name",
    "arguments"}`` after the items, in the order of the calls.

    Implements RUN-7.
    """
    generated = iter(
        [call.call_id for call, was in zip(named, calls, strict=True) if is_blank(was.call_id)]
    )
    items = [
        _named(copy_json(item), generated) if _lacks_id(item) else item for item in memory_items
    ]
    declared = {call.call_id for item in items for call in tool_calls(item)}
    for call in named:
        if call.call_id not in declared:
            items.append(
                {
                    "type": _FUNCTION_CALL,
                    "call_id": call.call_id,
                    "name": call.name,
                    "arguments": call.arguments,
                }
            )
            declared.add(call.call_id)
    return items
