"""The errors of the reference memories: what a stored memory or a compressor got wrong."""

from __future__ import annotations

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
    "Expected a sqlite3 connection with no open transaction but it is inside one; "
    "commit or roll back before using {owner}"
)


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
    """A borrowed sqlite3 connection is already inside a transaction.

    Each mutation must be its own transaction, so the memory or store refuses to join (and
    silently depend on) a transaction it does not control.
    """

    def __init__(self, owner: str) -> None:
        self.owner = owner
        super().__init__(OPEN_TRANSACTION.format(owner=owner))
