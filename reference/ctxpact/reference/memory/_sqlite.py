"""The memory that lives in a SQLite table: one row per item, one for the summary."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ctxpact.reference.memory._errors import CorruptMemoryError
from ctxpact.reference.memory._rows import (
    ITEM_KIND,
    SUMMARY_KIND,
    Stored,
    StoredMemoryReads,
    parsed_rows,
    rewrite,
    stored_rows,
)
from ctxpact.reference.memory._sqlite_support import (
    Database,
    SqliteTable,
    immediate_transaction,
    json_text,
)
from ctxpact.reference.memory._state import (
    MemoryWrites,
    PromptList,
    checked_compressor,
    checked_session_id,
    checked_summary,
    compressed,
    detached,
)
from ctxpact.reference.projection import SizedItemsView
from ctxpact.spec import JsonValue, MemoryCompressor, MemorySnapshot, check_items

#: The table a :class:`SqliteAgentMemory` uses unless told otherwise.
DEFAULT_MEMORY_TABLE = "ctxpact_agent_memory"

_CREATE = """
CREATE TABLE IF NOT EXISTS "{table}" (
    session_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    position INTEGER NOT NULL,
    entry_json TEXT NOT NULL,
    PRIMARY KEY (session_id, kind, position)
) WITHOUT ROWID
"""


# What tells a connection that its database changed since it last looked: another
# connection's commit changes data_version, a schema change schema_version, and a change made
# through this very connection (another memory or store sharing it, the caller's own SQL)
# changes its total_changes. The three together are the stamp of a shared state (MEM-25).
_STAMP = (
    "SELECT (SELECT data_version FROM pragma_data_version), "
    "(SELECT schema_version FROM pragma_schema_version)"
)
_Stamp = tuple[int, int, int]


class _Shared:
    """The state this memory shares with the runtime, and the stamp of the database then.

    Its items are the memory's own checked copies; only a committed append extends them (and
    the prompt list), anything else builds a new one, so a view handed out keeps its state.
    """

    __slots__ = ("items", "last_position", "prompt", "stamp", "summary")

    def __init__(
        self, items: list[JsonValue], summary: str | None, *, stamp: _Stamp, last_position: int
    ) -> None:
        self.items = items
        self.summary = summary
        self.stamp = stamp
        self.last_position = last_position  # of the last item row; -1 when there is none
        self.prompt = PromptList()

    def append(self, new_items: list[JsonValue], *, stamp: _Stamp) -> None:
        self.items.extend(new_items)
        self.prompt.appended(new_items)
        self.last_position += len(new_items)
        self.stamp = stamp

    def prompt_view(self) -> SizedItemsView:
        return self.prompt.view(self.items, self.summary)

    def snapshot_view(self) -> MemorySnapshot:
        return MemorySnapshot(items=tuple(self.items), summary=self.summary)


class SqliteAgentMemory(SqliteTable, StoredMemoryReads, MemoryWrites):
    """An agent memory stored in a SQLite table, isolated by session id.

    *database* is a path (the memory opens, owns and :meth:`close`-s the connection; it is
    also a context manager) or an open :class:`sqlite3.Connection` (borrowed: never closed,
    and it must not be inside a transaction when the memory writes).

    One table holds every session: a row per ``(session_id, kind, position)`` with the JSON
    text of an item (``kind = "item"``) or of the summary string (``kind = "summary"``). Each
    mutation, each ``restore`` and each ``clear`` is one ``BEGIN IMMEDIATE`` transaction, so a
    crash leaves the old state or the new one. Without a compressor an add only inserts its new
    rows; with one, the add, the compression and the rewrite of the rows that changed are one
    transaction; of the rows it writes only those that changed, and a compressor that drops
    the oldest items (:class:`~ctxpact.reference.compaction.WindowedMemoryCompressor`) costs a
    delete at the head and an insert at the tail. Every read parses the rows again: the table
    is the only state, so two memories on one session see the same items.

    For the runtime, :meth:`prompt_view` and :meth:`snapshot_view` share a state the memory
    keeps as it writes, with each item's size computed once, and read the rows again only when
    the database changed by any other hand since (another connection's commit, a change of
    the schema, or any row changed through this connection by something else): a step then
    costs the rows it adds (MEM-22 .. MEM-25).

    *busy_timeout* is how many seconds an operation waits for a database that another
    connection holds before it fails with :class:`SqliteBusyError` (default 5 for a path; a
    borrowed connection keeps its own unless given). Every failure of SQLite is a
    :class:`SqliteError` naming the operation and the database (MEM-21).

    Behaves call for call like :class:`~ctxpact.reference.memory.InMemoryAgentMemory`
    (MEM-1 .. MEM-13, MEM-22 .. MEM-25); storage rules: MEM-15 .. MEM-20.

    Raises:
        InvalidValueError: for a blank *session_id* (or one with a lone surrogate, which
            UTF-8 cannot store, SES-17), a *table* that is not a plain SQL identifier, or a
            negative *busy_timeout*.
        CorruptMemoryError: when a read finds a row that is not the JSON it should be.
        SqliteError: when SQLite fails, naming the operation and the database.

    """

    def __init__(
        self,
        database: Database,
        session_id: str,
        *,
        table: str = DEFAULT_MEMORY_TABLE,
        compressor: MemoryCompressor | None = None,
        busy_timeout: float | None = None,
    ) -> None:
        owner = type(self).__name__
        self._session_id = checked_session_id(owner, session_id)
        self._compressor = checked_compressor(owner, compressor)
        # The state shared with the runtime: kept up to date by every write once a view was
        # asked for (self._sharing), and read again when the database changed by another hand.
        self._sharing = False
        self._shared: _Shared | None = None
        super().__init__(database, table=table, create=_CREATE, busy_timeout=busy_timeout)

    def set_summary(self, summary: str | None) -> None:
        """Replace the summary (``None`` removes it) in one transaction; no compressor runs."""
        summary = checked_summary(type(self).__name__, summary)
        with self._transaction("set the summary"):
            shared = self._fresh_shared()
            self._write_summary(summary)
            after = None if shared is None else self._replaced(shared.items, summary)
        self._shared = after

    def clear(self) -> None:
        """Remove every row of this session (items and summary) in one transaction."""
        with self._transaction("clear the memory"):
            self._connection.execute(
                f'DELETE FROM "{self._table}" WHERE session_id = ?',  # noqa: S608 - checked name
                (self._session_id,),
            )
            after = self._replaced([], None)
        self._shared = after

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        """Replace items and summary with the snapshot's in one transaction (keeps the summary).

        ``None`` restores the empty state; no compressor runs (MEM-10, MEM-17).
        """
        state = detached(snapshot)
        texts = [json_text(item) for item in state.items]
        with self._transaction("restore the memory"):
            self._connection.execute(
                f'DELETE FROM "{self._table}" WHERE session_id = ?',  # noqa: S608 - checked name
                (self._session_id,),
            )
            self._insert_items(0, texts)
            self._write_summary(state.summary)
            after = self._replaced(list(state.items), state.summary)
        self._shared = after

    def prompt_view(self) -> SizedItemsView:
        """What :meth:`get_items` returns, as a read-only sized view shared with the memory.

        The rows are read again only when the database changed by another hand since this
        memory last read or wrote them (MEM-22, MEM-25); the view keeps the state it was taken
        in whatever happens next (MEM-24).

        Raises:
            CorruptMemoryError: when the rows are read and one is not the JSON it should be.
            SqliteError: when SQLite fails, naming the operation and the database.

        """
        return self._shared_state("read the items").prompt_view()

    def snapshot_view(self) -> MemorySnapshot:
        """What :meth:`snapshot` returns, its items shared read-only with the memory (MEM-23).

        Raises:
            CorruptMemoryError: when the rows are read and one is not the JSON it should be.
            SqliteError: when SQLite fails, naming the operation and the database.

        """
        return self._shared_state("take a snapshot").snapshot_view()

    # -- storage -------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self, operation: str) -> Iterator[None]:
        with (
            self._sqlite(f"{operation} of session {self._session_id!r}"),
            immediate_transaction(type(self).__name__, self._connection),
        ):
            yield

    def _append(self, new_items: list[JsonValue]) -> None:
        if not new_items:
            return
        new_texts = [json_text(item) for item in new_items]
        with self._transaction("add items"):
            if self._compressor is None:
                shared = self._fresh_shared()
                start = self._next_position() if shared is None else shared.last_position + 1
                self._insert_items(start, new_texts)
                stamp = None if shared is None else self._stamp()
            else:
                stored = self._read_rows()
                current = self._parse(stored)
                result = compressed(self._compressor, [*current.items, *new_items], current.summary)
                self._rewrite(stored, [json_text(item) for item in result.items], len(new_items))
                if result.summary != current.summary:
                    self._write_summary(result.summary)
                shared, stamp = self._replaced(list(result.items), result.summary), None
        # Committed: only now does the shared state take the new items.
        if self._compressor is None and shared is not None and stamp is not None:
            shared.append(new_items, stamp=stamp)
        self._shared = shared

    # -- the shared state ----------------------------------------------------------------

    def _stamp(self) -> _Stamp:
        data_version, schema_version = self._connection.execute(_STAMP).fetchone()
        return int(data_version), int(schema_version), self._connection.total_changes

    def _replaced(self, items: list[JsonValue], summary: str | None) -> _Shared | None:
        """The shared state after a write (in its transaction) that left *items* and *summary*.

        ``None`` while no view was asked for: the memory then keeps nothing but the table.
        """
        if not self._sharing:
            return None
        return _Shared(items, summary, stamp=self._stamp(), last_position=self._next_position() - 1)

    def _fresh_shared(self) -> _Shared | None:
        """The shared state, if the database is as this memory last left it; else ``None``."""
        shared = self._shared
        if shared is None or self._stamp() != shared.stamp:
            return None
        return shared

    def _shared_state(self, operation: str) -> _Shared:
        with self._sqlite(f"{operation} of session {self._session_id!r}"):
            if self._connection.in_transaction:
                # The caller's own transaction may still roll back: read, keep nothing.
                return self._read_shared()
            shared = self._fresh_shared()
            if shared is None:
                shared = self._shared = self._read_shared()
                self._sharing = True
            return shared

    def _read_shared(self) -> _Shared:
        stamp = self._stamp()  # before the rows: a change in between is seen next time
        stored = self._read_rows()
        snapshot = self._parse(stored)
        # An item beyond the limits is refused here as get_items() refuses it (JSON-17).
        check_items(snapshot.items, "$.items")
        return _Shared(
            list(snapshot.items),
            snapshot.summary,
            stamp=stamp,
            last_position=stored.items[-1].position if stored.items else -1,
        )

    def _rewrite(self, stored: Stored, texts: list[str], appended: int) -> None:
        plan = rewrite(stored, texts, appended)
        if plan.delete_before is not None:
            self._connection.execute(
                f'DELETE FROM "{self._table}" '  # noqa: S608 - checked name
                "WHERE session_id = ? AND kind = ? AND position < ?",
                (self._session_id, ITEM_KIND, plan.delete_before),
            )
        if plan.delete_from is not None:
            self._connection.execute(
                f'DELETE FROM "{self._table}" '  # noqa: S608 - checked name
                "WHERE session_id = ? AND kind = ? AND position >= ?",
                (self._session_id, ITEM_KIND, plan.delete_from),
            )
        self._insert_items(plan.start, list(plan.texts))

    def _insert_items(self, start: int, texts: list[str]) -> None:
        self._connection.executemany(
            f'INSERT INTO "{self._table}" '  # noqa: S608 - checked name
            "(session_id, kind, position, entry_json) VALUES (?, ?, ?, ?)",
            [
                (self._session_id, ITEM_KIND, start + offset, text)
                for offset, text in enumerate(texts)
            ],
        )

    def _write_summary(self, summary: str | None) -> None:
        self._connection.execute(
            f'DELETE FROM "{self._table}" WHERE session_id = ? AND kind = ?',  # noqa: S608
            (self._session_id, SUMMARY_KIND),
        )
        if summary is not None:
            self._connection.execute(
                f'INSERT INTO "{self._table}" '  # noqa: S608 - checked name
                "(session_id, kind, position, entry_json) VALUES (?, ?, 0, ?)",
                (self._session_id, SUMMARY_KIND, json_text(summary)),
            )

    def _next_position(self) -> int:
        # Only the last position is needed to append: no need to read every row's JSON.
        (last,) = self._connection.execute(
            f'SELECT MAX(position) FROM "{self._table}" '  # noqa: S608
            "WHERE session_id = ? AND kind = ?",
            (self._session_id, ITEM_KIND),
        ).fetchone()
        return 0 if last is None else int(last) + 1

    def _read_rows(self) -> Stored:
        # One statement reads items and summary together: a consistent picture of the session.
        cursor = self._connection.execute(
            f'SELECT kind, position, entry_json FROM "{self._table}" '  # noqa: S608
            "WHERE session_id = ? ORDER BY kind, position",
            (self._session_id,),
        )
        return stored_rows(cursor.fetchall(), self._corrupt)

    def _load(self, operation: str) -> MemorySnapshot:
        with self._sqlite(f"{operation} of session {self._session_id!r}"):
            return self._parse(self._read_rows())

    def _parse(self, stored: Stored) -> MemorySnapshot:
        return parsed_rows(stored, self._corrupt)

    def _corrupt(self, kind: str, position: object, expected: str, actual: object) -> Exception:
        return CorruptMemoryError(
            table=self._table,
            session_id=self._session_id,
            kind=str(kind),
            position=position if isinstance(position, int) else -1,
            expected=expected,
            actual=f"{actual!r:.80}",
        )
