"""SQLite's failures reach the caller as SqliteError naming the operation and the database (MEM-21).

Also: the busy timeout can be set, and the windowed compressor writes O(1) rows per add.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxpact.reference.compaction import WindowedMemoryCompressor
from ctxpact.reference.memory import (
    DEFAULT_BUSY_TIMEOUT,
    SqliteAgentMemory,
    SqliteBusyError,
    SqliteError,
    SqliteOperationalError,
    SqliteProgrammingError,
)
from ctxpact.reference.session import SqliteSessionStore
from ctxpact.spec import AgentSessionSnapshot, CtxpactError, InvalidValueError, MemorySnapshot

Opener = Callable[..., Any]
OPENERS: dict[str, Opener] = {
    "memory": lambda database, **options: SqliteAgentMemory(database, "s-1", **options),
    "store": SqliteSessionStore,
}


def write(target: Any) -> None:
    if isinstance(target, SqliteAgentMemory):
        target.add_user_input("hello")
    else:
        target.save(AgentSessionSnapshot(session_id="s-1"))


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """A database another connection holds a write lock on."""
    database = tmp_path / "locked.sqlite"
    for opener in OPENERS.values():
        opener(database).close()  # create both tables first
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield database
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@pytest.mark.parametrize("kind", OPENERS)
def test_a_locked_database_fails_after_the_busy_timeout_the_caller_chose(
    kind: str, locked: Path
) -> None:
    # It used to be sqlite3's bare "database is locked", after a fixed 5 s.
    target = OPENERS[kind](locked, busy_timeout=0.05)
    try:
        with pytest.raises(SqliteBusyError) as raised:
            write(target)
    finally:
        target.close()
    error = raised.value
    message = str(error)
    assert str(locked) in message
    assert "database is locked" in message
    assert "busy timeout of 0.05 s" in message
    assert "session 's-1'" in message
    assert isinstance(error, CtxpactError)
    assert isinstance(error, sqlite3.OperationalError)  # still what SQLite raises
    assert isinstance(error, TimeoutError)
    assert error.sqlite_errorname == "SQLITE_BUSY"
    assert isinstance(error.__cause__, sqlite3.OperationalError)


def test_a_borrowed_connection_keeps_its_busy_timeout_unless_told(locked: Path) -> None:
    connection = sqlite3.connect(locked, isolation_level=None, timeout=0.02)
    try:
        memory = SqliteAgentMemory(connection, "s-1")
        with pytest.raises(SqliteBusyError, match=r"busy timeout of 0\.02 s"):
            memory.add_user_input("x")
        SqliteAgentMemory(connection, "s-1", busy_timeout=0.03)
        assert connection.execute("PRAGMA busy_timeout").fetchone() == (30,)
    finally:
        connection.close()
    assert DEFAULT_BUSY_TIMEOUT == 5.0


@pytest.mark.parametrize("kind", OPENERS)
@pytest.mark.parametrize("bad", [-1, True, "5", float("nan")])
def test_the_busy_timeout_must_be_a_non_negative_number(
    kind: str, bad: object, tmp_path: Path
) -> None:
    with pytest.raises(InvalidValueError, match="busy_timeout"):
        OPENERS[kind](tmp_path / "x.sqlite", busy_timeout=bad)
    assert not (tmp_path / "x.sqlite").exists()


@pytest.mark.parametrize("kind", OPENERS)
def test_a_database_that_cannot_be_opened_is_named(kind: str, tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "m.sqlite"
    with pytest.raises(SqliteOperationalError) as raised:
        OPENERS[kind](missing)
    assert "unable to open database file" in str(raised.value)
    assert str(missing) in str(raised.value)
    assert "open the database" in str(raised.value)


@pytest.mark.parametrize("kind", OPENERS)
def test_a_file_that_is_not_a_database_is_named(kind: str, tmp_path: Path) -> None:
    impostor = tmp_path / "notes.sqlite"
    impostor.write_bytes(b"this is not an SQLite database, only text " * 100)
    with pytest.raises(SqliteError) as raised:
        OPENERS[kind](impostor)
    assert "file is not a database" in str(raised.value)
    assert str(impostor) in str(raised.value)
    assert isinstance(raised.value, sqlite3.DatabaseError)
    assert impostor.read_bytes().startswith(b"this is not")


def test_a_closed_connection_is_a_programming_error_naming_the_operation(tmp_path: Path) -> None:
    connection = sqlite3.connect(tmp_path / "c.sqlite", isolation_level=None)
    memory = SqliteAgentMemory(connection, "s-1")
    connection.close()
    with pytest.raises(SqliteProgrammingError, match=r"read the items of session 's-1'"):
        memory.get_items()
    with pytest.raises(sqlite3.ProgrammingError):
        memory.snapshot()


def _rows_written(memory: SqliteAgentMemory, operation: Callable[[], None]) -> int:
    connection: sqlite3.Connection = memory._connection
    before = connection.total_changes
    operation()
    return connection.total_changes - before


def test_the_windowed_compressor_writes_a_head_delete_and_a_tail_insert(tmp_path: Path) -> None:
    # A window of 5,000 items used to rewrite all of them on every add: 10,000 rows.
    window = 200
    with SqliteAgentMemory(
        tmp_path / "w.sqlite", "s", compressor=WindowedMemoryCompressor(window)
    ) as memory:
        memory.add_output_items([f"item {i}" for i in range(window)])
        assert _rows_written(memory, lambda: memory.add_user_input("one more")) == 2
        assert _rows_written(memory, lambda: memory.add_output_items(["a", "b", "c"])) == 6
        assert len(memory.snapshot().items) == window
        expected = [f"item {i}" for i in range(4, window)]
        items = list(memory.snapshot().items)
        assert items[: window - 4] == expected
        assert items[-3:] == ["a", "b", "c"]
        # A new memory on the same rows sees the same window.
        again = SqliteAgentMemory(tmp_path / "w.sqlite", "s")
        assert again.snapshot() == memory.snapshot()
        again.close()


def test_a_compressor_that_rewrites_everything_still_rewrites_correctly(tmp_path: Path) -> None:
    class Reverse:
        def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
            return MemorySnapshot(items=snapshot.items[::-1], summary="reversed")

    with SqliteAgentMemory(tmp_path / "r.sqlite", "s", compressor=Reverse()) as memory:
        memory.add_output_items(["a", "b"])
        memory.add_output_items(["c"])
        assert memory.snapshot() == MemorySnapshot(items=("c", "a", "b"), summary="reversed")
