"""Checks of a manual compaction, ``compact(policy)`` (RUN-14, RUN-15, SES-5, EVT-2, EVT-4, EVT-5).

It compacts without asking the policy, restores the memory, keeps the result and announces
it; without a policy it is an error that changes nothing; when it fails it leaves everything
as it was, is published, and propagates.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._model import Check
from ctxpact.conformance.checks.runtime._parts import _Failure
from ctxpact.conformance.checks.runtime._scripts import _manual_policy, _Script, _Session
from ctxpact.conformance.checks.runtime._support import (
    _caused_by,
    _divergence,
    _label,
    _runtime_check,
    _same,
)
from ctxpact.conformance.strategies import snapshots
from ctxpact.reference.session import (
    COMPACT_FAILED_MESSAGE,
    COMPACTED_MESSAGE,
    MANUAL_COMPACT_MESSAGE,
)
from ctxpact.spec import MemorySnapshot


@_runtime_check("runtime.manual-compaction", "RUN-14", "SES-5", "EVT-2", "EVT-4", "EVT-5", "DIF-14")
def manual_compaction(context: CheckContext) -> Callable[[], None]:
    """compact(policy) compacts without asking, restores, keeps the result, announces it."""

    @given(initial=snapshots, keep=st.none() | st.integers(0, 3))
    @example(initial=MemorySnapshot(items=("a", {"b": [1]}, "c"), summary="s"), keep=1)
    @example(initial=MemorySnapshot(items=("a",)), keep=None)
    def test(initial: MemorySnapshot, keep: int | None) -> None:
        context.record(initial=initial, keep=keep)
        run = _Session(context, _Script(initial=initial, answers=()))
        policy = _manual_policy(run, keep)
        mark = len(run.trace)
        result = run.session.compact(policy)
        context.expect(
            not policy.decided, "compact consulted should_compact (RUN-14: unconditional)"
        )
        context.expect(
            len(policy.compacted) == 1 and _same(policy.compacted[0], initial),
            f"policy.compact was given {describe(policy.compacted)}, not once the memory's "
            f"snapshot {describe(initial)} (RUN-14)",
        )
        produced = policy.results[0]
        wanted = [_label("BEFORE_COMPACT", MANUAL_COMPACT_MESSAGE, None), "policy.compact"]
        wanted += [] if produced.memory is None else ["memory.restore"]
        wanted += [_label("MEMORY_COMPRESS", COMPACTED_MESSAGE, None)]
        wanted += [_label("ON_COMPACT", MANUAL_COMPACT_MESSAGE, None)]
        problem = _divergence(wanted, run.trace[mark:])
        context.expect(problem is None, f"the manual compaction's events: {problem} (RUN-14)")
        for kind, events, payload in (
            ("BEFORE_COMPACT", run.log.hooked("BEFORE_COMPACT"), initial),
            ("MEMORY_COMPRESS", run.log.of("MEMORY_COMPRESS"), produced),
            ("ON_COMPACT", run.log.hooked("ON_COMPACT"), produced),
        ):
            context.expect(
                _same(events[0].payload, payload),
                f"the {kind} payload is {describe(events[0].payload)}, not "
                f"{describe(payload)} (EVT-5)",
            )
        context.expect(
            _same(result, produced),
            f"compact returned {describe(result)}, not the policy's result {describe(produced)}",
        )
        state = run.memory.state
        wanted_state = initial if produced.memory is None else produced.memory
        context.expect(
            _same(state, wanted_state),
            f"memory after compact is {describe(state)}, expected {describe(wanted_state)} "
            "(RUN-14)",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, produced),
            f"last_compact_result is {describe(last)}, not the manual compaction's result "
            "(RUN-14, SES-5)",
        )

    return test


@_runtime_check("runtime.manual-compaction-needs-policy", "RUN-14", "DIF-14")
def manual_compaction_needs_policy(context: CheckContext) -> Callable[[], None]:
    """A manual compaction without a policy is an error that changes and publishes nothing."""

    def test() -> None:
        initial = MemorySnapshot(items=("a", "b"), summary="kept")
        context.record(initial=initial, policy=None)
        run = _Session(context, _Script(initial=initial, answers=()))
        try:
            run.session.compact(None)  # type: ignore[arg-type]  # on purpose
        except Exception:  # noqa: BLE001 - any error will do
            raised = True
        else:
            raised = False
        context.expect(raised, "compact(None) returned instead of raising (RUN-14)")
        context.expect(
            _same(run.memory.state, initial) and not run.log.events and not run.log.lifecycle,
            "compact(None) changed the memory or published events (RUN-14)",
        )

    return test


@_runtime_check(
    "runtime.manual-compaction-failure", "RUN-15", "SES-5", "EVT-2", "EVT-4", "EVT-5", "DIF-14"
)
def manual_compaction_failure(context: CheckContext) -> Callable[[], None]:
    """A failing manual compaction leaves everything as it was, is published, and propagates."""

    @given(
        initial=snapshots,
        where=st.sampled_from(["snapshot", "compact", "restore"]),
        earlier=st.booleans(),
    )
    @example(
        initial=MemorySnapshot(items=("a", "b"), summary="kept"), where="restore", earlier=True
    )
    @example(initial=MemorySnapshot(items=("a",)), where="compact", earlier=False)
    @example(initial=MemorySnapshot(), where="snapshot", earlier=True)
    def test(initial: MemorySnapshot, where: str, earlier: bool) -> None:
        context.record(initial=initial, where=where, earlier=earlier)
        run = _Session(context, _Script(initial=initial, answers=()))
        if earlier:
            run.session.compact(_manual_policy(run, None))
        last_before = run.session.last_compact_result
        before = run.memory.state
        failure = _Failure(where=where, step=0)
        policy = _manual_policy(run, 1, None if where == "snapshot" else failure)
        error = policy.error or OSError("scripted memory.snapshot failure")
        if where == "snapshot":
            run.memory.fail_snapshot = error
        mark = len(run.log.events)
        hooks_mark = len(run.log.lifecycle)
        try:
            run.session.compact(policy)
        except Exception as raised:  # noqa: BLE001 - checked below
            caught: Exception | None = raised
        else:
            caught = None
        context.expect(
            caught is not None, f"the failing {where} did not propagate out of compact (RUN-15)"
        )
        context.expect(
            _caused_by(caught, error),
            f"compact raised {caught!r}, not the {where} error {error!r} (RUN-15)",
        )
        state = run.memory.state
        context.expect(
            _same(state, before),
            f"memory after the failed {where} is {describe(state)}, not as it was: "
            f"{describe(before)} (RUN-15)",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, last_before),
            f"last_compact_result became {describe(last)} after a failed compaction (RUN-15, "
            "SES-5)",
        )
        events = run.log.events[mark:]
        failed = [e for e in events if e.type == "COMPACT_FAILED"]
        context.expect(
            len(failed) == 1,
            f"{len(failed)} COMPACT_FAILED events for a failed manual compaction (RUN-15)",
        )
        context.expect(
            failed[0].message == COMPACT_FAILED_MESSAGE and failed[0].step is None,
            f"COMPACT_FAILED carries {failed[0].message!r} and step {failed[0].step}, not "
            "'compaction failed' and null (EVT-4, EVT-2)",
        )
        context.expect(
            _caused_by(failed[0].payload, error),
            f"the COMPACT_FAILED payload is {failed[0].payload!r}, not the error (EVT-5)",
        )
        done = sum(e.type == "MEMORY_COMPRESS" for e in events)
        done += sum(e.type == "ON_COMPACT" for e in run.log.lifecycle[hooks_mark:])
        context.expect(not done, "a failed manual compaction was announced as done (RUN-15)")

    return test


#: The checks of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    manual_compaction,
    manual_compaction_needs_policy,
    manual_compaction_failure,
)
