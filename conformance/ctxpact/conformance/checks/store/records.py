"""What a store keeps: snapshots round-trip identical (SES-1, JSON-10), as copies (SES-11).

A snapshot that breaks its schema is refused and nothing is lost (SES-10), and a session's
summary survives a save and a resume (SES-8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import example, given

from ctxpact.conformance._context import CheckContext, CheckFailure
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._stateful_support import (
    first_difference,
    nested,
    nesting_depth,
    scramble,
)
from ctxpact.conformance.checks.store._support import (
    FULL_SESSION,
    SessionStore,
    _document,
    _expect_loads,
    _invalid_snapshots,
    sessions,
)
from ctxpact.conformance.strategies import session_snapshots
from ctxpact.reference.session import Agent
from ctxpact.spec import (
    AgentSessionSnapshot,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
)


@check(
    "store.round-trip",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-9", "SES-1", "JSON-3", "JSON-5", "JSON-8", "JSON-10"),
)
def round_trip(context: CheckContext) -> Callable[[], None]:
    """A saved snapshot loads back identical, compact result, member order and numbers kept."""

    @given(snapshot=sessions | session_snapshots)
    @example(snapshot=FULL_SESSION)
    @example(snapshot=AgentSessionSnapshot(session_id=" a\tb ", memory=MemorySnapshot(summary=" ")))
    @example(snapshot=AgentSessionSnapshot(session_id="s", memory=MemorySnapshot(summary="")))
    @example(
        snapshot=AgentSessionSnapshot(session_id="d", memory=MemorySnapshot(items=(nested(),)))
    )
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        store: SessionStore = context.subject()
        expected = _document(snapshot)
        depth = max(map(nesting_depth, snapshot.memory.items), default=0)
        note = f" (it holds an item nested {depth} levels deep; JSON-8)" if depth > 64 else ""
        try:
            store.save(snapshot)
            _expect_loads(context, store, snapshot.session_id, expected)
        except CheckFailure:
            raise
        except Exception as error:  # noqa: BLE001 - a valid snapshot must be kept
            message = f"{type(error).__name__}: {error}"[:300]
            context.expect(
                condition=False,
                message=f"saving and loading a valid snapshot{note} raised {message}",
            )

    return test


@check(
    "store.copies",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-11", "JSON-16"),
)
def copies(context: CheckContext) -> Callable[[], None]:
    """Saving changes nothing given; changing a saved or loaded snapshot changes nothing stored."""

    @given(snapshot=sessions)
    @example(snapshot=FULL_SESSION)
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        store: SessionStore = context.subject()
        expected = _document(snapshot)
        store.save(snapshot)
        found = first_difference(expected, _document(snapshot))
        context.expect(found is None, f"save() changed the snapshot it was given: {found}")
        _scramble_snapshot(snapshot)
        _expect_loads(context, store, snapshot.session_id, expected)
        loaded = store.load(snapshot.session_id)
        if loaded is not None:
            _scramble_snapshot(loaded)
        _expect_loads(context, store, snapshot.session_id, expected)

    return test


def _scramble_snapshot(snapshot: AgentSessionSnapshot) -> None:
    scramble(list(snapshot.memory.items))
    result = snapshot.compact_result
    if result is not None and result.memory is not None:
        scramble(list(result.memory.items))


@check(
    "store.invalid-snapshot",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-10", "SES-9", "JSON-9", "JSON-11", "JSON-14"),
)
def invalid_snapshot(context: CheckContext) -> Callable[[], None]:
    """A snapshot that is not a valid document is refused with its JSON path; nothing written."""

    def test() -> None:
        store: SessionStore = context.subject()
        kept = AgentSessionSnapshot(
            session_id="kept", memory=MemorySnapshot(items=("old",), summary="old")
        )
        store.save(kept)
        for session_id, before in (("kept", _document(kept)), ("fresh", None)):
            for what, snapshot, path in _invalid_snapshots(session_id):
                context.record(session_id=session_id, snapshot=what, path=path)
                try:
                    store.save(snapshot)
                except Exception as error:  # noqa: BLE001 - any error refuses; message checked
                    message = str(error)
                else:
                    context.expect(
                        condition=False, message=f"save() accepted a snapshot with {what}"
                    )
                    continue
                context.expect(
                    path in message,
                    f"save() refused a snapshot with {what} without naming the JSON path "
                    f"{path}: {message!r}",
                )
                _expect_loads(context, store, session_id, before)

    return test


# -- resuming a session through the store ------------------------------------------------------


class _SilentModel:
    """A model client for sessions that never run."""

    def create(self, prompt: ModelPrompt) -> ModelResult:
        raise AssertionError(f"the model was called with {prompt.model!r}")


@check(
    "store.resume-keeps-summary",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-8", "SES-9", "MEM-10"),
)
def resume_keeps_summary(context: CheckContext) -> Callable[[], None]:
    """A session saved and resumed through the store has the same snapshot, summary included."""

    @given(snapshot=sessions)
    @example(snapshot=FULL_SESSION)
    @example(snapshot=AgentSessionSnapshot(session_id="s", memory=MemorySnapshot(summary=" ")))
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        store: Any = context.subject()
        agent = Agent(model_client=_SilentModel(), session_store=store)
        session = agent.new_session(snapshot.session_id)
        session.restore(snapshot)
        taken = _document(session.snapshot())
        session.save()
        resumed = agent.resume_session(snapshot.session_id)
        summary = resumed.memory.get_summary()
        context.expect(
            summary == snapshot.memory.summary,
            f"the resumed session's memory has the summary {summary!r}, not "
            f"{snapshot.memory.summary!r}: restore through the store lost the summary",
        )
        found = first_difference(taken, _document(resumed.snapshot()))
        context.expect(
            found is None, f"the resumed session's snapshot differs from the saved one: {found}"
        )

    return test
