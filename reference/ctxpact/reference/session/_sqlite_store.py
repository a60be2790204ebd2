"""The session store that keeps one row per session in a SQLite table."""

from __future__ import annotations

import time

from ctxpact.reference.memory._sqlite_support import (
    Database,
    SqliteTable,
    immediate_transaction,
    json_text,
)
from ctxpact.reference.session._errors import CorruptSessionError
from ctxpact.reference.session._store import session_document, session_from_text, session_key
from ctxpact.spec import AgentSessionSnapshot, Violation

#: The table a :class:`SqliteSessionStore` uses unless told otherwise.
DEFAULT_SESSION_TABLE = "ctxpact_agent_session"

_CREATE = """
CREATE TABLE IF NOT EXISTS "{table}" (
    session_id TEXT NOT NULL PRIMARY KEY,
    snapshot_json TEXT NOT NULL,
    updated_at INTEGER NOT NULL
)
"""


class SqliteSessionStore(SqliteTable):
    """A session store with one row per session: id, snapshot JSON, update time (SES-16).

    *database* is a path (the store opens, owns and :meth:`close`-s the connection; it is
    also a context manager) or an open :class:`sqlite3.Connection` (borrowed, never closed).
    A save is one upsert in one ``BEGIN IMMEDIATE`` transaction, after the document was built
    and validated, so a failed save leaves the previous row exactly as it was. ``updated_at``
    is milliseconds since the Unix epoch, for people; nothing reads it back.

    *busy_timeout* is how many seconds an operation waits for a database that another
    connection holds before it fails with ``SqliteBusyError`` (default 5 for a path; a
    borrowed connection keeps its own unless given). Every failure of SQLite is a
    ``SqliteError`` naming the operation and the database (MEM-21).

    Raises:
        InvalidValueError: for a *table* that is not a plain SQL identifier, or a negative
            *busy_timeout*.
        CorruptSessionError: when a row is not valid JSON or breaks the schema, naming the
            table, the session and the JSON path.
        SqliteError: when SQLite fails, naming the operation and the database.

    """

    def __init__(
        self,
        database: Database,
        *,
        table: str = DEFAULT_SESSION_TABLE,
        busy_timeout: float | None = None,
    ) -> None:
        super().__init__(database, table=table, create=_CREATE, busy_timeout=busy_timeout)

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Insert or replace the session's row in one transaction (SES-9, SES-10).

        A stored row is replaced only after it reads back as that session: a corrupt one
        raises :class:`CorruptSessionError` and stays as it is, like a corrupt file.
        """
        text = json_text(session_document(snapshot))
        with (
            self._sqlite(f"save session {snapshot.session_id!r}"),
            immediate_transaction(type(self).__name__, self._connection),
        ):
            self._read(snapshot.session_id)
            self._connection.execute(
                f'INSERT INTO "{self._table}" (session_id, snapshot_json, updated_at) '  # noqa: S608
                "VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET "
                "snapshot_json = excluded.snapshot_json, updated_at = excluded.updated_at",
                (snapshot.session_id, text, time.time_ns() // 1_000_000),
            )

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None``."""
        key = session_key(type(self).__name__, session_id)
        with self._sqlite(f"load session {key!r}"):
            return self._read(key)

    def _read(self, session_id: str) -> AgentSessionSnapshot | None:
        row = self._connection.execute(
            f'SELECT snapshot_json FROM "{self._table}" WHERE session_id = ?',  # noqa: S608
            (session_key(type(self).__name__, session_id),),
        ).fetchone()
        if row is None:
            return None
        location = f"table {self._table!r}, session {session_id!r}"
        text = row[0]
        if not isinstance(text, str):
            message = f"Expected JSON text but got {type(text).__name__}"
            raise CorruptSessionError(
                location=location, violations=[Violation(path="$", message=message)]
            )
        return session_from_text(location, session_id, text)

    def delete(self, session_id: str) -> bool:
        """Remove the session's row in one transaction; whether there was one.

        Like :meth:`save`, it refuses (and keeps) a row that does not read back as the session.
        """
        key = session_key(type(self).__name__, session_id)
        with (
            self._sqlite(f"delete session {key!r}"),
            immediate_transaction(type(self).__name__, self._connection),
        ):
            self._read(key)
            cursor = self._connection.execute(
                f'DELETE FROM "{self._table}" WHERE session_id = ?',  # noqa: S608
                (session_key(type(self).__name__, session_id),),
            )
            return cursor.rowcount > 0

    def session_ids(self) -> list[str]:
        """The ids of every stored session, sorted."""
        with self._sqlite("list the sessions"):
            rows = self._connection.execute(
                f'SELECT session_id FROM "{self._table}"'  # noqa: S608
            ).fetchall()
        return sorted(str(row[0]) for row in rows)
