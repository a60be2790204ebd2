"""The session store that keeps one row per session in a PostgreSQL table."""

from __future__ import annotations

import time
from typing import Any

import psycopg
from psycopg import sql

from ctxpact.reference.memory._sqlite_support import json_text
from ctxpact.reference.postgres._support import Database, PostgresTable
from ctxpact.reference.session._errors import CorruptSessionError
from ctxpact.reference.session._store import session_document, session_from_text, session_key
from ctxpact.spec import AgentSessionSnapshot, Violation

#: The table a :class:`PostgresSessionStore` uses unless told otherwise (the SQLite default).
DEFAULT_SESSION_TABLE = "ctxpact_agent_session"

_CREATE = (
    """
    CREATE TABLE IF NOT EXISTS {table} (
        session_id bytea NOT NULL PRIMARY KEY,
        snapshot_json text NOT NULL,
        updated_at bigint NOT NULL
    )
    """,
)


class PostgresSessionStore(PostgresTable):
    """A session store with one row per session in a PostgreSQL table (SES-16, SES-19).

    *database* is a conninfo string (owned, closed by :meth:`close`), a
    :class:`psycopg.Connection` or a :class:`psycopg_pool.ConnectionPool` (both borrowed),
    as for :class:`PostgresAgentMemory`. The row holds the session id (its UTF-8, as
    ``bytea``: text cannot hold U+0000), the snapshot's JSON text exactly as the SQLite store
    writes it (``text``, not ``jsonb``: MEM-29) and ``updated_at`` in milliseconds since the
    Unix epoch, for people.

    A save is one upsert in one transaction that holds the session's advisory lock, after
    the document was built and validated and the stored row read back as that session: a
    failed save leaves the previous row as it was, a corrupt row is refused and kept
    (SES-10), and concurrent saves of one session take turns (MEM-28).

    Raises:
        InvalidValueError: for a *table* that is not a plain SQL identifier of at most 63
            characters, a negative *busy_timeout*, or a *database* that is none of the three.
        CorruptSessionError: when a row is not valid JSON or breaks the schema, naming the
            table, the session and the JSON path.
        PostgresError: when PostgreSQL fails, naming the operation and the database.

    """

    def __init__(
        self,
        database: Database,
        *,
        table: str = DEFAULT_SESSION_TABLE,
        busy_timeout: float | None = None,
    ) -> None:
        super().__init__(database, table=table, create=_CREATE, busy_timeout=busy_timeout)
        name = self._name
        self._select = sql.SQL("SELECT snapshot_json FROM {} WHERE session_id = %s").format(name)
        self._upsert = sql.SQL(
            "INSERT INTO {} (session_id, snapshot_json, updated_at) VALUES (%s, %s, %s) "
            "ON CONFLICT (session_id) DO UPDATE SET "
            "snapshot_json = excluded.snapshot_json, updated_at = excluded.updated_at"
        ).format(name)
        self._delete = sql.SQL("DELETE FROM {} WHERE session_id = %s").format(name)
        self._ids = sql.SQL("SELECT session_id FROM {}").format(name)

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Insert or replace the session's row in one transaction (SES-9, SES-10)."""
        text = json_text(session_document(snapshot))
        session_id = snapshot.session_id
        with self._transaction(f"save session {session_id!r}", lock=session_id) as cursor:
            self._read(cursor, session_id)
            cursor.execute(self._upsert, (session_id.encode(), text, time.time_ns() // 1_000_000))

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None``."""
        key = session_key(type(self).__name__, session_id)
        with self._transaction(f"load session {key!r}") as cursor:
            return self._read(cursor, key)

    def delete(self, session_id: str) -> bool:
        """Remove the session's row in one transaction; whether there was one.

        Like :meth:`save`, it refuses (and keeps) a row that does not read back as the session.
        """
        key = session_key(type(self).__name__, session_id)
        with self._transaction(f"delete session {key!r}", lock=key) as cursor:
            self._read(cursor, key)
            cursor.execute(self._delete, (key.encode(),))
            return cursor.rowcount > 0

    def session_ids(self) -> list[str]:
        """The ids of every stored session, sorted."""
        with self._transaction("list the sessions") as cursor:
            cursor.execute(self._ids)
            rows = cursor.fetchall()
        ids = []
        for (key,) in rows:
            try:
                ids.append(bytes(key).decode())
            except UnicodeDecodeError as error:
                # Written by another hand: no session id is that; nothing is skipped.
                message = f"Expected a session id in UTF-8 but got the bytes {bytes(key)!r:.80}"
                raise CorruptSessionError(
                    location=f"table {self._table!r}",
                    violations=[Violation(path="$.sessionId", message=message)],
                ) from error
        return sorted(ids)

    def _read(self, cursor: psycopg.Cursor[Any], session_id: str) -> AgentSessionSnapshot | None:
        cursor.execute(self._select, (session_key(type(self).__name__, session_id).encode(),))
        row = cursor.fetchone()
        if row is None:
            return None
        location = f"table {self._table!r}, session {session_id!r}"
        text = row[0]
        if not isinstance(text, str):  # pragma: no cover - the column is text
            message = f"Expected JSON text but got {type(text).__name__}"
            raise CorruptSessionError(
                location=location, violations=[Violation(path="$", message=message)]
            )
        return session_from_text(location, session_id, text)
