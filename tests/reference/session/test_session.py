"""Sessions: snapshots, restore, save and resume through every store (SES)."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ctxpact.reference.compaction import StructuredSummaryCompactPolicy
from ctxpact.reference.memory import InMemoryAgentMemory, SqliteAgentMemory
from ctxpact.reference.session import (
    Agent,
    AgentSession,
    FileSessionStore,
    InMemorySessionStore,
    NoSessionStoreError,
    SessionNotFoundError,
    SessionStore,
    SqliteSessionStore,
)
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    ContextBudget,
    InvalidValueError,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    SchemaValidationError,
    ToolCall,
    from_json,
    to_json,
)


def user(text: str) -> JsonValue:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def system(text: str) -> JsonValue:
    return {"type": "message", "role": "system", "content": [{"type": "input_text", "text": text}]}


class ScriptedModel:
    def __init__(self, *results: ModelResult) -> None:
        self.results = list(results)
        self.prompts: list[ModelPrompt] = []

    def create(self, prompt: ModelPrompt) -> ModelResult:
        self.prompts.append(prompt)
        return self.results.pop(0)


class Summarize:
    """Keeps the last item and summarizes the rest; compacts when there are over three."""

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        return len(snapshot.items) > 3

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        summary = f"{snapshot.summary or ''}[{len(snapshot.items) - 1} summarized]"
        return CompactResult(
            memory=MemorySnapshot(items=snapshot.items[-1:], summary=summary),
            summary=summary,
            pending=("next",),
            read_files=("/a.py",),
        )


StoreFactory = Callable[[], SessionStore]


@pytest.fixture(params=["memory", "file", "sqlite"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreFactory]:
    closers: list[Callable[[], None]] = []
    shared = InMemorySessionStore()  # a process's store: every "new" store is this one

    def factory() -> SessionStore:
        if request.param == "memory":
            return shared
        if request.param == "file":
            return FileSessionStore(tmp_path / "sessions")
        store = SqliteSessionStore(tmp_path / "sessions.db")
        closers.append(store.close)
        return store

    yield factory
    for close in closers:
        close()


def a_session_with_history(store: SessionStore | None, model: ScriptedModel) -> AgentSession:
    agent = Agent(
        model_client=model,
        compact_policy=Summarize(),
        tools={"read": lambda arguments: f"read {arguments}"},
        session_store=store,
    )
    session = agent.new_session("s-1")
    session.run("first")
    session.run("second")
    return session


def scripted() -> ScriptedModel:
    return ScriptedModel(
        ModelResult(
            memory_items=[{"role": "assistant", "tool_calls": [{"id": "c1", "name": "read"}]}],
            tool_calls=[ToolCall(call_id="c1", name="read", arguments="/a.py")],
        ),
        ModelResult(output_text="one", memory_items=[{"role": "assistant", "n": 2}]),
        ModelResult(output_text="two", memory_items=[{"role": "assistant", "n": 3}]),
    )


def test_a_session_snapshot_holds_id_memory_and_last_compaction() -> None:
    session = a_session_with_history(None, scripted())
    snapshot = session.snapshot()
    assert snapshot.session_id == "s-1"
    assert snapshot.memory == session.memory.snapshot()
    assert snapshot.memory.summary == "[4 summarized]"
    assert snapshot.compact_result == session.last_compact_result
    assert snapshot.compact_result is not None
    assert snapshot.compact_result.read_files == ("/a.py",)
    assert from_json(AgentSessionSnapshot, to_json(snapshot)) == snapshot


def test_saved_and_resumed_equals_the_original(make_store: StoreFactory) -> None:
    store = make_store()
    session = a_session_with_history(store, scripted())
    session.save()
    resumed_model = ScriptedModel(ModelResult(output_text="three"))
    agent = Agent(model_client=resumed_model, session_store=make_store())
    resumed = agent.resume_session("s-1")
    assert resumed.session_id == "s-1"
    assert resumed.snapshot() == session.snapshot()
    assert resumed.last_compact_result == session.last_compact_result
    # Restore keeps the summary: the resumed session's next prompt starts with it.
    resumed.run("third")
    assert resumed_model.prompts[0].items[0] == system("[4 summarized]")


def test_restore_keeps_the_summary_and_the_last_compaction() -> None:
    session = Agent(model_client=ScriptedModel()).new_session("target")
    result = CompactResult(summary="earlier", pending=("p",))
    snapshot = AgentSessionSnapshot(
        session_id="source",
        memory=MemorySnapshot(items=("recent",), summary="earlier"),
        compact_result=result,
    )
    session.restore(snapshot)
    assert session.memory.get_items() == [system("earlier"), "recent"]
    assert session.last_compact_result == result
    assert session.session_id == "source"
    assert session.snapshot() == snapshot


def test_events_after_restore_carry_the_restored_id() -> None:
    seen: list[str] = []
    agent = Agent(
        model_client=ScriptedModel(ModelResult(output_text="x")),
        event_listeners=[lambda event: seen.append(event.session_id)],
    )
    session = agent.new_session("old")
    session.restore(AgentSessionSnapshot(session_id="new"))
    session.run("go")
    assert set(seen) == {"new"}


def test_restoring_a_snapshot_without_compaction_clears_the_last_one() -> None:
    session = Agent(model_client=ScriptedModel()).new_session("s")
    session.compact(Summarize())
    before = session.last_compact_result
    assert before is not None
    session.restore(AgentSessionSnapshot(session_id="s"))
    after = session.last_compact_result
    assert after is None
    assert session.memory.snapshot() == MemorySnapshot()


def test_restore_refuses_what_is_not_a_session_snapshot() -> None:
    session = Agent(model_client=ScriptedModel()).new_session("s")
    with pytest.raises(SchemaValidationError, match="AgentSessionSnapshot"):
        session.restore(MemorySnapshot())  # type: ignore[arg-type]  # on purpose


def test_resume_without_a_store_is_an_error() -> None:
    agent = Agent(model_client=ScriptedModel())
    with pytest.raises(NoSessionStoreError, match="to resume a session by id"):
        agent.resume_session("s-1")
    with pytest.raises(NoSessionStoreError, match="to save a session"):
        agent.new_session("s-1").save()


def test_resume_of_an_unknown_id_names_it() -> None:
    agent = Agent(model_client=ScriptedModel(), session_store=InMemorySessionStore())
    with pytest.raises(SessionNotFoundError, match="Agent session not found: 'nobody'") as raised:
        agent.resume_session("nobody")
    assert raised.value.session_id == "nobody"
    assert isinstance(raised.value, LookupError)


def test_new_sessions_get_fresh_memories_and_distinct_ids() -> None:
    agent = Agent(model_client=ScriptedModel())
    first, second = agent.new_session(), agent.new_session()
    assert first.session_id != second.session_id
    assert str(uuid.UUID(first.session_id)) == first.session_id
    first.memory.add_output_items(["only in first"])
    assert second.memory.get_items() == []
    assert isinstance(first.memory, InMemoryAgentMemory)
    assert agent.new_session("chosen").session_id == "chosen"
    with pytest.raises(InvalidValueError, match="non-blank"):
        agent.new_session("")


def test_sqlite_memories_per_session_with_a_sqlite_store(tmp_path: Path) -> None:
    connection = sqlite3.connect(tmp_path / "agent.db", isolation_level=None)
    store = SqliteSessionStore(connection)
    agent = Agent(
        model_client=ScriptedModel(ModelResult(output_text="a"), ModelResult(output_text="b")),
        memory_factory=lambda session_id: SqliteAgentMemory(connection, session_id),
        session_store=store,
    )
    first = agent.new_session("one")
    second = agent.new_session("two")
    first.run("for one")
    second.run("for two")
    first.save()
    assert first.memory.get_items() == [user("for one")]
    assert second.memory.get_items() == [user("for two")]
    first.memory.clear()
    resumed = agent.resume_session("one")
    assert resumed.memory.get_items() == [user("for one")]
    assert second.memory.get_items() == [user("for two")]
    connection.close()


def test_last_compact_result_is_a_copy() -> None:
    session = Agent(model_client=ScriptedModel()).new_session("s")
    session.memory.add_output_items([{"k": 1}, "b", "c", "d"])
    returned = session.compact(Summarize())
    assert returned.memory is not None
    item = returned.memory.items[0]
    assert item == "d"
    stored = session.last_compact_result
    assert stored is not None
    assert stored.memory is not None
    stored_items = list(stored.memory.items)
    assert stored_items == ["d"]
    assert session.last_compact_result is not stored


def test_with_the_reference_compaction_policy(tmp_path: Path) -> None:
    policy = StructuredSummaryCompactPolicy(ContextBudget(max_items=2))
    model = ScriptedModel(ModelResult(output_text="done"))
    session = Agent(model_client=model, compact_policy=policy).new_session("s")
    session.memory.add_output_items(["a", "b", "c"])
    session.run("go")
    result = session.last_compact_result
    assert result is not None
    assert result.memory is not None
    assert session.memory.snapshot() == MemorySnapshot(
        items=result.memory.items, summary=result.memory.summary
    )
    assert model.prompts[0].items[0] == system(result.memory.summary or "")
    # The structured result survives a file round trip, context report included.
    store = FileSessionStore(tmp_path)
    store.save(session.snapshot())
    assert store.load("s") == session.snapshot()
