"""The runtime loop (RUN), auto-compaction and its fail-safety, events and hooks (EVT)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.reference.projection import DefaultContextProjector
from ctxpact.reference.session import (
    COMPACT_FAILED_MESSAGE,
    COMPACTED_MESSAGE,
    DEFAULT_MAX_STEPS,
    HOOK_FAILED_MESSAGE,
    LISTENER_FAILED_MESSAGE,
    MODEL_FAILED_MESSAGE,
    TOOL_FAILED_OUTPUT,
    UNKNOWN_TOOL_OUTPUT,
    Agent,
    AgentEvent,
    AgentEventType,
    LifecycleEvent,
    LifecycleEventType,
    MaxStepsExceededError,
    MemoryRollbackError,
    RuntimeResultError,
)
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextReport,
    InvalidValueError,
    JsonObject,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    ToolCall,
    compact_json,
    pairing,
    tool_calls,
    wire_problems,
)

E = AgentEventType
L = LifecycleEventType


def user(text: str) -> JsonValue:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def system(text: str) -> JsonValue:
    return {"type": "message", "role": "system", "content": [{"type": "input_text", "text": text}]}


def tool_output(call_id: str, output: str | None) -> JsonValue:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def answer(text: str) -> ModelResult:
    return ModelResult(output_text=text, memory_items=[{"role": "assistant", "text": text}])


def declared(call: ToolCall) -> JsonValue:
    """The memory item of a Responses model client for *call*."""
    return {
        "type": "function_call",
        "call_id": call.call_id,
        "name": call.name,
        "arguments": call.arguments,
    }


def calls(*tool_calls: ToolCall) -> ModelResult:
    """A model result that asks for *tool_calls* and declares them in its memory items."""
    return ModelResult(memory_items=[declared(call) for call in tool_calls], tool_calls=tool_calls)


class ScriptedModel:
    """Answers with the scripted results in order, recording every prompt."""

    def __init__(self, *results: ModelResult | Exception) -> None:
        self.results = list(results)
        self.prompts: list[ModelPrompt] = []

    def create(self, prompt: ModelPrompt) -> ModelResult:
        self.prompts.append(prompt)
        result = self.results.pop(0)
        if isinstance(result, Exception):
            raise result
        return result


class Log:
    """Records events and lifecycle events in one sequence, as (kind, message, step)."""

    def __init__(self) -> None:
        self.events: list[AgentEvent] = []
        self.lifecycle: list[LifecycleEvent] = []
        self.sequence: list[tuple[str, str, int | None]] = []

    def listener(self, event: AgentEvent) -> None:
        self.events.append(event)
        self.sequence.append((event.type.value, event.message, event.step))

    def hook(self, event: LifecycleEvent) -> None:
        self.lifecycle.append(event)
        self.sequence.append((event.type.value, event.message, event.step))

    def of(self, kind: AgentEventType) -> list[AgentEvent]:
        return [event for event in self.events if event.type is kind]


class KeepLast:
    """A test policy: compacts when there are more than *threshold* items, keeping *keep*."""

    def __init__(self, *, threshold: int, keep: int = 1) -> None:
        self.threshold = threshold
        self.keep = keep
        self.compacted: list[MemorySnapshot] = []

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        return len(snapshot.items) > self.threshold

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        self.compacted.append(snapshot)
        dropped = len(snapshot.items) - self.keep
        summary = f"summarized {dropped}"
        return CompactResult(
            memory=MemorySnapshot(items=snapshot.items[-self.keep :], summary=summary),
            summary=summary,
            completed=(f"{dropped} items",),
        )


def agent_with(model: ScriptedModel, log: Log | None = None, **options: object) -> Agent:
    log = log or Log()
    return Agent(
        model_client=model,
        event_listeners=[log.listener],
        lifecycle_hooks=[log.hook],
        **options,  # type: ignore[arg-type]  # the tests pass the fields they vary
    )


# -- the loop --------------------------------------------------------------------------------


def test_a_final_answer_ends_the_run_with_its_text() -> None:
    model = ScriptedModel(answer("done"))
    agent = agent_with(model, model_name="m-1", system_prompt="be brief")
    session = agent.new_session("s")
    assert session.run("hello") == "done"
    assert model.prompts == [
        ModelPrompt(model="m-1", system_prompt="be brief", items=[user("hello")])
    ]
    assert session.memory.get_items() == [user("hello"), {"role": "assistant", "text": "done"}]


def test_a_final_answer_without_text_returns_none() -> None:
    session = agent_with(ScriptedModel(ModelResult())).new_session("s")
    assert session.run("hello") is None


def test_run_without_input_adds_nothing_first() -> None:
    model = ScriptedModel(answer("again"))
    session = agent_with(model).new_session("s")
    session.memory.add_output_items(["earlier"])
    assert session.run() == "again"
    assert model.prompts[0].items == ("earlier",)


def test_tools_run_and_their_outputs_reach_the_next_prompt() -> None:
    received: list[str] = []

    def echo(arguments: str) -> str:
        received.append(arguments)
        return f"echo {arguments}"

    model = ScriptedModel(
        calls(ToolCall(call_id="c1", name="echo", arguments='{"x":1}')), answer("done")
    )
    session = agent_with(model, tools={"echo": echo}).new_session("s")
    assert session.run("go") == "done"
    assert received == ['{"x":1}']
    assert model.prompts[1].items == (
        user("go"),
        declared(ToolCall(call_id="c1", name="echo", arguments='{"x":1}')),
        tool_output("c1", 'echo {"x":1}'),
    )


def test_failing_and_unknown_tools_become_error_outputs_and_the_run_goes_on() -> None:
    def broken(arguments: str) -> str:
        raise ValueError(f"bad arguments {arguments}")

    def not_text(arguments: str) -> str:
        del arguments
        return 42  # type: ignore[return-value]  # a broken tool, on purpose

    model = ScriptedModel(
        calls(
            ToolCall(call_id="c1", name="missing", arguments="{}"),
            ToolCall(call_id="c2", name="broken", arguments="[1]"),
            ToolCall(call_id="c3", name="not_text", arguments="{}"),
        ),
        answer("recovered"),
    )
    session = agent_with(model, tools={"broken": broken, "not_text": not_text}).new_session("s")
    assert session.run("go") == "recovered"
    assert model.prompts[1].items[4:] == (
        tool_output("c1", "Error: unknown tool: missing"),
        tool_output("c2", "Error: tool broken failed: bad arguments [1]"),
        tool_output("c3", "Error: tool not_text failed: Expected a str result but got int"),
    )
    assert UNKNOWN_TOOL_OUTPUT.format(name="missing") == "Error: unknown tool: missing"
    assert TOOL_FAILED_OUTPUT.startswith("Error: tool ")


def test_a_blank_call_id_is_replaced_by_step_and_index() -> None:
    model = ScriptedModel(
        calls(ToolCall(call_id="c", name="t", arguments="")),
        calls(
            ToolCall(call_id="keep", name="t", arguments=""),
            ToolCall(call_id=" ", name="t", arguments=""),
        ),
        answer("done"),
    )
    session = agent_with(model, tools={"t": lambda _: "ok"}).new_session("s")
    session.run("go")
    items = session.memory.get_items()
    outputs = [item for item in items if isinstance(item, dict) and "output" in item]
    assert [item["call_id"] for item in outputs] == ["c", "keep", "tool_step_1_1"]
    # The call in memory gets the same id, so its output is not an orphan (RUN-7).
    declared_ids = [call.call_id for item in items for call in tool_calls(item)]
    assert declared_ids == ["c", "keep", "tool_step_1_1"]
    assert wire_problems(items, "openai-responses") == ()


def item_type(item: JsonValue) -> JsonValue:
    return item.get("type") if isinstance(item, dict) else None


@pytest.mark.parametrize(
    "memory_item",
    [
        {"type": "function_call", "name": "t", "arguments": ""},
        {"type": "message", "role": "assistant", "tool_calls": [{"id": "", "name": "t"}]},
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": "x"}, {"type": "tool_use", "name": "t"}],
        },
    ],
    ids=["responses", "chat", "anthropic"],
)
def test_the_generated_id_reaches_the_call_in_every_shape(memory_item: JsonObject) -> None:
    result = ModelResult(
        memory_items=[memory_item], tool_calls=[ToolCall(call_id="", name="t", arguments="")]
    )
    session = agent_with(ScriptedModel(result, answer("done")), tools={"t": lambda _: "ok"})
    run = session.new_session("s")
    run.run("go")
    items = run.memory.get_items()
    call = items[1]
    assert [found.call_id for found in tool_calls(call)] == ["tool_step_0_0"]
    assert items[2] == tool_output("tool_step_0_0", "ok")
    assert pairing(items).orphans() == ()
    assert "call_id" not in memory_item  # the model's item is copied, never changed
    assert "tool_step" not in compact_json(memory_item)


def test_a_call_the_memory_items_do_not_declare_gets_an_item_of_its_own() -> None:
    # A model client that reports tool calls but no item for them would leave every output
    # an orphan; the runtime declares the call itself, after the client's items.
    result = ModelResult(
        memory_items=[{"role": "assistant", "text": "on it"}],
        tool_calls=[
            ToolCall(call_id="c1", name="t", arguments='{"a":1}'),
            ToolCall(call_id="", name="t", arguments=""),
        ],
    )
    session = agent_with(ScriptedModel(result, answer("done")), tools={"t": lambda _: "ok"})
    run = session.new_session("s")
    run.run("go")
    assert run.memory.get_items()[1:6] == [
        {"role": "assistant", "text": "on it"},
        {"type": "function_call", "call_id": "c1", "name": "t", "arguments": '{"a":1}'},
        {"type": "function_call", "call_id": "tool_step_0_1", "name": "t", "arguments": ""},
        tool_output("c1", "ok"),
        tool_output("tool_step_0_1", "ok"),
    ]


def test_max_steps_stops_a_model_that_never_answers() -> None:
    forever = [calls(ToolCall(call_id=f"c{n}", name="t", arguments="")) for n in range(3)]
    log = Log()
    session = agent_with(
        ScriptedModel(*forever), log, tools={"t": lambda _: "ok"}, max_steps=3
    ).new_session("s")
    with pytest.raises(MaxStepsExceededError, match=r"within 3 step\(s\).*at step 2"):
        session.run("go")
    assert [event.message for event in log.of(E.ERROR)] == ["max steps exceeded"]
    assert log.sequence[-1] == ("SESSION_END", "", None)
    # The last step's tool output is a fact and stays in memory.
    assert session.memory.get_items()[-1] == tool_output("c2", "ok")


@pytest.mark.parametrize("max_steps", [0, -1, True])
def test_max_steps_must_be_positive(max_steps: int) -> None:
    with pytest.raises(InvalidValueError, match="max_steps"):
        Agent(model_client=ScriptedModel(), max_steps=max_steps)


def test_the_default_max_steps() -> None:
    assert Agent(model_client=ScriptedModel()).max_steps == DEFAULT_MAX_STEPS == 32


def test_a_model_error_is_published_then_propagates() -> None:
    log = Log()
    failure = ConnectionError("model down")
    session = agent_with(ScriptedModel(failure), log).new_session("s")
    with pytest.raises(ConnectionError, match="model down"):
        session.run("hello")
    errors = log.of(E.ERROR)
    assert [(event.message, event.payload) for event in errors] == [(MODEL_FAILED_MESSAGE, failure)]
    assert log.sequence[-1] == ("SESSION_END", "", None)
    assert session.memory.get_items() == [user("hello")]


def test_a_model_result_of_the_wrong_type_is_an_error() -> None:
    broken = ScriptedModel(None)  # type: ignore[arg-type]  # a broken client, on purpose
    session = agent_with(broken).new_session("s")
    with pytest.raises(
        RuntimeResultError, match="Expected the model client to return a ModelResult"
    ):
        session.run("hello")


# -- events ----------------------------------------------------------------------------------


def test_the_order_of_events_and_lifecycle_events() -> None:
    log = Log()
    model = ScriptedModel(calls(ToolCall(call_id="c1", name="t", arguments="")), answer("done"))
    agent = agent_with(
        model,
        log,
        tools={"t": lambda _: "ok"},
        projector=DefaultContextProjector(),
        compact_policy=KeepLast(threshold=2, keep=2),
    )
    agent.new_session("s").run("go")
    assert log.sequence == [
        ("SESSION_START", "", None),
        ("STEP_START", "", 0),
        ("BEFORE_TURN", "", 0),
        ("MEMORY_COMPRESS", "context projection", 0),
        ("BEFORE_MODEL_REQUEST", "", 0),
        ("AFTER_MODEL_RESPONSE", "", 0),
        ("BEFORE_TOOL_CALL", "t", 0),
        ("TOOL_CALL", "t", 0),
        ("TOOL_RESULT", "t", 0),
        ("AFTER_TOOL_CALL", "t", 0),
        ("AFTER_TURN", "", 0),
        ("STEP_END", "", 0),
        ("BEFORE_COMPACT", "auto", 1),
        ("MEMORY_COMPRESS", "compacted", 1),
        ("ON_COMPACT", "auto", 1),
        ("STEP_START", "", 1),
        ("BEFORE_TURN", "", 1),
        ("MEMORY_COMPRESS", "context projection", 1),
        ("BEFORE_MODEL_REQUEST", "", 1),
        ("AFTER_MODEL_RESPONSE", "", 1),
        ("FINAL_OUTPUT", "done", 1),
        ("AFTER_TURN", "", 1),
        ("STEP_END", "", 1),
        ("SESSION_END", "", None),
    ]
    assert {event.session_id for event in log.events} == {"s"}
    assert {event.session_id for event in log.lifecycle} == {"s"}


def test_lifecycle_payloads() -> None:
    log = Log()
    model = ScriptedModel(calls(ToolCall(call_id="c1", name="t", arguments="a")), answer("done"))
    agent_with(model, log, tools={"t": lambda _: "ok"}).new_session("s").run("go")
    payloads = {event.type: event.payload for event in log.lifecycle}
    assert payloads[L.SESSION_START] == "go"
    assert payloads[L.SESSION_END] == "done"
    assert payloads[L.BEFORE_MODEL_REQUEST] == model.prompts[1]
    assert payloads[L.AFTER_MODEL_RESPONSE] == answer("done")
    assert payloads[L.BEFORE_TOOL_CALL] == ToolCall(call_id="c1", name="t", arguments="a")
    assert payloads[L.AFTER_TOOL_CALL] == "ok"
    final = log.of(E.FINAL_OUTPUT)
    assert [(event.message, event.payload) for event in final] == [("done", "done")]


def test_a_failing_hook_is_reported_and_the_others_still_run() -> None:
    log = Log()
    seen: list[LifecycleEventType] = []

    def fragile(event: LifecycleEvent) -> None:
        raise RuntimeError(f"hook broke on {event.type.value}")

    model = ScriptedModel(answer("done"))
    agent = Agent(
        model_client=model,
        event_listeners=[log.listener],
        lifecycle_hooks=[fragile, lambda event: seen.append(event.type)],
    )
    assert agent.new_session("s").run("go") == "done"
    errors = log.of(E.ERROR)
    name = "test_a_failing_hook_is_reported_and_the_others_still_run.<locals>.fragile"
    assert {event.message for event in errors} == {f"lifecycle hook failed: {name}"}
    assert HOOK_FAILED_MESSAGE.format(name="h") == "lifecycle hook failed: h"
    assert len(errors) == len(seen) == 6
    assert isinstance(errors[0].payload, RuntimeError)


def test_a_failing_listener_is_reported_once_without_recursion() -> None:
    delivered: list[tuple[str, str]] = []

    class Grumpy:
        def __init__(self) -> None:
            self.received: list[AgentEventType] = []

        def __call__(self, event: AgentEvent) -> None:
            self.received.append(event.type)
            raise RuntimeError(event.message)

    grumpy = Grumpy()

    def recorder(event: AgentEvent) -> None:
        delivered.append((event.type.value, event.message))

    agent = Agent(model_client=ScriptedModel(answer("done")), event_listeners=[grumpy, recorder])
    assert agent.new_session("s").run("go") == "done"
    assert delivered == [
        ("ERROR", "event listener failed: Grumpy"),
        ("STEP_START", ""),
        ("ERROR", "event listener failed: Grumpy"),
        ("FINAL_OUTPUT", "done"),
        ("ERROR", "event listener failed: Grumpy"),
        ("STEP_END", ""),
    ]
    assert LISTENER_FAILED_MESSAGE == "event listener failed: {name}"
    # The failing listener is not sent the report of its own failure.
    assert grumpy.received == [E.STEP_START, E.FINAL_OUTPUT, E.STEP_END]


def test_observers_cannot_change_the_prompt_or_the_memory() -> None:
    def vandal(event: LifecycleEvent) -> None:
        payload = event.payload
        if isinstance(payload, ModelPrompt):
            first = payload.items[0]
            assert isinstance(first, dict)
            first["role"] = "vandalized"
        if isinstance(payload, ModelResult):
            item = payload.memory_items[0]
            assert isinstance(item, dict)
            item["text"] = "vandalized"

    model = ScriptedModel(answer("done"))
    session = Agent(model_client=model, lifecycle_hooks=[vandal]).new_session("s")
    session.run("go")
    assert model.prompts[0].items == (user("go"),)
    assert session.memory.get_items() == [user("go"), {"role": "assistant", "text": "done"}]


# -- projection ------------------------------------------------------------------------------


class RecordingProjector:
    """Keeps the last item only, recording what it was given."""

    def __init__(self) -> None:
        self.given: list[tuple[list[JsonValue], ContextBudget | None]] = []

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        self.given.append((list(items), budget))
        report = ContextReport(
            source_item_count=len(items),
            projected_item_count=1,
            dropped_item_count=len(items) - 1,
            source_approx_chars=0,
            projected_approx_chars=0,
            item_limit_applied=len(items) > 1,
            character_limit_applied=False,
        )
        return ContextProjection(items=list(items)[-1:], report=report)


def test_the_projector_builds_the_prompt_from_get_items_and_the_budget() -> None:
    log = Log()
    projector = RecordingProjector()
    budget = ContextBudget(max_items=1)
    model = ScriptedModel(answer("done"))
    session = agent_with(model, log, projector=projector, budget=budget).new_session("s")
    session.memory.set_summary("earlier")
    session.run("go")
    assert projector.given == [([system("earlier"), user("go")], budget)]
    assert model.prompts[0].items == (user("go"),)
    reports = [event.payload for event in log.of(E.MEMORY_COMPRESS)]
    assert len(reports) == 1
    assert isinstance(reports[0], ContextReport)
    assert reports[0].dropped_item_count == 1
    assert session.memory.get_items()[:2] == [system("earlier"), user("go")]


def test_a_budget_without_a_projector_changes_nothing() -> None:
    log = Log()
    model = ScriptedModel(answer("done"))
    session = agent_with(model, log, budget=ContextBudget(max_items=0)).new_session("s")
    session.run("go")
    assert model.prompts[0].items == (user("go"),)
    assert log.of(E.MEMORY_COMPRESS) == []


def test_with_the_reference_projector() -> None:
    model = ScriptedModel(answer("done"))
    session = agent_with(
        model,
        projector=DefaultContextProjector(),
        budget=ContextBudget(max_items=2, pinned_prefix_items=1),
    ).new_session("s")
    session.memory.add_output_items(["first", "middle", "last"])
    session.run("go")
    assert model.prompts[0].items == ("first", user("go"))


# -- auto-compaction -------------------------------------------------------------------------


def test_auto_compaction_runs_at_step_zero_before_the_model_call() -> None:
    log = Log()
    policy = KeepLast(threshold=2, keep=1)
    model = ScriptedModel(answer("done"))
    session = agent_with(model, log, compact_policy=policy).new_session("s")
    session.memory.add_output_items(["a", "b"])
    assert session.run("go") == "done"
    assert policy.compacted == [MemorySnapshot(items=("a", "b", user("go")))]
    assert model.prompts[0].items == (system("summarized 2"), user("go"))
    result = session.last_compact_result
    assert result is not None
    assert result.completed == ("2 items",)
    compacted = [event for event in log.of(E.MEMORY_COMPRESS) if event.message == COMPACTED_MESSAGE]
    assert [event.payload for event in compacted] == [result]
    before = [event for event in log.lifecycle if event.type is L.BEFORE_COMPACT]
    assert [event.payload for event in before] == [policy.compacted[0]]


def test_auto_compaction_is_checked_at_every_step() -> None:
    policy = KeepLast(threshold=3, keep=1)
    model = ScriptedModel(
        calls(ToolCall(call_id="c1", name="t", arguments="")),
        calls(ToolCall(call_id="c2", name="t", arguments="")),
        answer("done"),
    )
    session = agent_with(model, compact_policy=policy, tools={"t": lambda _: "ok"}).new_session("s")
    session.run("go")
    # Step 0 sees 1 item, step 1 sees 3, step 2 sees 5: only step 2 compacts.
    assert [len(snapshot.items) for snapshot in policy.compacted] == [5]
    assert model.prompts[2].items == (system("summarized 4"), tool_output("c2", "ok"))


def test_without_a_decision_to_compact_nothing_happens() -> None:
    log = Log()
    session = agent_with(
        ScriptedModel(answer("done")), log, compact_policy=KeepLast(threshold=99)
    ).new_session("s")
    session.run("go")
    assert session.last_compact_result is None
    assert not any(event.type in {L.BEFORE_COMPACT, L.ON_COMPACT} for event in log.lifecycle)


class Raising(KeepLast):
    def __init__(self, where: str) -> None:
        super().__init__(threshold=0)
        self.where = where

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        if self.where == "should_compact":
            raise RuntimeError("decision failed")
        if self.where == "not a bool":
            return "yes"  # type: ignore[return-value]  # a broken policy, on purpose
        return super().should_compact(snapshot)

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        if self.where == "compact":
            raise RuntimeError("compaction failed")
        if self.where == "no result":
            return None  # type: ignore[return-value]  # a broken policy, on purpose
        return super().compact(snapshot)


class FlakyMemory(InMemoryAgentMemory):
    """Fails on chosen calls; a failing restore first wipes the memory, like a half write."""

    def __init__(self, *, fail_snapshot: bool = False, failing_restores: int = 0) -> None:
        super().__init__()
        self.fail_snapshot = fail_snapshot
        self.failing_restores = failing_restores
        self.armed = False

    def snapshot(self) -> MemorySnapshot:
        if self.fail_snapshot and self.armed:
            raise OSError("snapshot failed")
        return super().snapshot()

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        if self.armed and self.failing_restores > 0:
            self.failing_restores -= 1
            self.clear()
            raise OSError("restore failed halfway")
        super().restore(snapshot)


@pytest.mark.parametrize("where", ["should_compact", "not a bool", "compact", "no result"])
def test_a_failing_policy_leaves_memory_untouched_and_the_run_goes_on(where: str) -> None:
    log = Log()
    model = ScriptedModel(answer("done"))
    session = agent_with(model, log, compact_policy=Raising(where)).new_session("s")
    session.memory.restore(MemorySnapshot(items=("a",), summary="kept"))
    assert session.run("go") == "done"
    assert model.prompts[0].items == (system("kept"), "a", user("go"))
    failed = log.of(E.COMPACT_FAILED)
    assert [event.message for event in failed] == [COMPACT_FAILED_MESSAGE]
    assert isinstance(failed[0].payload, Exception)
    assert session.last_compact_result is None
    assert not any(event.type is L.ON_COMPACT for event in log.lifecycle)


@pytest.mark.parametrize(
    "memory_options",
    [{"fail_snapshot": True}, {"failing_restores": 1}],
    ids=["snapshot", "restore"],
)
def test_a_failing_memory_call_during_compaction_leaves_memory_untouched(
    memory_options: dict[str, bool | int],
) -> None:
    log = Log()
    memory = FlakyMemory(**memory_options)  # type: ignore[arg-type]
    memory.restore(MemorySnapshot(items=("a",), summary="kept"))
    memory.armed = True
    model = ScriptedModel(answer("done"))
    agent = agent_with(
        model, log, compact_policy=KeepLast(threshold=0), memory_factory=lambda _: memory
    )
    session = agent.new_session("s")
    assert session.run("go") == "done"
    memory.armed = False
    assert model.prompts[0].items == (system("kept"), "a", user("go"))
    assert [event.message for event in log.of(E.COMPACT_FAILED)] == [COMPACT_FAILED_MESSAGE]
    assert session.last_compact_result is None


def test_a_failed_rollback_is_never_swallowed() -> None:
    memory = FlakyMemory(failing_restores=2)
    memory.add_output_items(["a"])
    memory.armed = True
    agent = agent_with(
        ScriptedModel(answer("unused")),
        compact_policy=KeepLast(threshold=0),
        memory_factory=lambda _: memory,
    )
    with pytest.raises(MemoryRollbackError, match="restore raised OSError") as raised:
        agent.new_session("s").run("go")
    assert isinstance(raised.value.__cause__, OSError)


def test_a_hook_cannot_change_what_is_compacted() -> None:
    def vandal(event: LifecycleEvent) -> None:
        if isinstance(event.payload, MemorySnapshot):
            first = event.payload.items[0]
            assert isinstance(first, dict)
            first["vandalized"] = True

    policy = KeepLast(threshold=0, keep=5)
    session = Agent(
        model_client=ScriptedModel(answer("done")), compact_policy=policy, lifecycle_hooks=[vandal]
    ).new_session("s")
    session.memory.add_output_items([{"k": 1}])
    session.run("go")
    assert policy.compacted[0].items[0] == {"k": 1}
    assert session.memory.snapshot().items[0] == {"k": 1}


def test_event_payloads_are_copies_of_the_session_state() -> None:
    def vandal(event: AgentEvent) -> None:
        if isinstance(event.payload, CompactResult) and event.payload.memory is not None:
            item = event.payload.memory.items[0]
            assert isinstance(item, dict)
            item["vandalized"] = True

    session = Agent(
        model_client=ScriptedModel(answer("done")),
        compact_policy=KeepLast(threshold=0, keep=5),
        event_listeners=[vandal],
    ).new_session("s")
    session.memory.add_output_items([{"k": 1}])
    session.run("go")
    result = session.last_compact_result
    assert result is not None
    assert result.memory is not None
    assert result.memory.items[0] == {"k": 1}


# -- manual compaction -----------------------------------------------------------------------


def test_manual_compaction_is_unconditional_and_fires_the_same_sequence() -> None:
    log = Log()
    policy = KeepLast(threshold=99, keep=1)
    session = agent_with(ScriptedModel(), log).new_session("s")
    session.memory.add_output_items(["a", "b", "c"])
    result = session.compact(policy)
    assert result.summary == "summarized 2"
    assert session.memory.snapshot() == MemorySnapshot(items=("c",), summary="summarized 2")
    assert session.last_compact_result == result
    assert log.sequence == [
        ("BEFORE_COMPACT", "manual", None),
        ("MEMORY_COMPRESS", "compacted", None),
        ("ON_COMPACT", "manual", None),
    ]


def test_a_manual_compaction_without_memory_keeps_the_memory() -> None:
    class ReportOnly:
        def should_compact(self, snapshot: MemorySnapshot) -> bool:
            return not snapshot.items

        def compact(self, snapshot: MemorySnapshot) -> CompactResult:
            return CompactResult(summary=f"{len(snapshot.items)} items")

    session = agent_with(ScriptedModel()).new_session("s")
    session.memory.add_output_items(["a"])
    assert session.compact(ReportOnly()) == CompactResult(summary="1 items")
    assert session.memory.snapshot().items == ("a",)


@pytest.mark.parametrize("where", ["compact", "no result"])
def test_manual_compaction_propagates_errors_with_memory_untouched(where: str) -> None:
    log = Log()
    session = agent_with(ScriptedModel(), log).new_session("s")
    session.memory.restore(MemorySnapshot(items=("a",), summary="kept"))
    with pytest.raises((RuntimeError, RuntimeResultError)) as raised:
        session.compact(Raising(where))
    assert session.memory.snapshot() == MemorySnapshot(items=("a",), summary="kept")
    assert session.last_compact_result is None
    assert log.sequence == [
        ("BEFORE_COMPACT", "manual", None),
        ("COMPACT_FAILED", "compaction failed", None),
    ]
    assert log.of(E.COMPACT_FAILED)[0].payload is raised.value


def test_manual_compaction_needs_a_policy() -> None:
    log = Log()
    session = agent_with(ScriptedModel(), log).new_session("s")
    with pytest.raises(InvalidValueError, match=r"AgentSession\.policy"):
        session.compact(None)  # type: ignore[arg-type]  # on purpose
    assert log.sequence == []


def test_manual_compaction_rolls_back_a_half_restore_then_propagates() -> None:
    memory = FlakyMemory(failing_restores=1)
    memory.restore(MemorySnapshot(items=("a", "b"), summary="kept"))
    memory.armed = True
    session = agent_with(ScriptedModel(), memory_factory=lambda _: memory).new_session("s")
    with pytest.raises(OSError, match="restore failed halfway"):
        session.compact(KeepLast(threshold=0))
    assert memory.snapshot() == MemorySnapshot(items=("a", "b"), summary="kept")


def test_a_hook_cannot_change_the_user_input_through_its_payload() -> None:
    # EVT-7, JSON-16: SESSION_START carries a copy of the input, not the caller's object.
    def vandal(event: LifecycleEvent) -> None:
        if isinstance(event.payload, dict):
            event.payload["role"] = "system"

    model = ScriptedModel(answer("done"))
    agent = Agent(model_client=model, lifecycle_hooks=[vandal])
    session = agent.new_session("s")
    given: JsonValue = {"type": "message", "role": "user", "content": "hello"}
    session.run(given)
    assert given == {"type": "message", "role": "user", "content": "hello"}
    assert session.snapshot().memory.items[0] == given
