"""Agent memories: ordered items plus an optional summary, in the process or in SQLite.

Both memories behave identically, call for call (MEM-1 .. MEM-14): ``add_user_input`` ignores
``None`` and turns a string into a user message; every add may be followed by a compressor;
``get_items`` puts a non-blank summary first as a system message; ``snapshot`` and
``restore`` carry raw items and the summary, and restore keeps the summary. Both also share
read-only views of their state with the runtime (:class:`MemoryViews`): ``prompt_view`` and
``snapshot_view`` copy nothing.
"""

from ctxpact.reference.memory._errors import (
    BAD_COMPRESSOR_RESULT,
    CORRUPT_ROW,
    OPEN_TRANSACTION,
    SQLITE_FAILED,
    CompressorResultError,
    CorruptMemoryError,
    OpenTransactionError,
    SqliteBusyError,
    SqliteError,
    SqliteOperationalError,
    SqliteProgrammingError,
)
from ctxpact.reference.memory._in_memory import InMemoryAgentMemory
from ctxpact.reference.memory._rows import ITEM_KIND, SUMMARY_KIND
from ctxpact.reference.memory._sqlite import DEFAULT_MEMORY_TABLE, SqliteAgentMemory
from ctxpact.reference.memory._sqlite_support import DEFAULT_BUSY_TIMEOUT, TABLE_NAME_PATTERN
from ctxpact.reference.memory._state import MemoryViews

__all__ = [
    "BAD_COMPRESSOR_RESULT",
    "CORRUPT_ROW",
    "DEFAULT_BUSY_TIMEOUT",
    "DEFAULT_MEMORY_TABLE",
    "ITEM_KIND",
    "OPEN_TRANSACTION",
    "SQLITE_FAILED",
    "SUMMARY_KIND",
    "TABLE_NAME_PATTERN",
    "CompressorResultError",
    "CorruptMemoryError",
    "InMemoryAgentMemory",
    "MemoryViews",
    "OpenTransactionError",
    "SqliteAgentMemory",
    "SqliteBusyError",
    "SqliteError",
    "SqliteOperationalError",
    "SqliteProgrammingError",
]
