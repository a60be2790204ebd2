"""Items with their sizes, and what the tiers and units need, worked out once per item.

A :class:`SizedItems` only grows: each item is checked (JSON-9, JSON-17), copied, measured and
read when it enters, at the cost of that item alone, and the positions Tier-1 and Tier-2 read
(tool results of every shape, reasoning items, user input items), the tool names of call ids
and the units of PAIR-3 are kept up to date with it. A :class:`SizedItemsView` is a read-only
prefix of one, frozen when taken. Projectors given either answer from these figures instead
of measuring and scanning the list again, with the same output and report (PRJ-36).
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from itertools import compress, islice
from typing import overload

from ctxpact.reference._arguments import ITEMS_EXPECTED, checked_budget, projection_arguments
from ctxpact.reference.projection._size import item_sizes
from ctxpact.reference.projection._source import ListSource, Source, Units
from ctxpact.reference.projection._tiers import (
    NameOf,
    Tier1,
    Tier2,
    is_cleared_reasoning,
    is_placeholder_output,
)
from ctxpact.spec import (
    ArgumentTypeError,
    ContextBudget,
    JsonValue,
    copy_json,
    is_user_input,
    joins_next,
    tool_calls,
    tool_results,
)

# A per-position flag: a reasoning item that is not in cleared form (T2-4, T2-5).
_TRIMMABLE = 1
_REASONING = "reasoning"


class UnitIndex:
    """The units of a growing list (PAIR-3): a union-find kept as labels and member lists.

    Each position records the earlier positions it is linked to when it is added; the
    smaller of two joined units takes the label of the larger, so every position is relabelled
    at most a logarithmic number of times. ``merged_at`` lists the positions whose arrival
    joined two units that existed before it: a prefix that ends at or before such a position
    had those units apart, and is rebuilt from the recorded links when it is asked for.
    """

    __slots__ = ("_firsts", "_labels", "_links", "_members", "_merged_at")

    def __init__(self) -> None:
        self._labels: list[int] = []
        self._members: dict[int, list[int]] = {}
        self._firsts: dict[int, int] = {}
        self._links: list[tuple[int, ...]] = []
        self._merged_at: list[int] = []

    def add(self, links: tuple[int, ...]) -> None:
        """Add the next position, linked to the earlier positions *links*."""
        position = len(self._labels)
        self._labels.append(position)
        self._members[position] = [position]
        self._firsts[position] = position
        self._links.append(links)
        joins = 0
        for earlier in links:
            joins += self._join(earlier, position)
        if joins > 1:
            self._merged_at.append(position)

    def _join(self, left: int, right: int) -> bool:
        labels = self._labels
        keep, gone = labels[left], labels[right]
        if keep == gone:
            return False
        kept, moved = self._members[keep], self._members[gone]
        if len(kept) < len(moved):
            keep, gone, kept, moved = gone, keep, moved, kept
        for position in moved:
            labels[position] = keep
        kept.extend(moved)
        del self._members[gone]
        self._firsts[keep] = min(self._firsts[keep], self._firsts.pop(gone))
        return True

    def unit_of(self, position: int) -> int:
        """The label of the unit of *position*."""
        return self._labels[position]

    def members(self, unit: int) -> Sequence[int]:
        """The positions of *unit*, in no particular order."""
        return self._members[unit]

    def first(self, unit: int) -> int:
        """The smallest position of *unit*."""
        return self._firsts[unit]

    def prefix(self, count: int) -> Units:
        """The units of the first *count* positions."""
        if count == len(self._labels):
            return self
        if not self._merged_at or self._merged_at[-1] < count:
            return _PrefixUnits(self, count)
        rebuilt = UnitIndex()
        for links in self._links[:count]:
            rebuilt.add(links)
        return rebuilt


class _PrefixUnits:
    """The units of a prefix whose units no later position joined: the members it holds."""

    __slots__ = ("_count", "_index")

    def __init__(self, index: UnitIndex, count: int) -> None:
        self._index = index
        self._count = count

    def unit_of(self, position: int) -> int:
        return self._index.unit_of(position)

    def members(self, unit: int) -> Sequence[int]:
        count = self._count
        return [position for position in self._index.members(unit) if position < count]

    def first(self, unit: int) -> int:
        return self._index.first(unit)


class _Facts:
    """Everything a :class:`SizedItems` knows, in lists that only grow.

    A view reads a prefix of them: the positions below its length, the tool results before
    its first missing position, the last user input item before it, and so on.
    """

    __slots__ = (
        "call_names",
        "call_positions",
        "first_result",
        "flags",
        "items",
        "latest_call",
        "result_live",
        "result_parts",
        "result_positions",
        "sizes",
        "totals",
        "trimmable",
        "units",
        "user_inputs",
    )

    def __init__(self) -> None:
        self.items: list[JsonValue] = []
        self.sizes: list[int] = []
        self.totals: list[int] = [0]  # totals[i]: the size of the first i items
        # The tool results in list order (§1.4), with their positions and part indices, and
        # result_live[i]: how many of the first i results are not placeholders (T1-3).
        self.result_positions: list[int] = []
        self.result_parts: list[int | None] = []
        self.result_live: list[int] = [0]
        self.first_result: list[int] = [0]  # first_result[p]: the results before position p
        self.user_inputs: list[int] = []  # positions of user input items (T2-2)
        self.trimmable: list[int] = []  # positions of reasoning not in cleared form (T2-5)
        self.flags = bytearray()
        # T1-5: for each call id, the positions of its calls that have a name, and the names.
        self.call_positions: dict[str, list[int]] = {}
        self.call_names: dict[str, list[str]] = {}
        self.latest_call: dict[str, int] = {}  # PAIR-1: the latest position declaring an id
        self.units = UnitIndex()

    def extend(self, items: Sequence[JsonValue]) -> None:
        """Add checked *items* (nothing is added when measuring one of them fails)."""
        sizes = item_sizes(items, path="$")
        for item, size in zip(items, sizes, strict=True):
            self._add(item, size)

    def _add(self, item: JsonValue, size: int) -> None:
        position = len(self.items)
        links: list[int] = []
        flag = 0
        if isinstance(item, dict):
            live = self.result_live[-1]
            for result in tool_results(item):
                live += not is_placeholder_output(result.holder(item).get(result.output_key))
                self.result_positions.append(position)
                self.result_parts.append(result.part)
                self.result_live.append(live)
                call = None if result.call_id is None else self.latest_call.get(result.call_id)
                if call is not None:
                    links.append(call)
            for call_ref in tool_calls(item):
                call_id, name = call_ref.call_id, call_ref.name
                if call_id is None:
                    continue
                self.latest_call[call_id] = position
                if name is not None:
                    self.call_positions.setdefault(call_id, []).append(position)
                    self.call_names.setdefault(call_id, []).append(name)
            if is_user_input(item):
                self.user_inputs.append(position)
            elif item.get("type") == _REASONING and not is_cleared_reasoning(item):
                self.trimmable.append(position)
                flag = _TRIMMABLE
            if position and joins_next(self.items[-1], item):
                links.append(position - 1)
        self.items.append(item)
        self.sizes.append(size)
        self.totals.append(self.totals[-1] + size)
        self.first_result.append(len(self.result_positions))
        self.flags.append(flag)
        self.units.add(tuple(links))


class _SizedTier1:
    """Tier-1 on a prefix of a sized list: which results are candidates is arithmetic."""

    __slots__ = ("_cutoff", "_facts", "cleared")

    def __init__(self, facts: _Facts, count: int, keep_recent: int) -> None:
        self._facts = facts
        results = bisect_left(facts.result_positions, count)
        self._cutoff = max(0, results - keep_recent)  # results before it are candidates
        self.cleared = facts.result_live[self._cutoff]

    def _span(self, position: int) -> tuple[int, int]:
        first = self._facts.first_result
        return first[position], min(first[position + 1], self._cutoff)

    def __contains__(self, position: object) -> bool:
        if not isinstance(position, int):
            return False
        low, high = self._span(position)
        live = self._facts.result_live
        return high > low and live[high] > live[low]

    def parts(self, position: int) -> tuple[int | None, ...] | None:
        """The results cleared at *position*: candidates that are not placeholders."""
        if position not in self:
            return None
        low, high = self._span(position)
        live, parts = self._facts.result_live, self._facts.result_parts
        return tuple(parts[index] for index in range(low, high) if live[index + 1] > live[index])

    def positions(self) -> Collection[int]:
        """The positions of the candidates that are not placeholders."""
        cutoff, facts = self._cutoff, self._facts
        live = facts.result_live
        cleared = map(operator.sub, islice(live, 1, cutoff + 1), islice(live, cutoff))
        return set(compress(islice(facts.result_positions, cutoff), cleared))

    def among(self, positions: Iterable[int]) -> set[int]:
        """The positions among *positions* with a candidate that is not a placeholder."""
        first, live, cutoff = self._facts.first_result, self._facts.result_live, self._cutoff
        found: set[int] = set()
        for position in positions:
            low = first[position]
            high = min(first[position + 1], cutoff)
            if high > low and live[high] > live[low]:
                found.add(position)
        return found


class _SizedTier2:
    """Tier-2 on a prefix of a sized list: the boundary and the reasoning before it."""

    __slots__ = ("_boundary", "_facts", "cleared")

    def __init__(self, facts: _Facts, count: int) -> None:
        inputs = bisect_left(facts.user_inputs, count)
        self._boundary = facts.user_inputs[inputs - 1] if inputs else 0
        self._facts = facts
        self.cleared = bisect_left(facts.trimmable, self._boundary)

    def __contains__(self, position: object) -> bool:
        return (
            isinstance(position, int)
            and position < self._boundary
            and bool(self._facts.flags[position] & _TRIMMABLE)
        )

    def positions(self) -> Collection[int]:
        """The reasoning before the boundary that is not in cleared form."""
        return self._facts.trimmable[: self.cleared]

    def among(self, positions: Iterable[int]) -> set[int]:
        """The positions among *positions* of reasoning before the boundary, not cleared."""
        boundary, flags = self._boundary, self._facts.flags
        return {p for p in positions if p < boundary and flags[p] & _TRIMMABLE}


class _SizedNames:
    """T1-5 on a prefix of a sized list: the last named call with the id before its end."""

    __slots__ = ("_count", "_facts")

    def __init__(self, facts: _Facts, count: int) -> None:
        self._facts = facts
        self._count = count

    def __call__(self, call_id: str) -> str | None:
        positions = self._facts.call_positions.get(call_id)
        if positions is None:
            return None
        found = bisect_left(positions, self._count)
        return self._facts.call_names[call_id][found - 1] if found else None


class _SizedSource:
    """A prefix of a sized list as a :class:`~ctxpact.reference.projection._source.Source`."""

    __slots__ = ("_count", "_facts", "count", "items")

    def __init__(self, sized: _SizedSequence) -> None:
        self._facts = facts = sized._facts  # noqa: SLF001 - the one reader of a sized list's facts
        self.count = self._count = len(sized)
        self.items: Sequence[JsonValue] = facts.items  # read below count only

    @property
    def sizes(self) -> Sequence[int]:
        return self._facts.sizes

    @property
    def total(self) -> int:
        return self._facts.totals[self._count]

    def tier1(self, keep_recent: int) -> Tier1:
        return _SizedTier1(self._facts, self._count, keep_recent)

    def tier2(self) -> Tier2:
        return _SizedTier2(self._facts, self._count)

    def tool_names(self) -> NameOf:
        return _SizedNames(self._facts, self._count)

    def units(self) -> Units:
        return self._facts.units.prefix(self._count)


class _SizedSequence(Sequence[JsonValue]):
    """What a :class:`SizedItems` and a :class:`SizedItemsView` share: reading."""

    __slots__ = ("_facts",)

    _facts: _Facts

    def __len__(self) -> int:
        raise NotImplementedError  # pragma: no cover - each subclass has its own length

    @overload
    def __getitem__(self, index: int) -> JsonValue: ...

    @overload
    def __getitem__(self, index: slice) -> list[JsonValue]: ...

    def __getitem__(self, index: int | slice) -> JsonValue | list[JsonValue]:
        count = len(self)
        if isinstance(index, slice):
            return [self._facts.items[i] for i in range(*index.indices(count))]
        position = _position(index, count)
        return self._facts.items[position]

    def __iter__(self) -> Iterator[JsonValue]:
        items = self._facts.items
        count = len(self)
        return iter(items) if count == len(items) else iter(items[:count])

    def __reversed__(self) -> Iterator[JsonValue]:
        return reversed(self._facts.items[: len(self)])

    def approx_chars(self, index: int) -> int:
        """:func:`~ctxpact.reference.projection.approx_chars` of the item at *index* (SIZE-1..4).

        Raises:
            IndexError: when there is no item at *index* (negative indices count from the end).

        """
        return self._facts.sizes[_position(index, len(self))]

    @property
    def total_approx_chars(self) -> int:
        """The size of the whole list (SIZE-5), kept as items are added."""
        return self._facts.totals[len(self)]

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} of {len(self)} item(s), "
            f"{self.total_approx_chars} approx chars>"
        )


def _position(index: object, count: int) -> int:
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"Expected an int or a slice index but got {type(index).__name__}")
    position = index + count if index < 0 else index
    if not 0 <= position < count:
        raise IndexError(f"Expected an index below {count} but got {index}")
    return position


class SizedItemsView(_SizedSequence):
    """A read-only sequence of items with their sizes: a :class:`SizedItems` as it was.

    Taken with :meth:`SizedItems.view` (or handed out by a memory's ``prompt_view``), it
    holds the first ``len(view)`` items of that list for good: later appends do not change
    it, and it has no operation that changes anything. Its items are the list's own objects,
    shared, not copies: they are read-only, as a projection's items are (PRJ-5, PRJ-36).
    Projectors given a view answer from its sizes and positions; so does
    :attr:`total_approx_chars`.
    """

    __slots__ = ("_count",)

    def __init__(self, sized: SizedItems) -> None:
        if not isinstance(sized, SizedItems):
            raise ArgumentTypeError(
                operation="SizedItemsView",
                argument="sized",
                expected="a SizedItems",
                actual=sized,
            )
        self._facts = sized._facts  # noqa: SLF001 - the view shares its list's facts
        self._count = len(sized)

    def __len__(self) -> int:
        return self._count


class SizedItems(_SizedSequence):
    """A list of items that keeps what a projection needs to know of them (PRJ-36).

    Each item is checked to be a JSON value within the limits (JSON-9, JSON-17) and copied
    when it enters, then measured (:func:`~ctxpact.reference.projection.approx_chars`) and
    read for Tier-1 and Tier-2 (its tool results of every shape, whether it is a reasoning item
    or a user input item), for the tool names of its calls (T1-5) and for the units it joins
    (PAIR-3), once: :meth:`append` and :meth:`extend` cost what the new items cost, however
    long the list is. Nothing else changes it, so what it knows is always exact. The
    projectors take it wherever they take a list and return exactly what they return for a
    plain list of the same items, without measuring or scanning it again. Items read from it
    are its own objects: treat them as read-only, as the items of a projection (PRJ-5).

    A caller that keeps a memory of its own can keep it in a ``SizedItems``; the reference
    memories keep one and hand its views to the runtime (MEM-22).

    Raises:
        ArgumentTypeError: for *items* that are a string, bytes, a mapping or not iterable.
        SchemaValidationError: naming ``$[i]`` of an item that is not a JSON value or is
            beyond the limits of JSON-17; nothing is added then.

    """

    __slots__ = ()

    def __init__(self, items: Iterable[JsonValue] = ()) -> None:
        self._facts = _Facts()
        self.extend(items)

    def __len__(self) -> int:
        return len(self._facts.items)

    def append(self, item: JsonValue) -> None:
        """Add a copy of *item* at the end.

        Raises:
            SchemaValidationError: naming ``$[i]`` (``i`` the position it would take) when
                *item* is not a JSON value or is beyond the limits; nothing is added.

        """
        self._facts.extend([copy_json(item, f"$[{len(self)}]")])

    def extend(self, items: Iterable[JsonValue]) -> None:
        """Add copies of *items* at the end, in order: all of them or, on an error, none.

        Raises:
            ArgumentTypeError: for *items* that are a string, bytes, a mapping or not iterable.
            SchemaValidationError: naming ``$[i]`` (the position it would take) of the first
                item that is not a JSON value or is beyond the limits.

        """
        if isinstance(items, str | bytes | bytearray | Mapping) or not isinstance(items, Iterable):
            raise ArgumentTypeError(
                operation="SizedItems.extend",
                argument="items",
                expected=ITEMS_EXPECTED,
                actual=items,
            )
        start = len(self)
        copies = [copy_json(item, f"$[{start + offset}]") for offset, item in enumerate(items)]
        self._facts.extend(copies)

    def view(self) -> SizedItemsView:
        """A read-only view of the items as they are now; later appends do not change it."""
        return SizedItemsView(self)


def sized_copies(items: Iterable[JsonValue]) -> SizedItems:
    """A :class:`SizedItems` that holds *items* themselves, neither checked nor copied again.

    For the reference memories, whose items are copies checked on the way in (MEM-12,
    JSON-17) that no one else holds: a ``SizedItems`` only ever holds checked items of its own.
    """
    sized = SizedItems()
    extend_with_copies(sized, items)
    return sized


def extend_with_copies(sized: SizedItems, items: Iterable[JsonValue]) -> None:
    """Add *items*, checked copies that no one else holds, to *sized* as they are."""
    sized._facts.extend(items if isinstance(items, list | tuple) else list(items))  # noqa: SLF001 - the memories' way in


def projection_source(
    owner: str, items: object, budget: object
) -> tuple[Source, ContextBudget | None]:
    """The arguments of ``project``, checked (PRJ-1, JSON-18), with the source to read.

    A sized list's items were checked when they entered it, so only the budget is checked; a
    plain list is checked item by item (JSON-17) and becomes a source that measures it.
    """
    if isinstance(items, _SizedSequence):
        return _SizedSource(items), checked_budget(f"{owner}.project", budget)
    checked, budget_ = projection_arguments(owner, items, budget)
    return ListSource(checked), budget_
