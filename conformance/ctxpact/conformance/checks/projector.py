"""Checks for context projectors: generic invariants, pair integrity, exact semantics."""

from __future__ import annotations

import copy
from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.strategies import budgets_for, transcripts
from ctxpact.spec import ContextBudget, ContextProjector, JsonValue


@st.composite
def _cases(draw: st.DrawFn) -> tuple[list[JsonValue], ContextBudget]:
    items = draw(transcripts())
    return items, draw(budgets_for(items, chars=sum(len(str(i)) for i in items)))


@check(
    "projector.max-items", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",)
)
def max_items(context: CheckContext) -> Callable[[], None]:
    """The projection never carries more than max_items items."""

    @given(case=_cases())
    @example(case=(["a", "b", "c"], ContextBudget(max_items=2)))
    @example(case=(["a"], ContextBudget(max_items=0)))
    def test(case: tuple[list[JsonValue], ContextBudget]) -> None:
        items, budget = case
        context.record(items=items, budget=budget)
        projector: ContextProjector = context.subject()
        projection = projector.project(items, budget)
        if budget.max_items is not None:
            context.expect(
                len(projection.items) <= budget.max_items,
                f"{len(projection.items)} items projected under maxItems {budget.max_items}",
            )

    return test


@check(
    "projector.no-mutation", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-2",)
)
def no_mutation(context: CheckContext) -> Callable[[], None]:
    """Projecting never changes the input list or any object inside it."""

    @given(case=_cases())
    @example(
        case=(
            [{"type": "function_call_output", "call_id": "c", "output": "x"}],
            ContextBudget(max_recent_tool_results=0),
        )
    )
    def test(case: tuple[list[JsonValue], ContextBudget]) -> None:
        items, budget = case
        context.record(items=items, budget=budget)
        before = copy.deepcopy(items)
        context.subject().project(items, budget)
        context.expect(items == before, "the input changed during projection")

    return test


#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = (max_items, no_mutation)
