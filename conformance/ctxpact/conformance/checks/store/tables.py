"""Stores kept in a table (SES-16): one row per session, the table named, plain names only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._storage import (
    Storage,
)
from ctxpact.conformance.checks.store._places import _close, _table_store, _table_store_class
from ctxpact.conformance.checks.store._support import _BAD_TABLES, DEFAULT_SESSION_TABLE
from ctxpact.spec import (
    AgentSessionSnapshot,
)


@check(
    "store.table-rows",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-16",),
)
def table_rows(context: CheckContext) -> Callable[[], None]:
    """One row per session in ctxpact_agent_session (or the table named); plain names only."""

    def test() -> None:
        cls, storage = _table_store_class(context)
        with storage.database() as database:
            with _table_store(cls, database) as store:
                for session_id in ("a", "b", "a", "A", "b"):
                    context.record(session_id=session_id)
                    store.save(AgentSessionSnapshot(session_id=session_id))
                    context.expect(
                        database.idle(), "save() returned with its transaction still open"
                    )
                rows = database.count_rows(DEFAULT_SESSION_TABLE)
                context.expect(
                    rows == 3,
                    f"{DEFAULT_SESSION_TABLE!r} holds {rows} rows for the 3 sessions saved",
                )
            with _table_store(cls, database, table="custom_sessions") as store:
                store.save(AgentSessionSnapshot(session_id="c"))
                rows = database.count_rows("custom_sessions")
                context.expect(rows == 1, "the store did not use the table it was given")
        _expect_bad_tables_refused(context, cls, storage)

    return test


def _expect_bad_tables_refused(
    context: CheckContext,
    cls: Any,  # noqa: ANN401 - the implementation's class
    storage: Storage,
) -> None:
    for table in _BAD_TABLES:
        context.record(table=table)
        with storage.untouched() as (address, touched):
            try:
                store = cls(address, table=table)
            except Exception:  # noqa: BLE001 - the refusal expected
                context.expect(
                    not touched(),
                    f"the table name {table!r} was refused only after the database was touched",
                )
                continue
            _close(store)
            context.expect(condition=False, message=f"the table name {table!r} was accepted")
