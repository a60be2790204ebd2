"""The model-based check of §15.2: a state machine saves, loads, deletes and lists sessions."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import attrs
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._stateful_support import (
    run_machine,
)
from ctxpact.conformance.checks.store._support import (
    DeletingStore,
    ListingStore,
    SessionStore,
    _document,
    _expect_loads,
    _ids,
    sessions,
)
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    JsonObject,
    MemorySnapshot,
)


class StoreMachine(RuleBasedStateMachine):
    """A store and a dict of the documents saved last, driven side by side (SES-9)."""

    def __init__(self, context: CheckContext) -> None:
        super().__init__()
        context.record()
        self.context = context
        self.store: SessionStore = context.subject()
        self.model: dict[str, JsonObject] = {}

    @rule(snapshot=sessions, session_id=_ids)
    def save(self, snapshot: AgentSessionSnapshot, session_id: str) -> None:
        """Save (and so replace) a session; it loads back at once."""
        chosen = attrs.evolve(snapshot, session_id=session_id)
        self.context.step("save", snapshot=chosen)
        self.model[session_id] = _document(chosen)
        self.store.save(chosen)
        _expect_loads(self.context, self.store, session_id, self.model[session_id])

    @rule(session_id=_ids)
    def load(self, session_id: str) -> None:
        """Load a session, saved or not (null for an unknown id)."""
        self.context.step("load", session_id=session_id)
        _expect_loads(self.context, self.store, session_id, self.model.get(session_id))

    @precondition(lambda self: isinstance(self.store, DeletingStore))
    @rule(session_id=_ids)
    def delete(self, session_id: str) -> None:
        """Delete a session, when the store can."""
        self.context.step("delete", session_id=session_id)
        cast("DeletingStore", self.store).delete(session_id)
        self.model.pop(session_id, None)
        _expect_loads(self.context, self.store, session_id, None)

    @rule()
    def load_all(self) -> None:
        """Every session loads as saved last; a listing names exactly the saved sessions."""
        self.context.step("load_all")
        for session_id, document in self.model.items():
            _expect_loads(self.context, self.store, session_id, document)
        if isinstance(self.store, ListingStore):
            listed = list(self.store.session_ids())
            self.context.expect(
                sorted(listed) == sorted(self.model),
                f"session_ids() is {listed} but the saved sessions are {sorted(self.model)}",
            )


def _scripted_run(machine: StoreMachine) -> None:
    first = AgentSessionSnapshot(
        session_id="x", memory=MemorySnapshot(items=("one", {"b": 1, "a": 1.0}), summary="s")
    )
    second = AgentSessionSnapshot(
        session_id="x",
        memory=MemorySnapshot(items=(), summary=""),
        compact_result=CompactResult(summary="compacted", pending=("next",)),
    )
    steps: list[Callable[[], object]] = [
        lambda: machine.load("s-1"),
        lambda: machine.save(first, "s-1"),
        lambda: machine.save(second, "S-1"),
        lambda: machine.load("s-1"),
        lambda: machine.load("S-1"),
        lambda: machine.save(second, "s-1"),
        lambda: machine.load("s-10"),
        lambda: machine.save(first, "Run/1"),
        lambda: machine.load("%52un%2F1"),
    ]
    if isinstance(machine.store, DeletingStore):
        steps += [lambda: machine.delete("S-1"), lambda: machine.load("S-1")]
    for step in steps:
        step()
        machine.load_all()


@check(
    "store.model-based",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-9", "SES-12", "JSON-10"),
)
def model_based(context: CheckContext) -> Callable[[], None]:
    """The store keeps the snapshot saved last under each id, and nothing under others."""

    def test() -> None:
        _scripted_run(StoreMachine(context))
        run_machine(context, lambda: StoreMachine(context), step_share=0.5)

    return test
