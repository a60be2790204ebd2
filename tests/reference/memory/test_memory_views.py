"""The memories' views: what get_items() and snapshot() return, shared instead of copied (§14.3).

A view is identical to the copy it stands for (MEM-22, MEM-23), keeps what it was taken
with (MEM-24), carries exact sizes however the memory was changed, and a SQLite memory's view
follows every change another hand makes to the database (MEM-25).
"""

from __future__ import annotations

import sqlite3
import tempfile
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from ctxpact.reference import SizedItemsView, WindowedMemoryCompressor
from ctxpact.reference.memory import (
    CorruptMemoryError,
    InMemoryAgentMemory,
    MemoryViews,
    SqliteAgentMemory,
    SqliteError,
)
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import JsonValue, MemorySnapshot, compact_json, to_json

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=6)
json_values: st.SearchStrategy[JsonValue] = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=6,
)
tool_items = st.sampled_from(
    [
        {"type": "function_call", "call_id": "c1", "name": "read", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "result"},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "t"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1"}]},
    ]
)
summaries = st.none() | st.sampled_from(["", " ", "sum", "another summary"])
snapshots = st.builds(
    MemorySnapshot,
    items=st.lists(json_values | tool_items, max_size=4).map(tuple),
    summary=summaries,
)


def text(items: object) -> str:
    return compact_json(list(items))  # type: ignore[call-overload]  # any iterable of items


def exact(view: SizedItemsView) -> bool:
    """Every size in *view* is approx_chars of its item, and the total their sum."""
    sizes = [view.approx_chars(index) for index in range(len(view))]
    return sizes == [approx_chars(item) for item in view] and view.total_approx_chars == sum(sizes)


class Views(RuleBasedStateMachine):
    """Every memory, changed by every operation, hands out views identical to its copies."""

    compress = False

    def __init__(self) -> None:
        super().__init__()
        compressor = WindowedMemoryCompressor(3) if self.compress else None
        self.directory = tempfile.TemporaryDirectory()
        path = Path(self.directory.name) / "memory.db"
        self.sqlite = SqliteAgentMemory(path, "s", compressor=compressor)
        # The same session through the same connection, and through another one: a write
        # through either is one the first memory did not make.
        self.twin = SqliteAgentMemory(self.sqlite._connection, "s", compressor=compressor)
        self.other = SqliteAgentMemory(path, "s", compressor=compressor)
        self.memories: list[Any] = [InMemoryAgentMemory(compressor), self.sqlite]
        self.views: list[tuple[SizedItemsView, str]] = []

    def each(self, call: Callable[[Any], object], writer: Any = None) -> None:
        """Call every memory; the SQLite session once, through *writer* (default: the memory)."""
        call(self.memories[0])
        call(self.sqlite if writer is None else writer)

    @rule(value=st.none() | json_values, via=st.sampled_from(["self", "twin", "other"]))
    def add_user_input(self, value: JsonValue, via: str) -> None:
        writer = {"self": None, "twin": self.twin, "other": self.other}[via]
        self.each(lambda memory: memory.add_user_input(value), writer)

    @rule(items=st.lists(json_values | tool_items, max_size=3))
    def add_output_items(self, items: list[JsonValue]) -> None:
        self.each(lambda memory: memory.add_output_items(items))

    @rule(output=st.none() | st.text(max_size=4))
    def add_tool_output(self, output: str | None) -> None:
        self.each(lambda memory: memory.add_tool_output("c1", output))

    @rule(summary=summaries, via=st.sampled_from(["self", "other"]))
    def set_summary(self, summary: str | None, via: str) -> None:
        self.each(
            lambda memory: memory.set_summary(summary), self.other if via == "other" else None
        )

    @rule(via=st.sampled_from(["self", "twin"]))
    def clear(self, via: str) -> None:
        self.each(lambda memory: memory.clear(), self.twin if via == "twin" else None)

    @rule(snapshot=snapshots, via=st.sampled_from(["self", "other"]))
    def restore(self, snapshot: MemorySnapshot, via: str) -> None:
        self.each(lambda memory: memory.restore(snapshot), self.other if via == "other" else None)

    @rule()
    def take_views(self) -> None:
        for memory in self.memories:
            view = memory.prompt_view()
            self.views.append((view, text(memory.get_items())))

    @rule()
    def mutate_what_was_copied(self) -> None:
        for memory in self.memories:
            for item in [*memory.get_items(), *memory.snapshot().items]:
                if isinstance(item, dict):
                    item["mutated"] = True
                elif isinstance(item, list):
                    item.append("mutated")

    @invariant()
    def views_are_the_copies_they_stand_for(self) -> None:
        for memory in self.memories:
            view = memory.prompt_view()
            assert isinstance(view, SizedItemsView)
            assert text(view) == text(memory.get_items())
            assert exact(view)
            shared = memory.snapshot_view()
            assert compact_json(to_json(shared)) == compact_json(to_json(memory.snapshot()))
        for view, taken in self.views:
            assert text(view) == taken  # a view keeps what it was taken with (MEM-24)
            assert exact(view)

    def teardown(self) -> None:
        for memory in (self.sqlite, self.other):
            memory.close()
        self.directory.cleanup()


class CompressedViews(Views):
    compress = True


TestViews = Views.TestCase
TestCompressedViews = CompressedViews.TestCase


# -- the views share, the copies do not -------------------------------------------------------


@pytest.fixture(params=["in-memory", "sqlite"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "in-memory":
        yield InMemoryAgentMemory()
    else:
        with SqliteAgentMemory(tmp_path / "memory.db", "s") as sqlite:
            yield sqlite


def test_a_view_shares_the_memorys_items_and_a_copy_does_not(memory: Any) -> None:
    assert isinstance(memory, MemoryViews), "the protocol the runtime looks for (RUN-16)"
    memory = typing.cast("Any", memory)
    memory.set_summary("summary")
    memory.add_output_items([{"type": "message", "role": "assistant", "content": "a"}])
    view, shared = memory.prompt_view(), memory.snapshot_view()
    assert view[1] is shared.items[0]  # one object, shared
    assert view[1] is memory.prompt_view()[1]  # ... read again without a copy
    assert memory.get_items()[1] is not view[1]
    assert memory.snapshot().items[0] is not shared.items[0]
    assert shared.summary == "summary"
    assert view[0] == {
        "type": "message",
        "role": "system",
        "content": [{"type": "input_text", "text": "summary"}],
    }


def test_a_view_has_nothing_that_changes_the_memory(memory: Any) -> None:
    memory.add_user_input("hello")
    view = memory.prompt_view()
    public = {name for name in dir(view) if not name.startswith("_")}
    assert public == {"approx_chars", "count", "index", "total_approx_chars"}
    for mutator in ("__setitem__", "__delitem__", "__iadd__", "append", "extend"):
        assert not hasattr(view, mutator), mutator


def test_a_view_keeps_what_it_was_taken_with(memory: Any) -> None:
    memory.add_user_input("first")
    view = memory.prompt_view()
    before = text(view)
    memory.add_tool_output("c1", "output")
    memory.set_summary("a summary")
    memory.restore(MemorySnapshot(items=("restored",), summary=None))
    memory.clear()
    assert text(view) == before
    assert exact(view)
    assert len(memory.prompt_view()) == 0


# -- SqliteAgentMemory follows every change of its database ------------------------------------


def test_a_view_sees_a_write_through_another_memory_on_the_connection(tmp_path: Path) -> None:
    with SqliteAgentMemory(tmp_path / "m.db", "s") as memory:
        memory.add_user_input("a")
        assert len(memory.prompt_view()) == 1
        SqliteAgentMemory(memory._connection, "s").add_user_input("b")
        assert text(memory.prompt_view()) == text(memory.get_items())
        assert len(memory.prompt_view()) == 2
        memory.add_user_input("c")  # appended after the row the other memory wrote
        assert [item["content"][0]["text"] for item in memory.prompt_view()] == ["a", "b", "c"]  # type: ignore[index, call-overload]  # user messages


def test_a_view_sees_a_commit_of_another_connection(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with SqliteAgentMemory(path, "s") as memory, SqliteAgentMemory(path, "s") as other:
        memory.add_user_input("a")
        memory.prompt_view()
        other.restore(MemorySnapshot(items=("x", "y"), summary="s"))
        assert text(memory.prompt_view()) == text(memory.get_items())
        memory.add_output_items(["z"])
        assert memory.snapshot_view() == MemorySnapshot(items=("x", "y", "z"), summary="s")


def test_a_view_sees_the_callers_own_sql(tmp_path: Path) -> None:
    connection = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    memory = SqliteAgentMemory(connection, "s")
    memory.add_output_items(["a", "b"])
    assert len(memory.prompt_view()) == 2
    connection.execute("DELETE FROM ctxpact_agent_memory WHERE position = 1")
    assert list(memory.prompt_view()) == ["a"]
    # Inside the caller's transaction a view reads the rows and keeps nothing.
    connection.execute("BEGIN")
    connection.execute("DELETE FROM ctxpact_agent_memory")
    assert list(memory.prompt_view()) == []
    connection.execute("ROLLBACK")
    assert list(memory.prompt_view()) == ["a"]
    connection.execute("DROP TABLE ctxpact_agent_memory")
    with pytest.raises(SqliteError, match="no such table"):
        memory.prompt_view()
    connection.close()


def test_a_view_reads_a_corrupt_row_as_get_items_does(tmp_path: Path) -> None:
    connection = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    memory = SqliteAgentMemory(connection, "s")
    memory.add_output_items(["a"])
    memory.prompt_view()
    connection.execute("UPDATE ctxpact_agent_memory SET entry_json = '{' WHERE kind = 'item'")
    with pytest.raises(CorruptMemoryError):
        memory.get_items()
    with pytest.raises(CorruptMemoryError):
        memory.prompt_view()
    connection.close()


def test_a_closed_memory_has_no_view(tmp_path: Path) -> None:
    memory = SqliteAgentMemory(tmp_path / "m.db", "s")
    memory.add_user_input("a")
    memory.prompt_view()
    memory.close()
    with pytest.raises(SqliteError):
        memory.prompt_view()
    with pytest.raises(SqliteError):
        memory.snapshot_view()


class Failing(sqlite3.Connection):
    """Fails the next COMMIT when told to."""

    fail_commit = False

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if sql == "COMMIT" and self.fail_commit:
            self.fail_commit = False
            raise sqlite3.OperationalError("disk I/O error")
        return super().execute(sql, parameters)


def test_a_write_that_does_not_commit_leaves_the_view_as_it_was(tmp_path: Path) -> None:
    connection = sqlite3.connect(tmp_path / "m.db", isolation_level=None, factory=Failing)
    assert isinstance(connection, Failing)
    memory = SqliteAgentMemory(connection, "s")
    memory.add_output_items(["a"])
    memory.prompt_view()
    writes: tuple[Callable[[], object], ...] = (
        lambda: memory.add_output_items(["b"]),
        lambda: memory.set_summary("s"),
        lambda: memory.restore(MemorySnapshot(items=("x",))),
        memory.clear,
    )
    for write in writes:
        connection.fail_commit = True
        with pytest.raises(SqliteError, match="disk I/O error"):
            write()
        assert list(memory.prompt_view()) == ["a"] == list(memory.get_items())
    connection.close()


def test_a_memory_that_shares_no_view_keeps_nothing(tmp_path: Path) -> None:
    # Without a view asked for, the memory keeps only the table: the writes are those of
    # a memory without views, statement for statement.
    with SqliteAgentMemory(tmp_path / "m.db", "s") as memory:
        memory.add_output_items(["a"])
        memory.restore(MemorySnapshot(items=("b",)))
        assert memory._shared is None
        memory.prompt_view()
        assert memory._shared is not None
