"""What the SQLite memory and the SQLite session store share: names, connections, transactions.

Only the standard library's :mod:`sqlite3` is used (the embedded default: no server).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
from collections.abc import Iterator
from types import TracebackType
from typing import Self

from ctxpact.reference.memory._errors import OpenTransactionError
from ctxpact.spec import InvalidValueError, JsonValue

#: The identifiers a table may be called (SQL's plain identifiers, ASCII only).
TABLE_NAME_PATTERN = "[A-Za-z_][A-Za-z0-9_]*"
_TABLE_NAME = re.compile(TABLE_NAME_PATTERN)
_EXPECTED_TABLE = f"a table name matching {TABLE_NAME_PATTERN} and not starting with sqlite_"

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


def connect(owner: str, database: object) -> tuple[sqlite3.Connection, bool]:
    """The connection to use and whether the caller owns it (and so must close it).

    A path opens a new connection in autocommit mode, so that transactions are exactly the
    ``BEGIN IMMEDIATE`` … ``COMMIT`` blocks of :func:`immediate_transaction`.
    """
    if isinstance(database, sqlite3.Connection):
        return database, False
    if isinstance(database, str | os.PathLike):
        return sqlite3.connect(os.fspath(database), isolation_level=None), True
    raise InvalidValueError(
        record=owner,
        field="database",
        expected="a path or a sqlite3.Connection",
        actual=type(database).__name__,
    )


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
    """
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


class SqliteTable:
    """One table in a SQLite database, created if missing, on a connection owned or borrowed.

    *database* is a path (the object opens, owns and :meth:`close`-s the connection; it is
    also a context manager) or an open :class:`sqlite3.Connection` (borrowed: never closed).
    *create* is the ``CREATE TABLE IF NOT EXISTS`` statement with a ``{table}`` field; it runs
    in its own transaction, and a failure closes an owned connection before it propagates.
    """

    def __init__(self, database: object, *, table: str, create: str) -> None:
        owner = type(self).__name__
        self._table = checked_table_name(owner, table)
        self._connection, self._owns_connection = connect(owner, database)
        try:
            with immediate_transaction(owner, self._connection):
                self._connection.execute(create.format(table=self._table))
        except BaseException:
            self.close()
            raise

    @property
    def table(self) -> str:
        """The table's name."""
        return self._table

    def close(self) -> None:
        """Close the connection if this object opened it; a borrowed one stays open."""
        if self._owns_connection:
            self._connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
