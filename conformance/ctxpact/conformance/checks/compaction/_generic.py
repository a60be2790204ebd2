"""Generic compact-policy checks: what any policy promises (CMP-1 .. CMP-4, CMP-15 .. CMP-19).

A pure ``should_compact``, no mutation, a valid result, the kept items verbatim, the summary
kept, the context report and an empty memory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import example, given

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._model import Claim
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import (
    PLAIN_ANSWER,
    ModelAnswer,
    ScriptedModelClient,
    java_trim,
    kept_positions,
    snapshot_text,
    successful_answers,
)
from ctxpact.conformance.checks._projection_support import json_equal
from ctxpact.conformance.checks.compaction._common import (
    _FILES_TURN,
    _PAIRED,
    _POLICY,
    _SINGLE_TURN,
    _compact,
    _snapshots,
)
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import (
    CompactResult,
    MemorySnapshot,
    SchemaValidationError,
    compact_json,
    to_json,
    validate,
)


@check(
    "compaction.should-compact-pure",
    component=_POLICY,
    claim=Claim.GENERIC,
    clauses=("CMP-1", "JSON-16"),
)
def should_compact_pure(context: CheckContext) -> Callable[[], None]:
    """should_compact answers a bool, changes nothing and answers the same when asked again."""

    @given(snapshot=_snapshots())
    @example(snapshot=MemorySnapshot(items=_PAIRED, summary="earlier"))
    @example(snapshot=MemorySnapshot(items=_SINGLE_TURN))
    def test(snapshot: MemorySnapshot) -> None:
        context.record(snapshot=snapshot)
        before = snapshot_text(snapshot)
        policy = context.subject(ScriptedModelClient())
        first = policy.should_compact(snapshot)
        context.expect(
            snapshot_text(snapshot) == before,
            "should_compact changed the snapshot it was given (CMP-1, JSON-16)",
        )
        context.expect(
            isinstance(first, bool),
            f"should_compact returned {type(first).__name__} {first!r}, not a bool (CMP-1)",
        )
        second = policy.should_compact(snapshot)
        context.expect(
            second == first,
            f"should_compact answered {first} and then {second} for the same snapshot: it "
            "must have no side effects (CMP-1)",
        )

    return test


@check(
    "compaction.compact-no-mutation",
    component=_POLICY,
    claim=Claim.GENERIC,
    clauses=("CMP-1", "CMP-2", "JSON-3", "JSON-16"),
)
def compact_no_mutation(context: CheckContext) -> Callable[[], None]:
    """Compact leaves the snapshot, its items and their member order exactly as they were.

    A snapshot is an immutable value (CMP-2) down to its items (JSON-16): after ``compact`` its
    compact JSON text must be the same string.
    """

    @given(snapshot=_snapshots(), answer=successful_answers())
    @example(snapshot=MemorySnapshot(items=_PAIRED, summary="earlier"), answer=PLAIN_ANSWER)
    @example(snapshot=MemorySnapshot(items=_FILES_TURN), answer=PLAIN_ANSWER)
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        context.record(snapshot=snapshot, model_answer=answer.document())
        before = snapshot_text(snapshot)
        _compact(context.subject(ScriptedModelClient([answer])), snapshot)
        context.expect(
            snapshot_text(snapshot) == before,
            "compact changed the snapshot it was given (CMP-1, CMP-2, JSON-16): it is now "
            f"{describe(snapshot_text(snapshot))}",
        )

    return test


@check(
    "compaction.result-valid",
    component=_POLICY,
    claim=Claim.GENERIC,
    clauses=("CMP-1", "CMP-3", "CMP-4", "JSON-14"),
)
def result_valid(context: CheckContext) -> Callable[[], None]:
    """Compact returns a CompactResult whose document, memory included, validates.

    A null ``memory`` is valid: it means "leave the memory as it is" (CMP-4); what the runtime
    then does is checked with the runtime.
    """

    @given(snapshot=_snapshots(), answer=successful_answers())
    @example(snapshot=MemorySnapshot(items=_PAIRED, summary="earlier"), answer=PLAIN_ANSWER)
    @example(snapshot=MemorySnapshot(), answer=PLAIN_ANSWER)
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        context.record(snapshot=snapshot, model_answer=answer.document())
        policy = context.subject(ScriptedModelClient([answer]))
        try:
            result = _compact(policy, snapshot)
        except Exception as error:  # noqa: BLE001 - any error is the finding
            context.expect(
                condition=False,
                message=f"compact raised {type(error).__name__}: {error} on a valid snapshot "
                "(CMP-1: compact returns a CompactResult)",
            )
        context.expect(result is not None, "compact returned None (CMP-1: never null)")
        context.expect(
            isinstance(result, CompactResult),
            f"compact returned a {type(result).__name__}, not a CompactResult (CMP-1, CMP-3)",
        )
        try:
            document = to_json(result)
            validate(document, "compact-result")
            if result.memory is not None:
                validate(to_json(result.memory), "memory-snapshot")
        except (SchemaValidationError, TypeError, ValueError) as error:
            context.expect(
                condition=False,
                message=f"the result does not validate against its schema (JSON-14): {error}",
            )

    return test


def _compacted(context: CheckContext, snapshot: MemorySnapshot, answer: ModelAnswer) -> Any:  # noqa: ANN401 - the subject's own
    """Compact *snapshot* with a fresh policy whose model gives *answer*; errors are findings."""
    context.record(snapshot=snapshot, model_answer=answer.document())
    policy = context.subject(ScriptedModelClient([answer]))
    try:
        result = _compact(policy, snapshot)
    except Exception as error:  # noqa: BLE001 - any error is the finding
        context.expect(
            condition=False,
            message=f"compact raised {type(error).__name__}: {error} on a valid snapshot (CMP-1)",
        )
    context.expect(
        isinstance(result, CompactResult),
        f"compact returned a {type(result).__name__}, not a CompactResult (CMP-1)",
    )
    return result


def _changed_item(snapshot: MemorySnapshot, memory: MemorySnapshot) -> str | None:
    """CMP-15: a memory item equal to a snapshot item but not identical to any (a changed one)."""
    texts = {compact_json(item) for item in snapshot.items}
    for index, item in enumerate(memory.items):
        if compact_json(item) in texts:
            continue
        for position, original in enumerate(snapshot.items):
            if json_equal(item, original):
                return (
                    f"memory item {index} ({describe(item, 120)}) is snapshot item {position} "
                    f"({describe(original, 120)}) changed (member order or number form): a "
                    "policy keeps an item verbatim or not at all (CMP-15)"
                )
    return None


@check(
    "compaction.kept-verbatim",
    component=_POLICY,
    claim=Claim.GENERIC,
    clauses=("CMP-15", "JSON-3", "JSON-10"),
)
def kept_verbatim(context: CheckContext) -> Callable[[], None]:
    """The items a compaction keeps stay verbatim and in the snapshot's order.

    A memory item identical to a snapshot item is kept; the kept items must be an
    order-preserving selection of the snapshot's items. An item equal to a snapshot item but
    not identical (members reordered, ``1`` for ``1.0``) is a kept item changed.
    """

    @given(snapshot=_snapshots(), answer=successful_answers())
    @example(snapshot=MemorySnapshot(items=_PAIRED, summary="earlier"), answer=PLAIN_ANSWER)
    @example(snapshot=MemorySnapshot(items=(*_SINGLE_TURN, 1, 1.0, "text")), answer=PLAIN_ANSWER)
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        result = _compacted(context, snapshot, answer)
        if result.memory is None:
            return
        changed = _changed_item(snapshot, result.memory)
        context.expect(changed is None, changed or "")
        texts = {compact_json(item) for item in snapshot.items}
        kept = [item for item in result.memory.items if compact_json(item) in texts]
        placed = kept_positions(snapshot.items, result.memory.items)
        context.expect(
            len(placed) == len(kept),
            f"the kept items {describe(kept)} are not in the snapshot's order: a policy never "
            "reorders what it keeps (CMP-15)",
        )

    return test


@check(
    "compaction.summary",
    component=_POLICY,
    claim=Claim.GENERIC,
    clauses=("CMP-16", "CMP-17"),
)
def summary_kept(context: CheckContext) -> Callable[[], None]:
    """The summary reported is the memory's, and nothing summarized is lost without one.

    When ``memory`` is not null, ``summary`` equals ``memory.summary`` (CMP-16), and that
    summary is non-blank whenever the snapshot had a non-blank summary or the compaction
    summarized some of its items (CMP-17).
    """

    @given(snapshot=_snapshots(), answer=successful_answers())
    @example(snapshot=MemorySnapshot(items=_PAIRED, summary="earlier"), answer=PLAIN_ANSWER)
    @example(snapshot=MemorySnapshot(items=_SINGLE_TURN), answer=PLAIN_ANSWER)
    @example(snapshot=MemorySnapshot(items=(), summary="only a summary"), answer=PLAIN_ANSWER)
    @example(snapshot=MemorySnapshot(items=_PAIRED, summary=" \n "), answer=PLAIN_ANSWER)
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        result = _compacted(context, snapshot, answer)
        memory = result.memory
        if memory is None:
            return
        context.expect(
            result.summary == memory.summary,
            f"the result's summary is {describe(result.summary, 120)} but its memory's is "
            f"{describe(memory.summary, 120)}: the summary reported is the one the memory gets "
            "(CMP-16)",
        )
        summarized = len(snapshot.items) - len(kept_positions(snapshot.items, memory.items))
        had = snapshot.summary is not None and java_trim(snapshot.summary) != ""
        if summarized or had:
            context.expect(
                memory.summary is not None and java_trim(memory.summary) != "",
                f"the memory's summary is {describe(memory.summary)} although "
                + (
                    f"{summarized} snapshot item(s) were summarized"
                    if summarized
                    else f"the snapshot's summary was {describe(snapshot.summary, 120)}"
                )
                + ": what a compaction summarizes lives on only in the summary (CMP-17)",
            )

    return test


def _report_problem(  # noqa: PLR0911 - one return per finding
    snapshot: MemorySnapshot, result: CompactResult
) -> str | None:
    """CMP-18: the result's contextReport describes the compaction it reports."""
    report = result.context_report
    if report is None:
        return None
    count = len(snapshot.items)
    if report.source_item_count != count:
        return f"sourceItemCount is {report.source_item_count}, not the snapshot's {count} items"
    if result.memory is None:
        return None
    placed = kept_positions(snapshot.items, result.memory.items)
    kept = [snapshot.items[p] for p in placed]
    summarized = count - len(placed)
    for name, got, want in (
        ("droppedItemCount", report.dropped_item_count, summarized),
        ("projectedItemCount", report.projected_item_count, len(placed)),
        ("sourceApproxChars", report.source_approx_chars, sum(map(approx_chars, snapshot.items))),
        ("projectedApproxChars", report.projected_approx_chars, sum(map(approx_chars, kept))),
    ):
        if got != want:
            return (
                f"{name} is {got} but the compaction kept {len(placed)} of {count} item(s), "
                f"so it is {want}"
            )
    if (report.item_limit_applied or report.character_limit_applied) and not summarized:
        return "a limit flag is true but the compaction summarized nothing"
    if report.dropped_indices is not None:
        # The positions the report keeps must hold the kept items, in order (whichever of
        # two identical snapshot items the policy kept).
        listed = set(report.dropped_indices)
        rest = [compact_json(snapshot.items[p]) for p in range(count) if p not in listed]
        if rest != [compact_json(item) for item in kept] or len(listed) != summarized:
            return f"droppedIndices {list(report.dropped_indices)} are not the summarized positions"
    if report.cleared_indices:
        return f"clearedIndices {list(report.cleared_indices)}, but kept items are verbatim"
    return None


@check(
    "compaction.context-report",
    component=_POLICY,
    claim=Claim.GENERIC,
    clauses=("CMP-18", "PRJ-12", "RPT-7"),
)
def context_report(context: CheckContext) -> Callable[[], None]:
    """A contextReport tells the truth about the compaction: counts, sizes, flags, indices.

    Read as a projection of the snapshot's items to the items kept: ``sourceItemCount`` the
    snapshot's items, ``droppedItemCount`` those summarized, sizes by approx_chars, no limit
    flag when nothing was summarized, ``droppedIndices`` the summarized positions.
    """

    @given(snapshot=_snapshots(), answer=successful_answers())
    @example(snapshot=MemorySnapshot(items=_PAIRED, summary="earlier"), answer=PLAIN_ANSWER)
    @example(snapshot=MemorySnapshot(items=_PAIRED[:2]), answer=PLAIN_ANSWER)
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        result = _compacted(context, snapshot, answer)
        problem = _report_problem(snapshot, result)
        context.expect(
            problem is None,
            f"the contextReport does not describe the compaction: {problem} (CMP-18)",
        )

    return test


@check(
    "compaction.should-compact-empty",
    component=_POLICY,
    claim=Claim.GENERIC,
    clauses=("CMP-19", "CMP-1"),
)
def should_compact_empty(context: CheckContext) -> Callable[[], None]:
    """should_compact is false for an empty snapshot: nothing to shrink, nothing to compact."""

    def test() -> None:
        snapshot = MemorySnapshot()
        context.record(snapshot=snapshot)
        answer = context.subject(ScriptedModelClient()).should_compact(snapshot)
        context.expect(
            answer is False,
            f"should_compact answered {answer!r} for a snapshot with no items and no summary "
            "(CMP-19: a policy never asks to compact what cannot shrink)",
        )

    return test
