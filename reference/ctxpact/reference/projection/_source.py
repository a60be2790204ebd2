"""The source list as the stages read it: a plain list, measured and scanned for each run.

A :class:`~ctxpact.reference.projection.SizedItems` is the other kind of source (``_sized``):
it answers the same questions from what it keeps, and the stages cannot tell them apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Protocol

from ctxpact.reference.projection._size import item_sizes
from ctxpact.reference.projection._tiers import (
    NameOf,
    PlannedTier1,
    PlannedTier2,
    Tier1,
    Tier2,
    ToolNames,
    plan_tier1,
    plan_tier2,
)
from ctxpact.spec import JsonValue, pairing

# Errors name a bad item by its place in the list handed to project().
ITEMS_PATH = "$.items"


class Units(Protocol):
    """The units of a source list (PAIR-3), each named by a label of its own."""

    def unit_of(self, position: int) -> int:
        """The label of the unit of *position*."""
        ...

    def members(self, unit: int) -> Sequence[int]:
        """The positions of the unit labelled *unit*, in any order."""
        ...

    def first(self, unit: int) -> int:
        """The smallest position of the unit labelled *unit*."""
        ...


class Source(Protocol):
    """A source list as the tiers and stages read it: items, sizes and what the tiers need."""

    @property
    def count(self) -> int:
        """The number of items in the list."""
        ...

    @property
    def items(self) -> Sequence[JsonValue]:
        """The items, by position (it may hold more positions than :attr:`count`)."""
        ...

    @property
    def sizes(self) -> Sequence[int]:
        """``approx_chars`` of each item, by position (it may hold more positions)."""
        ...

    @property
    def total(self) -> int:
        """The size of the list (SIZE-5)."""
        ...

    def tier1(self, keep_recent: int) -> Tier1:
        """What Tier-1 clears when it keeps the newest *keep_recent* tool results."""
        ...

    def tier2(self) -> Tier2:
        """What Tier-2 clears."""
        ...

    def tool_names(self) -> NameOf:
        """The tool name of a call id (T1-5)."""
        ...

    def units(self) -> Units:
        """The units of the list (PAIR-3)."""
        ...


class GroupedUnits:
    """Units given as the label of each position, labels being smallest positions."""

    __slots__ = ("_members", "_unit_of")

    def __init__(self, unit_of: Sequence[int]) -> None:
        self._unit_of = unit_of
        members: dict[int, list[int]] = {}
        for position, unit in enumerate(unit_of):
            members.setdefault(unit, []).append(position)
        self._members = members

    def unit_of(self, position: int) -> int:
        """The label of the unit of *position*."""
        return self._unit_of[position]

    def members(self, unit: int) -> Sequence[int]:
        """The positions of *unit*, ascending."""
        return self._members[unit]

    def first(self, unit: int) -> int:
        """The smallest position of *unit*: its label."""
        return unit


class ListSource:
    """A plain list: each item measured once per run, the tiers' positions found by a scan."""

    def __init__(self, items: Sequence[JsonValue]) -> None:
        self.items = items
        self.count = len(items)

    @cached_property
    def sizes(self) -> list[int]:
        """``approx_chars`` of each item, measured on first use."""
        return item_sizes(self.items, path=ITEMS_PATH)

    @cached_property
    def total(self) -> int:
        """The size of the list."""
        return sum(self.sizes)

    def tier1(self, keep_recent: int) -> Tier1:
        """Tier-1's plan, from a scan of the tool results."""
        return PlannedTier1(plan_tier1(self.items, keep_recent))

    def tier2(self) -> Tier2:
        """Tier-2's positions, from a scan for the boundary and the reasoning before it."""
        return PlannedTier2(plan_tier2(self.items))

    def tool_names(self) -> NameOf:
        """Tool names read backwards from the end, only as far as a question needs."""
        return ToolNames(self.items)

    def units(self) -> Units:
        """The units of :func:`ctxpact.spec.pairing`."""
        return GroupedUnits(pairing(self.items).unit_of)
