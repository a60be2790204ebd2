"""The errors of the reference memories: what a stored memory or a compressor got wrong."""

from __future__ import annotations

import sqlite3

from ctxpact.spec import CtxpactError

#: How a row that cannot be read back is reported (MEM-20).
CORRUPT_ROW = (
    "Expected {expected} but got {actual} in table {table!r}, session {session_id!r}, "
    "{kind} row {position}"
)
#: How a compressor that returned something other than a snapshot is reported (MEM-6).
BAD_COMPRESSOR_RESULT = "Expected a MemorySnapshot from the memory compressor but got {actual}"
#: How a borrowed connection inside an open transaction is reported (MEM-17).
OPEN_TRANSACTION = (
    "Expected a {connection} with no open transaction but it is inside one; "
    "commit or roll back before using {owner}"
)


#: How a failure of SQLite is reported: the operation, the database and SQLite's own words.
SQLITE_FAILED = "SQLite could not {operation} in {database}: {error}"
#: Added to a busy database's error (MEM-21).
SQLITE_BUSY_HINT = (
    "; another connection held the database for longer than the busy timeout of "
    "{busy_timeout} (pass busy_timeout= to wait longer)"
)


class SqliteError(CtxpactError, sqlite3.DatabaseError):
    """SQLite failed while a memory or a store used it; names the operation and the database.

    Reads like ``SQLite could not add items for session 's-1' in database '/x/m.sqlite':
    database is locked; ...``. It is a :class:`sqlite3.DatabaseError`, and its subclasses are
    also the :mod:`sqlite3` error they wrap (``OperationalError``, ``ProgrammingError``), so
    code that catches SQLite's errors keeps working; ``sqlite_errorcode`` and
    ``sqlite_errorname`` are SQLite's, and the original error is the ``__cause__``
    (MEM-21).
    """

    def __init__(
        self, *, operation: str, database: str, error: BaseException, hint: str = ""
    ) -> None:
        self.operation = operation
        self.database = database
        # SQLite's own code and name (-1 and "" for an error that had none, like a closed
        # connection's ProgrammingError).
        self.sqlite_errorcode = int(getattr(error, "sqlite_errorcode", -1))
        self.sqlite_errorname = str(getattr(error, "sqlite_errorname", ""))
        super().__init__(
            SQLITE_FAILED.format(operation=operation, database=database, error=error) + hint
        )


class SqliteOperationalError(SqliteError, sqlite3.OperationalError):
    """An :class:`sqlite3.OperationalError` (a file that cannot be opened, a full disk, ...)."""


class SqliteBusyError(SqliteOperationalError, TimeoutError):
    """The database stayed locked by another connection for longer than the busy timeout.

    Also a :class:`TimeoutError`; the message says which timeout ran out (MEM-21).
    """


class SqliteProgrammingError(SqliteError, sqlite3.ProgrammingError):
    """An :class:`sqlite3.ProgrammingError`, such as a connection that was closed."""


class CorruptMemoryError(CtxpactError, ValueError):
    """A stored memory row cannot be read back; names the table, session, row kind and position.

    Reads like ``Expected JSON text but got 'oops' in table 'ctxpact_agent_memory', session
    's-1', item row 3``. Nothing is repaired or skipped: a memory never hides lost data.
    """

    def __init__(  # noqa: PLR0913 - the error names every coordinate of the row
        self,
        *,
        table: str,
        session_id: str,
        kind: str,
        position: int,
        expected: str,
        actual: str,
    ) -> None:
        self.table = table
        self.session_id = session_id
        self.kind = kind
        self.position = position
        super().__init__(
            CORRUPT_ROW.format(
                expected=expected,
                actual=actual,
                table=table,
                session_id=session_id,
                kind=kind,
                position=position,
            )
        )


class CompressorResultError(CtxpactError, TypeError):
    """A memory compressor returned something other than a :class:`~ctxpact.spec.MemorySnapshot`."""

    def __init__(self, actual: object) -> None:
        self.actual = actual
        super().__init__(BAD_COMPRESSOR_RESULT.format(actual=type(actual).__name__))


class OpenTransactionError(CtxpactError, RuntimeError):
    """A borrowed connection (sqlite3's or psycopg's) is already inside a transaction.

    Each mutation must be its own transaction, so the memory or store refuses to join (and
    silently depend on) a transaction it does not control.
    """

    def __init__(self, owner: str, connection: str = "sqlite3 connection") -> None:
        self.owner = owner
        super().__init__(OPEN_TRANSACTION.format(owner=owner, connection=connection))
