"""What the projector checks share: how they are declared, generated cases, projecting a case.

The ``generic`` and ``exact`` declarations (PRJ-6), the cases generated once for targets with
and without tiers, how a target's options select the reference it is compared with (§5.3,
§5.4, §5.5), and the comparisons that name the first difference (JSON-10, RPT-8).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck, describe
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._registry import Builder, check
from ctxpact.conformance.checks._classics import classic_cases
from ctxpact.conformance.checks._projection_support import (
    Case,
    Expected,
    cases,
    expected_projection,
    identical,
    kept_positions,
    pair_cases,
    wire_cases,
)
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
)
from ctxpact.spec import (
    PROVIDERS,
    ContextBudget,
    ContextProjection,
    ContextProjector,
    ContextReport,
    JsonValue,
    camel_case,
)

Test = Callable[[], None]
OptionalCase = tuple[list[JsonValue], ContextBudget | None]


def generic(check_id: str, *clauses: str) -> Callable[[Builder], Check]:
    """Declare a check that holds for any projector (PRJ-6: generic)."""
    return check(check_id, component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=clauses)


def exact(check_id: str, *clauses: str) -> Callable[[Builder], Check]:
    """Declare a check for a port of the spec's own algorithms (PRJ-6: default, type-aware)."""
    return check(check_id, component=Component.PROJECTOR, claim=Claim.EXACT, clauses=clauses)


#: Generated cases, built once, for targets with both tiers and for targets without: broken
#: transcripts for the checks that must hold on anything, well-paired ones with budgets at the
#: edges of their units for the checks of pair integrity, and both for the exact checks.
_CASES = {tiers: cases(tiers=tiers) for tiers in (True, False)}
_UNLIMITED = cases(tiers=True, limits=False)
_TIER1 = cases(tiers=True, keep_recent=True)
_TIER2 = cases(tiers=True, trim=True)
_PAIRS = {tiers: pair_cases(tiers=tiers) for tiers in (True, False)}
_MIXED = {tiers: st.one_of(_CASES[tiers], _PAIRS[tiers]) for tiers in (True, False)}
WireCase = tuple[str, list[JsonValue], ContextBudget]


def _tagged(provider: str, tiers: bool) -> st.SearchStrategy[WireCase]:
    def tag(case: Case) -> WireCase:
        return (provider, *case)

    return wire_cases(provider, tiers=tiers).map(tag)


_WIRE = {
    (provider, tiers): _tagged(provider, tiers) for provider in PROVIDERS for tiers in (True, False)
}


def _tiers(context: CheckContext) -> bool:
    """Whether the target has Tier-1 and Tier-2 (options ``{"tiers": False}`` says not)."""
    return bool(context.options.get("tiers", True))


def _pair_safe(context: CheckContext) -> bool:
    """Whether the target's exact algorithm is §5.5's (options ``{"pair_safe": True}``)."""
    return bool(context.options.get("pair_safe", False))


def _keeps_pairs(context: CheckContext) -> bool:
    """Whether the target claims pair integrity, so PAIR-6 and PAIR-7 apply (PAIR-5)."""
    return Claim.PAIR_INTEGRITY in context.claims


def _skip(reason: str) -> Test:
    def test() -> None:
        raise SkipCheck(reason)

    return test


#: Why a check of the tiers does not run for a target without them.
NO_TIERS = "the target has no tiers (options: tiers=False)"


def _for_target(context: CheckContext, budget: ContextBudget | None) -> ContextBudget | None:
    """*budget* with both tiers off when the target has none."""
    if budget is None or _tiers(context):
        return budget
    return attrs.evolve(budget, max_recent_tool_results=None, trim_old_reasoning=False)


def _project(
    context: CheckContext, items: Sequence[JsonValue], budget: ContextBudget | None
) -> ContextProjection:
    """Record the example, then project it with a fresh instance."""
    context.record(items=items, budget=budget)
    projector: ContextProjector = context.subject()
    return projector.project(items, budget)


def _reference(context: CheckContext) -> ContextProjector:
    if _pair_safe(context):
        return PairSafeContextProjector(tiers=_tiers(context))
    return TypeAwareContextProjector() if _tiers(context) else DefaultContextProjector()


def _expected(
    context: CheckContext, items: Sequence[JsonValue], budget: ContextBudget | None
) -> Expected:
    """The suite's own projection of *items* by the target's algorithm (§5.3, §5.4, §5.5)."""
    return expected_projection(items, budget, tiers=_tiers(context), pair_safe=_pair_safe(context))


def _report_difference(got: ContextReport, want: ContextReport) -> str | None:
    for field in attrs.fields(ContextReport):
        mine, theirs = getattr(got, field.name), getattr(want, field.name)
        if mine != theirs:
            name = camel_case(field.name)
            return f"report {name}: expected {describe(theirs)} but got {describe(mine)}"
    return None


def _item_difference(got: Sequence[object], want: Sequence[object]) -> str | None:
    for index, (mine, theirs) in enumerate(zip(got, want, strict=False)):
        if not identical(mine, theirs):
            return f"item {index}: expected {describe(theirs)} but got {describe(mine)}"
    if len(got) != len(want):
        return f"expected {len(want)} items but got {len(got)}: {describe(list(got))}"
    return None


def _expect_same(
    context: CheckContext,
    what: str,
    got: ContextProjection,
    want_items: Sequence[object],
    want_report: ContextReport,
) -> None:
    """Items identical (JSON-10) and reports equal, or a message naming the first difference."""
    problem = _item_difference(got.items, want_items) or _report_difference(got.report, want_report)
    context.expect(problem is None, f"{what}: {problem}")


def _kept(
    context: CheckContext, items: Sequence[JsonValue], projection: ContextProjection
) -> list[int]:
    kept, reason = kept_positions(items, projection.items, projection.report)
    context.expect(kept is not None, reason)
    assert kept is not None  # noqa: S101 - expect raised otherwise
    return kept


def _kept_exactly(
    context: CheckContext, items: Sequence[JsonValue], projection: ContextProjection
) -> list[int]:
    context.expect(
        projection.report.dropped_indices is not None,
        "an exact projector reports droppedIndices (RPT-8) but got null",
    )
    return _kept(context, items, projection)


def _kept_for(
    context: CheckContext,
    items: Sequence[JsonValue],
    projection: ContextProjection,
    *,
    latest: bool = False,
) -> set[int]:
    kept, reason = kept_positions(items, projection.items, projection.report, latest=latest)
    context.expect(kept is not None, reason)
    assert kept is not None  # noqa: S101 - expect raised otherwise
    return set(kept)


def _units_text(units: Sequence[Sequence[int]]) -> str:
    return ", ".join("{" + ", ".join(map(str, unit)) + "}" for unit in units)


def _classic_examples(limit: int | None = None) -> list[Case]:
    return [(items, budget) for _, items, budget in classic_cases(limit=limit)]
