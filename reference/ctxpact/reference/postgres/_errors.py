"""The errors of the PostgreSQL memory and store: what the server or the connection refused."""

from __future__ import annotations

import psycopg

from ctxpact.spec import CtxpactError

#: How a failure of PostgreSQL is reported: the operation, the database and the server's words.
POSTGRES_FAILED = "PostgreSQL could not {operation} in {database}: {error}"
#: Added to the error of an operation that waited too long for another writer (MEM-27).
POSTGRES_BUSY_HINT = (
    "; another connection held the lock for longer than the busy timeout of {busy_timeout:g} s "
    "(pass busy_timeout= to wait longer)"
)


class PostgresError(CtxpactError, psycopg.Error):
    """PostgreSQL failed while a memory or a store used it; names the operation and database.

    Reads like ``PostgreSQL could not add items of session 's-1' in database 'app' on
    /run/postgresql:5432: ...``; the database is named by its name, host and port, never by
    a password. It is a :class:`psycopg.Error`, and its subclasses are also the psycopg error
    class they wrap, so code that catches psycopg's errors keeps working; ``sqlstate`` is the
    server's code (``None`` when the failure never reached a server) and the original error
    is the ``__cause__`` (MEM-27).
    """

    def __init__(
        self, *, operation: str, database: str, error: BaseException, hint: str = ""
    ) -> None:
        self.operation = operation
        self.database = database
        super().__init__(
            POSTGRES_FAILED.format(operation=operation, database=database, error=error) + hint
        )
        # After psycopg's own __init__, which knows nothing of the error wrapped.
        self.sqlstate = getattr(error, "sqlstate", None)


class PostgresOperationalError(PostgresError, psycopg.OperationalError):
    """A :class:`psycopg.OperationalError`: a server that cannot be reached, a lost connection."""


class PostgresBusyError(PostgresOperationalError, TimeoutError):
    """Another connection held the session's lock for longer than the busy timeout (MEM-27).

    Also a :class:`TimeoutError`; the message says which timeout ran out.
    """
