"""The item stage, the character stage, and the run that both projectors share.

A run works on positions in the caller's list: the stages choose positions, the tiers
supply new items for some of the positions that survive, and the report is read off the
positions at the end. Each item is sized once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import compress

from ctxpact.reference.projection._constants import MAX_APPROX_CHARS_NOTE, MAX_ITEMS_NOTE
from ctxpact.reference.projection._size import item_sizes
from ctxpact.spec import ContextBudget, ContextProjection, ContextReport, JsonValue

#: Builds the new items for those of the given positions that a tier replaces.
Replace = Callable[[Sequence[int]], Mapping[int, JsonValue]]

# Errors name a bad item by its place in the list handed to project().
_ITEMS_PATH = "$.items"


def item_stage(count: int, max_items: int, pinned: int) -> list[int] | None:
    """The indices the item stage keeps of *count* items, or ``None`` when it keeps all.

    The first ``min(pinned, max_items)`` items, then the most recent ones up to *max_items*
    in all, in order (PRJ-n).
    """
    if count <= max_items:
        return None
    prefix = min(pinned, max_items)
    tail_start = count - (max_items - prefix)
    return [*range(prefix), *range(tail_start, count)]


def char_stage(sizes: Sequence[int], max_chars: int, pinned: int) -> list[int] | None:
    """The indices the character stage keeps of items of *sizes*, or ``None`` when it keeps all.

    Nothing changes when the total fits; a zero budget keeps nothing. Otherwise a greedy pass over the pinned prefix takes
    its first item always and each later one that still fits; a pass from the newest item
    back to the end of the prefix takes the newest always and each older one that still
    fits, so the kept tail may have gaps and the result may still exceed *max_chars* (PRJ-n).
    """
    if sum(sizes) <= max_chars:
        return None
    if max_chars == 0:
        return []
    prefix_count = min(pinned, len(sizes))
    used = 0
    prefix: list[int] = []
    for index in range(prefix_count):
        size = sizes[index]
        if not prefix or used + size <= max_chars:
            prefix.append(index)
            used += size
    tail: list[int] = []
    for index in range(len(sizes) - 1, prefix_count - 1, -1):
        size = sizes[index]
        if not tail or used + size <= max_chars:
            tail.append(index)
            used += size
    tail.reverse()
    kept = prefix + tail
    return kept if len(kept) < len(sizes) else None


def project_items(
    items: Sequence[JsonValue],
    budget: ContextBudget | None,
    *,
    tier_notes: Sequence[str] = (),
    replace: Replace | None = None,
) -> ContextProjection:
    """Run the item stage, then the character stage, on *items* as the tiers replace them.

    *replace* is called once, with the positions that survive the item stage; the character
    stage measures the new items in place of the old. The report's source figures describe
    *items*; its notes are *tier_notes*, then the notes of the stages that dropped items.
    """
    count = len(items)
    sizes = item_sizes(items, path=_ITEMS_PATH)
    source_chars = sum(sizes)
    notes = list(tier_notes)
    positions: Sequence[int] = range(count)
    item_limit_applied = character_limit_applied = False

    if budget is not None and budget.max_items is not None:
        kept = item_stage(count, budget.max_items, budget.pinned_prefix_items)
        if kept is not None:
            positions = kept
            item_limit_applied = True
            notes.append(MAX_ITEMS_NOTE.format(max_items=budget.max_items))

    replacements = {} if replace is None else replace(positions)
    new_sizes = dict(
        zip(replacements, item_sizes(tuple(replacements.values()), path="$"), strict=True)
    )
    stage_sizes = [new_sizes[p] if p in new_sizes else sizes[p] for p in positions]

    if budget is not None and budget.max_approx_chars is not None:
        kept = char_stage(stage_sizes, budget.max_approx_chars, budget.pinned_prefix_items)
        if kept is not None:
            positions = [positions[index] for index in kept]
            stage_sizes = [stage_sizes[index] for index in kept]
            character_limit_applied = True
            notes.append(MAX_APPROX_CHARS_NOTE.format(max_approx_chars=budget.max_approx_chars))

    projected = tuple(replacements[p] if p in replacements else items[p] for p in positions)
    dropped_flags = bytearray(b"\x01") * count
    for position in positions:
        dropped_flags[position] = 0
    report = ContextReport(
        source_item_count=count,
        projected_item_count=len(projected),
        dropped_item_count=count - len(projected),
        source_approx_chars=source_chars,
        projected_approx_chars=sum(stage_sizes),
        item_limit_applied=item_limit_applied,
        character_limit_applied=character_limit_applied,
        notes=tuple(notes),
        dropped_indices=tuple(compress(range(count), dropped_flags)),
        cleared_indices=tuple(p for p in positions if p in replacements),
    )
    return ContextProjection(items=projected, report=report)
