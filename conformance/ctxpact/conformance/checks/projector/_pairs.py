"""Projector checks of pair integrity and wire validity.

For a projector that claims never to separate a tool call from its results (PAIR-1 .. PAIR-5,
PAIR-9) and for one that claims never to turn a list a provider accepts into one it rejects
(WIRE-18, ``options["providers"]``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SubjectError, describe
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._pairing import broken_pairs, pairs
from ctxpact.conformance._registry import Builder, check
from ctxpact.conformance.checks._classics import claimed_providers, classic_cases, with_examples
from ctxpact.conformance.checks._projection_support import (
    Case,
)
from ctxpact.conformance.checks.projector._common import (
    _PAIRS,
    _WIRE,
    Test,
    WireCase,
    _classic_examples,
    _kept,
    _kept_for,
    _project,
    _tiers,
)
from ctxpact.conformance.checks.projector._examples import (
    _tool_result,
    carriers,
    paired,
    tier1_example,
)
from ctxpact.spec import (
    PROVIDERS,
    ContextBudget,
    ContextProjection,
    JsonValue,
    wire_problems,
)


def _pair_claim(check_id: str, *clauses: str) -> Callable[[Builder], Check]:
    return check(
        check_id, component=Component.PROJECTOR, claim=Claim.PAIR_INTEGRITY, clauses=clauses
    )


def _wire_claim(check_id: str, *clauses: str) -> Callable[[Builder], Check]:
    return check(check_id, component=Component.PROJECTOR, claim=Claim.WIRE_VALID, clauses=clauses)


def _provider_words(items: Sequence[JsonValue], index: int) -> str:
    """What a provider answers about output item *index*, in its own words, if any does."""
    for provider in PROVIDERS:
        for problem in wire_problems(items, provider):
            if problem.position == index and problem.rule not in {"WIRE-2", "WIRE-3"}:
                return f"; {provider} answers {problem.message!r} ({problem.rule})"
    return ""


def _orphan_message(
    items: Sequence[JsonValue],
    projection: ContextProjection,
    kept: list[int],
    result: int,
    call: int,
) -> str:
    output = list(projection.items)
    if result in kept:
        index = kept.index(result)
        return (
            f"the tool result at {result} ({describe(items[result], 120)}) is kept but its call "
            f"at {call} ({describe(items[call], 120)}) was dropped" + _provider_words(output, index)
        )
    index = kept.index(call)
    return (
        f"the tool call at {call} ({describe(items[call], 120)}) is kept but its result at "
        f"{result} ({describe(items[result], 120)}) was dropped" + _provider_words(output, index)
    )


@_pair_claim("projector.pair-integrity", "PAIR-1", "PAIR-2", "PAIR-3", "PAIR-4", "PAIR-5", "PAIR-9")
def pair_integrity(context: CheckContext) -> Test:
    """A projection keeps every call with its results: no orphaned result, no lonely call.

    A tool result's call is the latest earlier item declaring a tool call with its call id,
    in any of the three shapes (PAIR-1); a result represented needs its call represented, and
    a call represented needs every result it has in the source (PAIR-4). Orphans and pending
    calls of the source constrain nothing (PAIR-9). Budgets are aimed at the units' edges.
    """

    @given(case=_PAIRS[_tiers(context)])
    @example(case=(paired(), ContextBudget(max_items=1)))
    @example(case=(paired(), ContextBudget(max_approx_chars=100)))
    @example(case=(tier1_example(), ContextBudget(max_items=3, max_recent_tool_results=0)))
    @example(case=(carriers(), ContextBudget(max_items=2)))
    @example(
        case=(
            [_tool_result("orphan", "lost"), *paired(), {"type": "function_call", "call_id": "p"}],
            ContextBudget(max_items=3),
        )
    )
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        pairing = pairs(items)
        kept = _kept(context, items, projection)
        broken = broken_pairs(pairing, kept)
        if broken and projection.report.dropped_indices is None:
            # Without droppedIndices, any reading of the output that keeps the pairs will do.
            latest = sorted(_kept_for(context, items, projection, latest=True))
            if not broken_pairs(pairing, latest):
                return
        for result, call in broken[:1]:
            context.expect(
                condition=False, message=_orphan_message(items, projection, kept, result, call)
            )

    return with_examples(test, "case", _classic_examples())


def _erring(reason: str) -> Test:
    """A test that errors: a claim that cannot be checked must not pass for a checked one."""

    def test() -> None:
        raise SubjectError(reason)

    return test


def wire_precondition(items: Sequence[JsonValue], provider: str) -> None:
    """WIRE-18's precondition, which the suite's inputs meet: *provider* accepts *items*."""
    problems = wire_problems(items, provider)
    if problems:
        message = f"the suite generated a list {provider} rejects ({problems[0]}): a suite bug"
        raise AssertionError(message)


@_wire_claim("projector.wire-valid", "WIRE-18", *(f"WIRE-{n}" for n in range(2, 17)))
def wire_valid(context: CheckContext) -> Test:
    """A list a provider accepts projects to one it accepts, for every claimed provider.

    The inputs are lists ``wire_problems`` finds nothing in for the provider (the claim's
    precondition, WIRE-18); the output must be one too, under every budget. A failure quotes
    the rule the output breaks in the provider's own words: the 400 it would cause.
    """
    providers = claimed_providers(context)
    if isinstance(providers, str):
        return _erring(providers)
    tiers = _tiers(context)

    @given(case=st.one_of(*(_WIRE[(provider, tiers)] for provider in providers)))
    def test(case: WireCase) -> None:
        provider, items, budget = case
        if provider not in providers:
            return
        wire_precondition(items, provider)
        projection = _project(context, items, budget)
        output = list(projection.items)
        problems = wire_problems(output, provider)
        context.expect(
            not problems,
            f"{provider} accepts the source list but not the output: "
            + "; ".join(
                f"{problem.rule} at output item {problem.position} "
                f"({describe(problem.item, 120)}): the API answers {problem.message!r}"
                for problem in problems[:3]
            ),
        )

    return with_examples(test, "case", classic_cases())
