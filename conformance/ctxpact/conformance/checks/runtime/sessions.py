"""Checks of sessions: ids, snapshots, restores, saving and resuming (§15.1, SES-1 .. SES-8).

New sessions get fresh ids and memories (SES-2); a snapshot holds the id, the memory and the
last compact result as a copy (SES-1, SES-3), and restoring one takes all three (SES-4);
runs, compactions, snapshots, restores and resumes in any order keep the session exact
(SES-3 .. SES-8); and a saved session resumes identical from every store (SES-6 .. SES-8).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import evolve
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._model import Check
from ctxpact.conformance._runtime import RuntimeConfig, RuntimeSession
from ctxpact.conformance.checks.runtime._parts import (
    _compaction,
    _Failure,
    _Memory,
    _Model,
    _Policy,
)
from ctxpact.conformance.checks.runtime._scripts import _expect, _manual_policy, _Script, _Session
from ctxpact.conformance.checks.runtime._strategies import (
    _FULL_SCRIPT,
    _PLAIN_SCRIPT,
    _final,
    _scripts,
)
from ctxpact.conformance.checks.runtime._support import _runtime_check, _same, _text, _vandalize
from ctxpact.conformance.strategies import session_snapshots
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.reference.session import (
    FileSessionStore,
    InMemorySessionStore,
    SessionStore,
    SqliteSessionStore,
)
from ctxpact.spec import (
    AgentMemory,
    AgentSessionSnapshot,
    CompactResult,
    CtxpactError,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    to_json,
    violations,
)


@_runtime_check("runtime.session-ids", "SES-2")
def session_ids(context: CheckContext) -> Callable[[], None]:
    """New sessions get fresh non-empty ids and fresh memories from the memory factory."""

    def test() -> None:
        trace: list[str] = []
        built: list[_Memory] = []

        def memory_factory(_: str) -> AgentMemory:
            built.append(_Memory(trace))
            return built[-1]

        answers = [_final(f"answer {index}") for index in range(3)]
        config = RuntimeConfig(model_client=_Model(trace, answers), memory_factory=memory_factory)
        sessions: list[RuntimeSession] = [context.subject(config) for _ in range(3)]
        ids = [session.session_id for session in sessions]
        context.record(session_ids=ids)
        context.expect(
            all(isinstance(i, str) and i for i in ids) and len(set(ids)) == len(ids),
            f"three sessions of one agent got the ids {ids}: each needs a fresh, non-empty "
            "id (SES-2)",
        )
        for index, session in enumerate(sessions):
            session.run(f"for session {index}")
        for index in range(len(sessions)):
            text = f"for session {index}"
            holding = [m for m in built if text in _text(m.state)]
            context.expect(
                len(holding) == 1,
                f"session {index}'s input went into {len(holding)} of the memories the memory "
                "factory built, not exactly one (SES-2)",
            )
            others = [t for t in range(len(sessions)) if t != index]
            context.expect(
                not any(f"for session {t}" in _text(holding[0].state) for t in others),
                f"session {index} shares its memory with another session (SES-2: a fresh "
                "memory each)",
            )

    return test


@_runtime_check("runtime.session-snapshot", "SES-1", "SES-3")
def session_snapshot(context: CheckContext) -> Callable[[], None]:
    """snapshot() holds the id, the memory's snapshot and the last result, as a copy."""

    @given(script=_scripts(projector=False))
    @example(script=evolve(_FULL_SCRIPT, projector=False))
    @example(script=_PLAIN_SCRIPT)
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        run.session.run(script.user_input)
        taken = run.session.snapshot()
        context.expect(
            isinstance(taken, AgentSessionSnapshot),
            f"snapshot() returned a {type(taken).__name__}, not an AgentSessionSnapshot (SES-1)",
        )
        found = violations(to_json(taken), "session-snapshot")
        context.expect(
            not found, f"the snapshot breaks session-snapshot.schema.json: {found} (SES-1)"
        )
        context.expect(
            taken.session_id == run.session.session_id,
            f"the snapshot's session id {taken.session_id!r} is not the session's "
            f"{run.session.session_id!r} (SES-3)",
        )
        context.expect(
            _same(taken.memory, run.memory.state),
            f"the snapshot's memory {describe(taken.memory)} is not the memory's snapshot "
            f"{describe(run.memory.state)} (SES-3)",
        )
        expected = _expect(script).last_compact_result
        context.expect(
            _same(taken.compact_result, expected),
            f"the snapshot's compactResult is {describe(taken.compact_result)}, not the last "
            f"compact result {describe(expected)} (SES-3)",
        )
        text = _text(taken)
        memory_before = run.memory.state
        _vandalize(taken)
        context.expect(
            _text(run.session.snapshot()) == text and _same(run.memory.state, memory_before),
            "changing a snapshot changed the session (SES-3: it shares nothing mutable)",
        )

    return test


@_runtime_check("runtime.session-restore", "SES-4", "SES-5", "EVT-2")
def session_restore(context: CheckContext) -> Callable[[], None]:
    """restore(snapshot) takes the memory, the last result and the id of the snapshot."""

    @given(snapshot=session_snapshots)
    @example(
        snapshot=AgentSessionSnapshot(
            session_id="restored",
            memory=MemorySnapshot(items=("recent", {"k": [1]}), summary="earlier"),
        )
    )
    @example(
        snapshot=AgentSessionSnapshot(
            session_id="r", compact_result=CompactResult(summary="s", pending=("p",))
        )
    )
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        script = evolve(_FULL_SCRIPT, projector=False)
        run = _Session(context, script, answers=(*script.answers, _final("after restore")))
        run.session.run(script.user_input)
        run.session.restore(snapshot)
        context.expect(
            run.session.session_id == snapshot.session_id,
            f"after restore the session id is {run.session.session_id!r}, not the snapshot's "
            f"{snapshot.session_id!r} (SES-4)",
        )
        context.expect(
            _same(run.memory.state, snapshot.memory),
            f"after restore the memory is {describe(run.memory.state)}, not the snapshot's "
            f"{describe(snapshot.memory)} (SES-4)",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, snapshot.compact_result),
            f"after restore last_compact_result is {describe(last)}, not the snapshot's "
            f"{describe(snapshot.compact_result)} (SES-4, SES-5)",
        )
        context.expect(
            _same(run.session.snapshot(), snapshot),
            f"after restore snapshot() is {describe(run.session.snapshot())}, not the snapshot "
            "restored (SES-4)",
        )
        mark = len(run.log.events)
        run.session.run("after restore")
        ids = {event.session_id for event in run.log.events[mark:]}
        context.expect(
            ids == {snapshot.session_id},
            f"after restore the run's events carry the session ids {sorted(ids)}, not "
            f"{snapshot.session_id!r} (SES-4, EVT-2)",
        )

    return test


_OPERATIONS = st.one_of(
    st.tuples(st.just("run"), st.booleans(), st.none() | st.integers(0, 3)),
    st.tuples(st.just("compact"), st.none() | st.integers(0, 3)),
    st.tuples(st.just("fail-compact")),
    st.tuples(st.just("snapshot")),
    st.tuples(st.just("restore"), st.integers(0, 3)),
    st.tuples(st.just("resume")),
)
_RESTORED = AgentSessionSnapshot(
    session_id="restored-session",
    memory=MemorySnapshot(items=("restored",), summary="from a snapshot"),
    compact_result=CompactResult(summary="from a snapshot"),
)


class _Answers:
    """A model that answers every call with a final answer of its own number."""

    def __init__(self) -> None:
        self.calls = 0

    def create(self, prompt: ModelPrompt) -> ModelResult:
        del prompt
        self.calls += 1
        return _final(f"answer {self.calls}", {"role": "assistant", "n": self.calls})


class _SessionMachine:
    """Drives sessions of the runtime through operations, next to a model of their state."""

    def __init__(self, context: CheckContext) -> None:
        self.context = context
        self.trace: list[str] = []
        self.memories: list[_Memory] = []
        self.model = _Answers()
        self.policy = _Policy(self.trace, lambda: 0, decisions=(False,), keeps=(None,))
        self.store: SessionStore = InMemorySessionStore()
        self.mirror = InMemoryAgentMemory()
        self.last: CompactResult | None = None
        self.taken: list[AgentSessionSnapshot] = []
        self.session = self._open(None)
        self.session_id = self.session.session_id

    def _memory(self, _: str) -> AgentMemory:
        self.memories.append(_Memory(self.trace))
        return self.memories[-1]

    def _open(self, resume: str | None) -> RuntimeSession:
        config = RuntimeConfig(
            model_client=self.model,
            memory_factory=self._memory,
            compact_policy=self.policy,
            session_store=self.store,
            resume_session_id=resume,
        )
        session: RuntimeSession = self.context.subject(config)
        return session

    def _compaction(self, keep: int | None) -> CompactResult:
        result = _compaction(self.mirror.snapshot(), keep, 0)
        if result.memory is not None:
            self.mirror.restore(result.memory)
        self.last = result
        return result

    def apply(self, operation: tuple[Any, ...]) -> None:
        kind = operation[0]
        if kind == "run":
            _, decide, keep = operation
            self.policy.decisions, self.policy.keeps = (decide,), (keep,)
            text = f"turn {self.model.calls}"
            self.mirror.add_user_input(text)
            if decide:
                self._compaction(keep)
            self.mirror.add_output_items([{"role": "assistant", "n": self.model.calls + 1}])
            self.session.run(text)
        elif kind == "compact":
            self.policy.keeps = (operation[1],)
            self._compaction(operation[1])
            self.session.compact(self.policy)
        elif kind == "fail-compact":
            failing = _Policy(
                self.trace,
                lambda: 0,
                decisions=(),
                keeps=(),
                failure=_Failure(where="compact", step=0),
            )
            with contextlib.suppress(Exception):
                self.session.compact(failing)
        elif kind == "snapshot":
            self.taken.append(self.session.snapshot())
        elif kind == "restore":
            chosen = self.taken[operation[1] % len(self.taken)] if self.taken else _RESTORED
            self.session.restore(chosen)
            self.mirror.restore(chosen.memory)
            self.last = chosen.compact_result
            self.session_id = chosen.session_id
        else:
            self.session.save()
            self.session = self._open(self.session.session_id)

    def expect_model(self, operation: tuple[Any, ...]) -> None:
        expected = AgentSessionSnapshot(
            session_id=self.session_id, memory=self.mirror.snapshot(), compact_result=self.last
        )
        actual = self.session.snapshot()
        self.context.expect(
            _same(actual, expected),
            f"after {operation}: the session's snapshot is {describe(actual)}, expected "
            f"{describe(expected)} (SES-3, SES-4, SES-5, SES-7, SES-8)",
        )
        memory = self.memories[-1].state
        self.context.expect(
            _same(memory, expected.memory),
            f"after {operation}: the session's memory is {describe(memory)}, expected "
            f"{describe(expected.memory)} (SES-3, SES-4, SES-7)",
        )


@_runtime_check("runtime.session-lifecycle", "SES-3", "SES-4", "SES-5", "SES-7", "SES-8")
def session_lifecycle(context: CheckContext) -> Callable[[], None]:
    """Runs, compactions, snapshots, restores and resumes in any order keep the session exact."""

    @given(operations=st.lists(_OPERATIONS, max_size=8))
    @example(
        operations=[
            ("run", True, 1),
            ("snapshot",),
            ("run", False, None),
            ("compact", None),
            ("fail-compact",),
            ("resume",),
            ("restore", 0),
            ("resume",),
            ("run", True, 0),
        ]
    )
    @example(operations=[("restore", 0), ("resume",), ("compact", 2)])
    def test(operations: list[tuple[Any, ...]]) -> None:
        context.record(operations=operations)
        machine = _SessionMachine(context)
        for operation in operations:
            context.step(str(operation[0]), operation=list(operation))
            machine.apply(operation)
            machine.expect_model(operation)

    return test


def _stores(directory: Path) -> list[tuple[str, SessionStore]]:
    return [
        ("InMemorySessionStore", InMemorySessionStore()),
        ("FileSessionStore", FileSessionStore(directory)),
        ("SqliteSessionStore", SqliteSessionStore(":memory:")),
    ]


@_runtime_check("runtime.session-save-resume", "SES-6", "SES-7", "SES-8")
def session_save_resume(context: CheckContext) -> Callable[[], None]:
    """A saved session resumes identical from every store; without a store both are errors."""

    def test() -> None:
        script = evolve(_FULL_SCRIPT, projector=False)
        context.record(script=script)
        with tempfile.TemporaryDirectory(prefix="ctxpact-runtime-") as directory:
            for name, kept in _stores(Path(directory)):
                _expect_resumed(context, script, name, kept)
                close = getattr(kept, "close", None)
                if callable(close):
                    close()
        run = _Session(context, script)
        run.session.run(script.user_input)
        before = _text(run.session.snapshot())
        try:
            run.session.save()
        except Exception as error:  # noqa: BLE001 - checked below
            caught: Exception | None = error
        else:
            caught = None
        context.expect(
            isinstance(caught, CtxpactError) and isinstance(caught, RuntimeError),
            f"save() without a session store raised {caught!r}, not a CtxpactError that is a "
            "RuntimeError (SES-6)",
        )
        context.expect(
            _text(run.session.snapshot()) == before,
            "a failed save() changed the session (SES-6)",
        )
        cases: tuple[tuple[SessionStore | None, tuple[type[Exception], ...], str], ...] = (
            (None, (CtxpactError, RuntimeError), "without a session store"),
            (InMemorySessionStore(), (CtxpactError, LookupError), "of an unknown id"),
        )
        for store, kinds, what in cases:
            config = evolve(run.config, session_store=store, resume_session_id="nobody-here")
            try:
                context.factory(config)
            except Exception as error:  # noqa: BLE001 - checked below
                caught = error
            else:
                caught = None
            context.expect(
                all(isinstance(caught, kind) for kind in kinds),
                f"resuming a session {what} raised {caught!r}, not a "
                f"{' that is a '.join(kind.__name__ for kind in kinds)} (SES-6, SES-7)",
            )
            if store is not None:
                context.expect(
                    "nobody-here" in str(caught),
                    f"the error for an unknown session does not name its id: {caught} (SES-7)",
                )

    return test


def _expect_resumed(context: CheckContext, script: _Script, name: str, store: SessionStore) -> None:
    run = _Session(context, script)
    config = evolve(run.config, session_store=store)
    session: RuntimeSession = context.subject(config)
    session.run(script.user_input)
    session.compact(_manual_policy(run, 1))
    taken = session.snapshot()
    session.save()
    fresh: list[_Memory] = []

    def memory_factory(_: str) -> AgentMemory:
        fresh.append(_Memory([]))
        return fresh[-1]

    resumed: RuntimeSession = context.subject(
        evolve(
            config,
            memory_factory=memory_factory,
            resume_session_id=taken.session_id,
        )
    )
    context.expect(
        _text(resumed.snapshot()) == _text(taken),
        f"{name}: the resumed session's snapshot {describe(resumed.snapshot())} is not the "
        f"one saved {describe(taken)} (SES-7, SES-8)",
    )
    context.expect(
        bool(fresh) and _same(fresh[-1].state, taken.memory),
        f"{name}: the resumed session does not hold its state in a fresh memory from the "
        "memory factory (SES-7)",
    )
    context.expect(
        _same(resumed.last_compact_result, taken.compact_result),
        f"{name}: the resumed session's last_compact_result is "
        f"{describe(resumed.last_compact_result)}, not the saved one (SES-7, SES-8)",
    )


#: The checks of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    session_ids,
    session_snapshot,
    session_restore,
    session_lifecycle,
    session_save_resume,
)
