"""What the SQLite memory and the SQLite session store share: names, connections, transactions.

Only the standard library's :mod:`sqlite3` is used (the embedded default: no server). Every
error of SQLite that reaches a caller is a :class:`SqliteError` naming the operation and the
database (MEM-21).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import sqlite3
from collections.abc import Iterator

from ctxpact.reference.memory._errors import (
    SQLITE_BUSY_HINT,
    OpenTransactionError,
    SqliteBusyError,
    SqliteError,
    SqliteOperationalError,
    SqliteProgrammingError,
)
from ctxpact.reference.memory._rows import ClosingContext
from ctxpact.spec import InvalidValueError, JsonValue, encode_json

#: The identifiers a table may be called (SQL's plain identifiers, ASCII only).
TABLE_NAME_PATTERN = "[A-Za-z_][A-Za-z0-9_]*"
_TABLE_NAME = re.compile(TABLE_NAME_PATTERN)
_EXPECTED_TABLE = f"a table name matching {TABLE_NAME_PATTERN} and not starting with sqlite_"
#: How long, in seconds, an operation waits for a database another connection holds before it
#: fails with :class:`SqliteBusyError`, unless told otherwise (sqlite3's own default; MEM-21).
DEFAULT_BUSY_TIMEOUT = 5.0
#: SQLite's result codes (and their extended forms) for a database another connection holds.
_BUSY = ("SQLITE_BUSY", "SQLITE_LOCKED")

#: Anything that names a database: a path, or an open connection the caller keeps owning.
Database = str | os.PathLike[str] | sqlite3.Connection


def checked_table_name(owner: str, table: object) -> str:
    """Return *table* if it is a plain SQL identifier that SQLite lets a user create.

    Raises:
        InvalidValueError: naming the bad value, e.g. ``Expected a table name matching
            [A-Za-z_][A-Za-z0-9_]* ... but got 'x; drop' for SqliteAgentMemory.table``.

    """
    if (
        not isinstance(table, str)
        or _TABLE_NAME.fullmatch(table) is None
        or table.lower().startswith("sqlite_")
    ):
        raise InvalidValueError(record=owner, field="table", expected=_EXPECTED_TABLE, actual=table)
    return table


def checked_busy_timeout(owner: str, busy_timeout: object) -> float | None:
    """*busy_timeout*, checked to be ``None`` or a non-negative number of seconds (MEM-21).

    Raises:
        InvalidValueError: otherwise (a boolean is not a number here).

    """
    if busy_timeout is None:
        return None
    if (
        isinstance(busy_timeout, bool)
        or not isinstance(busy_timeout, int | float)
        or not math.isfinite(busy_timeout)
        or busy_timeout < 0
    ):
        raise InvalidValueError(
            record=owner,
            field="busy_timeout",
            expected="None or a non-negative number of seconds",
            actual=busy_timeout,
        )
    return float(busy_timeout)


def wrapped_error(error: sqlite3.Error, *, operation: str, database: str, busy: str) -> SqliteError:
    """The :class:`SqliteError` that reports *error* (the right subclass for its kind)."""
    name = getattr(error, "sqlite_errorname", None) or ""
    if name.startswith(_BUSY):
        return SqliteBusyError(
            operation=operation,
            database=database,
            error=error,
            hint=SQLITE_BUSY_HINT.format(busy_timeout=busy),
        )
    cls: type[SqliteError] = SqliteError
    if isinstance(error, sqlite3.OperationalError):
        cls = SqliteOperationalError
    elif isinstance(error, sqlite3.ProgrammingError):
        cls = SqliteProgrammingError
    return cls(operation=operation, database=database, error=error)


def connect(
    owner: str, database: object, busy_timeout: float | None
) -> tuple[sqlite3.Connection, bool]:
    """The connection to use and whether the caller owns it (and so must close it).

    A path opens a new connection in autocommit mode, so that transactions are exactly the
    ``BEGIN IMMEDIATE`` … ``COMMIT`` blocks of :func:`immediate_transaction`, waiting
    *busy_timeout* seconds (default :data:`DEFAULT_BUSY_TIMEOUT`) for a locked database. A
    borrowed connection keeps its own busy timeout unless *busy_timeout* is given.

    Raises:
        InvalidValueError: if *database* is neither a path nor a connection.
        SqliteError: if SQLite cannot open the file, naming it.

    """
    if isinstance(database, sqlite3.Connection):
        if busy_timeout is not None:
            with sqlite_errors("set the busy timeout", _label(database), database):
                database.execute(f"PRAGMA busy_timeout = {round(busy_timeout * 1000)}")
        return database, False
    if isinstance(database, str | os.PathLike):
        path = os.fspath(database)
        timeout = DEFAULT_BUSY_TIMEOUT if busy_timeout is None else busy_timeout
        try:
            return sqlite3.connect(path, isolation_level=None, timeout=timeout), True
        except sqlite3.Error as error:
            raise wrapped_error(
                error, operation="open the database", database=_path_label(path), busy=""
            ) from error
    raise InvalidValueError(
        record=owner,
        field="database",
        expected="a path or a sqlite3.Connection",
        actual=type(database).__name__,
    )


def _path_label(path: str) -> str:
    return f"database {path!r}"


def _label(connection: sqlite3.Connection) -> str:
    """The database a borrowed connection has open, for error messages."""
    try:
        rows = connection.execute("PRAGMA database_list").fetchall()
    except sqlite3.Error:
        return "a borrowed connection"
    for _, name, file in rows:
        if name == "main":
            return _path_label(file) if file else "an in-memory database"
    return "a borrowed connection"  # pragma: no cover - every connection has main


def _busy_timeout(connection: sqlite3.Connection) -> str:
    try:
        (milliseconds,) = connection.execute("PRAGMA busy_timeout").fetchone()
    except sqlite3.Error:
        return "this connection"
    return f"{milliseconds / 1000:g} s"


@contextlib.contextmanager
def sqlite_errors(
    operation: str, database: str, connection: sqlite3.Connection | None
) -> Iterator[None]:
    """Turn an :class:`sqlite3.Error` of the body into the :class:`SqliteError` reporting it.

    Errors of ctxpact itself (a corrupt row, an open transaction) pass through unchanged.
    """
    try:
        yield
    except SqliteError:
        raise
    except sqlite3.Error as error:
        busy = "this connection" if connection is None else _busy_timeout(connection)
        raise wrapped_error(error, operation=operation, database=database, busy=busy) from error


@contextlib.contextmanager
def immediate_transaction(owner: str, connection: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: ``BEGIN IMMEDIATE``, the body, ``COMMIT``; ``ROLLBACK`` on error.

    So a crash or an exception leaves the old state or the new one, never a mix.

    Raises:
        OpenTransactionError: if a borrowed connection is already inside a transaction.

    """
    if connection.in_transaction:
        raise OpenTransactionError(owner)
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
        connection.execute("COMMIT")
    except BaseException:
        if _in_transaction(connection):
            # The original error is the one worth reporting; a failed rollback (a closed
            # connection, say) leaves SQLite to roll back when the connection goes away.
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
        raise


def _in_transaction(connection: sqlite3.Connection) -> bool:
    # A function call, so that the state is read again after the body ran.
    return connection.in_transaction


def json_text(value: JsonValue) -> str:
    """The stored text of a JSON value: compact, ASCII-escaped so any string survives.

    ASCII escaping keeps lone surrogates, which UTF-8 cannot carry, exactly as they were.
    Written without recursion, so it works at any call depth (JSON-17).
    """
    return encode_json(value, ensure_ascii=True)


class SqliteTable(ClosingContext):
    """One table in a SQLite database, created if missing, on a connection owned or borrowed.

    *database* is a path (the object opens, owns and :meth:`close`-s the connection; it is
    also a context manager) or an open :class:`sqlite3.Connection` (borrowed: never closed).
    *create* is the ``CREATE TABLE IF NOT EXISTS`` statement with a ``{table}`` field; it runs
    in its own transaction, and a failure closes an owned connection before it propagates.
    *busy_timeout* is how long to wait for a database another connection holds (MEM-21).
    """

    def __init__(
        self, database: object, *, table: str, create: str, busy_timeout: object = None
    ) -> None:
        owner = type(self).__name__
        self._table = checked_table_name(owner, table)
        timeout = checked_busy_timeout(owner, busy_timeout)
        self._connection, self._owns_connection = connect(owner, database, timeout)
        self._database = (
            _path_label(os.fspath(database))
            if isinstance(database, str | os.PathLike)
            else _label(self._connection)
        )
        try:
            with self._sqlite(f"create the table {self._table!r}"):
                # Only a missing table needs the write lock: opening a table that exists
                # never waits for a writer on another connection.
                if not self._table_exists():
                    with immediate_transaction(owner, self._connection):
                        self._connection.execute(create.format(table=self._table))
        except BaseException:
            self.close()
            raise

    @property
    def table(self) -> str:
        """The table's name."""
        return self._table

    def _table_exists(self) -> bool:
        row = self._connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (self._table,)
        ).fetchone()
        return row is not None

    def _sqlite(self, operation: str) -> contextlib.AbstractContextManager[None]:
        """Report a failure of SQLite in the body as :class:`SqliteError` for *operation*."""
        return sqlite_errors(operation, self._database, self._connection)

    def _close_owned(self) -> None:
        if self._owns_connection:
            self._connection.close()
