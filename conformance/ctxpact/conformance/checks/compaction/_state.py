"""The compact-policy check of state across calls (CMP-20)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from hypothesis import example, given

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import (
    PLAIN_ANSWER,
    ModelAnswer,
    ScriptedModelClient,
    first_difference,
    successful_answers,
)
from ctxpact.conformance.checks.compaction._common import (
    _FILES_TURN,
    _PAIRED,
    _POLICY,
    _SINGLE_TURN,
    _compact,
    _snapshots,
)
from ctxpact.spec import (
    CompactResult,
    JsonValue,
    MemorySnapshot,
    to_json,
)


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
