"""The memory and store checks run against the PostgreSQL reference exactly as against SQLite.

Every check of ``memory`` and ``store`` runs on :class:`PostgresAgentMemory` and
:class:`PostgresSessionStore` on the tests' server, and each one that runs on the SQLite
class runs here too: a check that skips for PostgreSQL but not for SQLite means the suite
still knows one database only. The suite finds which database a class takes by offering
each kind it can make (SUITE-11).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest

from ctxpact.conformance import (
    CheckResult,
    Claim,
    Component,
    Outcome,
    Target,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance._references import postgres_targets
from ctxpact.conformance.checks import memory, store

pytest.importorskip("psycopg", reason="psycopg is not installed: pip install -e '.[postgres]'")

from ctxpact.reference.postgres import (
    PostgresAgentMemory,
    PostgresSessionStore,
)
from ctxpact.spec import MemorySnapshot

QUICK = profile_settings("quick")
CHECKS = {check.id: check for check in (*memory.CHECKS, *store.CHECKS)}
_SQLITE = {
    Component.AGENT_MEMORY: "ctxpact.reference:SqliteAgentMemory",
    Component.SESSION_STORE: "ctxpact.reference:SqliteSessionStore",
}


@functools.cache
def _targets(conninfo: str) -> dict[Component, object]:
    return {target.component: target for target in postgres_targets(conninfo)}


@functools.cache
def _sqlite_outcome(check_id: str) -> Outcome:
    check = CHECKS[check_id]
    (target,) = [t for t in reference_targets() if t.name == _SQLITE[check.component]]
    result = run_check(check, factory=target.factory, claims=target.claims, settings=QUICK)
    return result.outcome


@pytest.mark.parametrize("check_id", sorted(CHECKS))
def test_the_postgres_reference_passes_every_check_the_sqlite_one_passes(
    check_id: str, postgres_conninfo: str
) -> None:
    check = CHECKS[check_id]
    target = _targets(postgres_conninfo)[check.component]
    result: CheckResult = run_check(
        check,
        factory=target.factory,  # type: ignore[attr-defined]
        claims=target.claims,  # type: ignore[attr-defined]
        settings=QUICK,
    )
    if _sqlite_outcome(check_id) is Outcome.SKIP:
        assert result.outcome in {Outcome.SKIP, Outcome.PASS}, result.message
        return
    assert result.outcome is Outcome.PASS, result.message


# -- PostgreSQL classes with one thing wrong: the generic checks catch them by behaviour ------


class ClearsBeforeRestore(PostgresAgentMemory):
    """Two transactions where MEM-17 wants one: the clear survives a failed restore."""

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        self.clear()
        super().restore(snapshot)


class RawPsycopgErrors(PostgresAgentMemory):
    """Lets psycopg's errors through as they are: no operation, no database named (MEM-21)."""

    def _wrapped(self, error: Exception, operation: str) -> Any:  # noqa: ARG002
        return error


class SharedSessions(PostgresAgentMemory):
    """Keys every memory by one session id: sessions see each other (MEM-18)."""

    def __init__(self, database: Any, session_id: str, **options: Any) -> None:
        super().__init__(database, session_id, **options)
        self._key = b"shared"


class AcceptsAnyTable(PostgresSessionStore):
    """Cleans a bad table name instead of refusing it (MEM-16, SES-16)."""

    def __init__(
        self, database: Any, *, table: str = "ctxpact_agent_session", **options: Any
    ) -> None:
        cleaned = re.sub(r"\W", "_", table) or "fallback"
        super().__init__(database, table=cleaned, **options)


_WRONG = (
    (ClearsBeforeRestore, "memory.table-atomic", "the stored state changed"),
    (RawPsycopgErrors, "memory.table-errors", "without a TimeoutError naming it"),
    (SharedSessions, "memory.table-isolation", "of session"),
    (AcceptsAnyTable, "store.table-rows", "the table name '' was accepted"),
)


@pytest.mark.parametrize(
    ("cls", "check_id", "reason"), _WRONG, ids=[wrong[0].__name__ for wrong in _WRONG]
)
def test_a_wrong_postgres_class_fails_the_check_that_looks_for_it(
    cls: Any, check_id: str, reason: str, postgres_schema: str
) -> None:
    def factory() -> object:
        # The subject tells the check its class; the check builds its own on fresh schemas.
        if issubclass(cls, PostgresSessionStore):
            return cls(postgres_schema)
        return cls(postgres_schema, "conformance")

    result = run_check(
        CHECKS[check_id],
        factory=factory,
        claims=frozenset({Claim.GENERIC, Claim.EXACT}),
        settings=QUICK,
    )
    assert result.outcome is Outcome.FAIL, result.message
    assert reason in result.message, result.message


class TakesNoDatabase(PostgresAgentMemory):
    """A memory kept in a table whose constructor takes no database the suite can make."""

    def __init__(self, database: Any, session_id: str, **options: Any) -> None:
        if not isinstance(database, _Private):
            raise TypeError(f"Expected a private database but got {type(database).__name__}")
        super().__init__(database.conninfo, session_id, **options)


class _Private:
    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo


def test_a_class_that_takes_no_database_the_suite_can_make_is_skipped_saying_so(
    postgres_schema: str,
) -> None:
    # SUITE-11: the table checks find the storage by offering each kind; none fits here.
    subject = TakesNoDatabase(_Private(postgres_schema), "conformance")
    result = run_check(
        CHECKS["memory.table-construction"],
        factory=lambda: subject,
        claims=frozenset({Claim.GENERIC, Claim.EXACT}),
        settings=QUICK,
    )
    assert result.outcome is Outcome.SKIP, result.message
    assert "takes none of the databases the suite can make here (SQLite, PostgreSQL)" in (
        result.message
    )


# -- the same classes served by a harness, opened by conninfo (HRN-29, SUITE-14) ------------

#: The checks that read what a memory or a store stored, or give a memory a compressor.
STORAGE_CHECKS = sorted(
    check.id
    for check in (*memory.CHECKS, *store.CHECKS)
    if check.id.startswith(("memory.table-", "store.table-", "store.documents-"))
    or check.id in {"memory.compressor", "store.corrupt-document"}
)


@pytest.mark.parametrize("check_id", STORAGE_CHECKS)
def test_a_harness_postgres_memory_or_store_passes_the_storage_checks(
    check_id: str, postgres_zoo_harness: dict[str, Target]
) -> None:
    check = CHECKS[check_id]
    served = "postgres-memory" if check.component is Component.AGENT_MEMORY else "postgres-store"
    target = postgres_zoo_harness[served]
    result = run_check(
        check,
        factory=target.factory,
        claims=target.claims,
        options=target.options,
        settings=QUICK,
    )
    assert result.outcome is Outcome.PASS, result.message
