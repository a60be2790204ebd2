"""The agent memory and the session store kept in PostgreSQL, for agents that share sessions.

Needs the extra ``ctxpact[postgres]`` (psycopg 3 and its pool); importing this package
without it raises :class:`~ctxpact.reference.MissingExtraError`, and nothing else in
:mod:`ctxpact.reference` needs it. :class:`PostgresAgentMemory` and
:class:`PostgresSessionStore` keep the contract of their SQLite counterparts (§14, §15.2)
on a connection, a pool or a conninfo string, with the rules of SPEC.md §14.4 (MEM-26 ..
MEM-29) for a server many processes share.
"""

from ctxpact.reference._extras import MissingExtraError

try:
    import psycopg  # noqa: F401 - imported to say clearly that it is missing
except ImportError as error:  # pragma: no cover - the test environment has the extra
    raise MissingExtraError(
        part="ctxpact.reference.postgres", package="psycopg (3.2 or later)", extra="postgres"
    ) from error

from ctxpact.reference.postgres._errors import (
    POSTGRES_BUSY_HINT,
    POSTGRES_FAILED,
    PostgresBusyError,
    PostgresError,
    PostgresOperationalError,
)
from ctxpact.reference.postgres._memory import DEFAULT_MEMORY_TABLE, PostgresAgentMemory
from ctxpact.reference.postgres._store import DEFAULT_SESSION_TABLE, PostgresSessionStore
from ctxpact.reference.postgres._support import (
    DEFAULT_BUSY_TIMEOUT,
    MAX_TABLE_NAME,
    session_lock_key,
)

__all__ = [
    "DEFAULT_BUSY_TIMEOUT",
    "DEFAULT_MEMORY_TABLE",
    "DEFAULT_SESSION_TABLE",
    "MAX_TABLE_NAME",
    "POSTGRES_BUSY_HINT",
    "POSTGRES_FAILED",
    "PostgresAgentMemory",
    "PostgresBusyError",
    "PostgresError",
    "PostgresOperationalError",
    "PostgresSessionStore",
    "session_lock_key",
]
