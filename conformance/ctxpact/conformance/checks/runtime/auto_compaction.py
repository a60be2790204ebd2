"""Checks of auto-compaction at the top of each step (RUN-10 .. RUN-13, SES-5, EVT-3 .. EVT-5).

The policy is asked once per step and a compaction is restored, kept and announced (RUN-10,
RUN-11, RUN-13); an attempt that fails, or whose policy answers something other than a bool or
a ``CompactResult``, changes nothing, is published as ``COMPACT_FAILED``, and the run goes on
(RUN-12).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence

import attrs
from attrs import evolve
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._model import Check
from ctxpact.conformance._runtime import RuntimeEvent, RuntimeLifecycleEvent
from ctxpact.conformance.checks._classics import with_examples
from ctxpact.conformance.checks.runtime._parts import _Failure, _Policy
from ctxpact.conformance.checks.runtime._scripts import (
    _expect,
    _Expected,
    _run_on,
    _Script,
    _Session,
)
from ctxpact.conformance.checks.runtime._strategies import (
    _FULL_SCRIPT,
    _NULL_MEMORY_SCRIPT,
    _failing_scripts,
    _scripts,
)
from ctxpact.conformance.checks.runtime._support import _caused_by, _Event, _runtime_check, _same
from ctxpact.reference.session import (
    AUTO_COMPACT_MESSAGE,
    COMPACT_FAILED_MESSAGE,
    COMPACTED_MESSAGE,
)
from ctxpact.spec import CompactResult, MemorySnapshot, to_json


@_runtime_check(
    "runtime.auto-compaction",
    "RUN-10",
    "RUN-11",
    "RUN-13",
    "CMP-4",
    "SES-5",
    "EVT-3",
    "EVT-4",
    "EVT-5",
    "DIF-13",
)
def auto_compaction(context: CheckContext) -> Callable[[], None]:
    """The policy decides at the top of each step; a compaction is restored, kept, announced."""

    @given(script=_scripts(projector=False))
    @example(script=evolve(_FULL_SCRIPT, projector=False))
    @example(script=_NULL_MEMORY_SCRIPT)
    @example(script=evolve(_FULL_SCRIPT, decisions=None, projector=False))
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        run.session.run(script.user_input)
        expected = _expect(script)
        compacted = run.log.of("MEMORY_COMPRESS", COMPACTED_MESSAGE)
        if run.policy is None:
            context.expect(
                not compacted and not run.log.hooked("BEFORE_COMPACT"),
                "the runtime compacted without a policy (RUN-10)",
            )
        for step, want in enumerate(expected.states):
            if run.policy is not None:
                _expect_decision(context, run.policy, expected, step)
            state = run.model.states[step] if step < len(run.model.states) else None
            context.expect(
                _same(state, want),
                f"step {step}: memory at the model call is {describe(state)}, expected "
                f"{describe(want)} (RUN-11 (e), RUN-13)",
            )
        if run.policy is not None:
            for kind, events in (
                ("BEFORE_COMPACT", run.log.hooked("BEFORE_COMPACT")),
                ("MEMORY_COMPRESS 'compacted'", compacted),
                ("ON_COMPACT", run.log.hooked("ON_COMPACT")),
            ):
                _expect_compaction_events(context, kind, events, expected)
        last = run.session.last_compact_result
        context.expect(
            _same(last, expected.last_compact_result),
            f"last_compact_result after the run is {describe(last)}, expected the last "
            f"auto-compaction's result {describe(expected.last_compact_result)} (RUN-11 (f), "
            "SES-5)",
        )

    return test


def _expect_decision(
    context: CheckContext, policy: _Policy, expected: _Expected, step: int
) -> None:
    asked = [index for index in policy.asked if index == step]
    context.expect(
        len(asked) == 1,
        f"step {step}: should_compact was asked {len(asked)} times; RUN-11 asks once at the "
        "top of every step",
    )
    seen = policy.decided[policy.asked.index(step)]
    want = expected.decided[step]
    context.expect(
        _same(seen, want),
        f"step {step}: should_compact was given {describe(seen)}, but memory held "
        f"{describe(want)} (RUN-11 (a))",
    )
    compacted = [index for index in policy.compacted_at if index == step]
    wanted = [index for index, _ in expected.results if index == step]
    context.expect(
        len(compacted) == len(wanted),
        f"step {step}: compact was called {len(compacted)} times, but should_compact said "
        f"{'yes' if wanted else 'no'} (RUN-10, RUN-11)",
    )
    if compacted:
        seen = policy.compacted[policy.compacted_at.index(step)]
        context.expect(
            _same(seen, want),
            f"step {step}: compact was given {describe(seen)}, not the snapshot "
            f"{describe(want)} (RUN-11 (d))",
        )


def _expect_compaction_events(
    context: CheckContext,
    kind: str,
    events: Sequence[RuntimeEvent | RuntimeLifecycleEvent],
    expected: _Expected,
) -> None:
    context.expect(
        len(events) == len(expected.results),
        f"{len(events)} {kind} events for {len(expected.results)} auto-compactions "
        "(RUN-11, RUN-13)",
    )
    before = kind == "BEFORE_COMPACT"
    for index, (event, (step, result)) in enumerate(zip(events, expected.results, strict=True)):
        payload = expected.compacted[index] if before else result
        if kind != "MEMORY_COMPRESS 'compacted'":
            context.expect(
                event.message == AUTO_COMPACT_MESSAGE,
                f"step {step}: {kind} has message {event.message!r}, not 'auto' (EVT-4)",
            )
        context.expect(
            event.step == step,
            f"{kind} of the compaction at step {step} carries step {event.step} (RUN-11)",
        )
        what = "a copy of the snapshot" if before else "the compact result"
        context.expect(
            _same(event.payload, payload),
            f"step {step}: the {kind} payload is {describe(event.payload)}, not {what} "
            f"{describe(payload)} (EVT-5)",
        )


@_runtime_check("runtime.auto-compaction-fail-safe", "RUN-12", "SES-5", "EVT-4", "EVT-5", "DIF-13")
def auto_compaction_fail_safe(context: CheckContext) -> Callable[[], None]:
    """A failing compaction attempt changes nothing, is published, and the run goes on."""

    @given(script=_failing_scripts())
    @example(
        script=evolve(_FULL_SCRIPT, projector=False, failure=_Failure(where="snapshot", step=0))
    )
    @example(
        script=evolve(
            _FULL_SCRIPT, projector=False, failure=_Failure(where="should_compact", step=2)
        )
    )
    @example(
        script=evolve(_FULL_SCRIPT, projector=False, failure=_Failure(where="compact", step=1))
    )
    @example(
        script=evolve(_FULL_SCRIPT, projector=False, failure=_Failure(where="restore", step=1))
    )
    def test(script: _Script) -> None:
        context.record(script=script)
        assert script.failure is not None  # noqa: S101 - the strategy always sets one
        step, where = script.failure.step, script.failure.where
        run = _Session(context, script)
        error = run.error
        assert error is not None  # noqa: S101 - every failure has its error
        output = _run_on(run, script.user_input, f"the failing {where} at step {step}")
        expected = _expect(script)
        failed = run.log.of("COMPACT_FAILED")
        context.expect(
            len(failed) == 1,
            f"{len(failed)} COMPACT_FAILED events for one failing {where} at step {step} (RUN-12)",
        )
        event = failed[0]
        context.expect(
            event.message == COMPACT_FAILED_MESSAGE and event.step == step,
            f"COMPACT_FAILED carries message {event.message!r} and step {event.step}, not "
            f"'compaction failed' and {step} (EVT-4)",
        )
        context.expect(
            _caused_by(event.payload, error),
            f"the COMPACT_FAILED payload is {event.payload!r}, not the error {error!r} (EVT-5)",
        )
        done: list[_Event] = [*run.log.of("MEMORY_COMPRESS", COMPACTED_MESSAGE)]
        done += run.log.hooked("ON_COMPACT")
        finished = [event for event in done if event.step == step]
        context.expect(
            not finished,
            f"the failed compaction at step {step} was announced as done (RUN-12)",
        )
        states = run.model.states
        context.expect(
            step < len(states) and _same(states[step], expected.states[step]),
            f"step {step}: memory after the failed {where} is "
            f"{describe(states[step]) if step < len(states) else 'unknown'}, expected it as "
            f"it was: {describe(expected.states[step])} (RUN-12)",
        )
        context.expect(
            output == expected.output and _same(run.memory.state, expected.final),
            f"the run did not go on as if the failed compaction had not been tried (RUN-12): "
            f"returned {output!r}, memory {describe(run.memory.state)}",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, expected.last_compact_result),
            f"last_compact_result is {describe(last)}, expected "
            f"{describe(expected.last_compact_result)}: a failed compaction leaves it (SES-5)",
        )

    return test


# -- wrong answers from a policy (RUN-12) --------------------------------------------------------

#: What a policy's ``should_compact`` may wrongly answer: truthy and falsy non-bools.
_WRONG_DECISIONS: tuple[object, ...] = (1, 0, "yes", "false", None, [])
#: A compact result's look-alike: every attribute of a ``CompactResult``, not one.
_LOOK_ALIKE = types.SimpleNamespace(
    **{
        name.name: getattr(
            CompactResult(memory=MemorySnapshot(items=("look-alike",)), summary="s"), name.name
        )
        for name in attrs.fields(CompactResult)
    }
)
#: What a policy's ``compact`` may wrongly return: nothing, a document, a look-alike.
_WRONG_RESULTS: tuple[object, ...] = (
    None,
    to_json(CompactResult(memory=MemorySnapshot(items=("document",)), summary="s")),
    _LOOK_ALIKE,
    MemorySnapshot(items=("snapshot",)),
)


@st.composite
def _wrong_answer_scripts(draw: st.DrawFn) -> _Script:
    """A run whose policy answers one step with something other than a bool or a result."""
    script = draw(_scripts(policy=True, projector=False))
    where = draw(st.sampled_from(["should_compact", "compact"]))
    step = draw(st.integers(0, len(script.answers) - 1))
    answers = _WRONG_DECISIONS if where == "should_compact" else _WRONG_RESULTS
    decisions = list(script.decisions or ())
    if where == "compact":
        decisions[step] = True
    return evolve(
        script,
        decisions=tuple(decisions),
        failure=_Failure(where=where, step=step, answer=draw(st.sampled_from(answers))),
    )


def _wrong_answer_examples() -> list[_Script]:
    """Each wrong answer once, at the step where the full script compacts."""
    base = evolve(_FULL_SCRIPT, projector=False)
    return [
        *(
            evolve(base, failure=_Failure(where="should_compact", step=1, answer=answer))
            for answer in _WRONG_DECISIONS
        ),
        *(
            evolve(base, failure=_Failure(where="compact", step=1, answer=answer))
            for answer in _WRONG_RESULTS
        ),
    ]


@_runtime_check("runtime.compaction-wrong-answers", "RUN-12")
def compaction_wrong_answers(context: CheckContext) -> Callable[[], None]:
    """A non-bool should_compact or a non-CompactResult compact is a failed attempt (RUN-12).

    Truthy answers (``1``, ``"yes"``) compact nothing and falsy ones (``0``, ``None``) are no
    quiet "no": each is published as ``COMPACT_FAILED``, memory stays, and the run goes on.
    """

    @given(script=_wrong_answer_scripts())
    def test(script: _Script) -> None:
        context.record(script=script)
        assert script.failure is not None  # noqa: S101 - the strategy always sets one
        step, where = script.failure.step, script.failure.where
        answer = describe(script.failure.answer, 80)
        run = _Session(context, script)
        output = _run_on(run, script.user_input, f"{where} answering {answer} at step {step}")
        expected = _expect(script)
        failed = [event for event in run.log.of("COMPACT_FAILED") if event.step == step]
        context.expect(
            len(failed) == 1 and isinstance(failed[0].payload, Exception),
            f"{where} answered {answer} at step {step} and {len(failed)} COMPACT_FAILED events "
            "carrying an error followed (RUN-12: an answer that is not a bool, or a result "
            "that is not a CompactResult, is a failed attempt)",
            clause="RUN-12",
        )
        done: list[_Event] = [*run.log.of("MEMORY_COMPRESS", COMPACTED_MESSAGE)]
        done += run.log.hooked("ON_COMPACT")
        context.expect(
            not [event for event in done if event.step == step],
            f"{where} answered {answer} at step {step} and a compaction was announced as "
            "done (RUN-12)",
            clause="RUN-12",
        )
        states = run.model.states
        context.expect(
            step < len(states) and _same(states[step], expected.states[step]),
            f"step {step}: memory after {where} answered {answer} is "
            f"{describe(states[step]) if step < len(states) else 'unknown'}, expected it as "
            f"it was: {describe(expected.states[step])} (RUN-12)",
            clause="RUN-12",
        )
        context.expect(
            output == expected.output and _same(run.memory.state, expected.final),
            f"the run did not go on as if the attempt had not been made after {where} answered "
            f"{answer} (RUN-12): returned {output!r}, memory {describe(run.memory.state)}",
            clause="RUN-12",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, expected.last_compact_result),
            f"last_compact_result is {describe(last)} after {where} answered {answer}, "
            f"expected {describe(expected.last_compact_result)} (RUN-12)",
            clause="RUN-12",
        )

    return with_examples(test, "script", _wrong_answer_examples())


#: The checks of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    auto_compaction,
    auto_compaction_fail_safe,
    compaction_wrong_answers,
)
