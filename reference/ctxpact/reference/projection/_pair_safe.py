"""The pair-safe projector: the pinned prefix and the recent tail, chosen by whole units.

A unit (PAIR-3) holds a tool call with all its results, in every wire format, the parallel
calls of a Responses step, and a reasoning item with the output after it; keeping or dropping
units whole is what keeps every tool result with its call.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from attrs import frozen

from ctxpact.reference.projection._constants import (
    MAX_APPROX_CHARS_NOTE,
    MAX_ITEMS_NOTE,
    NEWEST_UNIT_DROPPED_NOTE,
)
from ctxpact.reference.projection._sized import projection_source
from ctxpact.reference.projection._source import Units
from ctxpact.reference.projection._stages import Tiered
from ctxpact.reference.projection._tiers import plan_tiers
from ctxpact.spec import ContextBudget, ContextProjection, JsonValue


class _Order:
    """The units of a source list in the two orders of PRJ-31, read by walking positions.

    Walking up from position 0, a unit is met first at its smallest position (list order);
    walking down from the last position, at its greatest (recency order). The stages walk
    only as far as they need, so a long list costs the positions they look at.
    """

    def __init__(self, units: Units, count: int, pinned: int) -> None:
        self.units = units
        self.count = count
        self.pin = min(pinned, count)

    def size(self, unit: int) -> int:
        """The item count of *unit*."""
        return len(self.units.members(unit))

    def is_pinned(self, unit: int) -> bool:
        """Whether *unit* holds one of the pinned positions (PAIR-6)."""
        return self.units.first(unit) < self.pin

    def pinned_units(self) -> list[int]:
        """The pinned units, in list order."""
        unit_of = self.units.unit_of
        found: list[int] = []
        seen: set[int] = set()
        for position in range(self.pin):
            unit = unit_of(position)
            if unit not in seen:
                seen.add(unit)
                found.append(unit)
        return found

    def recent_units(self) -> Iterator[int]:
        """The units that are not pinned, in recency order, the newest first."""
        unit_of = self.units.unit_of
        seen: set[int] = set()
        for position in range(self.count - 1, self.pin - 1, -1):
            unit = unit_of(position)
            if unit not in seen:
                seen.add(unit)
                if not self.is_pinned(unit):
                    yield unit


@frozen(kw_only=True)
class _ItemStage:
    prefix: list[int]  # the pinned units taken, in list order
    tail: list[int]  # the other units taken, in recency order
    applied: bool
    newest_dropped: bool  # dropped for want of room, where one item would have fit


def _item_stage(order: _Order, max_items: int) -> _ItemStage | None:
    """PRJ-32: pinned units in list order, then the others by recency, each while it fits.

    ``None`` when the list fits and the stage keeps everything.
    """
    if order.count <= max_items:
        return None
    if max_items == 0:
        return _ItemStage(prefix=[], tail=[], applied=True, newest_dropped=False)
    left = max_items
    prefix: list[int] = []
    for unit in order.pinned_units():
        if order.size(unit) <= left:
            prefix.append(unit)
            left -= order.size(unit)
    room_after_prefix = left
    tail: list[int] = []
    for unit in order.recent_units():
        if left == 0:
            break  # every unit holds an item: none fits any more
        if order.size(unit) <= left:
            tail.append(unit)
            left -= order.size(unit)
    newest = order.units.unit_of(order.count - 1)
    newest_dropped = (
        not order.is_pinned(newest)
        and room_after_prefix >= 1
        and order.size(newest) > room_after_prefix
    )
    return _ItemStage(prefix=prefix, tail=tail, applied=True, newest_dropped=newest_dropped)


def _char_stage(
    order: _Order, prefix: Sequence[int], tail: Sequence[int], tiered: Tiered, max_chars: int
) -> list[int] | None:
    """PRJ-33: the units kept under the character limit, or ``None`` when all of them are.

    *prefix* are the pinned units it receives, in list order, and *tail* the others, in
    recency order.
    """
    members = order.units.members
    tiered.prepare([position for unit in (*prefix, *tail) for position in members(unit)])

    def floor(unit: int) -> int:
        return sum(map(tiered.floor, members(unit)))

    def size(unit: int) -> int:
        return sum(map(tiered.size, members(unit)))

    received = [*prefix, *tail]
    if sum(map(floor, received)) <= max_chars and sum(map(size, received)) <= max_chars:
        return None
    if max_chars == 0:
        return []
    used = 0
    taken: list[int] = []
    for pass_units in (prefix, tail):
        first = True
        for unit in pass_units:
            if first:
                used += size(unit)
                taken.append(unit)
                first = False
            elif used + floor(unit) <= max_chars and used + (bulk := size(unit)) <= max_chars:
                used += bulk
                taken.append(unit)
    return taken if len(taken) < len(received) else None


@frozen(kw_only=True)
class PairSafeContextProjector:
    """Keeps the pinned prefix and the recent tail in whole units, so no pair is ever split.

    With ``tiers`` (the default) Tier-1 and Tier-2 run first, exactly as in
    :class:`TypeAwareContextProjector`; with ``tiers=False`` the budget's tier fields are
    ignored, as in :class:`DefaultContextProjector`. The item stage then takes the pinned units
    (those holding one of the first ``pinned_prefix_items`` positions) in list order and the
    other units from the newest back, each unit whole and only while it fits ``max_items``; a
    unit that does not fit is passed over. The character stage does the same by size, taking
    the first pinned unit and the newest unit always. A unit is a tool call with all its
    results (Responses, Chat and Anthropic shapes, also mixed), the parallel calls of one
    Responses step, and a reasoning item with the output after it; any other item is a unit of
    its own, so on a list without tool calls the result is the default (or type-aware)
    projector's. When the newest unit does not fit ``max_items`` though a single item would
    have, the note ``newest unit dropped: N item(s) do not fit maxItems M`` says so.

    The report is exact (``dropped_indices``, ``cleared_indices``). Neither the list nor any
    item is changed; items that are not replaced are the caller's objects.

    Implements PRJ-30 .. PRJ-35 and PAIR-5 .. PAIR-7; wire-valid for the providers of §1.6
    (WIRE-18).
    """

    tiers: bool = True

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        """Project *items* under *budget*."""
        source, budget = projection_source(type(self).__name__, items, budget)
        notes, replacements = plan_tiers(source, budget) if self.tiers else ((), None)
        tiered = Tiered(source, replacements)
        count = source.count
        all_notes = list(notes)
        if budget is None or (budget.max_items is None and budget.max_approx_chars is None):
            return tiered.projection(
                range(count),
                notes=all_notes,
                item_limit_applied=False,
                character_limit_applied=False,
            )
        order = _Order(source.units(), count, budget.pinned_prefix_items)
        prefix: list[int] | None = None  # None: every unit, not listed yet
        tail: list[int] = []
        item_limit_applied = character_limit_applied = False
        if budget.max_items is not None:
            stage = _item_stage(order, budget.max_items)
            if stage is not None:
                prefix, tail = stage.prefix, stage.tail
                item_limit_applied = True
                all_notes.append(MAX_ITEMS_NOTE.format(max_items=budget.max_items))
                if stage.newest_dropped:
                    newest = order.size(order.units.unit_of(count - 1))
                    all_notes.append(
                        NEWEST_UNIT_DROPPED_NOTE.format(items=newest, max_items=budget.max_items)
                    )
        if budget.max_approx_chars is not None:
            if prefix is None:  # every unit: every position's lower bound, read at once
                prefix, tail = order.pinned_units(), list(order.recent_units())
                tiered.whole_floors()
            chosen = _char_stage(order, prefix, tail, tiered, budget.max_approx_chars)
            if chosen is not None:
                prefix, tail = chosen, []
                character_limit_applied = True
                all_notes.append(
                    MAX_APPROX_CHARS_NOTE.format(max_approx_chars=budget.max_approx_chars)
                )
        if prefix is None:
            return tiered.projection(
                range(count),
                notes=all_notes,
                item_limit_applied=False,
                character_limit_applied=False,
            )
        members = order.units.members
        positions = sorted(position for unit in (*prefix, *tail) for position in members(unit))
        return tiered.projection(
            positions,
            notes=all_notes,
            item_limit_applied=item_limit_applied,
            character_limit_applied=character_limit_applied,
        )
