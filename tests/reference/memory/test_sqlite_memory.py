"""SqliteAgentMemory's storage rules: one transaction per mutation, isolation, clear errors."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxpact.reference.memory import (
    DEFAULT_MEMORY_TABLE,
    CorruptMemoryError,
    OpenTransactionError,
    SqliteAgentMemory,
)
from ctxpact.spec import InvalidValueError, JsonValue, MemorySnapshot


class Crash(Exception):  # noqa: N818 - it stands for a crash, not a program error
    pass


class RecordingConnection(sqlite3.Connection):
    """Records every statement, and raises Crash at the statement numbered ``crash_at``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.statements: list[str] = []
        self.crash_at: int | None = None

    def _record(self, sql: str) -> None:
        self.statements.append(" ".join(sql.split()))
        if self.crash_at is not None and len(self.statements) == self.crash_at:
            raise Crash(sql)

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        self._record(sql)
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        self._record(sql)
        return super().executemany(sql, parameters)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def recording(database: Path) -> Iterator[RecordingConnection]:
    connection = sqlite3.connect(database, isolation_level=None, factory=RecordingConnection)
    yield connection
    connection.close()


def state(database: Path, session_id: str = "s-1") -> MemorySnapshot:
    """What a fresh connection reads: the state that survived."""
    with SqliteAgentMemory(database, session_id) as memory:
        return memory.snapshot()


@pytest.mark.parametrize(
    "table", ["", "1abc", "a-b", "a b", 'x"; DROP TABLE t; --', "tåble", "sqlite_master", "t\n"]
)
def test_bad_table_names_are_refused_by_name(database: Path, table: str) -> None:
    with pytest.raises(InvalidValueError) as raised:
        SqliteAgentMemory(database, "s-1", table=table)
    assert repr(table) in str(raised.value)
    assert "SqliteAgentMemory.table" in str(raised.value)
    assert not database.exists()  # refused before the database is touched (MEM-16)


@pytest.mark.parametrize("table", ["a", "_x", "Memory_2", "select"])
def test_plain_identifiers_are_accepted(database: Path, table: str) -> None:
    with SqliteAgentMemory(database, "s-1", table=table) as memory:
        memory.add_output_items(["x"])
        assert memory.table == table
    assert SqliteAgentMemory(database, "s-1", table=table).snapshot().items == ("x",)


@pytest.mark.parametrize("session_id", ["", "   ", "\t\n"])
def test_a_blank_session_id_is_refused(database: Path, session_id: str) -> None:
    with pytest.raises(InvalidValueError, match="non-blank"):
        SqliteAgentMemory(database, session_id)


def test_a_session_id_with_a_lone_surrogate_is_refused(database: Path) -> None:
    with pytest.raises(InvalidValueError, match="without lone surrogates"):
        SqliteAgentMemory(database, "s\ud800")
    assert not database.exists()


def test_the_default_table_and_row_layout(database: Path) -> None:
    assert DEFAULT_MEMORY_TABLE == "ctxpact_agent_memory"
    with SqliteAgentMemory(database, "s-1") as memory:
        memory.add_output_items([{"type": "x"}, "y"])
        memory.set_summary("sum")
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT session_id, kind, position, entry_json FROM ctxpact_agent_memory "
            "ORDER BY kind, position"
        ).fetchall()
    connection.close()
    assert rows == [
        ("s-1", "item", 0, '{"type":"x"}'),
        ("s-1", "item", 1, '"y"'),
        ("s-1", "summary", 0, '"sum"'),
    ]


def test_sessions_in_one_database_are_isolated(database: Path) -> None:
    with SqliteAgentMemory(database, "a") as first, SqliteAgentMemory(database, "b") as second:
        first.add_user_input("for a")
        first.set_summary("summary a")
        second.add_output_items(["for b"])
        second.clear()
        second.add_output_items(["b again"])
        assert first.snapshot().summary == "summary a"
        assert len(first.snapshot().items) == 1
        assert second.snapshot() == MemorySnapshot(items=("b again",))
        first.restore(MemorySnapshot(items=("restored a",)))
        assert second.snapshot() == MemorySnapshot(items=("b again",))


def test_two_memories_on_one_session_see_the_same_state(database: Path) -> None:
    with SqliteAgentMemory(database, "s") as writer, SqliteAgentMemory(database, "s") as reader:
        writer.add_output_items(["x"])
        assert reader.get_items() == ["x"]
        reader.add_output_items(["y"])
        assert writer.snapshot().items == ("x", "y")


def test_values_survive_the_round_trip_exactly(database: Path) -> None:
    items: tuple[JsonValue, ...] = (
        {"text": "caf\u00e9 \u4e2d\u6587 \U0001f600", "lone": "\ud800", "nul": "a\x00b"},
        {"big": 10**30, "neg": -0.0, "float": 0.1, "exp": 1e300, "t": True, "n": None},
        [[], {}, ""],
    )
    with SqliteAgentMemory(database, "s") as memory:
        memory.restore(MemorySnapshot(items=items, summary="\ud800 summary"))
    restored = state(database, "s")
    assert restored == MemorySnapshot(items=items, summary="\ud800 summary")
    second = restored.items[1]
    assert isinstance(second, dict)
    assert isinstance(second["float"], float)
    assert isinstance(second["big"], int)


def test_an_owned_connection_is_closed_a_borrowed_one_is_not(database: Path) -> None:
    owned = SqliteAgentMemory(database, "s")
    owned.close()
    with pytest.raises(sqlite3.ProgrammingError):
        owned.get_items()
    connection = sqlite3.connect(database, isolation_level=None)
    with SqliteAgentMemory(connection, "s") as borrowed:
        borrowed.add_output_items(["x"])
    assert connection.execute("SELECT count(*) FROM ctxpact_agent_memory").fetchone() == (1,)
    connection.close()


def test_a_borrowed_connection_in_a_legacy_transaction_mode_works(database: Path) -> None:
    connection = sqlite3.connect(database)  # the default: implicit transactions for DML
    memory = SqliteAgentMemory(connection, "s")
    memory.add_output_items(["x"])
    memory.set_summary("s")
    assert not connection.in_transaction
    assert state(database, "s") == MemorySnapshot(items=("x",), summary="s")
    connection.close()


def test_a_borrowed_connection_inside_a_transaction_is_refused(database: Path) -> None:
    connection = sqlite3.connect(database, isolation_level=None)
    memory = SqliteAgentMemory(connection, "s")
    connection.execute("BEGIN")
    with pytest.raises(OpenTransactionError, match="no open transaction"):
        memory.add_output_items(["x"])
    connection.execute("ROLLBACK")
    assert memory.snapshot() == MemorySnapshot()
    connection.close()


def test_appending_without_a_compressor_only_inserts(recording: RecordingConnection) -> None:
    memory = SqliteAgentMemory(recording, "s")
    memory.add_output_items(["a", "b"])
    recording.statements.clear()
    memory.add_output_items(["c"])
    writes = [s for s in recording.statements if s.startswith(("INSERT", "DELETE", "UPDATE"))]
    assert len(writes) == 1
    assert writes[0].startswith("INSERT")
    assert recording.statements[0] == "BEGIN IMMEDIATE"
    assert recording.statements[-1] == "COMMIT"
    assert memory.snapshot().items == ("a", "b", "c")


class Window:
    def __init__(self, keep: int) -> None:
        self.keep = keep

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        return MemorySnapshot(items=snapshot.items[-self.keep :], summary=snapshot.summary)


def test_a_compressor_that_changes_nothing_only_costs_an_insert(
    recording: RecordingConnection,
) -> None:
    memory = SqliteAgentMemory(recording, "s", compressor=Window(keep=10))
    memory.add_output_items(["a", "b"])
    recording.statements.clear()
    memory.add_output_items(["c"])
    assert not any(s.startswith("DELETE") for s in recording.statements)
    memory.set_summary("kept")
    for item in "defghijk":
        memory.add_output_items([item])
    assert memory.snapshot() == MemorySnapshot(items=tuple("bcdefghijk"), summary="kept")


@pytest.mark.parametrize("crash_at", [2, 3, 4])
def test_a_crash_inside_an_append_keeps_the_old_state(
    database: Path, recording: RecordingConnection, crash_at: int
) -> None:
    memory = SqliteAgentMemory(recording, "s", compressor=Window(keep=2))
    memory.restore(MemorySnapshot(items=("a", "b"), summary="before"))
    recording.statements.clear()
    recording.crash_at = crash_at  # 1 is BEGIN; then reads, deletes, inserts, COMMIT
    with pytest.raises(Crash):
        memory.add_output_items(["c"])
    recording.crash_at = None
    assert not recording.in_transaction
    assert state(database, "s") == MemorySnapshot(items=("a", "b"), summary="before")


@pytest.mark.parametrize("crash_at", [2, 3, 4, 5])
def test_a_crash_inside_a_restore_keeps_the_old_state(
    database: Path, recording: RecordingConnection, crash_at: int
) -> None:
    memory = SqliteAgentMemory(recording, "s")
    memory.restore(MemorySnapshot(items=("a", "b"), summary="before"))
    recording.statements.clear()
    recording.crash_at = crash_at  # BEGIN, DELETE, INSERT items, DELETE summary, INSERT summary
    with pytest.raises(Crash):
        memory.restore(MemorySnapshot(items=("x",), summary="after"))
    recording.crash_at = None
    assert state(database, "s") == MemorySnapshot(items=("a", "b"), summary="before")
    memory.restore(MemorySnapshot(items=("x",), summary="after"))
    assert state(database, "s") == MemorySnapshot(items=("x",), summary="after")


def test_a_crash_at_commit_keeps_the_old_state(
    database: Path, recording: RecordingConnection
) -> None:
    memory = SqliteAgentMemory(recording, "s")
    memory.add_output_items(["a"])
    recording.statements.clear()
    recording.crash_at = 4  # BEGIN, SELECT, INSERT, COMMIT
    with pytest.raises(Crash, match="COMMIT"):
        memory.add_output_items(["b"])
    recording.crash_at = None
    assert state(database, "s").items == ("a",)


def test_a_killed_process_leaves_the_old_state_or_the_new(database: Path) -> None:
    with SqliteAgentMemory(database, "s") as memory:
        memory.restore(MemorySnapshot(items=("a", "b"), summary="before"))
    # The child dies (os._exit: no cleanup, no rollback) after its delete and one insert.
    script = textwrap.dedent(
        f"""
        import os, sqlite3
        from ctxpact.reference.memory import SqliteAgentMemory
        from ctxpact.spec import MemorySnapshot

        class Dying(sqlite3.Connection):
            def executemany(self, sql, parameters, /):
                super().executemany(sql, parameters)
                os._exit(3)

        connection = sqlite3.connect({str(database)!r}, isolation_level=None, factory=Dying)
        memory = SqliteAgentMemory(connection, "s")
        memory.restore(MemorySnapshot(items=("x", "y", "z"), summary="after"))
        """
    )
    finished = subprocess.run([sys.executable, "-c", script], check=False)
    assert finished.returncode == 3
    assert state(database, "s") == MemorySnapshot(items=("a", "b"), summary="before")


def corrupt(database: Path, kind: str, position: int, text: str) -> None:
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute(
        "UPDATE ctxpact_agent_memory SET entry_json = ? "
        "WHERE session_id = 's' AND kind = ? AND position = ?",
        (text, kind, position),
    )
    connection.close()


@pytest.mark.parametrize("text", ["{not json", "NaN", "", '{"a": Infinity}'])
def test_a_corrupt_item_row_is_named(database: Path, text: str) -> None:
    with SqliteAgentMemory(database, "s") as memory:
        memory.add_output_items(["a", "b", "c"])
        corrupt(database, "item", 1, text)
        with pytest.raises(CorruptMemoryError) as raised:
            memory.get_items()
        message = str(raised.value)
        assert "table 'ctxpact_agent_memory'" in message
        assert "session 's'" in message
        assert "item row 1" in message
        assert raised.value.position == 1
        with pytest.raises(CorruptMemoryError):
            memory.snapshot()


def test_a_summary_row_that_is_not_a_string_is_named(database: Path) -> None:
    with SqliteAgentMemory(database, "s") as memory:
        memory.set_summary("fine")
        corrupt(database, "summary", 0, json.dumps({"not": "a string"}))
        with pytest.raises(CorruptMemoryError, match=r"Expected a JSON string .* summary row 0"):
            memory.get_summary()


def test_a_corrupt_row_blocks_a_compressed_append_without_loss(database: Path) -> None:
    with SqliteAgentMemory(database, "s", compressor=Window(keep=5)) as memory:
        memory.add_output_items(["a", "b"])
        corrupt(database, "item", 0, "{oops")
        with pytest.raises(CorruptMemoryError):
            memory.add_output_items(["c"])
    connection = sqlite3.connect(database)
    rows = connection.execute(
        "SELECT entry_json FROM ctxpact_agent_memory ORDER BY position"
    ).fetchall()
    connection.close()
    assert rows == [("{oops",), ('"b"',)]
