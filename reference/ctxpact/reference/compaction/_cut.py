"""Where to cut a memory so that the summarized head ends on a turn boundary (§11)."""

from __future__ import annotations

from collections.abc import Sequence

from ctxpact.reference._arguments import checked_items
from ctxpact.reference._items import is_tool_result, is_user_message, iter_tool_calls
from ctxpact.spec import JsonValue


def _blocked_cuts(items: Sequence[JsonValue]) -> list[bool]:
    """For each cut 0..len, whether it separates some tool result from its call.

    A result's call is the nearest earlier item carrying a tool call with the result's
    ``call_id``; a result with no such call is an orphan already and constrains nothing. The
    pair at positions ``call < result`` forbids every cut in ``call + 1 .. result``; the
    intervals are summed with a difference array, so this is linear.
    """
    items = checked_items("find_turn_boundary_cut", items)
    count = len(items)
    difference = [0] * (count + 2)
    last_call: dict[str, int] = {}
    for index, item in enumerate(items):
        if is_tool_result(item):
            assert isinstance(item, dict)  # noqa: S101 - is_tool_result guarantees it
            call_id = item.get("call_id")
            if isinstance(call_id, str) and call_id in last_call:
                difference[last_call[call_id] + 1] += 1
                difference[index + 1] -= 1
        for call in iter_tool_calls(item):
            if call.call_id is not None:
                last_call[call.call_id] = index
    blocked: list[bool] = []
    open_pairs = 0
    for cut in range(count + 1):
        open_pairs += difference[cut]
        blocked.append(open_pairs > 0)
    return blocked


def find_turn_boundary_cut(items: Sequence[JsonValue], naive_cut: int) -> int:
    """The index at which to split *items* into a summarized head and a kept tail.

    Implements CUT-1 to CUT-6. *naive_cut* is clamped into ``[0, len(items)]``; 0 and ``len(items)``
    are returned as they are (nothing, or everything, is summarized: nothing is orphaned).
    Otherwise the result is the greatest index ``i`` in ``[1, naive_cut]`` where ``items[i]``
    is a user message (a JSON object whose ``role`` is ``"user"``); failing that, the greatest
    such ``i`` at which no tool result in ``items[i:]`` is separated from its call in
    ``items[:i]``; failing that, 0. Linear in ``len(items)``.
    """
    count = len(items)
    cut = min(max(naive_cut, 0), count)
    if cut in {0, count}:
        return cut
    for index in range(cut, 0, -1):
        if is_user_message(items[index]):
            return index
    blocked = _blocked_cuts(items)
    for index in range(cut, 0, -1):
        if not blocked[index]:
            return index
    return 0
