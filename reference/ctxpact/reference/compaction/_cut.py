"""Where to cut a memory so that the summarized head ends on a turn boundary (§11)."""

from __future__ import annotations

from collections.abc import Sequence

from ctxpact.reference._arguments import checked_items
from ctxpact.spec import JsonValue, is_user_input, pairing


def _separated(items: Sequence[JsonValue]) -> list[bool]:
    """For each cut 0..len, whether it separates some unit (PAIR-3).

    A unit whose positions run from ``low`` to ``high`` forbids every cut in ``low + 1 ..
    high``, gaps included (its positions would lie on both sides); the intervals are summed
    with a difference array, so this is linear.
    """
    count = len(items)
    # Positions come in order, so the last one seen of a unit is its highest.
    highest = {unit: position for position, unit in enumerate(pairing(items).unit_of)}
    difference = [0] * (count + 2)
    for low, high in highest.items():
        if high > low:
            difference[low + 1] += 1
            difference[high + 1] -= 1
    separated: list[bool] = []
    open_units = 0
    for cut in range(count + 1):
        open_units += difference[cut]
        separated.append(open_units > 0)
    return separated


def find_turn_boundary_cut(items: Sequence[JsonValue], naive_cut: int) -> int:
    """The index at which to split *items* into a summarized head and a kept tail.

    Implements CUT-1 to CUT-6. *naive_cut* is clamped into ``[0, len(items)]``; 0 and
    ``len(items)`` are returned as they are (nothing, or everything, is summarized: nothing is
    orphaned). Otherwise the result is the greatest index ``i`` in ``[1, naive_cut]`` where
    ``items[i]`` is a user input item (a user message that delivers no tool result) and the cut
    separates no unit (no tool call from its results, in any shape, no parallel calls of one
    step, no reasoning from its output); failing that, the greatest such ``i`` that separates
    no unit; failing that, 0. Linear in ``len(items)``.
    """
    items = checked_items("find_turn_boundary_cut", items)
    count = len(items)
    cut = min(max(naive_cut, 0), count)
    if cut in {0, count}:
        return cut
    separated = _separated(items)
    for index in range(cut, 0, -1):
        if not separated[index] and is_user_input(items[index]):
            return index
    for index in range(cut, 0, -1):
        if not separated[index]:
            return index
    return 0
