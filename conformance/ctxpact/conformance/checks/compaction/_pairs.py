"""Compact-policy checks of pair integrity (PAIR-8, PAIR-3, PAIR-9) and wire validity (WIRE-18)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SubjectError, describe
from ctxpact.conformance._model import Claim
from ctxpact.conformance._pairing import pairs
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._classics import TRANSCRIPTS, claimed_providers, with_examples
from ctxpact.conformance.checks._compaction_support import (
    PLAIN_ANSWER,
    assistant,
    kept_positions,
    previous_summaries,
    tool_result,
    user,
)
from ctxpact.conformance.checks.compaction._common import _PAIRED, _POLICY, _SINGLE_TURN
from ctxpact.conformance.checks.compaction._generic import _compacted
from ctxpact.conformance.strategies import (
    adversarial_transcripts,
    provider_transcripts,
    transcripts,
)
from ctxpact.spec import (
    PROVIDERS,
    JsonValue,
    MemorySnapshot,
    wire_problems,
)

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
