"""Checks for compact policies: generic invariants, the LLM summary rules, the structured policy.

Generic checks hold for any policy. ``llm-summary`` checks need ``options["max_items"]`` (the
policy's keep-recent count, and ``options["model_name"]`` when it is not ``""``); they drive
the policy with a scripted model and compare what it sends and returns with
:class:`~ctxpact.reference.compaction.LlmCompactPolicy` built the same way. ``exact`` checks
need ``options["budget"]`` and compare with
:class:`~ctxpact.reference.compaction.StructuredSummaryCompactPolicy` of that budget.

``find_turn_boundary_cut``, ``extract_file_operations`` and ``render_structured_summary`` are
helper functions of the spec, not components a user hands to the suite; their clauses are
checked where they are observable, through the LLM policy: the items it keeps show its cut,
its file lists show the file tracking, its summary shows the rendering. Their vectors are lifted
onto the policy the same way (see :func:`cut_vectors`).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from typing import Any

from attrs import evolve, frozen
from hypothesis import assume, example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck, SubjectError, describe
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._pairing import declared_calls, pairs
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._classics import TRANSCRIPTS, claimed_providers, with_examples
from ctxpact.conformance.checks._compaction_support import (
    FIXED_OUTPUTS,
    PLAIN_ANSWER,
    RAISES,
    ModelAnswer,
    ScriptedModelClient,
    assistant,
    chat_call,
    failing_answers,
    file_tool_items,
    first_difference,
    greatest_user_input,
    items_text,
    java_trim,
    kept_positions,
    llm_snapshots,
    previous_summaries,
    quiet_reference_logs,
    said,
    separated_units,
    snapshot_text,
    successful_answers,
    text_difference,
    tool_result,
    user,
)
from ctxpact.conformance.checks._projection_support import json_equal
from ctxpact.conformance.strategies import (
    adversarial_transcripts,
    provider_transcripts,
    transcripts,
)
from ctxpact.conformance.vectors import Vector, vectors_for
from ctxpact.reference.compaction import (
    COMPACT_SUMMARY_MARKER,
    EXISTING_SUMMARY_LINE,
    SUMMARY_UNAVAILABLE,
    LlmCompactPolicy,
    StructuredSummaryCompactPolicy,
    extract_file_operations,
    find_turn_boundary_cut,
    parse_structured_summary,
    read_file_sections,
)
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import (
    PROVIDERS,
    CompactResult,
    ContextBudget,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    SchemaValidationError,
    StructuredSummary,
    compact_json,
    from_json,
    to_json,
    validate,
    wire_problems,
)

_POLICY = Component.COMPACT_POLICY

# Snapshots the explicit examples use.
_CALL = chat_call("c1", "read_file", {"path": "src/app.py"})
_PAIRED = (user("fix the bug"), _CALL, tool_result("c1"), assistant("done"), user("thanks"))
_SINGLE_TURN = (
    user("start"),
    chat_call("c1", "bash", {}),
    tool_result("c1"),
    chat_call("c2", "bash", {}),
    tool_result("c2"),
    chat_call("c3", "bash", {}),
    tool_result("c3"),
    assistant("finished"),
)
_FILES_TURN = (
    user("edit the app"),
    chat_call("c1", "read_file", {"path": "src/app.py"}),
    tool_result("c1"),
    chat_call("c2", "tools", {"path": "not/a/file-tool.py"}),
    chat_call("c3", "write_file", {"path": "src/app.py"}),
    user("next"),
    assistant("a"),
    assistant("b"),
    assistant("c"),
)
#: The transcripts above, for the suite's own test that no check's examples are shared state.
EXAMPLE_TRANSCRIPTS = (_PAIRED, _SINGLE_TURN, _FILES_TURN)
_WORKED = MemorySnapshot(
    items=tuple(user(text) for text in ("one", "two", "three", "four", "five")),
    summary="Pending: [add tests]; Decisions: [use JWT]",
)


#: Snapshots of well-paired transcripts and of broken ones (PAIR-9), with a previous summary.
_SNAPSHOTS = st.builds(
    MemorySnapshot,
    items=st.one_of(
        transcripts(max_turns=3, max_steps=2, pending=True),
        adversarial_transcripts(max_turns=3, max_steps=2),
    ),
    summary=previous_summaries(),
)


def _snapshots() -> st.SearchStrategy[MemorySnapshot]:
    return _SNAPSHOTS


def _compact(policy: Any, snapshot: MemorySnapshot) -> Any:  # noqa: ANN401 - the subject's own
    with quiet_reference_logs():
        return policy.compact(snapshot)


# -- generic -----------------------------------------------------------------------------------


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


# -- pair integrity and wire validity ------------------------------------------------------------

#: Well-paired snapshots (a pending step at the tail at times) and broken ones (PAIR-9).
_PAIR_SNAPSHOTS = st.builds(
    MemorySnapshot,
    items=st.one_of(
        transcripts(max_turns=3, max_steps=2, pending=True),
        transcripts(max_turns=3, max_steps=2, pending=True),
        transcripts(max_turns=3, max_steps=2, pending=True),
        adversarial_transcripts(max_turns=3, max_steps=2),
    ),
    summary=previous_summaries(),
)
_WIRE_SNAPSHOTS = {
    provider: st.tuples(
        st.just(provider),
        st.builds(
            MemorySnapshot, items=provider_transcripts(provider), summary=previous_summaries()
        ),
    )
    for provider in PROVIDERS
}


def _classic_snapshots() -> list[tuple[str, MemorySnapshot]]:
    """Each provider's classic transcript (see ``_classics``), which the provider accepts."""
    return [(provider, MemorySnapshot(items=build())) for provider, build in TRANSCRIPTS.items()]


def _pair_examples() -> list[MemorySnapshot]:
    """The classic transcripts, whole and less their last item, and the units a cut may split.

    A reasoning item with its call just before the naive cut of a small policy, a snapshot
    that already holds an orphan (PAIR-9).
    """
    examples = [
        MemorySnapshot(items=items)
        for build in TRANSCRIPTS.values()
        for items in (build(), build()[:-1])
    ]
    reasoning: list[JsonValue] = [
        user("go"),
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "call_id": "c1", "name": "ls", "arguments": "{}"},
        tool_result("c1"),
        assistant("a"),
        assistant("b"),
    ]
    examples.append(MemorySnapshot(items=reasoning))
    examples.append(MemorySnapshot(items=(tool_result("orphan"), *_PAIRED), summary="earlier"))
    return examples


def _orphan_problem(snapshot: MemorySnapshot, memory: MemorySnapshot) -> str | None:
    """PAIR-8: orphans and pending calls in memory that the snapshot did not have; split units."""
    before, after = pairs(snapshot.items), pairs(memory.items)
    orphan_ids = {link.call_id for link in before.orphans()}
    for link in after.orphans():
        if link.call_id not in orphan_ids:
            return (
                f"memory item {link.position} ({describe(memory.items[link.position], 120)}) is a "
                f"tool result whose call {describe(link.call_id)} the compaction summarized away"
            )
    pending_ids = {link.call_id for link in before.pending()}
    for call in after.pending():
        if call.call_id not in pending_ids:
            return (
                f"memory item {call.position} ({describe(memory.items[call.position], 120)}) "
                f"declares the call {describe(call.call_id)} whose results were summarized away"
            )
    split: list[str] = []
    # Snapshots may repeat an item: either reading of which copy was kept will do.
    for latest in (False, True):
        kept = set(kept_positions(snapshot.items, memory.items, latest=latest))
        split = [
            f"the unit of snapshot positions {list(unit)} was kept only in part "
            f"({sorted(set(unit) & kept)}): a policy summarizes whole units"
            for unit in before.units
            if set(unit) & kept and not set(unit) <= kept
        ]
        if not split:
            return None
    return split[0]


@check(
    "compaction.pair-integrity",
    component=_POLICY,
    claim=Claim.PAIR_INTEGRITY,
    clauses=("PAIR-8", "PAIR-3", "PAIR-9"),
)
def compaction_pair_integrity(context: CheckContext) -> Callable[[], None]:
    """A compaction never leaves an orphan or a lonely call in memory, in any shape.

    Every orphan among the memory's items was an orphan of the snapshot already (by call id),
    every pending call was pending already, and the units a compaction summarizes it
    summarizes whole (PAIR-8); orphans of the snapshot constrain nothing (PAIR-9).
    """

    @given(snapshot=_PAIR_SNAPSHOTS)
    @example(snapshot=MemorySnapshot(items=_PAIRED, summary="earlier"))
    @example(snapshot=MemorySnapshot(items=_SINGLE_TURN))
    def test(snapshot: MemorySnapshot) -> None:
        result = _compacted(context, snapshot, PLAIN_ANSWER)
        if result.memory is None:
            return
        problem = _orphan_problem(snapshot, result.memory)
        context.expect(problem is None, f"{problem} (PAIR-8)")

    return with_examples(test, "snapshot", _pair_examples())


def _erring(reason: str) -> Callable[[], None]:
    def test() -> None:
        raise SubjectError(reason)

    return test


@check(
    "compaction.wire-valid",
    component=_POLICY,
    claim=Claim.WIRE_VALID,
    clauses=("WIRE-18",),
)
def compaction_wire_valid(context: CheckContext) -> Callable[[], None]:
    """A snapshot a provider accepts compacts to a memory it accepts, for each claimed provider.

    The snapshots' items have no problems for the provider (WIRE-18's precondition); the
    memory's items must have none either. A failure quotes the provider's own words.
    """
    providers = claimed_providers(context)
    if isinstance(providers, str):
        return _erring(providers)

    @given(case=st.one_of(*(_WIRE_SNAPSHOTS[p] for p in providers)))
    def test(case: tuple[str, MemorySnapshot]) -> None:
        provider, snapshot = case
        if provider not in providers:
            return
        if wire_problems(snapshot.items, provider):
            message = f"the suite generated a snapshot {provider} rejects: a suite bug"
            raise AssertionError(message)
        result = _compacted(context, snapshot, PLAIN_ANSWER)
        if result.memory is None:
            return
        problems = wire_problems(result.memory.items, provider)
        context.expect(
            not problems,
            f"{provider} accepts the snapshot's items but not the memory's: "
            + "; ".join(
                f"{problem.rule} at memory item {problem.position} "
                f"({describe(problem.item, 120)}): the API answers {problem.message!r}"
                for problem in problems[:3]
            )
            + " (WIRE-18)",
        )

    return with_examples(test, "case", _classic_snapshots())


# -- llm-summary -------------------------------------------------------------------------------


@frozen(kw_only=True)
class _Run:
    """What one compaction did: the result (or the error) and the prompts the model saw."""

    result: CompactResult | None
    error: Exception | None
    prompts: tuple[ModelPrompt, ...]


_LLM_OPTIONS = (
    "the llm-summary checks need options={'max_items': N}, the policy's keep-recent count"
)


def _llm_settings(context: CheckContext) -> tuple[int, str] | None:
    """``options["max_items"]`` and ``options["model_name"]``, or ``None`` when not given."""
    max_items = context.options.get("max_items")
    if isinstance(max_items, bool) or not isinstance(max_items, int) or max_items < 0:
        return None
    model_name = context.options.get("model_name") or ""
    return max_items, str(model_name)


def _skipping(reason: str) -> Callable[[], None]:
    """A test that errors: the target claims the check but did not give the options it needs.

    Not a skip: a claim that cannot be checked must not pass for a checked one.
    """

    def test() -> None:
        raise SubjectError(f"the target claims this check, but {reason}")

    return test


def _prompt_text(run: _Run) -> str:
    return describe(to_json(run.prompts[0])) if run.prompts else "nothing"


def _run_subject(
    context: CheckContext, snapshot: MemorySnapshot, answers: Sequence[ModelAnswer]
) -> _Run:
    client = ScriptedModelClient(answers)
    policy = context.subject(client)
    try:
        result = _compact(policy, snapshot)
    except Exception as error:  # noqa: BLE001 - the caller decides whether an error is a finding
        return _Run(result=None, error=error, prompts=tuple(client.prompts))
    return _Run(result=result, error=None, prompts=tuple(client.prompts))


def _run_reference(
    context: CheckContext, snapshot: MemorySnapshot, answers: Sequence[ModelAnswer]
) -> _Run:
    settings = _llm_settings(context)
    assert settings is not None  # noqa: S101 - only llm-summary checks with options get here
    max_items, model_name = settings
    client = ScriptedModelClient(answers)
    policy = LlmCompactPolicy(client, model_name, max_items=max_items)
    result = _compact(policy, copy.deepcopy(snapshot))
    return _Run(result=result, error=None, prompts=tuple(client.prompts))


def _result_of(context: CheckContext, run: _Run, what: str) -> CompactResult:
    if run.error is not None:
        context.expect(
            condition=False,
            message=f"compact raised {type(run.error).__name__}: {run.error} {what}",
        )
    context.expect(isinstance(run.result, CompactResult), f"compact returned {run.result!r} {what}")
    assert isinstance(run.result, CompactResult)  # noqa: S101 - narrowed by the expectation
    return run.result


def _kept(context: CheckContext, result: CompactResult) -> tuple[JsonValue, ...]:
    context.expect(
        result.memory is not None,
        "the result's memory is null: an LLM policy's result always carries the memory to "
        "restore (LLM-4, LLM-14)",
    )
    assert result.memory is not None  # noqa: S101 - narrowed by the expectation
    return result.memory.items


@check(
    "compaction.llm.requires-client",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-1",),
)
def requires_client(context: CheckContext) -> Callable[[], None]:
    """Building the policy without a model client fails.

    The factory is called with ``None`` for the client. (LLM-1's rejection of a bad
    ``max_items`` cannot be observed through a factory that fixes it.)
    """

    def test() -> None:
        context.record(model_client=None)
        try:
            context.factory(None)
        except Exception:  # noqa: BLE001 - any error is what LLM-1 asks for
            return
        context.expect(
            condition=False,
            message="the factory built a policy without a model client (LLM-1: constructing "
            "without one must fail with an error)",
        )

    return test


@check(
    "compaction.llm.should-compact",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-2", "CMP-1"),
)
def llm_should_compact(context: CheckContext) -> Callable[[], None]:
    """should_compact is true exactly when there are more than max_items items; no model call."""
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings
    sizes = st.integers(max(0, max_items - 2), max_items + 2)

    @given(size=sizes, items=transcripts(max_turns=2, max_steps=1), summary=previous_summaries())
    @example(size=max_items, items=[], summary=None)
    @example(size=max_items + 1, items=[], summary="earlier")
    def test(size: int, items: list[JsonValue], summary: str | None) -> None:
        padded = (items + [user(f"u{i}") for i in range(size)])[:size]
        snapshot = MemorySnapshot(items=padded, summary=summary)
        context.record(snapshot=snapshot, max_items=max_items)
        client = ScriptedModelClient()
        answer = context.subject(client).should_compact(snapshot)
        context.expect(
            not client.prompts, "should_compact called the model (LLM-2: it is not consulted)"
        )
        expected = len(padded) > max_items
        context.expect(
            answer == expected,
            f"should_compact is {answer} for {len(padded)} items with max_items {max_items} "
            f"(LLM-2: true exactly when there are more than max_items items)",
        )

    return test


@st.composite
def _blocked_turns(draw: st.DrawFn, max_items: int) -> list[JsonValue]:
    """A single turn in which every cut up to the naive one separates a call from its result."""
    count = draw(st.integers(max_items + 1, max_items + 4))
    call_ids = [f"p{index}" for index in range(count)]
    head: list[JsonValue] = []
    if draw(st.booleans()):
        head.append({"type": "reasoning", "id": "rs_1", "summary": []})
    if draw(st.booleans()):
        head.append(
            {
                "type": "message",
                "role": "assistant",
                "tool_calls": [
                    {"id": cid, "type": "function", "function": {"name": "grep", "arguments": "{}"}}
                    for cid in call_ids
                ],
            }
        )
    else:
        head.extend(
            {"type": "function_call", "call_id": cid, "name": "ls", "arguments": "{}"}
            for cid in call_ids
        )
    results: list[JsonValue] = [tool_result(cid) for cid in call_ids]
    return head + draw(st.permutations(results))


@check(
    "compaction.llm.cut-zero",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-4", "CUT-2", "CUT-5"),
)
def llm_cut_zero(context: CheckContext) -> Callable[[], None]:
    """When nothing can be summarized (cut 0) there is no model call and the memory is unchanged.

    The snapshots hold at most max_items items, or one turn in which every cut separates a
    tool result from its call.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings
    short = transcripts(max_turns=2, max_steps=2).map(
        lambda items: items[-max_items:] if max_items else []
    )
    snapshots = st.builds(
        MemorySnapshot, items=short | _blocked_turns(max_items), summary=previous_summaries()
    )

    @given(snapshot=snapshots)
    @example(snapshot=MemorySnapshot(items=_WORKED.items[:max_items], summary="kept"))
    @example(
        snapshot=MemorySnapshot(
            items=(
                {
                    "type": "message",
                    "role": "assistant",
                    "tool_calls": [
                        {"id": f"p{i}", "type": "function", "function": {"name": "ls"}}
                        for i in range(max_items + 1)
                    ],
                },
                *(tool_result(f"p{i}") for i in range(max_items + 1)),
            )
        )
    )
    def test(snapshot: MemorySnapshot) -> None:
        items = snapshot.items
        assume(find_turn_boundary_cut(items, len(items) - min(max_items, len(items))) == 0)
        context.record(snapshot=snapshot, max_items=max_items)
        run = _run_subject(context, snapshot, [PLAIN_ANSWER])
        result = _result_of(context, run, "when nothing is to be summarized")
        context.expect(
            not run.prompts,
            "compact called the model although the cut is 0 and nothing is to be summarized "
            f"(LLM-4, CUT-2, CUT-5); it sent {_prompt_text(run)}",
        )
        context.expect(
            result.memory is not None and snapshot_text(result.memory) == snapshot_text(snapshot),
            "at cut 0 the result's memory must be the snapshot unchanged (LLM-4), but it is "
            f"{describe(to_json(result.memory) if result.memory else None)}",
        )
        context.expect(
            result.summary == snapshot.summary,
            f"at cut 0 the result's summary is {result.summary!r}; LLM-4 gives the snapshot's "
            f"summary {snapshot.summary!r}",
        )
        expected = to_json(CompactResult(memory=snapshot, summary=snapshot.summary))
        difference = first_difference(expected, to_json(result))
        context.expect(difference is None, f"at cut 0 every list is empty (LLM-4): {difference}")

    return test


@check(
    "compaction.llm.cut",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-3", "CUT-1", "CUT-3", "CUT-4", "CUT-5", "PAIR-3", "JSON-1", "JSON-3"),
)
def llm_cut(context: CheckContext) -> Callable[[], None]:
    """The policy keeps a tail cut at a turn boundary and never separates a unit.

    The cut is read from the result: the kept items must be the snapshot's last items,
    unchanged. It must fall on the greatest user input item in [1, naive cut] that separates
    no unit (PAIR-3: a call with its results, a run of parallel calls, reasoning with its
    output) when there is one; otherwise on the greatest cut that separates none; otherwise 0.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(snapshot=llm_snapshots(max_items))
    @example(snapshot=MemorySnapshot(items=_SINGLE_TURN))
    @example(snapshot=MemorySnapshot(items=(*_PAIRED, *_PAIRED)))
    @example(snapshot=MemorySnapshot(items=(*_WORKED.items, 42, 1.0, "text", None, [True])))
    @example(
        snapshot=MemorySnapshot(
            items=(
                *(chat_call(f"c{i}", "bash", {}) for i in range(max_items)),
                *(tool_result(f"c{i}") for i in range(max_items)),
                assistant("y"),
            )
        )
    )
    def test(snapshot: MemorySnapshot) -> None:
        items = snapshot.items
        context.record(snapshot=snapshot, max_items=max_items)
        result = _result_of(context, _run_subject(context, snapshot, [PLAIN_ANSWER]), "")
        kept = _kept(context, result)
        count = len(items)
        context.expect(
            len(kept) <= count and items_text(kept) == items_text(items[count - len(kept) :]),
            "the kept items are not the snapshot's last items, unchanged (CUT-1, JSON-1, "
            f"JSON-3): kept {describe(list(kept))}",
        )
        cut = count - len(kept)
        naive = count - min(max_items, count)
        context.expect(
            cut <= naive,
            f"the policy kept {len(kept)} items, fewer than max_items {max_items} allows "
            f"(LLM-3: the cut {cut} is after the naive cut {naive})",
        )
        for unit in separated_units(items, cut)[:1] if 0 < cut < count else []:
            context.expect(
                condition=False,
                message=f"the cut at {cut} separates the unit of positions {list(unit)} (a "
                "call with its results, a run of parallel calls, or reasoning with its output): "
                "part of it is summarized, part kept (CUT-3, CUT-4, PAIR-3)",
            )
        boundary = greatest_user_input(items, naive) if 0 < naive < count else None
        if boundary is not None:
            context.expect(
                cut == boundary,
                f"the cut is at {cut}, but position {boundary} holds a user input item and "
                f"separates no unit, the greatest such in [1, {naive}] (CUT-3)",
            )
            return
        pairing = pairs(items)
        candidates = [i for i in range(1, min(naive, count - 1) + 1) if not pairing.separates(i)]
        expected = (
            candidates[-1] if 0 < naive < count and candidates else 0 if naive < count else count
        )
        context.expect(
            cut == expected,
            f"the cut is at {cut}; no user input item in [1, {naive}] separates no unit, and "
            f"the greatest cut there that separates none is {expected} (CUT-4)"
            if expected
            else f"the cut is at {cut}, but every cut in [1, {naive}] separates a unit, so "
            "nothing may be summarized (CUT-5)",
        )

    return test


def _blocks(content: str, summary: str | None) -> list[tuple[int, str]]:
    """Where each block of an expected user content starts, with the clause that defines it."""
    blocks = [(0, "the Previous summary block (LLM-8 (1))")]
    position = 0
    if summary is not None and java_trim(summary):
        position = len("Previous summary:\n") + len(java_trim(summary)) + 2
    if content.startswith("Files read: ", position):
        blocks.append((position, "the Files read/modified block (LLM-8 (2), LLM-9, LLM-5)"))
        position = content.index("\n\n", content.index("Files modified: ", position)) + 2
    blocks.append((position, "the conversation dump (LLM-8 (3), LLM-10, JSON-6)"))
    return blocks


def _content_of(prompt: ModelPrompt) -> str | None:
    if len(prompt.items) != 1:
        return None
    item = prompt.items[0]
    if not isinstance(item, dict):
        return None
    parts = item.get("content")
    if not isinstance(parts, list) or len(parts) != 1 or not isinstance(parts[0], dict):
        return None
    text = parts[0].get("text")
    return text if isinstance(text, str) else None


def _compare_prompt(
    context: CheckContext, expected: ModelPrompt, actual: ModelPrompt, summary: str | None
) -> None:
    context.expect(
        actual.model == expected.model,
        f"the prompt's model is {actual.model!r}, not the model name {expected.model!r} (LLM-6)",
    )
    if actual.system_prompt != expected.system_prompt:
        context.expect(
            condition=False,
            message="the system prompt is not Listing 1 verbatim (LLM-7): "
            + text_difference(expected.system_prompt or "", actual.system_prompt or ""),
        )
    expected_content = _content_of(expected)
    actual_content = _content_of(actual)
    shape = compact_json(list(expected.items)).replace(compact_json(expected_content), "…")
    context.expect(
        actual_content is not None
        and compact_json(list(actual.items)).replace(compact_json(actual_content), "…") == shape,
        "the prompt's items must be exactly one user message "
        f'{{"type":"message","role":"user","content":[{{"type":"input_text","text":…}}]}} '
        f"(LLM-6), not {describe(list(actual.items))}",
    )
    assert expected_content is not None  # noqa: S101 - the reference builds one
    assert actual_content is not None  # noqa: S101 - narrowed by the expectation
    if actual_content == expected_content:
        return
    index = next(
        (
            i
            for i, (a, b) in enumerate(zip(expected_content, actual_content, strict=False))
            if a != b
        ),
        min(len(expected_content), len(actual_content)),
    )
    block = [name for start, name in _blocks(expected_content, summary) if start <= index][-1]
    context.expect(
        condition=False,
        message=f"the user content differs in {block} at character {index}: expected "
        f"{describe(expected_content[max(0, index - 40) : index + 80], 200)}, got "
        f"{describe(actual_content[max(0, index - 40) : index + 80], 200)}",
    )


@check(
    "compaction.llm.prompt",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-5", "LLM-6", "LLM-7", "LLM-8", "LLM-9", "LLM-10", "JSON-6"),
)
def llm_prompt(context: CheckContext) -> Callable[[], None]:
    """One model call whose prompt is the spec's: Listing 1, previous summary, files, dump."""
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(snapshot=llm_snapshots(max_items), answer=successful_answers() | failing_answers())
    @example(snapshot=_WORKED, answer=PLAIN_ANSWER)
    @example(snapshot=evolve(_WORKED, summary="\t \n"), answer=PLAIN_ANSWER)
    @example(
        snapshot=MemorySnapshot(
            items=_FILES_TURN, summary="Earlier.\n\n## Files Read\n- /src/a.py"
        ),
        answer=PLAIN_ANSWER,
    )
    @example(
        snapshot=MemorySnapshot(
            items=(
                'héllo 😀 "q"\n\x01',
                1.0,
                7,
                {"type": "function_call_output", "call_id": "x", "output": None},
                *_WORKED.items,
            )
        ),
        answer=RAISES,
    )
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        context.record(snapshot=snapshot, max_items=max_items, model_answer=answer.document())
        expected = _run_reference(context, snapshot, [answer])
        assume(expected.prompts)
        actual = _run_subject(context, snapshot, [answer])
        context.expect(
            len(actual.prompts) == 1,
            f"compact made {len(actual.prompts)} model calls; LLM-6 asks for exactly one when "
            "there is something to summarize",
        )
        _compare_prompt(context, expected.prompts[0], actual.prompts[0], snapshot.summary)

    return test


def _compare_results(
    context: CheckContext, expected: CompactResult, actual: CompactResult, situation: str
) -> None:
    if actual.summary != expected.summary:
        context.expect(
            condition=False,
            message=f"{situation}, the summary is wrong (LLM-12, LLM-13, PRS-13): "
            + text_difference(expected.summary or "", actual.summary or ""),
        )
    context.expect(
        actual.memory is None or actual.memory.summary == actual.summary,
        f"result.summary {describe(actual.summary)} differs from result.memory.summary "
        f"{describe(actual.memory.summary if actual.memory else None)} (LLM-14)",
    )
    expected_document, actual_document = to_json(expected), to_json(actual)
    for name in ("changedArtifacts", "userConfirmations", "sandboxState", "contextReport"):
        context.expect(
            actual_document[name] in ([], None),
            f"the result fills {name} with {describe(actual_document[name])}, which "
            "LlmCompactPolicy leaves empty (CMP-5, LLM-14)",
        )
    context.expect(
        actual_document["failedCommands"] == expected_document["failedCommands"],
        f"failedCommands is {describe(actual_document['failedCommands'])}; LLM-14 fills it "
        f"with the summary's errors {describe(expected_document['failedCommands'])}",
    )
    difference = first_difference(expected_document, actual_document)
    context.expect(difference is None, f"{situation}: {difference} (LLM-14)")


@check(
    "compaction.llm.fallback",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-11", "LLM-12", "LLM-14", "PRS-13"),
)
def llm_fallback(context: CheckContext) -> Callable[[], None]:
    """A failed model call gives the fallback sentence, with the file sections; no error escapes.

    Failed calls: an error, no result, a null or a blank output text (LLM-11).
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(snapshot=llm_snapshots(max_items), answer=failing_answers())
    @example(snapshot=_WORKED, answer=RAISES)
    @example(snapshot=MemorySnapshot(items=_FILES_TURN), answer=said(" \n\t"))
    @example(
        snapshot=MemorySnapshot(items=_FILES_TURN, summary="## Files Modified\n- /src/old.py"),
        answer=said(None),
    )
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        context.record(snapshot=snapshot, max_items=max_items, model_answer=answer.document())
        expected = _run_reference(context, snapshot, [answer])
        assume(expected.prompts)
        actual = _run_subject(context, snapshot, [answer])
        context.expect(
            actual.error is None,
            f"{answer.describe()} and compact let it escape as "
            f"{type(actual.error).__name__}: {actual.error} (LLM-12: the model's error does "
            "not escape compact)",
        )
        result = _result_of(context, actual, "")
        assert expected.result is not None  # noqa: S101 - the reference always returns one
        _compare_results(context, expected.result, result, f"When {answer.describe()}")

    return test


@check(
    "compaction.llm.summary",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-13", "LLM-14", "CMP-5", "PRS-13"),
)
def llm_summary(context: CheckContext) -> Callable[[], None]:
    """The answer, parsed and rendered with the file lists, is the summary; the fields follow it.

    Answers: valid JSON, fenced JSON, prose around JSON, strings where lists are asked,
    numbers and booleans, garbage, and generated model outputs. The result must equal the
    reference's field by field.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(snapshot=llm_snapshots(max_items), answer=successful_answers())
    @example(snapshot=_WORKED, answer=said(FIXED_OUTPUTS[0]))
    @example(snapshot=_WORKED, answer=said(FIXED_OUTPUTS[2]))
    @example(snapshot=MemorySnapshot(items=_FILES_TURN), answer=said(FIXED_OUTPUTS[3]))
    @example(snapshot=MemorySnapshot(items=_FILES_TURN), answer=said("I could not summarize."))
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        context.record(snapshot=snapshot, max_items=max_items, model_answer=answer.document())
        expected = _run_reference(context, snapshot, [answer])
        assume(expected.prompts)
        result = _result_of(context, _run_subject(context, snapshot, [answer]), "")
        assert expected.result is not None  # noqa: S101 - the reference always returns one
        _compare_results(context, expected.result, result, f"When {answer.describe()}")

    return test


def _summarized(
    context: CheckContext, snapshot: MemorySnapshot, result: CompactResult
) -> list[JsonValue]:
    kept = _kept(context, result)
    count = len(snapshot.items)
    context.expect(
        len(kept) <= count and items_text(kept) == items_text(snapshot.items[count - len(kept) :]),
        "the kept items are not the snapshot's last items, unchanged (CUT-1)",
    )
    return list(snapshot.items[: count - len(kept)])


def _tools_mentioning(items: Sequence[JsonValue], path: str) -> list[str]:
    return [
        call.name
        for item in items
        for call in declared_calls(item)
        if call.name is not None and path in compact_json(call.holder)
    ]


def _expect_file_lists(
    context: CheckContext, items: list[JsonValue], max_items: int, what: str
) -> None:
    """Compact *items* padded past *max_items*; the file lists are the summarized items' own.

    The padding (a user message, then assistant messages) puts every item of *items* among
    the summarized ones; each list must be what FIL-1 .. FIL-7 extract from them.
    """
    padding = [user("next"), *(assistant(f"a{i}") for i in range(max(0, max_items - 1)))]
    snapshot = MemorySnapshot(items=[*items, *padding])
    context.record(snapshot=snapshot, max_items=max_items)
    run = _run_subject(context, snapshot, [PLAIN_ANSWER])
    result = _result_of(context, run, what)
    summarized = _summarized(context, snapshot, result)
    for name, reads, actual in (
        ("readFiles", True, result.read_files),
        ("modifiedFiles", False, result.modified_files),
    ):
        expected = extract_file_operations(summarized, reads=reads)
        _compare_files(context, name, expected, actual, summarized)


def _compare_files(
    context: CheckContext,
    name: str,
    expected: Sequence[str],
    actual: Sequence[str],
    items: Sequence[JsonValue],
) -> None:
    if list(actual) == list(expected):
        return
    extra = [path for path in actual if path not in expected]
    missing = [path for path in expected if path not in actual]
    detail = []
    if extra:
        detail.append(
            f"it lists {describe(extra[0])}, from calls of "
            f"{describe(_tools_mentioning(items, extra[0]))}, which FIL-2 to FIL-6 do not count"
        )
    if missing:
        detail.append(
            f"it misses {describe(missing[0])}, from calls of "
            f"{describe(_tools_mentioning(items, missing[0]))}"
        )
    if not detail:
        detail.append("the paths are right but not each once in first-seen order (FIL-7, LLM-5)")
    context.expect(
        condition=False,
        message=f"{name} is {describe(list(actual))} but the spec gives "
        f"{describe(list(expected))}: " + "; ".join(detail),
    )


@check(
    "compaction.llm.files",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("FIL-1", "FIL-2", "FIL-3", "FIL-4", "FIL-5", "FIL-6", "FIL-7", "LLM-5", "LLM-14"),
)
def llm_files(context: CheckContext) -> Callable[[], None]:
    """The file lists are the files the summarized tool calls read and modified.

    The summarized items are those the policy did not keep; their file operations are read
    as §12 says, by the words of each tool's name, from every call shape of §1.4.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings
    items = st.lists(file_tool_items(), min_size=1, max_size=3).map(
        lambda steps: [item for step in steps for item in step]
    )

    @given(steps=items, tail=transcripts(max_turns=1, max_steps=1))
    @example(steps=list(_FILES_TURN[:5]), tail=[])
    @example(
        steps=[
            {
                "type": "function_call",
                "call_id": "a",
                "name": "readFile",
                "arguments": None,
                "input": '{"path": " src/x.py ", "file": "noslash"}',
            },
            {
                "type": "message",
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "b",
                        "name": "get_details",
                        "input": {"path": "d/e.py"},
                    },
                    {"type": "tool_use", "id": "c", "name": "view", "input": {"path": "src/v.py"}},
                ],
            },
            chat_call("d", "edit", {"path": "a.py", "file_path": "b\\c.txt"}),
            {
                "type": "function_call",
                "call_id": "e",
                "name": "read",
                "arguments": "{'path': 'q.py'}",
            },
            chat_call("f", "cat", {"path": "src/v.py"}),
        ],
        tail=[],
    )
    def test(steps: list[JsonValue], tail: list[JsonValue]) -> None:
        _expect_file_lists(
            context,
            [*steps, *tail],
            max_items,
            "for tool calls with odd names or arguments (FIL-1)",
        )

    return test


@check(
    "compaction.llm.accumulation",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-5", "LLM-8", "LLM-15", "PRS-13", "PRS-15", "PRS-16"),
)
def llm_accumulation(context: CheckContext) -> Callable[[], None]:
    """Two compactions in a row: the second sees the first summary, and keeps its file lists.

    The first result's memory plus new items is compacted again. Its prompt must carry the
    first summary as ``Previous summary:``; its file lists must start with the first's; and the
    ``## Files Read`` / ``## Files Modified`` sections of its summary must read back (PRS-15)
    as its file lists.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings
    answers = st.sampled_from(
        [PLAIN_ANSWER, said(FIXED_OUTPUTS[0]), said(FIXED_OUTPUTS[1]), said("no json"), RAISES]
    )

    @given(
        first=llm_snapshots(max_items),
        more=st.lists(file_tool_items(), max_size=2),
        answer=answers,
        again=answers,
    )
    @example(
        first=MemorySnapshot(
            items=_FILES_TURN,
            summary="Notes\n  ## Files Read  \n- /src/old.py\n## Other\n- not/this.py\n"
            "## Files Read\n-  /src/again.py ",
        ),
        more=[[chat_call("c9", "edit_file", {"path": "src/new.py"})]],
        answer=PLAIN_ANSWER,
        again=RAISES,
    )
    def test(
        first: MemorySnapshot, more: list[list[JsonValue]], answer: ModelAnswer, again: ModelAnswer
    ) -> None:
        context.record(
            first=first,
            more=more,
            max_items=max_items,
            answers=[answer.document(), again.document()],
        )
        expected_first = _run_reference(context, first, [answer])
        assume(expected_first.prompts)
        result = _result_of(context, _run_subject(context, first, [answer]), "")
        kept = _kept(context, result)
        assert result.memory is not None  # noqa: S101 - _kept checked it
        added = [item for step in more for item in step]
        second = MemorySnapshot(
            items=[*kept, *added, user("go on"), *(assistant(f"a{i}") for i in range(max_items))],
            summary=result.memory.summary,
        )
        context.step("compact again", snapshot=second)
        run = _run_subject(context, second, [again])
        result_again = _result_of(context, run, "on the second compaction")
        summary = result.memory.summary
        if summary is not None and java_trim(summary) and run.prompts:
            content = _content_of(run.prompts[0]) or ""
            context.expect(
                content.startswith(f"Previous summary:\n{java_trim(summary)}\n\n"),
                "the second compaction did not give the first summary to the model as "
                f"'Previous summary:' (LLM-8, LLM-15); its user content starts "
                f"{describe(content[:120])}",
            )
        for name, before, after in (
            ("readFiles", result.read_files, result_again.read_files),
            ("modifiedFiles", result.modified_files, result_again.modified_files),
        ):
            context.expect(
                list(after[: len(before)]) == list(before),
                f"the {name} of the first compaction {describe(list(before))} are not the start "
                f"of the second's {describe(list(after))} (LLM-5: the previous summary's "
                "files come first)",
            )
        read_back = read_file_sections(result_again.summary)
        context.expect(
            read_back == (list(result_again.read_files), list(result_again.modified_files)),
            f"the file sections of the second summary read back as {describe(read_back)}, "
            f"not as its readFiles and modifiedFiles "
            f"{describe([list(result_again.read_files), list(result_again.modified_files)])} "
            "(PRS-13, PRS-15, PRS-16)",
        )
        assert expected_first.result is not None  # noqa: S101 - the reference always returns one
        _compare_results(context, expected_first.result, result, "On the first compaction")
        expected_again = _run_reference(context, second, [again])
        assert expected_again.result is not None  # noqa: S101 - the reference always returns one
        _compare_results(context, expected_again.result, result_again, "On the second compaction")

    return test


@check(
    "compaction.llm.stateless",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-1", "LLM-15"),
)
def llm_stateless(context: CheckContext) -> Callable[[], None]:
    """A policy that compacted before gives the same prompt and result as a fresh one."""
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(
        earlier=llm_snapshots(max_items),
        shift=st.integers(0, 3),
        summary=previous_summaries(),
        answer=successful_answers(),
    )
    @example(
        earlier=MemorySnapshot(items=_FILES_TURN, summary="## Files Read\n- /src/old.py"),
        shift=0,
        summary=None,
        answer=PLAIN_ANSWER,
    )
    def test(earlier: MemorySnapshot, shift: int, summary: str | None, answer: ModelAnswer) -> None:
        fillers = [assistant(f"a{i}") for i in range(max_items)]
        later = MemorySnapshot(
            items=[*earlier.items[shift:], user("later"), *fillers], summary=summary
        )
        context.record(
            earlier=earlier, later=later, max_items=max_items, model_answer=answer.document()
        )
        used = ScriptedModelClient([answer])
        policy = context.subject(used)
        _compact(policy, earlier)
        calls = len(used.prompts)
        after = _compact(policy, later)
        fresh = _run_subject(context, later, [answer])
        context.expect(
            [to_json(p) for p in used.prompts[calls:]] == [to_json(p) for p in fresh.prompts],
            "the policy sent a different prompt after an earlier compaction than a fresh policy "
            "sends: it keeps state between calls (LLM-1, LLM-15)",
        )
        difference = first_difference(to_json(_result_of(context, fresh, "")), to_json(after))
        context.expect(
            difference is None,
            "the policy returned a different result after an earlier compaction than a fresh "
            f"policy returns: it keeps state between calls (LLM-1, LLM-15): {difference}",
        )

    return test


_NOT_JSON: tuple[object, ...] = (float("nan"), float("inf"), {1, 2}, b"bytes")


@check(
    "compaction.llm.errors-propagate",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-16",),
)
def llm_errors_propagate(context: CheckContext) -> Callable[[], None]:
    """An error that is not a failed model call is not turned into the fallback summary.

    The summarized part holds a value that is not JSON. JSON-9 leaves the result for such a
    value open, so the policy may raise or cope; but if it returns, it must have made its one
    call and must not present its own error as a failed summarization.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(bad=st.sampled_from(_NOT_JSON), position=st.integers(0, 2))
    @example(bad=float("nan"), position=0)
    def test(bad: object, position: int) -> None:
        head: list[Any] = [assistant("a"), assistant("b"), assistant("c")]
        head[position] = {"type": "message", "role": "assistant", "content": bad}
        items = [*head, user("next"), *(assistant(f"t{i}") for i in range(max(0, max_items - 1)))]
        context.record(items=items, max_items=max_items)
        run = _run_subject(context, MemorySnapshot(items=items), [PLAIN_ANSWER])
        if run.error is not None:
            return
        unavailable = SUMMARY_UNAVAILABLE.split("{", 1)[0]
        context.expect(
            run.result is not None and not (run.result.summary or "").startswith(unavailable),
            "compact turned an error that is not a failed model call into the fallback "
            "summary (LLM-16: such errors propagate)",
        )
        context.expect(
            len(run.prompts) == 1,
            f"compact returned without error but made {len(run.prompts)} model calls "
            "(LLM-6, LLM-16)",
        )

    return test


# -- llm-summary: the vectors, lifted onto the policy ------------------------------------------

_FILLER = assistant("filler")


def _skip_if_none(vectors: Sequence[Vector], what: str, max_items: int) -> None:
    if not vectors:
        raise SkipCheck(f"no {what} vector can be run with max_items {max_items}")


@check(
    "compaction.llm.vectors",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-3", "LLM-4", "LLM-5", "LLM-8", "LLM-10", "LLM-11", "LLM-12", "LLM-13", "LLM-14"),
)
def llm_vectors(context: CheckContext) -> Callable[[], None]:
    """The compact_llm vectors whose maxItems is the policy's give their prompt and result.

    The expected prompt's ``model`` is replaced by ``options["model_name"]`` (default ``""``).
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, model_name = settings

    def test() -> None:
        vectors = [v for v in vectors_for("compact_llm") if v.input["maxItems"] == max_items]
        _skip_if_none(vectors, "compact_llm", max_items)
        for vector in vectors:
            context.record(vector=vector.document())
            answer = RAISES if vector.input["modelFails"] else said(vector.input["modelOutput"])
            snapshot = from_json(MemorySnapshot, vector.input["snapshot"])
            run = _run_subject(context, snapshot, [answer])
            result = _result_of(context, run, f"on vector {vector.id}")
            prompt = vector.expected["prompt"]
            if prompt is not None:
                prompt = {**prompt, "model": model_name}
            actual_prompt = to_json(run.prompts[0]) if run.prompts else None
            for name, expected, actual in (
                ("prompt", prompt, actual_prompt),
                (
                    "result",
                    to_json(from_json(CompactResult, vector.expected["result"])),
                    to_json(result),
                ),
            ):
                difference = first_difference(expected, actual, f"${name}")
                context.expect(
                    difference is None,
                    f"vector {vector.id} ({vector.description}): {difference}",
                )

    return test


@check(
    "compaction.llm.cut-vectors",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("CUT-1", "CUT-2", "CUT-3", "CUT-4", "CUT-5"),
)
def cut_vectors(context: CheckContext) -> Callable[[], None]:
    """The turn_boundary_cut vectors, run through the policy: the items it keeps show the cut.

    A vector (items, naiveCut) is lifted by appending assistant text messages (no user item,
    no tool call, no tool result, so they change no cut) until the policy's naive cut is the
    vector's. Vectors whose naive cut the policy's max_items cannot produce (a naive cut before
    the last max_items items, or past the end) are not run here; the suite's own tests run every
    vector against the reference function.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    def test() -> None:
        lifted = [
            v
            for v in vectors_for("turn_boundary_cut")
            if 0 <= v.input["naiveCut"] <= len(v.input["items"])
            and len(v.input["items"]) - v.input["naiveCut"] <= max_items
        ]
        _skip_if_none(lifted, "turn_boundary_cut", max_items)
        for vector in lifted:
            items = vector.input["items"]
            padding = max_items - (len(items) - vector.input["naiveCut"])
            snapshot = MemorySnapshot(items=[*items, *([_FILLER] * padding)])
            context.record(vector=vector.document(), snapshot=snapshot, max_items=max_items)
            run = _run_subject(context, snapshot, [PLAIN_ANSWER])
            result = _result_of(context, run, f"on vector {vector.id}")
            summarized = _summarized(context, snapshot, result)
            context.expect(
                len(summarized) == vector.expected["cut"],
                f"vector {vector.id} ({vector.description}): the policy cut at "
                f"{len(summarized)}, the spec at {vector.expected['cut']}",
            )

    return test


@check(
    "compaction.llm.file-vectors",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("FIL-1", "FIL-2", "FIL-3", "FIL-4", "FIL-5", "FIL-6", "FIL-7"),
)
def file_vectors(context: CheckContext) -> Callable[[], None]:
    """The extract_file_operations vectors, run through the policy's readFiles/modifiedFiles.

    A vector's items are summarized whole: a user message and assistant text messages follow
    them so that the policy's cut falls right after them (CUT-3); with no previous summary the
    policy's file list is exactly the extraction's.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    def test() -> None:
        vectors = vectors_for("extract_file_operations")
        for vector in vectors:
            items = vector.input["items"]
            padding = [user("next"), *([_FILLER] * (max_items - 1))] if max_items else []
            snapshot = MemorySnapshot(items=[*items, *padding])
            context.record(vector=vector.document(), snapshot=snapshot, max_items=max_items)
            run = _run_subject(context, snapshot, [PLAIN_ANSWER])
            result = _result_of(context, run, f"on vector {vector.id}")
            summarized = _summarized(context, snapshot, result)
            context.expect(
                len(summarized) == len(items),
                f"vector {vector.id}: the policy summarized {len(summarized)} items, "
                f"not the vector's {len(items)} (CUT-3)",
            )
            name = "readFiles" if vector.input["reads"] else "modifiedFiles"
            actual = result.read_files if vector.input["reads"] else result.modified_files
            context.expect(
                list(actual) == vector.expected["files"],
                f"vector {vector.id} ({vector.description}): {name} is {describe(list(actual))}, "
                f"the spec gives {describe(vector.expected['files'])}",
            )

    return test


def _passes_path_test(path: str) -> bool:
    return (
        bool(path)
        and path == java_trim(path)
        and "\n" not in path
        and any(char in path for char in "/.\\")
    )


def _liftable_render(summary: StructuredSummary) -> bool:
    for paths in (summary.read_files, summary.modified_files):
        if len(set(paths)) != len(paths) or not all(_passes_path_test(p) for p in paths):
            return False
    if not java_trim(summary.text):
        return False
    parsed = parse_structured_summary(summary.text)
    return parsed == StructuredSummary(
        goal=summary.goal,
        completed=summary.completed,
        pending=summary.pending,
        decisions=summary.decisions,
        errors=summary.errors,
        test_results=summary.test_results,
        open_questions=summary.open_questions,
        parsed=summary.parsed,
        text=summary.text,
    )


def _file_sections(summary: StructuredSummary) -> str | None:
    sections = []
    for title, paths in (
        ("Files Read", summary.read_files),
        ("Files Modified", summary.modified_files),
    ):
        if paths:
            sections.append("\n".join([f"## {title}", *(f"- {path}" for path in paths)]))
    return "\n\n".join(sections) or None


@check(
    "compaction.llm.render-vectors",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("PRS-13", "PRS-14", "LLM-13"),
)
def render_vectors(context: CheckContext) -> Callable[[], None]:
    """The render_summary vectors, run through the summary the policy writes.

    A vector's summary is lifted when a model could have produced it: its text, answered by
    the model, parses back to its fields (the reference parser decides), and its file lists are
    valid paths, given to the policy as the previous summary's file sections. The policy's
    summary must then be the vector's text. Other vectors are run by the suite's own tests.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    def test() -> None:
        lifted = [
            v
            for v in vectors_for("render_summary")
            if _liftable_render(from_json(StructuredSummary, v.input))
        ]
        _skip_if_none(lifted, "render_summary", max_items)
        for vector in lifted:
            summary = from_json(StructuredSummary, vector.input)
            snapshot = MemorySnapshot(
                items=[user("earlier"), *(user(f"u{i}") for i in range(max_items))],
                summary=_file_sections(summary),
            )
            context.record(vector=vector.document(), snapshot=snapshot, max_items=max_items)
            run = _run_subject(context, snapshot, [said(summary.text)])
            result = _result_of(context, run, f"on vector {vector.id}")
            expected = vector.expected["text"]
            context.expect(
                result.summary == expected,
                f"vector {vector.id} ({vector.description}): the summary is wrong (PRS-13): "
                + text_difference(expected, result.summary or ""),
            )

    return test


# -- exact: the structured-summary policy ------------------------------------------------------


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


# -- state across calls (CMP-20) --------------------------------------------------------


def _answers_of(policy: Any, snapshot: MemorySnapshot) -> tuple[JsonValue, JsonValue]:  # noqa: ANN401 - the subject's own
    """What *policy* answers for *snapshot*: should_compact's answer and compact's document.

    An error raised is an answer too, by its type: other checks judge whether it may raise.
    """
    answers: list[JsonValue] = []
    for ask in (policy.should_compact, functools.partial(_compact, policy)):
        try:
            answer = ask(snapshot)
        except Exception as error:  # noqa: BLE001 - compared, not judged
            answers.append(f"raised {type(error).__name__}")
            continue
        if isinstance(answer, CompactResult):
            answers.append(to_json(answer))
        else:
            answers.append(answer if isinstance(answer, bool) else repr(answer))
    return answers[0], answers[1]


@check(
    "compaction.stateless",
    component=_POLICY,
    claim=Claim.GENERIC,
    clauses=("CMP-20",),
)
def stateless(context: CheckContext) -> Callable[[], None]:
    """A policy that answered for other snapshots answers a snapshot as a fresh one does.

    The later snapshot shares item objects with the earlier ones, as a memory's snapshots do,
    so state kept by identity shows as well as state kept by value.
    """

    @given(earlier=_snapshots(), later=_snapshots(), answer=successful_answers())
    @example(
        earlier=MemorySnapshot(items=_FILES_TURN, summary="earlier"),
        later=MemorySnapshot(items=_PAIRED),
        answer=PLAIN_ANSWER,
    )
    @example(
        earlier=MemorySnapshot(items=_PAIRED, summary="earlier"),
        later=MemorySnapshot(items=_SINGLE_TURN),
        answer=PLAIN_ANSWER,
    )
    def test(earlier: MemorySnapshot, later: MemorySnapshot, answer: ModelAnswer) -> None:
        shared = MemorySnapshot(items=(*earlier.items, *later.items), summary=later.summary)
        context.record(earlier=earlier, later=shared, model_answer=answer.document())
        policy = context.subject(ScriptedModelClient([answer]))
        for before in (earlier, shared, earlier):
            _answers_of(policy, before)
        used = _answers_of(policy, shared)
        fresh = _answers_of(context.subject(ScriptedModelClient([answer])), shared)
        context.expect(
            used[0] == fresh[0],
            f"should_compact answered {used[0]!r} after earlier calls and {fresh[0]!r} on a "
            "fresh policy (CMP-20: no state across calls)",
            clause="CMP-20",
            returned=used[0],
            expected=fresh[0],
        )
        difference = first_difference(fresh[1], used[1])
        context.expect(
            difference is None,
            f"compact after earlier calls differs from a fresh policy's: {difference} "
            "(CMP-20: no state across calls)",
            clause="CMP-20",
            returned=used[1],
            expected=fresh[1],
        )

    return test


# -- found by mutation testing (docs/mutation.md) -------------------------------------------

#: Summarized steps whose first tool call gives no arguments (text that is not JSON, or not
#: an object) and whose next call of the same item reads or modifies a file (FIL-2, FIL-5).
_CALLS_AFTER_NO_ARGUMENTS: tuple[JsonValue, ...] = (
    {
        "type": "message",
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "u1", "name": "read", "input": "not json"},
            {"type": "tool_use", "id": "u2", "name": "view", "input": {"path": "src/seen.py"}},
        ],
    },
    {
        "type": "message",
        "role": "assistant",
        "tool_calls": [
            {"id": "t1", "type": "function", "function": {"name": "edit", "arguments": "[1]"}},
            {
                "id": "t2",
                "type": "function",
                "function": {"name": "write_file", "arguments": '{"path": "src/out.py"}'},
            },
        ],
    },
)


@check(
    "compaction.llm.files-every-call",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("FIL-2", "FIL-5"),
)
def llm_files_every_call(context: CheckContext) -> Callable[[], None]:
    """Every tool call of an item is examined, whatever the calls before it in the item gave.

    A call without arguments (FIL-5) is skipped alone: the calls after it in the same item
    still contribute their paths (FIL-2).
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    def test() -> None:
        _expect_file_lists(
            context,
            [user("go"), *_CALLS_AFTER_NO_ARGUMENTS],
            max_items,
            "for items of several tool calls (FIL-2)",
        )

    return test


#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    should_compact_pure,
    compact_no_mutation,
    result_valid,
    kept_verbatim,
    summary_kept,
    context_report,
    should_compact_empty,
    compaction_pair_integrity,
    compaction_wire_valid,
    stateless,
    requires_client,
    llm_should_compact,
    llm_cut_zero,
    llm_cut,
    llm_prompt,
    llm_fallback,
    llm_summary,
    llm_files,
    llm_accumulation,
    llm_stateless,
    llm_errors_propagate,
    llm_vectors,
    cut_vectors,
    file_vectors,
    render_vectors,
    structured_should_compact,
    structured_differential,
    structured_bounded_nesting,
    structured_vectors,
    llm_files_every_call,
)
