"""PairSafeContextProjector: pinned prefix and recent tail in whole units (§5.5, PAIR-4 .. 7)."""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest
from attrs import evolve
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance.vectors import Vector, vectors_for
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
    approx_chars,
)
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextReport,
    JsonObject,
    JsonValue,
    from_json,
    pairing,
)

PAIR_SAFE = PairSafeContextProjector()
UNTIERED = PairSafeContextProjector(tiers=False)


def user(text: str = "u") -> JsonObject:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def chat(*ids: str) -> JsonObject:
    return {
        "type": "message",
        "role": "assistant",
        "tool_calls": [{"id": i, "type": "function", "function": {"name": "read"}} for i in ids],
    }


def tool(call_id: str, content: str = "ok") -> JsonObject:
    return {"type": "message", "role": "tool", "tool_call_id": call_id, "content": content}


def call(call_id: str) -> JsonObject:
    return {"type": "function_call", "call_id": call_id, "name": "grep", "arguments": "{}"}


def output(call_id: str, text: str = "ok") -> JsonObject:
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def use(*ids: str) -> JsonObject:
    parts: list[JsonValue] = [{"type": "text", "text": "on it"}]
    parts += [{"type": "tool_use", "id": i, "name": "view", "input": {}} for i in ids]
    return {"type": "message", "role": "assistant", "content": parts}


def carrier(*ids: str) -> JsonObject:
    parts: list[JsonValue] = [
        {"type": "tool_result", "tool_use_id": i, "content": "x"} for i in ids
    ]
    return {"type": "message", "role": "user", "content": parts}


def reasoning(identifier: str = "rs") -> JsonObject:
    return {
        "type": "reasoning",
        "id": identifier,
        "summary": [{"type": "summary_text", "text": "t"}],
    }


# -- an eager reading of §5.5 ------------------------------------------------------------------


class Eager:
    """§5.5 the slow way, for one source list and budget."""

    def __init__(
        self, items: Sequence[JsonValue], budget: ContextBudget | None, tiers: bool
    ) -> None:
        tier_budget = (
            None
            if budget is None or not tiers
            else evolve(budget, max_items=None, max_approx_chars=None)
        )
        self.tiered = TypeAwareContextProjector().project(items, tier_budget)
        self.working = list(self.tiered.items)
        self.count = len(items)
        self.units = [list(unit) for unit in pairing(items).units()]
        self.pinned = 0 if budget is None else budget.pinned_prefix_items
        self.notes = list(self.tiered.report.notes)

    def is_pinned(self, unit: list[int]) -> bool:
        return any(position < self.pinned for position in unit)

    def size(self, unit: list[int]) -> int:
        return sum(approx_chars(self.working[p]) for p in unit)

    def pass_order(self, chosen: list[list[int]]) -> list[list[int]]:
        """Pinned units by first position, then the others by recency (PRJ-31)."""
        pinned = sorted(u for u in chosen if self.is_pinned(u))
        others = sorted((u for u in chosen if not self.is_pinned(u)), key=max, reverse=True)
        return pinned + others

    def item_stage(self, limit: int) -> list[list[int]]:
        left, taken = limit, []
        for unit in self.pass_order(self.units):
            if len(unit) <= left:
                taken.append(unit)
                left -= len(unit)
        self.notes.append(f"maxItems applied: {limit}")
        newest = next(u for u in self.units if self.count - 1 in u)
        pinned_left = limit - sum(len(u) for u in taken if self.is_pinned(u))
        if not self.is_pinned(newest) and newest not in taken and pinned_left >= 1:
            self.notes.append(
                f"newest unit dropped: {len(newest)} item(s) do not fit maxItems {limit}"
            )
        return taken

    def char_stage(self, kept: list[list[int]], limit: int) -> list[list[int]] | None:
        if sum(map(self.size, kept)) <= limit:
            return None
        used, taken = 0, []
        for group in (
            [u for u in kept if self.is_pinned(u)],
            [u for u in kept if not self.is_pinned(u)],
        ):
            for index, unit in enumerate(self.pass_order(group)):
                if limit > 0 and (index == 0 or used + self.size(unit) <= limit):
                    taken.append(unit)
                    used += self.size(unit)
        if len(taken) == len(kept):
            return None
        self.notes.append(f"maxApproxChars applied: {limit}")
        return taken

    def projection(self, budget: ContextBudget | None) -> ContextProjection:
        kept = list(self.units)
        item_applied = char_applied = False
        if budget is not None and budget.max_items is not None and self.count > budget.max_items:
            kept, item_applied = self.item_stage(budget.max_items), True
        if budget is not None and budget.max_approx_chars is not None:
            chosen = self.char_stage(kept, budget.max_approx_chars)
            if chosen is not None:
                kept, char_applied = chosen, True
        positions = sorted(p for unit in kept for p in unit)
        cleared = set(self.tiered.report.cleared_indices or ())
        return ContextProjection(
            items=[self.working[p] for p in positions],
            report=ContextReport(
                source_item_count=self.count,
                projected_item_count=len(positions),
                dropped_item_count=self.count - len(positions),
                source_approx_chars=self.tiered.report.source_approx_chars,
                projected_approx_chars=sum(approx_chars(self.working[p]) for p in positions),
                item_limit_applied=item_applied,
                character_limit_applied=char_applied,
                notes=self.notes,
                dropped_indices=[p for p in range(self.count) if p not in positions],
                cleared_indices=[p for p in positions if p in cleared],
            ),
        )


def oracle(
    items: Sequence[JsonValue], budget: ContextBudget | None, *, tiers: bool
) -> ContextProjection:
    """PRJ-30 .. PRJ-34 the slow way: tiers by the type-aware projector, then the unit stages."""
    return Eager(items, budget, tiers).projection(budget)


IDS = st.sampled_from(["a", "b", "c", "d"])
ITEMS = st.lists(
    st.one_of(
        st.builds(user, st.text("xyé", max_size=5)),
        st.lists(IDS, max_size=2).map(lambda ids: chat(*ids)),
        st.builds(tool, IDS, st.text("xy", max_size=30)),
        IDS.map(call),
        st.builds(output, IDS, st.text("xy", max_size=30)),
        st.lists(IDS, min_size=1, max_size=2).map(lambda ids: use(*ids)),
        st.lists(IDS, min_size=1, max_size=2).map(lambda ids: carrier(*ids)),
        st.builds(reasoning),
        st.just({"type": "message", "role": "assistant"}),
        st.just("plain"),
        st.none(),
    ),
    max_size=14,
)
BUDGETS = st.none() | st.builds(
    ContextBudget,
    max_items=st.none() | st.integers(0, 16),
    max_approx_chars=st.none() | st.integers(0, 900),
    pinned_prefix_items=st.integers(0, 4),
    max_recent_tool_results=st.none() | st.integers(0, 3),
    trim_old_reasoning=st.booleans(),
)
WORKED = [user("go"), chat("c1", "c2"), tool("c1", "alpha"), tool("c2", "beta"), user("next")]


@given(items=ITEMS, budget=BUDGETS, tiers=st.booleans())
@example(items=WORKED, budget=ContextBudget(max_items=3), tiers=True)
@example(items=WORKED[:4], budget=ContextBudget(max_items=2), tiers=True)
@example(
    items=[user(), user(), call("a"), output("a")],
    budget=ContextBudget(max_items=2, pinned_prefix_items=2),
    tiers=True,
)
@example(
    items=[chat("a"), tool("a"), user(), user()],
    budget=ContextBudget(max_items=2, pinned_prefix_items=1),
    tiers=True,
)
@example(
    items=[user(), use("a"), carrier("a")], budget=ContextBudget(max_approx_chars=50), tiers=True
)
@example(items=[call("a"), output("a")], budget=ContextBudget(max_items=0), tiers=False)
@example(items=[], budget=ContextBudget(max_items=0, max_approx_chars=0), tiers=True)
def test_pair_safe_follows_the_spec(
    items: list[JsonValue], budget: ContextBudget | None, tiers: bool
) -> None:
    projector = PairSafeContextProjector(tiers=tiers)
    assert projector.project(items, budget) == oracle(items, budget, tiers=tiers)


@pytest.mark.parametrize("vector", vectors_for("project_pair_safe"), ids=lambda v: v.id)
def test_every_pair_safe_vector(vector: Vector) -> None:
    raw = vector.input["budget"]
    budget = None if raw is None else from_json(ContextBudget, raw)
    projector = PairSafeContextProjector(tiers=vector.input["tiers"])
    got = projector.project(copy.deepcopy(vector.input["items"]), budget)
    assert got == from_json(ContextProjection, vector.expected)
    assert oracle(vector.input["items"], budget, tiers=vector.input["tiers"]) == got


def _singletons(items: Sequence[JsonValue]) -> bool:
    return all(len(unit) == 1 for unit in pairing(items).units())


SINGLE_ITEMS = st.lists(
    st.one_of(
        st.builds(user, st.text("xyé", max_size=5)),
        st.builds(output, IDS, st.text("xy", max_size=30)),  # orphans: units of their own
        st.builds(tool, IDS),
        st.just({"type": "message", "role": "assistant"}),
        st.builds(reasoning),
        st.text("ab", max_size=8),
        st.integers(0, 99),
    ),
    max_size=12,
)


@given(items=SINGLE_ITEMS, budget=BUDGETS)
@example(
    items=["system-summary", "old-1", "old-2", "recent-1", "recent-2"],
    budget=ContextBudget(max_items=3, pinned_prefix_items=1),
)
@example(items=["a", "b", "c", "d", "e"], budget=ContextBudget(max_items=3, pinned_prefix_items=5))
@example(items=["AA", "B" * 10, "D" * 6], budget=ContextBudget(max_approx_chars=9))
@example(
    items=["P" * 10, "a", "bb"], budget=ContextBudget(max_approx_chars=5, pinned_prefix_items=1)
)
def test_singletons_are_the_type_aware_projection(
    items: list[JsonValue], budget: ContextBudget | None
) -> None:
    """PRJ-35: without a unit of two or more positions, nothing differs."""
    if not _singletons(items):
        return
    assert PAIR_SAFE.project(items, budget) == TypeAwareContextProjector().project(items, budget)
    assert UNTIERED.project(items, budget) == DefaultContextProjector().project(items, budget)


def _represented(projection: ContextProjection, count: int) -> set[int]:
    dropped = set(projection.report.dropped_indices or ())
    return {position for position in range(count) if position not in dropped}


@given(items=ITEMS, budget=BUDGETS)
@example(items=WORKED, budget=ContextBudget(max_items=3))
@example(items=[user(), use("a"), carrier("a"), user()], budget=ContextBudget(max_items=2))
@example(
    items=[user(), call("a"), call("b"), output("a"), output("b")],
    budget=ContextBudget(max_items=3),
)
def test_pairs_are_kept(items: list[JsonValue], budget: ContextBudget | None) -> None:
    """PAIR-4, PAIR-5: a represented result has its call, a represented call its results."""
    kept = _represented(PAIR_SAFE.project(items, budget), len(items))
    for link in pairing(items).results:
        if link.call is not None:
            assert (link.position in kept) == (link.call in kept)


@given(items=ITEMS, budget=BUDGETS)
@example(
    items=[chat("a"), tool("a"), user()], budget=ContextBudget(max_items=2, pinned_prefix_items=1)
)
@example(
    items=[chat("a"), tool("a"), user()],
    budget=ContextBudget(max_approx_chars=1, pinned_prefix_items=1),
)
def test_the_pinned_units_are_kept_as_far_as_they_fit(
    items: list[JsonValue], budget: ContextBudget | None
) -> None:
    """PAIR-6."""
    if budget is None or not items:
        return
    projection = PAIR_SAFE.project(items, budget)
    kept = _represented(projection, len(items))
    pinned = [
        set(unit)
        for unit in pairing(items).units()
        if min(unit) < min(budget.pinned_prefix_items, len(items))
    ]
    limit = budget.max_items
    total = sum(map(len, pinned))
    if budget.max_approx_chars is None and (limit is None or total <= limit):
        assert all(unit <= kept for unit in pinned)
    first = next((unit for unit in pinned if 0 in unit), None)
    if (
        first is not None
        and (limit is None or len(first) <= limit)
        and (budget.max_approx_chars is None or budget.max_approx_chars >= 1)
    ):
        assert first <= kept


@given(items=ITEMS, budget=BUDGETS)
@example(items=WORKED[:4], budget=ContextBudget(max_items=2))
@example(
    items=[user(), user(), call("a"), output("a")],
    budget=ContextBudget(max_items=2, pinned_prefix_items=2),
)
def test_the_newest_unit_is_kept_or_its_drop_is_noted(
    items: list[JsonValue], budget: ContextBudget | None
) -> None:
    """PAIR-7."""
    if budget is None or not items:
        return
    projection = PAIR_SAFE.project(items, budget)
    kept = _represented(projection, len(items))
    units = [set(unit) for unit in pairing(items).units()]
    pin = min(budget.pinned_prefix_items, len(items))
    pinned = [unit for unit in units if min(unit) < pin]
    newest = next(unit for unit in units if len(items) - 1 in unit)
    if newest in pinned or budget.max_approx_chars == 0:
        return
    taken = 0
    for unit in pinned:
        if budget.max_items is None or taken + len(unit) <= budget.max_items:
            taken += len(unit)
    room = None if budget.max_items is None else budget.max_items - taken
    note = f"newest unit dropped: {len(newest)} item(s) do not fit maxItems {budget.max_items}"
    if room is None or len(newest) <= room:
        assert newest <= kept
    else:
        assert not newest & kept
        assert (note in projection.report.notes) == (room >= 1)


@given(items=ITEMS, budget=BUDGETS)
@example(items=WORKED, budget=ContextBudget(max_recent_tool_results=0, max_items=4))
def test_nothing_is_changed_and_the_result_is_deterministic(
    items: list[JsonValue], budget: ContextBudget | None
) -> None:
    before = copy.deepcopy(items)
    first = PAIR_SAFE.project(items, budget)
    assert items == before
    assert PairSafeContextProjector().project(copy.deepcopy(items), budget) == first
