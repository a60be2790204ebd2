"""Limits and ids: deep items stored and loaded (JSON-17), and the session-id rule (SES-17)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._stateful_support import (
    DEEP_FRAMES,
    beyond_limits,
    from_deep,
    text,
)
from ctxpact.conformance.checks.store._support import (
    DeletingStore,
    ListingStore,
    SessionStore,
    _bypassing,
)
from ctxpact.spec import (
    AgentSessionSnapshot,
    MemorySnapshot,
)


@check(
    "store.beyond-limits",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("JSON-17",),
)
def beyond_limits_stored(context: CheckContext) -> Callable[[], None]:
    """An item beyond the limits is refused, or it loads, saves over and deletes from deep."""

    def test() -> None:
        for what, value in beyond_limits():
            context.record(item=what)
            store: SessionStore = context.subject()
            snapshot = AgentSessionSnapshot(session_id="s-1", memory=MemorySnapshot(items=(value,)))
            try:
                store.save(snapshot)
            except Exception:  # noqa: BLE001 - a refusal is allowed; then nothing was written
                try:
                    loaded = store.load("s-1")
                except Exception as error:  # noqa: BLE001 - the finding
                    context.expect(
                        condition=False,
                        message=f"save() refused an item {what}, and load() then raised "
                        f"{type(error).__name__}: {str(error)[:200]}",
                    )
                    continue
                context.expect(
                    loaded is None,
                    f"save() refused an item {what} but load() found a session afterwards",
                )
                continue
            try:
                loaded = from_deep(functools.partial(store.load, "s-1"))
                from_deep(functools.partial(store.save, snapshot))
                if isinstance(store, DeletingStore):
                    from_deep(functools.partial(store.delete, "s-1"))
            except Exception as error:  # noqa: BLE001 - the finding
                context.expect(
                    condition=False,
                    message=f"save() accepted an item {what}, but loading, saving over or "
                    f"deleting it {DEEP_FRAMES} frames deep in the stack raised "
                    f"{type(error).__name__}: "
                    f"{str(error)[:200]}",
                )
                continue
            context.expect(
                loaded is not None and loaded.memory.items == snapshot.memory.items,
                f"save() accepted an item {what}, but load() {DEEP_FRAMES} frames deep in the "
                "stack did "
                "not give it back",
            )

    return test


#: Session ids no store may take (SES-17): blank ones.
_BLANK_IDS = (" ", "\x00", "\n", "\t\r ")


@check(
    "store.session-id-rule",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-17",),
)
def session_id_rule(context: CheckContext) -> Callable[[], None]:
    """Blank session ids are refused by save, load and delete, and nothing is written."""

    def test() -> None:
        for session_id in _BLANK_IDS:
            context.record(session_id=session_id)
            store: SessionStore = context.subject()
            blank = _bypassing(AgentSessionSnapshot(session_id="s"), session_id=session_id)
            calls: list[tuple[str, Callable[[], object]]] = [
                ("load", functools.partial(store.load, session_id)),
                ("save", functools.partial(store.save, blank)),
            ]
            if isinstance(store, DeletingStore):
                calls.append(("delete", functools.partial(store.delete, session_id)))
            for name, call in calls:
                try:
                    returned = call()
                except Exception:  # noqa: BLE001, S112 - the refusal expected
                    continue
                context.expect(
                    condition=False,
                    message=f"{name}() took the blank session id {session_id!r} and returned "
                    f"{text(returned, 80)} instead of refusing it",
                )
            if isinstance(store, ListingStore):
                listed = list(store.session_ids())
                context.expect(listed == [], f"a refused save left the sessions {listed}")

    return test
