"""The memory rules (MEM), checked against every reference memory alike."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ctxpact.reference.compaction import (
    CompactPolicyMemoryCompressor,
    StructuredSummaryCompactPolicy,
    WindowedMemoryCompressor,
)
from ctxpact.reference.memory import (
    CompressorResultError,
    InMemoryAgentMemory,
    SqliteAgentMemory,
)
from ctxpact.spec import (
    AgentMemory,
    ContextBudget,
    InvalidValueError,
    JsonValue,
    MemoryCompressor,
    MemorySnapshot,
    SchemaValidationError,
)

MemoryFactory = Callable[[MemoryCompressor | None], AgentMemory]

USER_HELLO: JsonValue = {
    "type": "message",
    "role": "user",
    "content": [{"type": "input_text", "text": "hello"}],
}


def system(text: str) -> JsonValue:
    return {"type": "message", "role": "system", "content": [{"type": "input_text", "text": text}]}


@pytest.fixture(params=["in-memory", "sqlite-path", "sqlite-connection"])
def make_memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryFactory]:
    closers: list[Callable[[], None]] = []

    def factory(compressor: MemoryCompressor | None = None) -> AgentMemory:
        if request.param == "in-memory":
            return InMemoryAgentMemory(compressor)
        if request.param == "sqlite-path":
            memory = SqliteAgentMemory(tmp_path / "memory.db", "s-1", compressor=compressor)
            closers.append(memory.close)
            return memory
        connection = sqlite3.connect(tmp_path / "borrowed.db", isolation_level=None)
        closers.append(connection.close)
        return SqliteAgentMemory(connection, "s-1", compressor=compressor)

    yield factory
    for close in reversed(closers):
        close()


class RecordingCompressor:
    """Keeps the last *keep* items and writes a summary naming how many it saw."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.seen: list[MemorySnapshot] = []

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        self.seen.append(snapshot)
        return MemorySnapshot(
            items=snapshot.items[-self.keep :], summary=f"saw {len(snapshot.items)}"
        )


class RaisingCompressor:
    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        raise RuntimeError(f"cannot compress {len(snapshot.items)} items")


class NoneCompressor:
    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        del snapshot
        return None  # type: ignore[return-value]  # a broken compressor, on purpose


def test_reference_memories_satisfy_the_protocol(make_memory: MemoryFactory) -> None:
    assert isinstance(make_memory(None), AgentMemory)


def test_a_new_memory_is_empty(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    assert memory.get_items() == []
    assert memory.get_summary() is None
    assert memory.snapshot() == MemorySnapshot(items=(), summary=None)


def test_add_user_input_ignores_none_and_wraps_strings(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.add_user_input(None)
    assert memory.get_items() == []
    memory.add_user_input("hello")
    memory.add_user_input("")
    memory.add_user_input({"type": "custom", "n": [1, 2.5, True, None]})
    memory.add_user_input(7)
    assert memory.get_items() == [
        USER_HELLO,
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": ""}]},
        {"type": "custom", "n": [1, 2.5, True, None]},
        7,
    ]


def test_add_output_items_appends_in_order_and_ignores_empty(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.add_output_items([])
    assert memory.get_items() == []
    memory.add_output_items(["a", {"b": 1}])
    memory.add_output_items(("c",))
    assert memory.get_items() == ["a", {"b": 1}, "c"]


def test_add_tool_output_appends_a_function_call_output(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.add_tool_output("call-1", "payload")
    memory.add_tool_output("call-2", None)
    assert memory.get_items() == [
        {"type": "function_call_output", "call_id": "call-1", "output": "payload"},
        {"type": "function_call_output", "call_id": "call-2", "output": None},
    ]


def test_get_items_puts_a_non_blank_summary_first(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.add_output_items(["recent"])
    memory.set_summary("earlier work")
    assert memory.get_items() == [system("earlier work"), "recent"]
    assert memory.get_summary() == "earlier work"
    assert memory.snapshot() == MemorySnapshot(items=("recent",), summary="earlier work")


@pytest.mark.parametrize("summary", ["", " ", "\t\n\r", "\x00 \x1f"])
def test_a_blank_summary_is_kept_but_not_prompted(make_memory: MemoryFactory, summary: str) -> None:
    memory = make_memory(None)
    memory.add_output_items(["recent"])
    memory.set_summary(summary)
    assert memory.get_items() == ["recent"]
    assert memory.get_summary() == summary


@pytest.mark.parametrize("summary", ["\u3000", "\xa0", "\u2003x"])
def test_only_java_whitespace_makes_a_summary_blank(
    make_memory: MemoryFactory, summary: str
) -> None:
    memory = make_memory(None)
    memory.set_summary(summary)
    assert memory.get_items() == [system(summary)]


def test_set_summary_none_removes_it(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.set_summary("s")
    memory.set_summary(None)
    assert memory.get_summary() is None
    assert memory.get_items() == []


def test_clear_removes_items_and_summary(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.add_output_items(["a", "b"])
    memory.set_summary("s")
    memory.clear()
    assert memory.snapshot() == MemorySnapshot()
    assert memory.get_items() == []


def test_get_items_returns_an_independent_list(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.add_output_items([{"type": "x", "list": [1]}])
    memory.set_summary("s")
    items = memory.get_items()
    items.append("extra")
    first = items[1]
    assert isinstance(first, dict)
    first["type"] = "changed"
    summary_message = items[0]
    assert isinstance(summary_message, dict)
    summary_message["role"] = "user"
    expected: list[JsonValue] = [system("s"), {"type": "x", "list": [1]}]
    assert memory.get_items() == expected


def test_snapshots_share_nothing_with_the_memory(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    added: JsonValue = {"type": "x", "list": [1]}
    memory.add_output_items([added])
    assert isinstance(added, dict)
    added["list"] = "changed by the caller"
    snapshot = memory.snapshot()
    item = snapshot.items[0]
    assert isinstance(item, dict)
    inner = item["list"]
    assert isinstance(inner, list)
    inner.append(2)
    memory.add_output_items(["later"])
    assert snapshot.items == ({"type": "x", "list": [1, 2]},)
    assert memory.snapshot().items == ({"type": "x", "list": [1]}, "later")


def test_restore_replaces_items_and_keeps_the_summary(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.add_output_items(["old"])
    memory.set_summary("old summary")
    memory.restore(MemorySnapshot(items=("goal", "recent"), summary="previous summary"))
    assert memory.snapshot() == MemorySnapshot(items=("goal", "recent"), summary="previous summary")
    assert memory.get_items() == [system("previous summary"), "goal", "recent"]


def test_restore_without_summary_clears_the_summary(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.set_summary("old summary")
    memory.restore(MemorySnapshot(items=("a",)))
    assert memory.get_summary() is None
    assert memory.get_items() == ["a"]


def test_restore_of_none_empties_the_memory(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    memory.restore(MemorySnapshot(items=("a",), summary="s"))
    memory.restore(None)  # MEM-10: a null snapshot is an empty one
    assert memory.snapshot() == MemorySnapshot()


def test_restore_copies_the_snapshot(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    snapshot = MemorySnapshot(items=({"k": [1]},), summary="s")
    memory.restore(snapshot)
    item = snapshot.items[0]
    assert isinstance(item, dict)
    item["k"] = "mutated after restore"
    assert memory.snapshot().items == ({"k": [1]},)


def test_the_compressor_runs_after_every_add(make_memory: MemoryFactory) -> None:
    compressor = RecordingCompressor(keep=2)
    memory = make_memory(compressor)
    memory.add_user_input("hello")
    memory.add_output_items(["a", "b"])
    memory.add_tool_output("call-1", "out")
    assert [len(seen.items) for seen in compressor.seen] == [1, 3, 3]
    assert compressor.seen[1].summary == "saw 1"
    assert memory.snapshot() == MemorySnapshot(
        items=("b", {"type": "function_call_output", "call_id": "call-1", "output": "out"}),
        summary="saw 3",
    )


def test_the_compressor_skips_ignored_adds_restore_clear_and_summary(
    make_memory: MemoryFactory,
) -> None:
    compressor = RecordingCompressor(keep=1)
    memory = make_memory(compressor)
    memory.add_user_input(None)
    memory.add_output_items([])
    memory.set_summary("kept")
    memory.restore(MemorySnapshot(items=("a", "b", "c"), summary="restored"))
    assert compressor.seen == []
    assert memory.snapshot() == MemorySnapshot(items=("a", "b", "c"), summary="restored")
    memory.clear()
    assert compressor.seen == []


def test_a_raising_compressor_leaves_the_memory_as_it_was(make_memory: MemoryFactory) -> None:
    memory = make_memory(RaisingCompressor())
    memory.restore(MemorySnapshot(items=("a",), summary="s"))
    with pytest.raises(RuntimeError, match="cannot compress 2 items"):
        memory.add_output_items(["b"])
    assert memory.snapshot() == MemorySnapshot(items=("a",), summary="s")


def test_a_compressor_returning_no_snapshot_is_an_error(make_memory: MemoryFactory) -> None:
    memory = make_memory(NoneCompressor())
    with pytest.raises(CompressorResultError, match="but got NoneType"):
        memory.add_user_input("hello")
    assert memory.snapshot() == MemorySnapshot()


def test_a_compressor_cannot_reach_into_the_memory(make_memory: MemoryFactory) -> None:
    class Meddling:
        def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
            item = snapshot.items[0]
            assert isinstance(item, dict)
            item["meddled"] = True
            raise RuntimeError("gave up")

    memory = make_memory(Meddling())
    memory.restore(MemorySnapshot(items=({"k": 1},)))
    with pytest.raises(RuntimeError, match="gave up"):
        memory.add_output_items(["x"])
    assert memory.snapshot().items == ({"k": 1},)


@pytest.mark.parametrize(
    ("value", "path"),
    [({"a": {1, 2}}, "$.a"), ({"a": [float("nan")]}, "$.a[0]"), ({1: "x"}, "$")],
)
def test_non_json_input_is_refused_and_nothing_is_added(
    make_memory: MemoryFactory, value: object, path: str
) -> None:
    memory = make_memory(None)
    with pytest.raises(SchemaValidationError) as raised:
        memory.add_user_input(value)  # type: ignore[arg-type]  # not JSON, on purpose
    assert raised.value.violations[0].path == path
    with pytest.raises(SchemaValidationError):
        memory.add_output_items(["fine", value])  # type: ignore[list-item]  # on purpose
    assert memory.snapshot() == MemorySnapshot()


@pytest.mark.parametrize("items", ["abc", {"a": 1}, 5])
def test_add_output_items_needs_a_list(make_memory: MemoryFactory, items: object) -> None:
    memory = make_memory(None)
    with pytest.raises(SchemaValidationError, match="Expected a list of items"):
        memory.add_output_items(items)  # type: ignore[arg-type]  # on purpose
    assert memory.get_items() == []


def test_summary_and_call_id_types_are_checked(make_memory: MemoryFactory) -> None:
    memory = make_memory(None)
    with pytest.raises(InvalidValueError, match="summary"):
        memory.set_summary(3)  # type: ignore[arg-type]  # on purpose
    with pytest.raises(InvalidValueError, match="call_id"):
        memory.add_tool_output(None, "x")  # type: ignore[arg-type]  # on purpose
    with pytest.raises(InvalidValueError, match="output"):
        memory.add_tool_output("c", 3)  # type: ignore[arg-type]  # on purpose
    assert memory.snapshot() == MemorySnapshot()


def test_with_the_reference_windowed_compressor(make_memory: MemoryFactory) -> None:
    memory = make_memory(WindowedMemoryCompressor(2))
    memory.set_summary("kept")
    for item in ["a", "b", "c", "d"]:
        memory.add_output_items([item])
    assert memory.snapshot() == MemorySnapshot(items=("c", "d"), summary="kept")


def test_with_the_reference_policy_compressor(make_memory: MemoryFactory) -> None:
    compressor = CompactPolicyMemoryCompressor(
        StructuredSummaryCompactPolicy(ContextBudget(max_items=2))
    )
    memory = make_memory(compressor)
    memory.add_output_items(["a", "b", "c"])
    result = compressor.get_last_result()
    assert result is not None
    assert result.memory is not None
    assert memory.snapshot() == result.memory
    assert memory.get_summary() == result.memory.summary
    assert memory.get_summary()
