"""Tier-1 (old tool results become placeholders) and Tier-2 (old reasoning is trimmed).

The plans only choose positions (a scan of the list); a new item is built later, only when
the character stage needs its exact size or when it is kept, and each tier states a lower
bound on the size of its new items for the positions it has not built. Nothing here mutates
an item.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ctxpact.reference._items import (
    FUNCTION_CALL_OUTPUT,
    REASONING,
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
from ctxpact.reference.projection._size import approx_chars
from ctxpact.spec import JsonObject, JsonValue


def is_placeholder_output(output: JsonValue) -> bool:
    """Whether *output* is a placeholder output (the forms of T1-6, as §1.4 defines them)."""
    return isinstance(output, str) and (
        output == TOOL_RESULT_PLACEHOLDER_BARE
        or (output.startswith(PLACEHOLDER_PREFIX) and output.endswith(PLACEHOLDER_SUFFIX))
    )


def plan_tier1(items: Sequence[JsonValue], keep_recent: int) -> list[int]:
    """The ascending positions of the tool results that Tier-1 replaces.

    Every tool result counts towards the newest *keep_recent*, placeholders included; an
    older one is replaced unless its output already is a placeholder (T1-3, DIF-4), so a
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
    result has no ``role``); without one nothing is trimmed (T2-2, DIF-5). Reasoning items
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


class ToolNames:
    """The tool name of a call id: the name of the last tool call with that id, anywhere.

    Tool calls are read with :func:`iter_tool_calls` (Chat ``tool_calls``, Responses
    ``function_call`` items, Anthropic ``tool_use`` parts); a call without a name names
    nothing. The answer is that of one pass in order in which a later call overwrites an
    earlier one, but the list is read backwards and only as far as a question needs, since
    the calls of the results a prompt keeps are usually recent.
    """

    def __init__(self, items: Sequence[JsonValue]) -> None:
        self._items = items
        self._unread = len(items)  # items[:_unread] are not read yet
        self._names: dict[str, str] = {}

    def __call__(self, call_id: str) -> str | None:
        """The name of *call_id*, or ``None`` when no call with that id has a name."""
        names = self._names
        while call_id not in names and self._unread:
            self._unread -= 1
            for call in reversed(list(iter_tool_calls(self._items[self._unread]))):
                if call.call_id is not None and call.name is not None:
                    names.setdefault(call.call_id, call.name)
        return names.get(call_id)


class TierReplacements:
    """The new items of Tier-1 and Tier-2 at the positions their plans chose."""

    def __init__(
        self, items: Sequence[JsonValue], *, tier1: Collection[int], tier2: Collection[int]
    ) -> None:
        self._items = items
        self._tier1 = tier1
        self._tier2 = tier2
        self._names = ToolNames(items)

    def __contains__(self, position: object) -> bool:
        return position in self._tier1 or position in self._tier2

    def floor(self, position: int) -> int:
        """The size of the smallest new item the tier of *position* can build."""
        return PLACEHOLDER_FLOOR if position in self._tier1 else CLEARED_REASONING_FLOOR

    def build(self, position: int) -> JsonValue:
        """The placeholder or the cleared reasoning item for *position*."""
        item = self._items[position]
        if position in self._tier1:
            return tool_result_placeholder(item, self._names)
        return cleared_reasoning(item)


def tool_result_placeholder(item: JsonValue, name_of: Callable[[str], str | None]) -> JsonObject:
    """The new item that replaces the tool result *item* (T1-4 .. T1-6).

    Its keys, in order: ``type``, ``call_id`` (only when the result has a string one) and
    ``output``, the label. The tool name is the one *name_of* gives for the call id, else the
    result's own string ``name``; the label falls back to the call id, then to the bare form.
    """
    source = _object(item)
    call_id = source.get(CALL_ID)
    name = name_of(call_id) if isinstance(call_id, str) else None
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


def cleared_reasoning(item: JsonValue) -> JsonObject:
    """The new item that replaces the reasoning item *item* (T2-6).

    The same keys in the same order without ``summary``, ``content``, ``text`` and
    ``encrypted_content``, then ``summary`` with one ``[reasoning cleared]`` text part, so it
    stays a valid Responses reasoning item (T2-6, DIF-5).
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


#: The size of the smallest placeholder: the bare one, without ``call_id``.
PLACEHOLDER_FLOOR = approx_chars({TYPE: FUNCTION_CALL_OUTPUT, OUTPUT: TOOL_RESULT_PLACEHOLDER_BARE})
#: The size of the smallest cleared reasoning item: one with no other key than ``type``.
CLEARED_REASONING_FLOOR = approx_chars({TYPE: REASONING, SUMMARY: _cleared_summary()})
