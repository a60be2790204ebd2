"""The memory that lives in a PostgreSQL table: one row per item, one for the summary."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from ctxpact.reference.memory._errors import CorruptMemoryError
from ctxpact.reference.memory._rows import (
    ITEM_KIND,
    SUMMARY_KIND,
    Stored,
    StoredMemoryReads,
    parsed_rows,
    rewrite,
    stored_rows,
)
from ctxpact.reference.memory._sqlite_support import json_text
from ctxpact.reference.memory._state import (
    MemoryWrites,
    checked_compressor,
    checked_session_id,
    checked_summary,
    compressed,
    detached,
)
from ctxpact.reference.postgres._support import Database, PostgresTable
from ctxpact.spec import JsonValue, MemoryCompressor, MemorySnapshot

#: The table a :class:`PostgresAgentMemory` uses unless told otherwise (the SQLite default).
DEFAULT_MEMORY_TABLE = "ctxpact_agent_memory"

# The session id is the UTF-8 of the id as bytea: PostgreSQL's text cannot hold U+0000, which
# a session id may contain (SES-17); the JSON text is ASCII (escapes), so text holds it exactly.
_CREATE = (
    """
    CREATE TABLE IF NOT EXISTS {table} (
        session_id bytea NOT NULL,
        kind text NOT NULL,
        position bigint NOT NULL,
        entry_json text NOT NULL,
        PRIMARY KEY (session_id, kind, position)
    )
    """,
)


class PostgresAgentMemory(PostgresTable, StoredMemoryReads, MemoryWrites):
    """An agent memory stored in a PostgreSQL table, isolated by session id (MEM-26).

    *database* is a conninfo string (the memory opens, owns and :meth:`close`-s one
    connection; it is also a context manager), an open :class:`psycopg.Connection`
    (borrowed: never closed, and not inside a transaction when an operation starts) or a
    :class:`psycopg_pool.ConnectionPool` (borrowed: each operation takes a connection for
    its one transaction). Nothing is global: two memories share a connection only when given
    the same one. A connection serves one thread at a time; threads share a pool.

    The table has the SQLite memory's layout: a row per ``(session_id, kind, position)``
    with the JSON text of an item or of the summary string, kept as ``text``, exactly as
    written (JSON-10; ``jsonb`` would reorder members and normalise numbers, MEM-29). Each
    operation is one transaction (MEM-17); each one that writes first takes its session's
    advisory lock, so several processes writing one session take turns and lose nothing
    (MEM-28). Without a compressor an add is one ``INSERT`` after the last position; with one,
    the add, the compression and the rewrite of the rows that changed are one transaction.
    Every read reads the rows again: the table is the only state. It offers no views
    (MEM-22 is optional): a runtime copies with ``get_items()``.

    *busy_timeout* is how many seconds an operation waits for a lock another connection
    holds (the session's, or the table's) before it fails with ``PostgresBusyError``, a
    ``TimeoutError`` (default 5). Every failure of psycopg is a ``PostgresError`` naming the
    operation and the database (MEM-27).

    Behaves call for call like :class:`~ctxpact.reference.memory.InMemoryAgentMemory`
    (MEM-1 .. MEM-13) and keeps MEM-15 .. MEM-20 as the SQLite memory does.

    Raises:
        InvalidValueError: for a bad *session_id* (SES-17), a *table* that is not a plain SQL
            identifier of at most 63 characters, a negative *busy_timeout*, or a *database*
            that is none of the three.
        CorruptMemoryError: when a read finds a row that is not the JSON it should be.
        PostgresError: when PostgreSQL fails, naming the operation and the database.

    """

    def __init__(
        self,
        database: Database,
        session_id: str,
        *,
        table: str = DEFAULT_MEMORY_TABLE,
        compressor: MemoryCompressor | None = None,
        busy_timeout: float | None = None,
    ) -> None:
        owner = type(self).__name__
        self._session_id = checked_session_id(owner, session_id)
        self._key = self._session_id.encode()
        self._compressor = checked_compressor(owner, compressor)
        super().__init__(database, table=table, create=_CREATE, busy_timeout=busy_timeout)
        name = self._name
        self._select = sql.SQL(
            "SELECT kind, position, entry_json FROM {} WHERE session_id = %s "
            "ORDER BY kind, position"
        ).format(name)
        self._delete = sql.SQL("DELETE FROM {} WHERE session_id = %s").format(name)
        self._delete_kind = sql.SQL("DELETE FROM {} WHERE session_id = %s AND kind = %s").format(
            name
        )
        self._delete_from = sql.SQL(
            "DELETE FROM {} WHERE session_id = %s AND kind = %s AND position >= %s"
        ).format(name)
        self._delete_before = sql.SQL(
            "DELETE FROM {} WHERE session_id = %s AND kind = %s AND position < %s"
        ).format(name)
        # One statement for a whole add: the next position and every new row.
        self._insert_at = sql.SQL(
            "INSERT INTO {} (session_id, kind, position, entry_json) "
            "SELECT %s, %s, %s + new.ordinality - 1, new.entry_json "
            "FROM unnest(%s::text[]) WITH ORDINALITY AS new(entry_json, ordinality)"
        ).format(name)
        self._append_rows = sql.SQL(
            "INSERT INTO {name} (session_id, kind, position, entry_json) "
            "SELECT %s, %s, last.position + new.ordinality, new.entry_json "
            "FROM (SELECT coalesce(max(position), -1) AS position FROM {name} "
            "WHERE session_id = %s AND kind = %s) AS last, "
            "unnest(%s::text[]) WITH ORDINALITY AS new(entry_json, ordinality)"
        ).format(name=name)
        self._insert_summary = sql.SQL(
            "INSERT INTO {} (session_id, kind, position, entry_json) VALUES (%s, %s, 0, %s)"
        ).format(name)

    def set_summary(self, summary: str | None) -> None:
        """Replace the summary (``None`` removes it) in one transaction; no compressor runs."""
        summary = checked_summary(type(self).__name__, summary)
        with self._writing("set the summary") as cursor:
            self._write_summary(cursor, summary)

    def clear(self) -> None:
        """Remove every row of this session (items and summary) in one transaction."""
        with self._writing("clear the memory") as cursor:
            cursor.execute(self._delete, (self._key,))

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        """Replace items and summary with the snapshot's in one transaction (keeps the summary).

        ``None`` restores the empty state; no compressor runs (MEM-10, MEM-17).
        """
        state = detached(snapshot)
        texts = [json_text(item) for item in state.items]
        with self._writing("restore the memory") as cursor:
            cursor.execute(self._delete, (self._key,))
            if texts:
                cursor.execute(self._insert_at, (self._key, ITEM_KIND, 0, texts))
            self._write_summary(cursor, state.summary)

    # -- storage -------------------------------------------------------------------------

    def _writing(self, operation: str) -> Any:  # noqa: ANN401 - the cursor's context manager
        return self._transaction(
            f"{operation} of session {self._session_id!r}", lock=self._session_id
        )

    def _append(self, new_items: list[JsonValue]) -> None:
        if not new_items:
            return
        new_texts = [json_text(item) for item in new_items]
        with self._writing("add items") as cursor:
            if self._compressor is None:
                cursor.execute(
                    self._append_rows, (self._key, ITEM_KIND, self._key, ITEM_KIND, new_texts)
                )
                return
            stored = self._read_rows(cursor)
            current = self._parse(stored)
            result = compressed(self._compressor, [*current.items, *new_items], current.summary)
            plan = rewrite(stored, [json_text(item) for item in result.items], len(new_items))
            if plan.delete_before is not None:
                cursor.execute(self._delete_before, (self._key, ITEM_KIND, plan.delete_before))
            if plan.delete_from is not None:
                cursor.execute(self._delete_from, (self._key, ITEM_KIND, plan.delete_from))
            if plan.texts:
                cursor.execute(
                    self._insert_at, (self._key, ITEM_KIND, plan.start, list(plan.texts))
                )
            if result.summary != current.summary:
                self._write_summary(cursor, result.summary)

    def _write_summary(self, cursor: psycopg.Cursor[Any], summary: str | None) -> None:
        cursor.execute(self._delete_kind, (self._key, SUMMARY_KIND))
        if summary is not None:
            cursor.execute(self._insert_summary, (self._key, SUMMARY_KIND, json_text(summary)))

    def _read_rows(self, cursor: psycopg.Cursor[Any]) -> Stored:
        # One statement reads items and summary together: a consistent picture of the session.
        cursor.execute(self._select, (self._key,))
        return stored_rows(cursor.fetchall(), self._corrupt)

    def _load(self, operation: str) -> MemorySnapshot:
        with self._transaction(f"{operation} of session {self._session_id!r}") as cursor:
            return self._parse(self._read_rows(cursor))

    def _parse(self, stored: Stored) -> MemorySnapshot:
        return parsed_rows(stored, self._corrupt)

    def _corrupt(self, kind: str, position: object, expected: str, actual: object) -> Exception:
        return CorruptMemoryError(
            table=self._table,
            session_id=self._session_id,
            kind=str(kind),
            position=position if isinstance(position, int) else -1,
            expected=expected,
            actual=f"{actual!r:.80}",
        )
