"""Events as JSON documents (EVT-14): what a host persists or forwards validates, every kind."""

from __future__ import annotations

import pytest

from ctxpact.reference.session import (
    Agent,
    AgentEvent,
    AgentEventType,
    LifecycleEvent,
    LifecycleEventType,
    event_document,
)
from ctxpact.spec import (
    CompactResult,
    JsonObject,
    MemorySnapshot,
    ModelResult,
    SchemaValidationError,
    ToolCall,
    to_json,
    violations,
)

CALL = ToolCall(call_id="call-1", name="read_file", arguments='{"path": "a.py"}')


class Script:
    """A model client that asks for one tool call, then answers."""

    def __init__(self) -> None:
        self.results = [
            ModelResult(
                memory_items=[{"type": "function_call", "call_id": "call-1", "name": "read_file"}],
                tool_calls=[CALL],
            ),
            ModelResult(output_text="done", memory_items=[{"role": "assistant", "text": "done"}]),
        ]

    def create(self, _: object) -> ModelResult:
        return self.results.pop(0)


class CompactAlways:
    """A policy that compacts every memory with items down to its last item."""

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        return bool(snapshot.items)

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        memory = MemorySnapshot(items=snapshot.items[-1:], summary="kept the last")
        return CompactResult(memory=memory, summary="kept the last")


def _events() -> tuple[list[AgentEvent], list[LifecycleEvent]]:
    events: list[AgentEvent] = []
    lifecycle: list[LifecycleEvent] = []

    def audit(event: LifecycleEvent) -> None:
        if event.type is LifecycleEventType.AFTER_TOOL_CALL:
            raise RuntimeError("disk full")

    agent = Agent(
        model_client=Script(),
        compact_policy=CompactAlways(),
        tools={"read_file": lambda _: "print('a')"},
        event_listeners=[events.append],
        lifecycle_hooks=[lifecycle.append, audit],
    )
    session = agent.new_session("s-1")
    assert session.run("Fix the build") == "done"
    return events, lifecycle


def test_every_event_of_a_run_is_a_valid_document() -> None:
    events, lifecycle = _events()
    documents = [(event_document(e), "agent-event") for e in events]
    documents += [(event_document(e), "lifecycle-event") for e in lifecycle]
    for document, schema in documents:
        assert violations(document, schema) == (), document
    kinds = {document["type"] for document, _ in documents}
    assert {t.value for t in AgentEventType} - {"COMPACT_FAILED"} <= kinds
    assert {t.value for t in LifecycleEventType} <= kinds


def test_payloads_are_written_as_their_documents() -> None:
    events, lifecycle = _events()
    by_type: dict[str, JsonObject] = {}
    every: list[AgentEvent | LifecycleEvent] = [*events, *lifecycle]
    for event in every:
        by_type.setdefault(event.type.value, event_document(event))
    assert by_type["TOOL_CALL"]["payload"] == to_json(CALL)
    assert by_type["SESSION_START"]["payload"] == "Fix the build"
    assert by_type["FINAL_OUTPUT"]["payload"] == "done"
    assert by_type["STEP_START"] == {
        "type": "STEP_START",
        "message": "",
        "step": 0,
        "payload": None,
        "sessionId": "s-1",
    }
    error = by_type["ERROR"]
    assert error["message"] == "lifecycle hook failed: _events.<locals>.audit"
    assert error["payload"] == {"error": "RuntimeError", "message": "disk full"}
    assert violations(error["payload"], "event-error") == ()
    compacted = by_type["ON_COMPACT"]["payload"]
    assert violations(compacted, "compact-result") == ()
    assert violations(by_type["BEFORE_COMPACT"]["payload"], "memory-snapshot") == ()


def test_a_payload_that_is_not_json_is_refused_with_its_path() -> None:
    event = AgentEvent(
        type=AgentEventType.FINAL_OUTPUT, message="", step=0, payload={"a": {1, 2}}, session_id="s"
    )
    with pytest.raises(SchemaValidationError, match=r"\$\.payload\.a"):
        event_document(event)
