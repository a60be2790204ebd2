"""Calls back to the suite (HRN-24 .. HRN-27): a runtime in the harness, its parts in the suite."""

from __future__ import annotations

import shlex
import sqlite3
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxpact.conformance import (
    Component,
    Outcome,
    RuntimeConfig,
    RuntimeEvent,
    check_target,
    profile_settings,
    run_check,
)
from ctxpact.conformance.checks import checks_for
from ctxpact.conformance.harness import (
    AgentMemoryProxy,
    HarnessConnection,
    HarnessLookupError,
    HarnessOperationError,
    HarnessProtocolError,
    HarnessSkippedError,
    HarnessStateError,
    HarnessValueError,
    HarnessWaitError,
    SessionStoreProxy,
    harness_targets,
)
from ctxpact.reference import InMemoryAgentMemory, InMemorySessionStore
from ctxpact.reference.harness import Harness, ServedTarget
from ctxpact.reference.session import MAX_STEPS_MESSAGE
from ctxpact.spec import (
    AgentMemory,
    AgentSessionSnapshot,
    CompactResult,
    JsonObject,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    ToolCall,
    to_json,
)

QUICK = profile_settings("quick")
REFERENCE = shlex.join([sys.executable, "-m", "ctxpact.reference.harness"])


@pytest.fixture(scope="module")
def reference() -> Iterator[HarnessConnection]:
    with HarnessConnection(REFERENCE, validate=True) as connection:
        yield connection


def runtime(connection: HarnessConnection) -> object:
    (target,) = [t for t in harness_targets(connection) if t.component is Component.RUNTIME]
    return target.factory


class Scripted:
    """A model that answers from a script, or raises what the script holds."""

    def __init__(self, *answers: ModelResult | Exception) -> None:
        self.answers = list(answers)
        self.prompts: list[ModelPrompt] = []

    def create(self, prompt: ModelPrompt) -> ModelResult:
        self.prompts.append(prompt)
        answer = self.answers[min(len(self.prompts), len(self.answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer


def memories() -> tuple[list[AgentMemory], object]:
    built: list[AgentMemory] = []

    def factory(_: str) -> AgentMemory:
        built.append(InMemoryAgentMemory())
        return built[-1]

    return built, factory


CALLING = ModelResult(tool_calls=(ToolCall(call_id="c1", name="echo", arguments="hi"),))
FINAL = ModelResult(output_text="done", memory_items=({"role": "assistant"},))


def test_the_agent_runs_in_the_harness_and_calls_the_suites_parts(
    reference: HarnessConnection,
) -> None:
    model = Scripted(CALLING, FINAL)
    built, factory = memories()
    events: list[RuntimeEvent] = []
    tool_calls: list[str] = []

    def echo(arguments: str) -> str:
        tool_calls.append(arguments)
        return f"echo:{arguments}"

    config = RuntimeConfig(
        model_client=model,
        memory_factory=factory,  # type: ignore[arg-type] # a memory factory
        model_name="scripted",
        tools={"echo": echo},
        event_listeners=(events.append,),
    )
    session = runtime(reference)(config)  # type: ignore[operator] # a runtime factory
    assert session.run("fix it") == "done"
    assert tool_calls == ["hi"]
    assert [prompt.model for prompt in model.prompts] == ["scripted", "scripted"]
    assert len(built) == 1
    assert built[0].get_items()[-1] == {"role": "assistant"}
    kinds = [event.type for event in events]
    assert kinds[0] == "STEP_START"
    assert "TOOL_CALL" in kinds
    assert kinds[-2:] == ["FINAL_OUTPUT", "STEP_END"]
    (call_event,) = [event for event in events if event.type == "TOOL_CALL"]
    assert call_event.payload == ToolCall(call_id="c1", name="echo", arguments="hi")
    assert {event.session_id for event in events} == {session.session_id}


def test_the_models_error_comes_back_as_the_very_same_exception(
    reference: HarnessConnection,
) -> None:
    failure = ConnectionError("the provider is down")
    events: list[RuntimeEvent] = []
    _, factory = memories()
    config = RuntimeConfig(
        model_client=Scripted(failure),
        memory_factory=factory,  # type: ignore[arg-type] # a memory factory
        event_listeners=(events.append,),
    )
    session = runtime(reference)(config)  # type: ignore[operator] # a runtime factory
    with pytest.raises(ConnectionError) as raised:
        session.run("go")
    assert raised.value is failure
    (error_event,) = [event for event in events if event.type == "ERROR"]
    assert error_event.payload is failure


def test_a_harness_error_keeps_its_kind_and_is_one_exception_wherever_reported(
    reference: HarnessConnection,
) -> None:
    events: list[RuntimeEvent] = []
    _, factory = memories()
    config = RuntimeConfig(
        model_client=Scripted(CALLING),
        memory_factory=factory,  # type: ignore[arg-type] # a memory factory
        tools={"echo": lambda arguments: arguments},
        event_listeners=(events.append,),
        max_steps=2,
    )
    session = runtime(reference)(config)  # type: ignore[operator] # a runtime factory
    with pytest.raises(HarnessStateError) as raised:
        session.run("never stop")
    assert isinstance(raised.value, RuntimeError)
    (error_event,) = [e for e in events if e.type == "ERROR" and e.message == MAX_STEPS_MESSAGE]
    assert error_event.payload is raised.value


def test_resuming_an_unknown_session_is_a_lookup_error_naming_it(
    reference: HarnessConnection,
) -> None:
    _, factory = memories()
    config = RuntimeConfig(
        model_client=Scripted(FINAL),
        memory_factory=factory,  # type: ignore[arg-type] # a memory factory
        session_store=InMemorySessionStore(),
        resume_session_id="nobody-here",
    )
    with pytest.raises(HarnessLookupError, match="nobody-here"):
        runtime(reference)(config)  # type: ignore[operator] # a runtime factory


# -- harnesses that call wrongly ---------------------------------------------------------


def script(tmp_path: Path, body: str) -> str:
    """A harness that answers start, then serves each other request with *body*."""
    path = tmp_path / "calling_harness.py"
    path.write_text(
        textwrap.dedent(
            """
            import json, sys
            START = {"version": 1, "implementation": {"name": "calling", "language": "python",
                "version": "", "homepage": "", "targets": [
                {"name": "p", "component": "projector", "claims": ["generic"]}]}}

            def send(message):
                sys.stdout.write(json.dumps(message) + "\\n")
                sys.stdout.flush()

            for line in sys.stdin:
                request = json.loads(line)
                seq = request["seq"]
                if request["cmd"] in ("start", "stop"):
                    send({"seq": seq, "result": START if request["cmd"] == "start" else None})
                    continue
            """
        )
        + textwrap.indent(textwrap.dedent(body), " " * 4),
        encoding="utf-8",
    )
    return shlex.join([sys.executable, str(path)])


def test_a_call_during_a_request_without_objects_is_answered_errored(tmp_path: Path) -> None:
    command = script(
        tmp_path,
        """
        send({"seq": seq, "call": {"id": 1, "object": "model-1", "method": "create", "args": []}})
        reply = json.loads(sys.stdin.readline())
        send({"seq": seq, "errored": {"message": json.dumps(reply)}})
        """,
    )
    with HarnessConnection(command, validate=True) as connection:
        with pytest.raises(HarnessOperationError) as raised:
            connection.request("project", {"target": "p", "items": [], "budget": None})
        assert '"cmd": "reply"' in raised.value.message
        assert "offers no object" in raised.value.message
        assert connection.starts == 1


def test_a_call_that_breaks_its_schema_is_a_fault_and_restarts_the_harness(
    tmp_path: Path,
) -> None:
    command = script(tmp_path, """send({"seq": seq, "call": {"id": "one"}})\n""")
    with HarnessConnection(command) as connection:
        with pytest.raises(HarnessProtocolError, match="harness/call"):
            connection.request("project", {"target": "p", "items": [], "budget": None})
        assert not connection.running


def test_the_runtime_checks_catch_a_wrong_runtime_across_the_boundary(tmp_path: Path) -> None:
    # A harness whose agent forgets every listener: the checks see no event at all.
    path = tmp_path / "deaf_runtime.py"
    path.write_text(
        textwrap.dedent(
            """
            import sys
            from ctxpact.reference import harness, _harness_runtime

            def without_listeners(caller, config, errors):
                return _harness_runtime.remote_session(
                    caller, {**config, "eventListeners": []}, errors)

            served = harness.reference_harness()
            served.targets["Agent"] = harness.ServedTarget(
                name="Agent", component="runtime", claims=("generic",),
                factory=without_listeners)
            sys.exit(harness.serve(served, sys.stdin.buffer, sys.stdout.buffer))
            """
        ),
        encoding="utf-8",
    )
    with HarnessConnection(shlex.join([sys.executable, str(path)])) as connection:
        (target,) = [t for t in harness_targets(connection) if t.component is Component.RUNTIME]
        (check,) = [c for c in checks_for(Component.RUNTIME) if c.id == "runtime.event-records"]
        result = run_check(check, factory=target.factory, claims=target.claims, settings=QUICK)
        assert result.outcome is Outcome.FAIL, result
        assert "event" in result.message
        report = check_target(target, profile="quick", keywords=("runtime.session-ids",))
        assert report.ok, report.failures


# -- memory compressors (HRN-28) ----------------------------------------------------------


def compressor(connection: HarnessConnection, name: str) -> object:
    (target,) = [t for t in harness_targets(connection) if t.name.endswith(f":{name}")]
    return target.factory


class FailingPolicy:
    """A policy of the suite whose compaction fails with its own error."""

    def __init__(self) -> None:
        self.error = OSError("the summarizer is gone")
        self.asked: list[MemorySnapshot] = []

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        del snapshot
        return False  # the adapter compacts anyway (CMP-6)

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        self.asked.append(snapshot)
        if len(self.asked) > 1:
            raise self.error
        return CompactResult(memory=MemorySnapshot(items=("kept",)), summary="s")


def test_a_compressor_in_the_harness_calls_the_suites_policy(
    reference: HarnessConnection,
) -> None:
    policy = FailingPolicy()
    built = compressor(reference, "CompactPolicyMemoryCompressor")(policy)  # type: ignore[operator] # a factory
    given = MemorySnapshot(items=("a", "b"), summary=None)
    assert built.compress(given) == MemorySnapshot(items=("kept",))
    assert policy.asked == [given]
    assert built.get_last_result() == CompactResult(
        memory=MemorySnapshot(items=("kept",)), summary="s"
    )
    with pytest.raises(OSError, match="summarizer is gone") as raised:
        built.compress(given)
    assert raised.value is policy.error


def test_a_refused_constructor_argument_is_a_value_error_naming_it(
    reference: HarnessConnection,
) -> None:
    windowed = compressor(reference, "WindowedMemoryCompressor")
    with pytest.raises(HarnessValueError, match="max_items"):
        windowed(0)  # type: ignore[operator] # a factory
    assert windowed(2).compress(MemorySnapshot(items=("a", "b", "c"))) == MemorySnapshot(  # type: ignore[operator] # a factory
        items=("b", "c")
    )


# -- stored state opened again (HRN-29) ---------------------------------------------------


def test_a_memory_opened_again_on_its_storage_sees_what_the_closed_one_left(
    reference: HarnessConnection, tmp_path: Path
) -> None:
    storage: JsonObject = {"address": str(tmp_path / "m.sqlite"), "sessionId": "s-1", "table": None}
    first = AgentMemoryProxy(reference, "SqliteAgentMemory", storage)
    first.add_output_items([{"z": 1, "a": 1.0}, 2**70, "\ud800"])
    first.set_summary("kept")
    left = first.snapshot()
    first.close()
    first.close()  # idempotent
    again = AgentMemoryProxy(reference, "SqliteAgentMemory", storage)
    assert to_json(again.snapshot()) == to_json(left)
    other = AgentMemoryProxy(reference, "SqliteAgentMemory", {**storage, "sessionId": "s-2"})
    assert other.snapshot() == MemorySnapshot()
    assert (tmp_path / "m.sqlite").is_file()


@pytest.mark.parametrize(
    ("target", "address"),
    [("SqliteSessionStore", "sessions.sqlite"), ("FileSessionStore", "sessions")],
)
def test_a_store_opened_again_on_its_storage_loads_what_was_saved(
    reference: HarnessConnection, tmp_path: Path, target: str, address: str
) -> None:
    storage: JsonObject = {"address": str(tmp_path / address), "table": None}
    snapshot = AgentSessionSnapshot(
        session_id="s-1", memory=MemorySnapshot(items=("a",), summary="s")
    )
    first = SessionStoreProxy(reference, target, storage)
    first.save(snapshot)
    first.close()
    again = SessionStoreProxy(reference, target, storage)
    assert again.load("s-1") == snapshot
    assert again.session_ids() == ["s-1"]


def test_a_target_that_keeps_nothing_skips_being_opened(reference: HarnessConnection) -> None:
    memory = AgentMemoryProxy(
        reference, "InMemoryAgentMemory", {"address": "/nowhere", "sessionId": "s", "table": None}
    )
    with pytest.raises(HarnessSkippedError, match="keeps nothing"):
        memory.get_items()


class FailingCompressor:
    """Keeps the newest item; raises its own error when told to."""

    def __init__(self) -> None:
        self.error: Exception | None = None
        self.seen: list[MemorySnapshot] = []

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        self.seen.append(snapshot)
        if self.error is not None:
            raise self.error
        return MemorySnapshot(items=snapshot.items[-1:], summary="compressed")


@pytest.mark.parametrize("target", ["InMemoryAgentMemory", "SqliteAgentMemory"])
def test_a_harness_memory_calls_the_suites_compressor_and_passes_its_error_on(
    reference: HarnessConnection, tmp_path: Path, target: str
) -> None:
    compressor = FailingCompressor()
    storage: JsonObject = {"address": str(tmp_path / "m.sqlite"), "sessionId": "s-1"}
    made = AgentMemoryProxy(reference, target)
    memory = (
        made.new_instance(storage, compressor)
        if target == "SqliteAgentMemory"
        else made.new_instance(compressor=compressor)
    )
    memory.add_user_input("a")
    memory.add_output_items(["b", "c"])
    assert memory.snapshot() == MemorySnapshot(items=("c",), summary="compressed")
    assert [len(seen.items) for seen in compressor.seen] == [1, 3]
    compressor.error = LookupError("the compressor's own")
    with pytest.raises(LookupError) as raised:
        memory.add_user_input("d")
    assert raised.value is compressor.error  # the same exception, not a copy (HRN-30)
    assert memory.snapshot() == MemorySnapshot(items=("c",), summary="compressed")  # MEM-6


def test_a_target_that_takes_no_compressor_skips_one() -> None:
    harness = Harness(
        [
            ServedTarget(
                name="Plain",
                component="agent-memory",
                claims=("generic",),
                factory=InMemoryAgentMemory,
            )
        ]
    )
    request: JsonObject = {"seq": 1, "cmd": "memory_new", "target": "Plain"}
    assert "result" in harness.handle(request)
    skipped = harness.handle({**request, "compressor": "compressor-1"})
    assert skipped == {"seq": 1, "skipped": {"reason": "Plain takes no compressor"}}


def test_a_locked_database_is_a_timeout_error_naming_it(
    reference: HarnessConnection, tmp_path: Path
) -> None:
    path = tmp_path / "locked.sqlite"
    storage: JsonObject = {"address": str(path), "sessionId": "s-1", "busyTimeout": 0.05}
    memory = AgentMemoryProxy(reference, "SqliteAgentMemory").new_instance(storage)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(HarnessWaitError) as raised:
            memory.add_user_input("while locked")
    finally:
        holder.close()
    assert isinstance(raised.value, TimeoutError)
    assert str(path) in raised.value.message  # the harness's own message names it (MEM-21)
    memory.add_user_input("after")
    assert len(memory.get_items()) == 1  # the add that timed out left nothing (MEM-17)


def test_a_refused_storage_is_raised_when_the_instance_is_made(
    reference: HarnessConnection, tmp_path: Path
) -> None:
    made = AgentMemoryProxy(reference, "SqliteAgentMemory")
    refused: list[JsonObject] = [
        {"address": str(tmp_path / "m.sqlite"), "sessionId": "s-1", "table": "a-b"},
        {"address": str(tmp_path / "m.sqlite"), "sessionId": " "},
    ]
    for storage in refused:
        with pytest.raises(HarnessOperationError):
            made.new_instance(storage)
    assert not (tmp_path / "m.sqlite").exists()  # refused before the database was touched


def test_a_harness_that_calls_without_end_is_stopped_at_max_calls(tmp_path: Path) -> None:
    command = script(
        tmp_path,
        """
        while True:
            send({"seq": seq, "call": {"id": 1, "object": "x", "method": "y", "args": []}})
            sys.stdin.readline()
        """,
    )
    with HarnessConnection(command, max_calls=5) as connection:
        with pytest.raises(HarnessProtocolError, match="more than 5 calls"):
            connection.request("project", {"target": "p", "items": [], "budget": None})
        assert not connection.running
    with pytest.raises(ValueError, match="calls of 0 or more"):
        HarnessConnection(command, max_calls=-1)


def test_a_part_that_answers_no_json_is_its_error_and_the_stream_stays_in_step(
    reference: HarnessConnection,
) -> None:
    _, factory = memories()
    outputs: list[RuntimeEvent] = []
    config = RuntimeConfig(
        model_client=Scripted(CALLING, FINAL),
        memory_factory=factory,  # type: ignore[arg-type] # a memory factory
        tools={"echo": lambda _: object()},  # type: ignore[dict-item,return-value] # on purpose
        event_listeners=(outputs.append,),
    )
    session = runtime(reference)(config)  # type: ignore[operator] # a runtime factory
    assert session.run("go") == "done"
    (result,) = [event for event in outputs if event.type == "TOOL_RESULT"]
    assert "echo" in str(result.payload)
    starts = reference.starts
    assert session.session_id
    assert reference.starts == starts


def test_a_part_may_not_use_the_harness_that_calls_it(reference: HarnessConnection) -> None:
    (projector,) = [
        t for t in harness_targets(reference) if t.name.endswith(":DefaultContextProjector")
    ]
    _, factory = memories()
    config = RuntimeConfig(
        model_client=Scripted(FINAL),
        memory_factory=factory,  # type: ignore[arg-type] # a memory factory
        projector=projector.factory(),
    )
    session = runtime(reference)(config)  # type: ignore[operator] # a runtime factory
    with pytest.raises(RuntimeError, match="must not use the same harness") as raised:
        session.run("go")
    assert isinstance(raised.value.__cause__ or raised.value, RuntimeError)
    assert session.session_id  # still in step
