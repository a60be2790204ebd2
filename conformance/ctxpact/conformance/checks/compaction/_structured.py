"""Exact compact-policy checks: the structured-summary policy of ``options["budget"]``.

When it compacts (CMP-10), a differential check, bounded nesting and the vectors (CMP-5, CMP-9,
CMP-11 .. CMP-14).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck
from ctxpact.conformance._model import Claim
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import (
    ScriptedModelClient,
    first_difference,
    previous_summaries,
    text_difference,
)
from ctxpact.conformance.checks.compaction._common import _POLICY
from ctxpact.conformance.checks.compaction._llm import _skipping
from ctxpact.conformance.strategies import (
    transcripts,
)
from ctxpact.conformance.vectors import vectors_for
from ctxpact.reference.compaction import (
    COMPACT_SUMMARY_MARKER,
    EXISTING_SUMMARY_LINE,
    StructuredSummaryCompactPolicy,
)
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    JsonValue,
    MemorySnapshot,
    from_json,
    to_json,
)

_BUDGET_OPTIONS = "the exact compact-policy checks need options={'budget': ContextBudget(...)}"


def _budget(context: CheckContext) -> ContextBudget | None:
    budget = context.options.get("budget")
    return budget if isinstance(budget, ContextBudget) else None


@st.composite
def _structured_summaries(draw: st.DrawFn, budget: ContextBudget) -> str | None:
    """A previous summary: none, blank, prose, or one of the policy's own, as written or edited."""
    kind = draw(st.sampled_from(["none", "prose", "own", "own", "edited"]))
    if kind == "none":
        return None
    if kind == "prose":
        return draw(previous_summaries())
    earlier = MemorySnapshot(
        items=draw(transcripts(max_turns=2, max_steps=2)), summary=draw(previous_summaries())
    )
    summary = StructuredSummaryCompactPolicy(budget).compact(earlier).summary or ""
    if kind == "edited":
        lines = summary.split("\n")
        lines.insert(
            draw(st.integers(0, len(lines))),
            draw(
                st.sampled_from(
                    [
                        "",
                        " ",
                        EXISTING_SUMMARY_LINE,
                        "Context projection: 1/2 items retained.",
                        "note",
                    ]
                )
            ),
        )
        summary = draw(st.sampled_from(["", "  ", "\n"])) + "\n".join(lines)
    return summary


@check(
    "compaction.structured.should-compact",
    component=_POLICY,
    claim=Claim.EXACT,
    clauses=("CMP-10",),
)
def structured_should_compact(context: CheckContext) -> Callable[[], None]:
    """should_compact is true exactly when the budget's maxItems is set and exceeded."""
    budget = _budget(context)
    if budget is None:
        return _skipping(_BUDGET_OPTIONS)
    limit = budget.max_items or 0

    @given(size=st.integers(max(0, limit - 2), limit + 3), summary=previous_summaries())
    @example(size=limit, summary=None)
    @example(size=limit + 1, summary="x")
    def test(size: int, summary: str | None) -> None:
        snapshot = MemorySnapshot(items=[f"item {i}" * 50 for i in range(size)], summary=summary)
        context.record(snapshot=snapshot, budget=budget)
        answer = context.subject(ScriptedModelClient()).should_compact(snapshot)
        expected = budget.max_items is not None and size > budget.max_items
        context.expect(
            answer == expected,
            f"should_compact is {answer} for {size} items under maxItems {budget.max_items} "
            "(CMP-10: only the item count matters)",
        )

    return test


@check(
    "compaction.structured.differential",
    component=_POLICY,
    claim=Claim.EXACT,
    clauses=("CMP-5", "CMP-9", "CMP-11", "CMP-12", "CMP-13", "CMP-14"),
)
def structured_differential(context: CheckContext) -> Callable[[], None]:
    """Compact gives the reference's result: retained items, summary lines, report, empty lists."""
    budget = _budget(context)
    if budget is None:
        return _skipping(_BUDGET_OPTIONS)

    @given(items=transcripts(max_turns=3, max_steps=2), summary=_structured_summaries(budget))
    @example(
        items=["goal", "done", "pending", "decision", "recent", "x"], summary="previous summary"
    )
    @example(items=["a", "b", "c", "d", "e", "f"], summary=" \n\t")
    @example(
        items=["a", "b"],
        summary=f"{COMPACT_SUMMARY_MARKER}\n{EXISTING_SUMMARY_LINE}\nkeep me\n"
        "Context projection: 4/9 items retained, 5 dropped.\n"
        "Preserved recent items should be treated as the authoritative working context.",
    )
    def test(items: list[JsonValue], summary: str | None) -> None:
        snapshot = MemorySnapshot(items=items, summary=summary)
        context.record(snapshot=snapshot, budget=budget)
        expected = StructuredSummaryCompactPolicy(budget).compact(copy.deepcopy(snapshot))
        actual = context.subject(ScriptedModelClient()).compact(snapshot)
        context.expect(isinstance(actual, CompactResult), f"compact returned {actual!r}")
        if actual.summary != expected.summary:
            context.expect(
                condition=False,
                message="the summary is wrong (CMP-12, CMP-13): "
                + text_difference(expected.summary or "", actual.summary or ""),
            )
        difference = first_difference(to_json(expected), to_json(actual))
        context.expect(difference is None, f"{difference} (CMP-5, CMP-11, CMP-14)")

    return test


@check(
    "compaction.structured.bounded-nesting",
    component=_POLICY,
    claim=Claim.EXACT,
    clauses=("CMP-13",),
)
def structured_bounded_nesting(context: CheckContext) -> Callable[[], None]:
    """Repeated compaction carries the first summary once and reaches a fixed point.

    Each result's memory, plus new items, is compacted again three times: the summary keeps
    one marker line and at most one ``Existing summary:`` line; then compacting the last
    memory twice more gives the same summary both times.
    """
    budget = _budget(context)
    if budget is None:
        return _skipping(_BUDGET_OPTIONS)

    @given(
        first=st.builds(
            MemorySnapshot,
            items=transcripts(max_turns=2, max_steps=2),
            summary=previous_summaries(),
        ),
        more=st.lists(st.lists(st.text(max_size=6), max_size=4), min_size=3, max_size=3),
    )
    @example(
        first=MemorySnapshot(items=["a", "b", "c", "d", "e", "f"], summary="the user wants a CLI"),
        more=[["g", "h"], ["i"], ["j", "k", "l"]],
    )
    def test(first: MemorySnapshot, more: list[list[JsonValue]]) -> None:
        context.record(first=first, more=more, budget=budget)
        policy = context.subject(ScriptedModelClient())
        snapshot = first
        for step, added in enumerate(more, 1):
            result = policy.compact(snapshot)
            summary = result.summary or ""
            lines = summary.split("\n")
            context.expect(
                lines.count(COMPACT_SUMMARY_MARKER) == 1
                and lines.count(EXISTING_SUMMARY_LINE) <= 1,
                f"after {step} compactions the summary holds the marker line "
                f"{lines.count(COMPACT_SUMMARY_MARKER)} times and 'Existing summary:' "
                f"{lines.count(EXISTING_SUMMARY_LINE)} times (CMP-13: a nested summary of this "
                "policy carries only what it carried)",
            )
            memory = result.memory or snapshot
            snapshot = MemorySnapshot(items=[*memory.items, *added], summary=memory.summary)
            context.step("compact", snapshot=snapshot)
        settled = policy.compact(snapshot).memory or snapshot
        once = policy.compact(settled)
        twice = policy.compact(once.memory or settled)
        context.expect(
            once.summary == twice.summary,
            "compacting the policy's own output again with the same projection changed the "
            "summary (CMP-13): " + text_difference(once.summary or "", twice.summary or ""),
        )

    return test


@check(
    "compaction.structured.vectors",
    component=_POLICY,
    claim=Claim.EXACT,
    clauses=("CMP-11", "CMP-12", "CMP-13", "CMP-14"),
)
def structured_vectors(context: CheckContext) -> Callable[[], None]:
    """The compact_structured vectors whose budget is the policy's give their result.

    A policy is built with one budget; vectors of other budgets are run by the suite's own
    tests against the reference.
    """
    budget = _budget(context)
    if budget is None:
        return _skipping(_BUDGET_OPTIONS)

    def test() -> None:
        vectors = [
            v
            for v in vectors_for("compact_structured")
            if from_json(ContextBudget, v.input["budget"]) == budget
        ]
        if not vectors:
            raise SkipCheck(f"no compact_structured vector uses the budget {budget}")
        for vector in vectors:
            context.record(vector=vector.document())
            snapshot = from_json(MemorySnapshot, vector.input["snapshot"])
            result = context.subject(ScriptedModelClient()).compact(snapshot)
            expected = to_json(from_json(CompactResult, vector.expected))
            difference = first_difference(expected, to_json(result))
            context.expect(
                difference is None, f"vector {vector.id} ({vector.description}): {difference}"
            )

    return test
