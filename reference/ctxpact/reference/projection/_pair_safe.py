"""The pair-safe projector: the pinned prefix and the recent tail, chosen by whole units.

A unit (PAIR-3) holds a tool call with all its results, in every wire format, the parallel
calls of a Responses step, and a reasoning item with the output after it; keeping or dropping
units whole is what keeps every tool result with its call.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from ctxpact.reference._arguments import projection_arguments
from ctxpact.reference.projection._constants import (
    MAX_APPROX_CHARS_NOTE,
    MAX_ITEMS_NOTE,
    NEWEST_UNIT_DROPPED_NOTE,
)
from ctxpact.reference.projection._stages import Tiered
from ctxpact.reference.projection._tiers import plan_tiers
from ctxpact.spec import ContextBudget, ContextProjection, JsonValue, pairing


@frozen(kw_only=True)
class _Units:
    """The units of a list: each one's positions (ascending), in list and recency order."""

    members: tuple[tuple[int, ...], ...]  # in list order: by smallest position
    pinned: tuple[bool, ...]  # per unit in list order: does it hold a pinned position?
    newest: int  # the index (in list order) of the unit of the last position

    @classmethod
    def of(cls, items: Sequence[JsonValue], pinned: int) -> _Units:
        groups: dict[int, list[int]] = {}
        for position, unit in enumerate(pairing(items).unit_of):
            groups.setdefault(unit, []).append(position)
        members = tuple(tuple(positions) for positions in groups.values())
        # A unit's key is its smallest position, so it is pinned when that is below the pin.
        flags = tuple(positions[0] < pinned for positions in members)
        newest = max(range(len(members)), key=lambda u: members[u][-1]) if members else -1
        return cls(members=members, pinned=flags, newest=newest)

    def recency(self, chosen: Sequence[int]) -> list[int]:
        """*chosen* unit indices, the newest (by greatest position) first."""
        return sorted(chosen, key=lambda unit: self.members[unit][-1], reverse=True)


@frozen(kw_only=True)
class _ItemStage:
    kept: list[int]  # unit indices
    applied: bool
    newest_dropped: bool  # dropped for want of room, where one item would have fit


def _item_stage(units: _Units, count: int, max_items: int) -> _ItemStage:
    """PRJ-32: pinned units in list order, then the others by recency, each while it fits."""
    everything = list(range(len(units.members)))
    if count <= max_items:
        return _ItemStage(kept=everything, applied=False, newest_dropped=False)
    if max_items == 0:
        return _ItemStage(kept=[], applied=True, newest_dropped=False)
    left = max_items
    kept: list[int] = []
    for unit in everything:
        if units.pinned[unit] and len(units.members[unit]) <= left:
            kept.append(unit)
            left -= len(units.members[unit])
    room_after_prefix = left
    others = [unit for unit in everything if not units.pinned[unit]]
    for unit in units.recency(others):
        if len(units.members[unit]) <= left:
            kept.append(unit)
            left -= len(units.members[unit])
    newest = units.newest
    newest_dropped = not units.pinned[newest] and newest not in kept and room_after_prefix >= 1
    return _ItemStage(kept=kept, applied=True, newest_dropped=newest_dropped)


def _char_stage(
    units: _Units, kept: Sequence[int], tiered: Tiered, max_chars: int
) -> list[int] | None:
    """PRJ-33: the units kept under the character limit, or ``None`` when all of them are."""

    def floor(unit: int) -> int:
        return sum(map(tiered.floor, units.members[unit]))

    def size(unit: int) -> int:
        return sum(map(tiered.size, units.members[unit]))

    if sum(map(floor, kept)) <= max_chars and sum(map(size, kept)) <= max_chars:
        return None
    if max_chars == 0:
        return []
    used = 0
    taken: list[int] = []
    in_list_order = sorted(kept)
    prefix = [unit for unit in in_list_order if units.pinned[unit]]
    tail = units.recency([unit for unit in in_list_order if not units.pinned[unit]])
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
    return taken if len(taken) < len(kept) else None


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
        items, budget = projection_arguments(type(self).__name__, items, budget)
        notes, replacements = plan_tiers(items, budget) if self.tiers else ((), None)
        tiered = Tiered.of(items, replacements)
        count = len(items)
        all_notes = list(notes)
        if budget is None or (budget.max_items is None and budget.max_approx_chars is None):
            return tiered.projection(
                range(count),
                notes=all_notes,
                item_limit_applied=False,
                character_limit_applied=False,
            )
        units = _Units.of(items, budget.pinned_prefix_items)
        kept = list(range(len(units.members)))
        item_limit_applied = character_limit_applied = False
        if budget.max_items is not None:
            stage = _item_stage(units, count, budget.max_items)
            kept = stage.kept
            if stage.applied:
                item_limit_applied = True
                all_notes.append(MAX_ITEMS_NOTE.format(max_items=budget.max_items))
                if stage.newest_dropped:
                    all_notes.append(
                        NEWEST_UNIT_DROPPED_NOTE.format(
                            items=len(units.members[units.newest]), max_items=budget.max_items
                        )
                    )
        if budget.max_approx_chars is not None:
            chosen = _char_stage(units, kept, tiered, budget.max_approx_chars)
            if chosen is not None:
                kept = chosen
                character_limit_applied = True
                all_notes.append(
                    MAX_APPROX_CHARS_NOTE.format(max_approx_chars=budget.max_approx_chars)
                )
        positions = sorted(position for unit in kept for position in units.members[unit])
        return tiered.projection(
            positions,
            notes=all_notes,
            item_limit_applied=item_limit_applied,
            character_limit_applied=character_limit_applied,
        )
