"""Checks of events, listeners and hooks (§17, EVT-1 .. EVT-13).

Observers run in registration order and nothing they do changes the run (EVT-6 .. EVT-8); a
failing hook or listener is reported as ``ERROR`` and all else goes on (EVT-9 .. EVT-11);
events carry their type, message, payload, session id and step (EVT-1 .. EVT-3, EVT-5); and a
helper named for the time before compaction registers a hook that runs before it (EVT-12).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

from attrs import evolve
from hypothesis import example, given

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._model import Check
from ctxpact.conformance._runtime import RuntimeEvent, RuntimeLifecycleEvent, observer_name
from ctxpact.conformance.checks.runtime._parts import _Failure
from ctxpact.conformance.checks.runtime._scripts import _expect, _manual_policy, _Script, _Session
from ctxpact.conformance.checks.runtime._strategies import (
    _FULL_SCRIPT,
    _NULL_MEMORY_SCRIPT,
    _scripts,
)
from ctxpact.conformance.checks.runtime._support import (
    _EVENT_TYPES,
    _LIFECYCLE_TYPES,
    _caused_by,
    _divergence,
    _Event,
    _label,
    _runtime_check,
    _same,
    _vandalize,
)
from ctxpact.reference.session import HOOK_FAILED_MESSAGE, LISTENER_FAILED_MESSAGE
from ctxpact.spec import MemorySnapshot

#: How EVT-1 and EVT-3 write an event type, and the names EVT-12 gives compaction helpers.
_UPPER_CASE_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_COMPACTION_HELPER = re.compile(r"(pre|before|on)_?compact", re.IGNORECASE)


def _expect_like_oracle(context: CheckContext, run: _Session, script: _Script, what: str) -> None:
    expected = _expect(script)
    assert run.policy is not None  # noqa: S101 - these scenarios have a policy
    for seen, want in zip(run.policy.compacted, expected.compacted, strict=False):
        context.expect(
            _same(seen, want),
            f"compact was given {describe(seen)}, not the memory's snapshot {describe(want)}: "
            f"{what} changed what is compacted",
        )
    for step, (sent, want_items) in enumerate(
        zip(run.model.prompts, expected.prompts, strict=False)
    ):
        context.expect(
            _same(sent.items, want_items),
            f"step {step}: the prompt is {describe(sent.items)}, not {describe(want_items)}: "
            f"{what} changed the prompt",
        )
    context.expect(
        _same(run.memory.state, expected.final),
        f"memory after the run is {describe(run.memory.state)}, not "
        f"{describe(expected.final)}: {what} changed the memory",
    )
    context.expect(
        _same(run.session.last_compact_result, expected.last_compact_result),
        f"last_compact_result is {describe(run.session.last_compact_result)}: {what} changed "
        "the compaction",
    )


@_runtime_check("runtime.observers-only-observe", "EVT-6", "EVT-7", "EVT-8", "DIF-18")
def observers_only_observe(context: CheckContext) -> Callable[[], None]:
    """Observers run in registration order, and nothing they do or return changes the run."""

    @given(script=_scripts(policy=True, projector=True))
    @example(script=_FULL_SCRIPT)
    @example(script=evolve(_FULL_SCRIPT, decisions=(True, True, True), keeps=(3, None, 3)))
    def test(script: _Script) -> None:
        context.record(script=script)
        calls: list[tuple[int, str]] = []

        def vandal(event: RuntimeEvent | RuntimeLifecycleEvent) -> object:
            calls.append((1, _label(event.type, event.message, event.step)))
            _vandalize(event.payload)
            return False

        def follower(event: RuntimeEvent | RuntimeLifecycleEvent) -> object:
            calls.append((2, _label(event.type, event.message, event.step)))
            return "veto"

        run = _Session(
            context, script, listeners=((vandal,), (follower,)), hooks=((vandal,), (follower,))
        )
        run.session.run(script.user_input)
        firsts = [label for index, label in calls if index == 1]
        in_order = [call for label in firsts for call in ((1, label), (2, label))]
        context.expect(
            calls == in_order,
            "observers were not each called in the order they were registered, one event "
            f"after the other: {calls[:8]} (EVT-6)",
        )
        problem = _divergence(_expect(script).trace, run.trace)
        context.expect(
            problem is None, f"observers that change payloads changed the run: {problem} (EVT-7)"
        )
        _expect_like_oracle(context, run, script, "an observer (EVT-7, EVT-8)")

    return test


class _FailingObserver:
    """A callable object that raises on every call: its name is its type's (EVT-11)."""

    def __init__(self) -> None:
        self.raised: list[tuple[str, Exception]] = []

    def __call__(self, event: RuntimeEvent | RuntimeLifecycleEvent) -> None:
        error = RuntimeError(f"{type(self).__name__} failed on {event.type}")
        self.raised.append((event.message or "", error))
        raise error


@_runtime_check("runtime.failing-hook", "EVT-9", "EVT-11", "EVT-4", "EVT-5")
def failing_hook(context: CheckContext) -> Callable[[], None]:
    """A failing hook is reported as ERROR 'lifecycle hook failed: <name>'; all else goes on."""

    def test() -> None:
        script = _FULL_SCRIPT
        context.record(script=script)
        raised: list[Exception] = []

        def broken_hook(event: RuntimeLifecycleEvent) -> None:
            error = RuntimeError(f"broken_hook failed on {event.type}")
            raised.append(error)
            raise error

        failing = _FailingObserver()
        seen_last: list[str] = []
        run = _Session(
            context,
            script,
            hooks=((broken_hook,), (failing, lambda event: seen_last.append(event.type))),
        )
        output = run.session.run(script.user_input)
        dispatched = len(run.log.lifecycle)
        context.expect(
            dispatched > 0 and len(raised) == dispatched == len(failing.raised) == len(seen_last),
            f"after a hook raised, dispatch did not go on with the next hooks: the hooks got "
            f"{len(raised)}, {dispatched}, {len(failing.raised)} and {len(seen_last)} "
            "lifecycle events (EVT-9)",
        )
        for hook, errors in (
            (broken_hook, raised),
            (failing, [error for _, error in failing.raised]),
        ):
            message = HOOK_FAILED_MESSAGE.format(name=observer_name(hook))
            reports = run.log.of("ERROR", message)
            context.expect(
                len(reports) == len(errors),
                f"{len(reports)} ERROR {message!r} events for {len(errors)} failures "
                f"(EVT-9, EVT-11); ERROR messages seen: "
                f"{sorted({str(e.message) for e in run.log.of('ERROR')})}",
            )
            context.expect(
                all(_caused_by(r.payload, e) for r, e in zip(reports, errors, strict=True)),
                f"the ERROR {message!r} payloads are not the hook's errors (EVT-5)",
            )
        context.expect(output == "done", f"run returned {output!r} after hooks failed (EVT-9)")
        _expect_like_oracle(context, run, script, "a failing hook (EVT-9)")

    return test


@_runtime_check("runtime.failing-listener", "EVT-10", "EVT-11", "EVT-4", "EVT-5", "DIF-20")
def failing_listener(context: CheckContext) -> Callable[[], None]:
    """A failing listener is reported to the others, once, without recursion; the run goes on."""

    def test() -> None:
        script = _FULL_SCRIPT
        context.record(script=script)
        received: list[RuntimeEvent] = []
        raised: list[Exception] = []

        def broken_listener(event: RuntimeEvent) -> None:
            received.append(event)
            error = RuntimeError(f"broken_listener failed on {event.type}")
            raised.append(error)
            raise error

        failing = _FailingObserver()
        run = _Session(context, script, listeners=((broken_listener,), (failing,)))
        output = run.session.run(script.user_input)
        context.expect(output == "done", f"run returned {output!r} after listeners failed (EVT-10)")
        names = {
            "broken_listener": LISTENER_FAILED_MESSAGE.format(name=observer_name(broken_listener)),
            "failing": LISTENER_FAILED_MESSAGE.format(name=observer_name(failing)),
        }
        reported = set(names.values())
        originals = [e for e in run.log.events if e.message not in reported]
        own = [e for e in received if e.message == names["broken_listener"]]
        context.expect(
            not own,
            "a failing listener was sent the report of its own failure (EVT-10: to the others)",
        )
        first = [
            error
            for event, error in zip(received, raised, strict=True)
            if event.message not in reported
        ]
        second = [error for message, error in failing.raised if message not in reported]
        for key, errors in (("broken_listener", first), ("failing", second)):
            reports = run.log.of("ERROR", names[key])
            context.expect(
                len(reports) == len(errors) == len(originals),
                f"{len(reports)} ERROR {names[key]!r} events reached the other listeners for "
                f"{len(errors)} failures on {len(originals)} events; each failure is reported "
                "once, and a failure on a report is not reported again (EVT-10, EVT-11)",
            )
            context.expect(
                all(_caused_by(r.payload, e) for r, e in zip(reports, errors, strict=True)),
                f"the ERROR {names[key]!r} payloads are not the listener's errors (EVT-5)",
            )
        filtered = [
            entry for entry in run.trace if not entry.startswith("ERROR 'event listener failed")
        ]
        problem = _divergence(_expect(script).trace, filtered)
        context.expect(problem is None, f"failing listeners changed the run: {problem} (EVT-10)")

    return test


@_runtime_check("runtime.event-records", "EVT-1", "EVT-2", "EVT-3", "EVT-5")
def event_records(context: CheckContext) -> Callable[[], None]:
    """Events carry their upper-case type, message, payload, session id and step number."""

    def test() -> None:
        context.record(script=_FULL_SCRIPT)
        full = _Session(context, _FULL_SCRIPT)
        full.session.run(_FULL_SCRIPT.user_input)
        mark = (len(full.log.events), len(full.log.lifecycle))
        full.session.compact(_manual_policy(full, 1))
        failing = evolve(_NULL_MEMORY_SCRIPT, failure=_Failure(where="should_compact", step=0))
        broken = _Session(
            context, failing, answers=[failing.answers[0], ConnectionError("model down")]
        )
        with contextlib.suppress(Exception):
            broken.session.run("go")
        for run in (full, broken):
            _expect_records(context, run)
        seen = {e.type for run in (full, broken) for e in run.log.events}
        for kind in _EVENT_TYPES:
            context.expect(kind in seen, f"no {kind} event was published (EVT-1)")
        hooked = {e.type for e in full.log.lifecycle}
        for kind in _LIFECYCLE_TYPES:
            context.expect(kind in hooked, f"no {kind} lifecycle event was dispatched (EVT-3)")
        finals = [(e.step, e.payload) for e in full.log.of("FINAL_OUTPUT")]
        context.expect(
            finals == [(2, "done")],
            f"FINAL_OUTPUT events (step, payload) are {finals}, not [(2, 'done')]: one at the "
            "last step, the output text as payload (EVT-5)",
        )
        manual: list[_Event] = [*full.log.events[mark[0] :], *full.log.lifecycle[mark[1] :]]
        context.expect(
            bool(manual) and all(e.step is None for e in manual),
            "the events of a manual compaction carry steps "
            f"{[e.step for e in manual]}, not null (EVT-2)",
        )

    return test


def _expect_records(context: CheckContext, run: _Session) -> None:
    session_id = run.session.session_id
    events: list[_Event] = [*run.log.events, *run.log.lifecycle]
    for event in events:
        context.expect(
            isinstance(event.type, str) and _UPPER_CASE_NAME.fullmatch(event.type) is not None,
            f"the event type {event.type!r} is not written as its upper-case name (EVT-1, EVT-3)",
        )
        context.expect(
            event.message is None or isinstance(event.message, str),
            f"the {event.type} event's message is {event.message!r} (EVT-2)",
        )
        context.expect(
            event.session_id == session_id,
            f"a {event.type} event carries session id {event.session_id!r}, not the "
            f"session's {session_id!r} (EVT-2, EVT-3)",
        )
    starts = [e.step for e in run.log.of("STEP_START")]
    context.expect(
        starts == list(range(len(starts))),
        f"STEP_START events carry steps {starts}, not 0, 1, 2, ... (EVT-2)",
    )


@_runtime_check("runtime.compaction-hook-helpers", "EVT-12", "DIF-19")
def compaction_hook_helpers(context: CheckContext) -> Callable[[], None]:
    """A helper named for the time before compaction registers a hook that runs before it."""

    def test() -> None:
        run = _Session(context, _Script(initial=MemorySnapshot(items=("a", "b")), answers=()))
        helpers = sorted(name for name in dir(run.session) if _COMPACTION_HELPER.fullmatch(name))
        context.record(helpers=helpers)
        for name in helpers:
            helper = getattr(run.session, name)
            if callable(helper):
                helper(lambda *_, label=name: run.trace.append(f"helper {label}"))
        if not helpers:
            return
        run.session.compact(_manual_policy(run, 1))
        position = run.trace.index("policy.compact")
        for name in helpers:
            label = f"helper {name}"
            context.expect(label in run.trace, f"a hook registered with {name} never ran (EVT-12)")
            before = run.trace.index(label) < position
            wanted = not name.lower().startswith("on")
            context.expect(
                before == wanted,
                f"a hook registered with {name} ran {'before' if before else 'after'} the "
                f"compaction (EVT-12: {'BEFORE_COMPACT' if wanted else 'ON_COMPACT'})",
            )

    return test


#: The checks of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    observers_only_observe,
    failing_hook,
    failing_listener,
    event_records,
    compaction_hook_helpers,
)
