"""What the PostgreSQL memory and store share: table names, connections, one transaction each.

Every operation runs in one transaction on one connection: the memory's own (from a conninfo
string), one borrowed, or one taken from a borrowed pool for that operation alone. Every
transaction that writes takes the transaction-scoped advisory lock of its session first, so
writers of one session, in any number of processes, take turns; writers of different sessions
never wait for each other (MEM-28). ``lock_timeout`` is set for the transaction alone
(``SET LOCAL``): nothing is left on a borrowed connection (MEM-27).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import TransactionStatus

from ctxpact.reference.memory._errors import OpenTransactionError
from ctxpact.reference.memory._rows import ClosingContext
from ctxpact.reference.memory._sqlite_support import checked_busy_timeout, checked_table_name
from ctxpact.reference.postgres._errors import (
    POSTGRES_BUSY_HINT,
    PostgresBusyError,
    PostgresError,
    PostgresOperationalError,
)
from ctxpact.spec import InvalidValueError

try:
    from psycopg_pool import ConnectionPool
except ImportError:  # pragma: no cover - the extra installs it; a connection still works
    ConnectionPool = None  # type: ignore[assignment,misc]

#: PostgreSQL keeps the first 63 bytes of a longer name and drops the rest (NAMEDATALEN - 1):
#: two long names could then be one table, so a longer name is refused (MEM-26).
MAX_TABLE_NAME = 63
#: How long, in seconds, an operation waits for a lock another connection holds (MEM-27).
DEFAULT_BUSY_TIMEOUT = 5.0
#: What a database may be given as.
Database = str | psycopg.Connection[Any] | Any  # Any: a psycopg_pool.ConnectionPool
#: SQLSTATE 55P03, lock_not_available: what a lock_timeout that ran out raises.
_LOCK_NOT_AVAILABLE = "55P03"

_CONNECTION = "psycopg connection"
_IN_TRANSACTION = frozenset(
    {TransactionStatus.INTRANS, TransactionStatus.INERROR, TransactionStatus.ACTIVE}
)
_EXPECTED_DATABASE = (
    "a conninfo string, a psycopg.Connection or a psycopg_pool.ConnectionPool "
    "(pip install 'ctxpact[postgres]')"
)


def checked_postgres_table(owner: str, table: object) -> str:
    """*table*, checked against MEM-16 and PostgreSQL's own limit of 63 bytes (MEM-26).

    Raises:
        InvalidValueError: naming the bad value, before any connection is used.

    """
    name = checked_table_name(owner, table)
    if len(name) > MAX_TABLE_NAME:
        raise InvalidValueError(
            record=owner,
            field="table",
            expected=f"a table name of at most {MAX_TABLE_NAME} characters",
            actual=name,
        )
    return name


def conninfo_label(conninfo: str) -> str:
    """The database a conninfo string names, for messages: name, host and port, no password."""
    try:
        parts = conninfo_to_dict(conninfo)
    except psycopg.Error:
        return "a database given by an unreadable conninfo string"
    return _label(parts.get("dbname"), parts.get("host"), parts.get("port"))


def _label(dbname: object, host: object, port: object) -> str:
    where = f"{host or 'the default host'}:{port or 5432}"
    return f"database {dbname!r} on {where}" if dbname else f"the default database on {where}"


def connection_label(connection: psycopg.Connection[Any]) -> str:
    """The database a borrowed connection is connected to, for messages."""
    try:
        info = connection.info
        return _label(info.dbname, info.host, info.port)
    except psycopg.Error:
        return "a borrowed connection"


def wrapped_error(
    error: psycopg.Error, *, operation: str, database: str, busy_timeout: float
) -> PostgresError:
    """The :class:`PostgresError` that reports *error* (the right subclass for its kind)."""
    if getattr(error, "sqlstate", None) == _LOCK_NOT_AVAILABLE:
        return PostgresBusyError(
            operation=operation,
            database=database,
            error=error,
            hint=POSTGRES_BUSY_HINT.format(busy_timeout=busy_timeout),
        )
    cls = PostgresOperationalError if isinstance(error, psycopg.OperationalError) else PostgresError
    return cls(operation=operation, database=database, error=error)


def session_lock_key(table: str, session_id: str) -> int:
    """The advisory lock of one session of one table: a signed 64-bit key (MEM-28).

    The same in every process and every language: the 8-byte BLAKE2b digest of the table
    name, a NUL and the session id in UTF-8, as a big-endian signed integer. Two sessions
    sharing a key (once in 2**64) only take turns.
    """
    digest = hashlib.blake2b(f"{table}\0{session_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PostgresTable(ClosingContext):
    """One table in a PostgreSQL database, created if missing, on a connection or a pool.

    *database* is a conninfo string (the object opens, owns and :meth:`close`-s one
    connection; it is also a context manager), an open :class:`psycopg.Connection`
    (borrowed: never closed, and it must not be inside a transaction when an operation
    starts) or a :class:`psycopg_pool.ConnectionPool` (borrowed: each operation takes a
    connection for its transaction and gives it back). *create* are the statements that
    create the table (with a ``{table}`` placeholder for the quoted name), run in one
    transaction only when the table is missing. The table name is unqualified, so it
    resolves by the connection's ``search_path``.
    """

    def __init__(
        self, database: object, *, table: str, create: tuple[str, ...], busy_timeout: object
    ) -> None:
        owner = type(self).__name__
        self._owner = owner
        self._table = checked_postgres_table(owner, table)
        self._name = sql.Identifier(self._table)
        timeout = checked_busy_timeout(owner, busy_timeout)
        self._busy_timeout = DEFAULT_BUSY_TIMEOUT if timeout is None else timeout
        self._connection: psycopg.Connection[Any] | None = None
        self._pool: Any = None
        self._owns_connection = False
        if isinstance(database, str):
            self._database = conninfo_label(database)
            try:
                self._connection = psycopg.connect(database, autocommit=True)
            except psycopg.Error as error:
                raise self._wrapped(error, "open the database") from error
            self._owns_connection = True
        elif isinstance(database, psycopg.Connection):
            self._connection = database
            self._database = connection_label(database)
        elif ConnectionPool is not None and isinstance(database, ConnectionPool):
            self._pool = database
            conninfo = database.conninfo
            self._database = conninfo_label(conninfo if isinstance(conninfo, str) else "")
        else:
            raise InvalidValueError(
                record=owner,
                field="database",
                expected=_EXPECTED_DATABASE,
                actual=type(database).__name__,
            )
        try:
            self._create(create)
        except BaseException:
            self.close()
            raise

    @property
    def table(self) -> str:
        """The table's name."""
        return self._table

    def _create(self, create: tuple[str, ...]) -> None:
        operation = f"create the table {self._table!r}"
        # Only a missing table needs the lock that makes concurrent creations take turns:
        # opening a table that exists waits for no writer.
        with self._transaction(operation) as cursor:
            cursor.execute("SELECT to_regclass(%s)", (self._name.as_string(None),))
            row = cursor.fetchone()
            if row is not None and row[0] is not None:
                return
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (session_lock_key(self._table, ""),))
            for statement in create:
                cursor.execute(sql.SQL(statement).format(table=self._name))

    def _wrapped(self, error: psycopg.Error, operation: str) -> PostgresError:
        return wrapped_error(
            error, operation=operation, database=self._database, busy_timeout=self._busy_timeout
        )

    @contextlib.contextmanager
    def _connected(self) -> Iterator[psycopg.Connection[Any]]:
        if self._pool is not None:
            with self._pool.connection() as connection:
                yield connection
            return
        assert self._connection is not None  # noqa: S101 - set in __init__ unless a pool
        yield self._connection

    @contextlib.contextmanager
    def _transaction(
        self, operation: str, *, lock: str | None = None
    ) -> Iterator[psycopg.Cursor[Any]]:
        """One transaction for *operation*; with *lock*, holding that session's lock first.

        Errors of psycopg become :class:`PostgresError` naming the operation and database;
        errors of ctxpact itself (a corrupt row, an open transaction) pass unchanged.

        Raises:
            OpenTransactionError: if a borrowed connection is inside a transaction.

        """
        try:
            with self._connected() as connection:
                # A closed or broken connection (UNKNOWN) fails below, as psycopg reports it.
                if connection.info.transaction_status in _IN_TRANSACTION:
                    raise OpenTransactionError(self._owner, _CONNECTION)
                with connection.transaction(), connection.cursor() as cursor:
                    # 0 would mean "wait for ever" to PostgreSQL: the shortest wait is 1 ms.
                    milliseconds = max(1, round(self._busy_timeout * 1000))
                    cursor.execute(
                        "SELECT set_config('lock_timeout', %s, true)", (f"{milliseconds}ms",)
                    )
                    if lock is not None:
                        cursor.execute(
                            "SELECT pg_advisory_xact_lock(%s)",
                            (session_lock_key(self._table, lock),),
                        )
                    yield cursor
        except PostgresError:
            raise
        except psycopg.Error as error:
            raise self._wrapped(error, operation) from error

    def _close_owned(self) -> None:
        if self._owns_connection and self._connection is not None:
            self._connection.close()
