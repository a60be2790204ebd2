"""Properties of the memories: restore keeps everything, and both memories agree call for call."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from ctxpact.reference.memory import InMemoryAgentMemory, SqliteAgentMemory
from ctxpact.spec import AgentMemory, JsonValue, MemorySnapshot

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
json_values: st.SearchStrategy[JsonValue] = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=8,
)
summaries = st.none() | st.text(max_size=8) | st.sampled_from(["", " \t", "\u3000", "sum"])
snapshots = st.builds(
    MemorySnapshot, items=st.lists(json_values, max_size=6).map(tuple), summary=summaries
)


def system(text: str) -> JsonValue:
    return {"type": "message", "role": "system", "content": [{"type": "input_text", "text": text}]}


def blank(summary: str | None) -> bool:
    return summary is None or not summary.strip("".join(chr(code) for code in range(0x21)))


def check_round_trip(memory: AgentMemory, snapshot: MemorySnapshot) -> None:
    memory.add_output_items(["stale"])
    memory.set_summary("stale summary")
    memory.restore(snapshot)
    assert memory.snapshot() == snapshot
    assert memory.get_summary() == snapshot.summary
    expected = list(snapshot.items)
    if not blank(snapshot.summary):
        assert snapshot.summary is not None
        expected.insert(0, system(snapshot.summary))
    assert memory.get_items() == expected


@given(snapshot=snapshots)
@example(snapshot=MemorySnapshot(items=("goal", "recent"), summary="previous summary"))
@example(snapshot=MemorySnapshot(items=(), summary=""))
@example(snapshot=MemorySnapshot(items=({"a": [1.5, None, {"b": -0.0}]},), summary=None))
def test_in_memory_restore_then_snapshot_is_the_identity(snapshot: MemorySnapshot) -> None:
    check_round_trip(InMemoryAgentMemory(), snapshot)


@given(snapshot=snapshots)
@example(snapshot=MemorySnapshot(items=("goal", "recent"), summary="previous summary"))
@example(snapshot=MemorySnapshot(items=(), summary=""))
@example(snapshot=MemorySnapshot(items=({"k": "\ud800", "n": 10**40},), summary="\x00"))
def test_sqlite_restore_then_snapshot_is_the_identity(snapshot: MemorySnapshot) -> None:
    with SqliteAgentMemory(":memory:", "s") as memory:
        check_round_trip(memory, snapshot)


class Window:
    """A deterministic compressor: keeps the last three items, records the count in the summary."""

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        if len(snapshot.items) <= 3:
            return snapshot
        dropped = len(snapshot.items) - 3
        return MemorySnapshot(
            items=snapshot.items[-3:], summary=f"{snapshot.summary or ''}+{dropped}"
        )


class Model:
    """The memory rules, written out independently of the reference."""

    def __init__(self, *, compress: bool) -> None:
        self.items: list[JsonValue] = []
        self.summary: str | None = None
        self.compress = compress

    def append(self, new: list[JsonValue]) -> None:
        if not new:
            return
        self.items.extend(new)
        if self.compress and len(self.items) > 3:
            dropped = len(self.items) - 3
            self.items = self.items[-3:]
            self.summary = f"{self.summary or ''}+{dropped}"


class Memories(RuleBasedStateMachine):
    """Every memory, driven by the same calls, ends in the model's state."""

    compress = False

    def __init__(self) -> None:
        super().__init__()
        compressor = Window() if self.compress else None
        self.sqlite = SqliteAgentMemory(":memory:", "s", compressor=compressor)
        self.neighbour = SqliteAgentMemory(self.sqlite._connection, "other")
        self.neighbour.add_output_items(["untouched"])
        self.memories: list[AgentMemory] = [InMemoryAgentMemory(compressor), self.sqlite]
        self.model = Model(compress=self.compress)

    def each(self, call: Callable[[AgentMemory], object]) -> None:
        for memory in self.memories:
            call(memory)

    @rule(value=st.none() | json_values)
    def add_user_input(self, value: JsonValue) -> None:
        self.each(lambda memory: memory.add_user_input(value))
        if isinstance(value, str):
            role_text: JsonValue = {"type": "input_text", "text": value}
            self.model.append([{"type": "message", "role": "user", "content": [role_text]}])
        elif value is not None:
            self.model.append([value])

    @rule(items=st.lists(json_values, max_size=3))
    def add_output_items(self, items: list[JsonValue]) -> None:
        self.each(lambda memory: memory.add_output_items(items))
        self.model.append(list(items))

    @rule(call_id=st.text(max_size=4), output=st.none() | st.text(max_size=4))
    def add_tool_output(self, call_id: str, output: str | None) -> None:
        self.each(lambda memory: memory.add_tool_output(call_id, output))
        self.model.append([{"type": "function_call_output", "call_id": call_id, "output": output}])

    @rule(summary=summaries)
    def set_summary(self, summary: str | None) -> None:
        self.each(lambda memory: memory.set_summary(summary))
        self.model.summary = summary

    @rule()
    def clear(self) -> None:
        self.each(lambda memory: memory.clear())
        self.model.items, self.model.summary = [], None

    @rule(snapshot=snapshots)
    def restore(self, snapshot: MemorySnapshot) -> None:
        self.each(lambda memory: memory.restore(snapshot))
        self.model.items, self.model.summary = list(snapshot.items), snapshot.summary

    @rule()
    def mutate_what_was_read(self) -> None:
        for memory in self.memories:
            for item in [*memory.get_items(), *memory.snapshot().items]:
                if isinstance(item, dict):
                    item["mutated"] = True
                elif isinstance(item, list):
                    item.append("mutated")

    @invariant()
    def every_memory_matches_the_model(self) -> None:
        expected = MemorySnapshot(items=tuple(self.model.items), summary=self.model.summary)
        prompt = list(self.model.items)
        if not blank(self.model.summary):
            assert self.model.summary is not None
            prompt.insert(0, system(self.model.summary))
        for memory in self.memories:
            assert memory.snapshot() == expected
            assert memory.get_summary() == self.model.summary
            assert memory.get_items() == prompt
        assert self.neighbour.snapshot() == MemorySnapshot(items=("untouched",))

    def teardown(self) -> None:
        self.sqlite.close()


class CompressedMemories(Memories):
    compress = True


TestMemories = Memories.TestCase
TestCompressedMemories = CompressedMemories.TestCase
