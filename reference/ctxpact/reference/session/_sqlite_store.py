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

    Raises:
        InvalidValueError: for a *table* that is not a plain SQL identifier.
        CorruptSessionError: when a row is not valid JSON or breaks the schema, naming the
            table, the session and the JSON path.

    """

    def __init__(self, database: Database, *, table: str = DEFAULT_SESSION_TABLE) -> None:
        super().__init__(database, table=table, create=_CREATE)

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Insert or replace the session's row in one transaction (SES-9, SES-10).

        A stored row is replaced only after it reads back as that session: a corrupt one
        raises :class:`CorruptSessionError` and stays as it is, like a corrupt file.
        """
        text = json_text(session_document(snapshot))
        with immediate_transaction(type(self).__name__, self._connection):
            self._read(snapshot.session_id)
            self._connection.execute(
                f'INSERT INTO "{self._table}" (session_id, snapshot_json, updated_at) '  # noqa: S608
                "VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET "
                "snapshot_json = excluded.snapshot_json, updated_at = excluded.updated_at",
                (snapshot.session_id, text, time.time_ns() // 1_000_000),
            )

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None``."""
        return self._read(session_id)

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
        with immediate_transaction(type(self).__name__, self._connection):
            self._read(session_id)
            cursor = self._connection.execute(
                f'DELETE FROM "{self._table}" WHERE session_id = ?',  # noqa: S608
                (session_key(type(self).__name__, session_id),),
            )
            return cursor.rowcount > 0

    def session_ids(self) -> list[str]:
        """The ids of every stored session, sorted."""
        rows = self._connection.execute(
            f'SELECT session_id FROM "{self._table}"'  # noqa: S608
        ).fetchall()
        return sorted(str(row[0]) for row in rows)
