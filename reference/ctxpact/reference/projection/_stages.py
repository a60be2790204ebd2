"""The item stage, the character stage, and the run that both projectors share.

A run works on positions in the caller's list: the stages choose positions, the tiers say
which positions get a new item, and the report is read off the positions at the end. Each
of the caller's items is sized once (a ``SizedItems`` has done it already). A new item is
built only when it is kept: the character stage computes its exact size from its parts, and
before that a lower bound on the size, which is enough to skip it when even the bound does
not fit. So a long memory costs one sizing pass and a scan, not a copy, and a sized one only
the positions the stages look at.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from itertools import islice
from typing import Protocol

from ctxpact.reference.projection._constants import MAX_APPROX_CHARS_NOTE, MAX_ITEMS_NOTE
from ctxpact.reference.projection._source import Source
from ctxpact.spec import ContextBudget, ContextProjection, ContextReport, JsonValue


class Replacements(Protocol):
    """The positions a tier replaces, and how to build and bound their new items."""

    def __contains__(self, position: object) -> bool:
        """Whether the item at *position* is replaced."""
        ...

    def floor(self, position: int) -> int:
        """A lower bound on :func:`approx_chars` of the new item at *position*."""
        ...

    def size(self, position: int) -> int:
        """:func:`approx_chars` of the new item at *position*, without building it."""
        ...

    def floors(self) -> dict[int, int]:
        """:meth:`floor` of every position that is replaced."""
        ...

    def among(self, positions: Sequence[int]) -> set[int]:
        """The positions among *positions* that are replaced."""
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

    def __init__(self, source: Source, replacements: Replacements | None) -> None:
        self.count = source.count
        self.items = source.items
        self.sizes = source.sizes
        self.total = source.total
        self.replacements = replacements
        self.built: dict[int, JsonValue] = {}
        self.built_sizes: dict[int, int] = {}
        # Whether each position asked about is replaced: the stages ask several times. A
        # stage over the whole list asks about every position: it reads all of them at once,
        # with a lower bound for each (whole_floors).
        self._replaced: dict[int, bool] = {}
        self._all_replaced: Collection[int] | None = None
        self._whole_floors: list[int] | None = None

    def replaced(self, position: int) -> bool:
        """Whether a tier replaces the item at *position*."""
        everything = self._all_replaced
        if everything is not None:
            return position in everything
        known = self._replaced.get(position)
        if known is None:
            replacements = self.replacements
            known = replacements is not None and position in replacements
            self._replaced[position] = known
        return known

    def prepare(self, positions: Sequence[int]) -> None:
        """Find out at once which of *positions* are replaced, before the stages ask one by one."""
        replacements = self.replacements
        if replacements is None or self._all_replaced is not None:
            return
        known = self._replaced
        unknown = [position for position in positions if position not in known]
        known.update(dict.fromkeys(unknown, False))
        known.update(dict.fromkeys(replacements.among(unknown), True))

    def whole_floors(self) -> list[int]:
        """A lower bound on the size of every position, exact where nothing is replaced."""
        floors = self._whole_floors
        if floors is None:
            floors = list(islice(self.sizes, self.count))
            replacements = self.replacements
            if replacements is not None:
                bounds = replacements.floors()
                for position, bound in bounds.items():
                    floors[position] = bound
                self._all_replaced = bounds.keys()
            self._whole_floors = floors
        return floors

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
        count = self.count
        replacements = self.replacements
        if isinstance(positions, range):  # everything kept: read the list, fix up the new items
            replaced = sorted(replacements.floors()) if replacements is not None else []
            projected_chars = self.total + sum(self.size(p) - self.sizes[p] for p in replaced)
            items = list(islice(self.items, count))
            for position in replaced:
                items[position] = self.item(position)
        else:
            self.prepare(positions)
            replaced = [] if replacements is None else list(filter(self.replaced, positions))
            projected_chars = sum(map(self.size, positions))
            items = list(map(self.item, positions))
        report = ContextReport.of_positions(
            source_item_count=count,
            kept=positions,
            cleared=replaced,
            source_approx_chars=self.total,
            projected_approx_chars=projected_chars,
            item_limit_applied=item_limit_applied,
            character_limit_applied=character_limit_applied,
            notes=notes,
        )
        return ContextProjection(items=items, report=report)

    def size(self, position: int) -> int:
        """The size of the item at *position* as the tiers leave it (computed when replaced)."""
        replacements = self.replacements
        if replacements is None or not self.replaced(position):
            return self.sizes[position]
        known = self.built_sizes.get(position)
        if known is None:
            known = self.built_sizes[position] = replacements.size(position)
        return known

    def floor(self, position: int) -> int:
        """A lower bound on :meth:`size` that computes nothing."""
        if self._whole_floors is not None:
            known = self.built_sizes.get(position)
            return self._whole_floors[position] if known is None else known
        replacements = self.replacements
        if replacements is None or not self.replaced(position):
            return self.sizes[position]
        known = self.built_sizes.get(position)
        return replacements.floor(position) if known is None else known

    def item(self, position: int) -> JsonValue:
        """The item at *position* as the tiers leave it (built when replaced)."""
        replacements = self.replacements
        if replacements is None or not self.replaced(position):
            return self.items[position]
        built = self.built.get(position)
        if built is None:
            built = self.built[position] = replacements.build(position)
        return built

    def char_stage(self, stage: Sequence[int], max_chars: int, pinned: int) -> list[int] | None:
        """The positions of *stage* the character stage keeps, or ``None`` when it keeps all."""
        if self.replacements is None and isinstance(stage, range) and self.total <= max_chars:
            return None  # the whole list fits, as its total says (PRJ-18)
        if self.replacements is None:
            sizes = self.sizes if isinstance(stage, range) else [self.sizes[p] for p in stage]
            kept = char_stage(
                len(stage),
                max_chars,
                pinned,
                size=sizes.__getitem__,
            )
        elif isinstance(stage, range):  # every position: stage[index] is index
            kept = char_stage(
                len(stage), max_chars, pinned, size=self.size, floor=self.whole_floors().__getitem__
            )
        else:  # the positions of the item stage, as many as it keeps: measure each once
            self.prepare(stage)
            sizes = [self.size(position) for position in stage]
            kept = char_stage(len(stage), max_chars, pinned, size=sizes.__getitem__)
        return None if kept is None else [stage[index] for index in kept]


def project_items(
    source: Source,
    budget: ContextBudget | None,
    *,
    tier_notes: Sequence[str] = (),
    replacements: Replacements | None = None,
) -> ContextProjection:
    """Run the item stage, then the character stage, on *source* as the tiers replace it.

    The character stage measures the new items in place of the old. The report's source
    figures describe *source*; its notes are *tier_notes*, then the notes of the stages that
    dropped items; its ``cleared_indices`` are the replaced positions that are kept.
    """
    count = source.count
    tiered = Tiered(source, replacements)
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
