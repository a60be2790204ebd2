"""The item stage, the character stage, and the run that both projectors share.

A run works on positions in the caller's list: the stages choose positions, the tiers say
which positions get a new item, and the report is read off the positions at the end. Each
caller's item is sized once. A new item is built only when the character stage has to
know its exact size or when it is kept: until then a lower bound on its size stands in,
which is enough to skip it when even the bound does not fit. So a long memory costs one
sizing pass and a scan, not a copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import Protocol

from ctxpact.reference.projection._constants import MAX_APPROX_CHARS_NOTE, MAX_ITEMS_NOTE
from ctxpact.reference.projection._size import approx_chars, item_sizes
from ctxpact.spec import ContextBudget, ContextProjection, ContextReport, JsonValue

# Errors name a bad item by its place in the list handed to project().
_ITEMS_PATH = "$.items"


class Replacements(Protocol):
    """The positions a tier replaces, and how to build and bound their new items."""

    def __contains__(self, position: object) -> bool:
        """Whether the item at *position* is replaced."""
        ...

    def floor(self, position: int) -> int:
        """A lower bound on :func:`approx_chars` of the new item at *position*."""
        ...

    def build(self, position: int) -> JsonValue:
        """The new item at *position*; called at most once per position and run."""
        ...


def item_stage(count: int, max_items: int, pinned: int) -> list[int] | None:
    """The indices the item stage keeps of *count* items, or ``None`` when it keeps all.

    The first ``min(pinned, max_items)`` items, then the most recent ones up to *max_items*
    in all, in order (PRJ-13 .. PRJ-17).
    """
    if count <= max_items:
        return None
    prefix = min(pinned, max_items)
    tail_start = count - (max_items - prefix)
    return [*range(prefix), *range(tail_start, count)]


def char_stage(
    count: int,
    max_chars: int,
    pinned: int,
    *,
    size: Callable[[int], int],
    floor: Callable[[int], int] | None = None,
) -> list[int] | None:
    """The indices the character stage keeps of *count* items, or ``None`` when it keeps all.

    Nothing changes when the total fits; a zero budget keeps nothing. Otherwise a greedy pass
    over the pinned prefix takes its first item always and each later one that still fits;
    a pass from the newest item back to the end of the prefix takes the newest always and
    each older one that still fits, so the kept tail may have gaps and the result may still
    exceed *max_chars* (PRJ-18 .. PRJ-24).

    *size* gives an item's size; *floor*, a lower bound on it that is cheaper to know, lets
    the stage skip an item without asking *size* when even the bound does not fit.
    """
    bound = size if floor is None else floor
    if sum(map(bound, range(count))) <= max_chars and (
        floor is None or sum(map(size, range(count))) <= max_chars
    ):
        return None
    if max_chars == 0:
        return []
    prefix_count = min(pinned, count)
    used = 0
    prefix: list[int] = []
    for index in range(prefix_count):
        if not prefix:
            used += size(index)
            prefix.append(index)
        elif used + bound(index) <= max_chars and used + (item := size(index)) <= max_chars:
            used += item
            prefix.append(index)
    tail: list[int] = []
    for index in range(count - 1, prefix_count - 1, -1):
        if not tail:
            used += size(index)
            tail.append(index)
        elif used + bound(index) <= max_chars and used + (item := size(index)) <= max_chars:
            used += item
            tail.append(index)
    tail.reverse()
    kept = prefix + tail
    return kept if len(kept) < count else None


class Tiered:
    """The caller's list as the tiers leave it: sizes and items by position, built lazily."""

    def __init__(
        self, items: Sequence[JsonValue], sizes: list[int], replacements: Replacements | None
    ) -> None:
        self.items = items
        self.sizes = sizes
        self.replacements = replacements
        self.built: dict[int, JsonValue] = {}
        self.built_sizes: dict[int, int] = {}

    @classmethod
    def of(cls, items: Sequence[JsonValue], replacements: Replacements | None) -> Tiered:
        """The tiered view of *items*, each of the caller's items sized once."""
        return cls(items, item_sizes(items, path=_ITEMS_PATH), replacements)

    def projection(
        self,
        positions: Sequence[int],
        *,
        notes: Sequence[str],
        item_limit_applied: bool,
        character_limit_applied: bool,
    ) -> ContextProjection:
        """The projection that keeps *positions* (ascending), with its exact report.

        The report's source figures describe the caller's items; its ``cleared_indices`` are
        the replaced positions that are kept (RPT-2 .. RPT-8).
        """
        count = len(self.items)
        projected_chars = sum(map(self.size, positions))  # builds the kept new items not built
        dropped_flags = bytearray(b"\x01") * count
        for position in positions:
            dropped_flags[position] = 0
        report = ContextReport(
            source_item_count=count,
            projected_item_count=len(positions),
            dropped_item_count=count - len(positions),
            source_approx_chars=sum(self.sizes),
            projected_approx_chars=projected_chars,
            item_limit_applied=item_limit_applied,
            character_limit_applied=character_limit_applied,
            notes=tuple(notes),
            dropped_indices=tuple(compress(range(count), dropped_flags)),
            cleared_indices=tuple(p for p in positions if p in self.built),
        )
        return ContextProjection(items=tuple(map(self.item, positions)), report=report)

    def size(self, position: int) -> int:
        """The size of the item at *position* as the tiers leave it (built when replaced)."""
        replacements = self.replacements
        if replacements is None or position not in replacements:
            return self.sizes[position]
        known = self.built_sizes.get(position)
        if known is None:
            new_item = self.built[position] = replacements.build(position)
            known = self.built_sizes[position] = approx_chars(new_item)
        return known

    def floor(self, position: int) -> int:
        """A lower bound on :meth:`size` that builds nothing."""
        replacements = self.replacements
        if replacements is None or position not in replacements:
            return self.sizes[position]
        known = self.built_sizes.get(position)
        return replacements.floor(position) if known is None else known

    def item(self, position: int) -> JsonValue:
        """The item at *position* as the tiers leave it."""
        return self.built[position] if position in self.built else self.items[position]

    def char_stage(self, stage: Sequence[int], max_chars: int, pinned: int) -> list[int] | None:
        """The positions of *stage* the character stage keeps, or ``None`` when it keeps all."""
        if self.replacements is None:
            sizes = self.sizes if isinstance(stage, range) else [self.sizes[p] for p in stage]
            kept = char_stage(
                len(stage),
                max_chars,
                pinned,
                size=sizes.__getitem__,
            )
        else:
            kept = char_stage(
                len(stage),
                max_chars,
                pinned,
                size=lambda index: self.size(stage[index]),
                floor=lambda index: self.floor(stage[index]),
            )
        return None if kept is None else [stage[index] for index in kept]


def project_items(
    items: Sequence[JsonValue],
    budget: ContextBudget | None,
    *,
    tier_notes: Sequence[str] = (),
    replacements: Replacements | None = None,
) -> ContextProjection:
    """Run the item stage, then the character stage, on *items* as the tiers replace them.

    The character stage measures the new items in place of the old. The report's source
    figures describe *items*; its notes are *tier_notes*, then the notes of the stages that
    dropped items; its ``cleared_indices`` are the replaced positions that are kept.
    """
    count = len(items)
    tiered = Tiered.of(items, replacements)
    notes = list(tier_notes)
    positions: Sequence[int] = range(count)
    item_limit_applied = character_limit_applied = False

    if budget is not None and budget.max_items is not None:
        kept = item_stage(count, budget.max_items, budget.pinned_prefix_items)
        if kept is not None:
            positions = kept
            item_limit_applied = True
            notes.append(MAX_ITEMS_NOTE.format(max_items=budget.max_items))

    if budget is not None and budget.max_approx_chars is not None:
        kept = tiered.char_stage(positions, budget.max_approx_chars, budget.pinned_prefix_items)
        if kept is not None:
            positions = kept
            character_limit_applied = True
            notes.append(MAX_APPROX_CHARS_NOTE.format(max_approx_chars=budget.max_approx_chars))

    return tiered.projection(
        positions,
        notes=notes,
        item_limit_applied=item_limit_applied,
        character_limit_applied=character_limit_applied,
    )
