"""The projector check of state across calls (PRJ-4).

One instance, one list changed in place between calls: the answer is a fresh one's.
"""

from __future__ import annotations

import copy

import attrs
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance.checks._projection_support import (
    Case,
)
from ctxpact.conformance.checks.projector._common import (
    _CASES,
    Test,
    _expect_same,
    _tiers,
    generic,
)
from ctxpact.conformance.checks.projector._examples import summary_and_tail, tier1_example
from ctxpact.spec import (
    ContextBudget,
    ContextProjector,
    JsonValue,
)

#: How a caller changes its list between two projections: in place, the same list object.
_CHANGES = ("append a turn", "drop the oldest", "replace the newest", "edit an item")
_NEXT_TURN: JsonValue = {
    "type": "message",
    "role": "user",
    "content": [{"type": "input_text", "text": "and then?"}],
}


def _change_in_place(items: list[JsonValue], change: str) -> None:
    """Change *items* as a caller's memory changes between two turns, keeping the list."""
    if change == "append a turn" or not items:
        items.append(copy.deepcopy(_NEXT_TURN))
    elif change == "drop the oldest":
        del items[0]
    elif change == "replace the newest":
        items[-1] = {"type": "message", "role": "assistant", "content": "replaced"}
    else:
        edited = next((item for item in reversed(items) if isinstance(item, dict)), None)
        if edited is None:
            items[-1] = "edited"
        elif isinstance(edited.get("output"), str):
            edited["output"] = f"{edited['output']} (edited in place)"
        else:
            edited["x_edited"] = "in place"


@generic("projector.stateless", "PRJ-4")
def stateless(context: CheckContext) -> Test:
    """One instance, one list object changed in place between calls: a fresh instance's result.

    State kept across calls, or keyed by the identity of the list or the budget, shows as a
    second projection that differs from what a fresh projector makes of a copy of the list.
    """

    @given(case=_CASES[_tiers(context)], change=st.sampled_from(_CHANGES))
    @example(
        case=(tier1_example(), ContextBudget(max_recent_tool_results=1)), change="edit an item"
    )
    @example(
        case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)),
        change="append a turn",
    )
    @example(case=(["a", "b", "c"], ContextBudget(max_items=2)), change="replace the newest")
    @example(case=([], ContextBudget(max_items=0)), change="drop the oldest")
    def test(case: Case, change: str) -> None:
        source, budget = case
        items = copy.deepcopy(list(source))
        context.record(items=items, budget=budget, change=change)
        projector: ContextProjector = context.subject()
        projector.project(items, budget)
        _change_in_place(items, change)
        expected: ContextProjector = context.subject()
        want = expected.project(copy.deepcopy(items), attrs.evolve(budget))
        got = projector.project(items, budget)
        _expect_same(
            context,
            f"projecting the same list again after it was changed in place ({change}) "
            "differs from a fresh projector's projection (PRJ-4: whatever happened before, "
            "independent of object identity)",
            got,
            want.items,
            want.report,
        )

    return test


#: Every check of this module, in the order they run.
