"""Tier-1 (old tool results become placeholders) and Tier-2 (old reasoning is trimmed).

The plans only choose positions; the new items are built later, and only for positions that
survive the limits, so a long memory costs a scan, not a copy. Nothing here mutates an item.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from ctxpact.reference._items import (
    FUNCTION_CALL_OUTPUT,
    is_reasoning,
    is_tool_result,
    is_user_message,
    iter_tool_calls,
)
from ctxpact.reference.projection._constants import (
    CALL_ID,
    NAME,
    OUTPUT,
    PLACEHOLDER_PREFIX,
    PLACEHOLDER_SUFFIX,
    REASONING_CLEARED_TEXT,
    REASONING_PAYLOAD_KEYS,
    SUMMARY,
    SUMMARY_TEXT,
    TEXT,
    TOOL_RESULT_PLACEHOLDER,
    TOOL_RESULT_PLACEHOLDER_BARE,
    TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY,
    TOOL_RESULT_PLACEHOLDER_NAME_ONLY,
    TYPE,
)
from ctxpact.spec import JsonObject, JsonValue


def is_placeholder_output(output: JsonValue) -> bool:
    """Whether *output* has one of the four placeholder forms (T1-n)."""
    return isinstance(output, str) and (
        output == TOOL_RESULT_PLACEHOLDER_BARE
        or (output.startswith(PLACEHOLDER_PREFIX) and output.endswith(PLACEHOLDER_SUFFIX))
    )


def plan_tier1(items: Sequence[JsonValue], keep_recent: int) -> list[int]:
    """The ascending positions of the tool results that Tier-1 replaces.

    Every tool result counts towards the newest *keep_recent*, placeholders included; an
    older one is replaced unless its output already is a placeholder (departure 3), so a
    projection's items project to themselves.
    """
    results = [index for index, item in enumerate(items) if is_tool_result(item)]
    older = results[: max(0, len(results) - keep_recent)]
    return [
        index for index in older if not is_placeholder_output(_object(items[index]).get(OUTPUT))
    ]


def plan_tier2(items: Sequence[JsonValue], tier1: Collection[int]) -> list[int]:
    """The ascending positions of the reasoning items that Tier-2 replaces.

    The boundary is the last user message of the list as Tier-1 left it (a replaced tool
    result has no ``role``); without one nothing is trimmed (departure 4). Reasoning items
    already in the cleared form are left as they are.
    """
    boundary = next(
        (
            index
            for index in range(len(items) - 1, -1, -1)
            if is_user_message(items[index]) and index not in tier1
        ),
        0,
    )
    return [
        index
        for index in range(boundary)
        if is_reasoning(items[index]) and not _is_cleared_reasoning(_object(items[index]))
    ]


def tool_names(items: Sequence[JsonValue], call_ids: Iterable[str]) -> dict[str, str]:
    """The tool name of each of *call_ids*, from the tool calls anywhere in *items*.

    The same answer as one pass in order over all of :func:`iter_tool_calls` in which a later
    call with a name overwrites an earlier one; it walks backwards and stops once every id
    is named, because the calls of the results kept in a prompt are usually recent.
    """
    wanted = set(call_ids)
    names: dict[str, str] = {}
    for index in range(len(items) - 1, -1, -1):
        if len(names) == len(wanted):
            break
        for call in reversed(list(iter_tool_calls(items[index]))):
            call_id, name = call.call_id, call.name
            if call_id in wanted and name is not None and call_id not in names:
                names[call_id] = name
    return names


def tool_result_placeholder(item: JsonValue, names: Mapping[str, str]) -> JsonObject:
    """The new item that replaces the tool result *item* (T1-n).

    Its keys, in order: ``type``, ``call_id`` (only when the result has a string one) and
    ``output``, the label. The tool name is the one *names* gives for the call id, else the
    result's own string ``name``; the label falls back to the call id, then to the bare form.
    """
    source = _object(item)
    call_id = source.get(CALL_ID)
    name = names.get(call_id) if isinstance(call_id, str) else None
    if name is None:
        own_name = source.get(NAME)
        name = own_name if isinstance(own_name, str) else None
    placeholder: JsonObject = {TYPE: FUNCTION_CALL_OUTPUT}
    if isinstance(call_id, str):
        placeholder[CALL_ID] = call_id
        label = (
            TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY.format(call_id=call_id)
            if name is None
            else TOOL_RESULT_PLACEHOLDER.format(name=name, call_id=call_id)
        )
    else:
        label = (
            TOOL_RESULT_PLACEHOLDER_BARE
            if name is None
            else TOOL_RESULT_PLACEHOLDER_NAME_ONLY.format(name=name)
        )
    placeholder[OUTPUT] = label
    return placeholder


def placeholder_call_ids(items: Sequence[JsonValue], positions: Iterable[int]) -> set[str]:
    """The string call ids of the tool results at *positions*, whose names a label needs."""
    call_ids = (_object(items[index]).get(CALL_ID) for index in positions)
    return {call_id for call_id in call_ids if isinstance(call_id, str)}


def cleared_reasoning(item: JsonValue) -> JsonObject:
    """The new item that replaces the reasoning item *item* (T2-n).

    The same keys in the same order without ``summary``, ``content``, ``text`` and
    ``encrypted_content``, then ``summary`` with one ``[reasoning cleared]`` text part, so it
    stays a valid Responses reasoning item (departure 4).
    """
    cleared = {
        key: value for key, value in _object(item).items() if key not in REASONING_PAYLOAD_KEYS
    }
    cleared[SUMMARY] = _cleared_summary()
    return cleared


def _cleared_summary() -> list[JsonValue]:
    return [{TYPE: SUMMARY_TEXT, TEXT: REASONING_CLEARED_TEXT}]


def _is_cleared_reasoning(item: JsonObject) -> bool:
    return item.get(SUMMARY) == _cleared_summary() and REASONING_PAYLOAD_KEYS.isdisjoint(
        key for key in item if key != SUMMARY
    )


def _object(item: JsonValue) -> JsonObject:
    return item if isinstance(item, dict) else {}
