"""The protocol itself: its schemas, the reference's server side, and spec/HARNESS.md's exchange."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from ctxpact.conformance.harness import schema_name
from ctxpact.reference.harness import (
    Harness,
    ScriptedModel,
    ScriptedModelError,
    ServedTarget,
    encode,
    reference_harness,
    reference_targets,
    serve,
)
from ctxpact.spec import (
    JsonObject,
    JsonValue,
    ModelPrompt,
    load_schema,
    schema_names,
    validate,
    violations,
)

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = (
    "start",
    "project",
    "parse_summary",
    "should_compact",
    "compact",
    "memory_new",
    "memory_call",
    "memory_drop",
    "store_new",
    "store_call",
    "store_drop",
    "memory_open",
    "store_open",
    "approx_chars",
    "turn_boundary_cut",
    "extract_file_operations",
    "render_summary",
    "runtime_new",
    "runtime_call",
    "runtime_drop",
    "compressor_new",
    "compressor_call",
    "compressor_drop",
    "stop",
)
HARNESS_SCHEMAS = [name for name in schema_names() if name.startswith("harness/")]
#: The parts that the messages share by reference (JSON-19), rather than messages of their own.
PARTS = {
    "harness/created",
    "harness/errored-outcome",
    "harness/raised-outcome",
    "harness/scripted-model",
    "harness/skipped-outcome",
    "harness/target-options",
}
SNAPSHOT: JsonObject = {"items": ["u1", "a1", "u2", "a2", "u3", "a3"], "summary": None}
LLM: JsonObject = {"kind": "llm", "maxItems": 4}


def test_every_command_has_a_request_and_a_response_schema_and_nothing_else() -> None:
    expected = {schema_name(c, d) for c in COMMANDS for d in ("request", "response")}
    assert set(HARNESS_SCHEMAS) - PARTS == {*expected, "harness/call", "harness/reply"}
    assert set(HARNESS_SCHEMAS) >= PARTS


@pytest.mark.parametrize("name", HARNESS_SCHEMAS)
def test_the_examples_are_valid(name: str) -> None:
    examples: list[Any] = load_schema(name)["examples"]  # type: ignore[assignment]
    for instance in examples:
        validate(instance, name)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_response_has_exactly_one_outcome(command: str) -> None:
    name = schema_name(command, "response")
    skipped: JsonObject = {"reason": "no"}
    errored: JsonObject = {"message": "boom"}
    assert not violations({"seq": 1, "skipped": skipped}, name)
    assert not violations({"seq": "x", "errored": errored}, name)
    assert violations({"seq": 1}, name)
    assert violations({"seq": 1, "skipped": skipped, "errored": errored}, name)
    assert violations({"skipped": skipped, "errored": errored}, name)
    assert violations({"seq": 1, "skipped": skipped, "note": 1}, name)
    assert violations({"seq": 1, "skipped": skipped, "result": None}, name)
    assert violations({"seq": 1, "errored": errored, "result": None}, name)


def test_a_request_names_its_command() -> None:
    assert violations({"seq": 1, "cmd": "project", "version": 1}, "harness/start-request")
    assert not violations({"seq": [1, "a"], "cmd": "stop"}, "harness/stop-request")


# -- the reference's server side ------------------------------------------------------------


@pytest.fixture
def harness() -> Any:
    served = reference_harness()
    yield served
    served.close()


def answer(harness: Harness, request: JsonObject) -> JsonObject:
    """The response, after checking it against its command's schema."""
    response = harness.handle(request)
    command = str(request["cmd"])
    if command in COMMANDS:
        validate(request, schema_name(command, "request"))
        validate(response, schema_name(command, "response"))
    return response


def test_start_declares_every_reference_target(harness: Harness) -> None:
    result: Any = answer(harness, {"seq": 0, "cmd": "start", "version": 1})["result"]
    assert result["version"] == 1
    implementation = result["implementation"]
    assert implementation["name"] == "ctxpact.reference"
    assert implementation["language"] == "python"
    names = [target["name"] for target in implementation["targets"]]
    assert names == [target.name for target in reference_targets(lambda: None)]  # type: ignore[arg-type,return-value]


def test_start_refuses_another_version(harness: Harness) -> None:
    response: Any = answer(harness, {"seq": 0, "cmd": "start", "version": 2})
    assert response["errored"]["message"] == (
        "HarnessRequestError: Expected protocol version 1 but got 2"
    )


def test_an_unknown_command_is_skipped_and_a_bad_request_errored(harness: Harness) -> None:
    assert harness.handle({"seq": 5, "cmd": "render"}) == {
        "seq": 5,
        "skipped": {"reason": "'render' is not implemented"},
    }
    bad: Any = harness.handle([1, 2])
    assert bad["seq"] is None
    assert bad["errored"]["message"].startswith("Expected a JSON object request")
    unknown: Any = answer(
        harness, {"seq": 6, "cmd": "project", "target": "Nope", "items": [], "budget": None}
    )
    assert "Expected a target among DefaultContextProjector" in unknown["errored"]["message"]
    assert "Traceback" in unknown["errored"]["traceback"]
    wrong: Any = answer(
        harness, {"seq": 7, "cmd": "parse_summary", "target": "LlmCompactPolicy", "text": ""}
    )
    assert (
        "parse_summary needs a summary-parser target but LlmCompactPolicy is a compact-policy"
        in (wrong["errored"]["message"])
    )


def test_compact_scripts_the_model_and_reports_every_prompt(harness: Harness) -> None:
    request: JsonObject = {
        "seq": 1,
        "cmd": "compact",
        "target": "LlmCompactPolicy",
        "policy": LLM,
        "snapshot": SNAPSHOT,
        "model": {"responses": []},
    }
    exhausted: Any = answer(harness, request)["result"]
    assert len(exhausted["prompts"]) == 1
    assert exhausted["result"]["summary"].startswith("Compaction summary unavailable")
    scripts: list[list[JsonValue]] = [[None], [{"error": "rate limited"}]]
    for responses in scripts:
        failed: Any = answer(harness, {**request, "model": {"responses": responses}})["result"]
        assert failed == exhausted
    answered: Any = answer(
        harness, {**request, "model": {"responses": [{"outputText": '{"goal": "ship"}'}]}}
    )["result"]
    assert answered["prompts"] == exhausted["prompts"]
    assert answered["result"]["summary"] == "## Goal\nship"
    assert answered["result"]["memory"]["items"] == ["u2", "a2", "u3", "a3"]


def test_should_compact_uses_the_policy_it_is_sent(harness: Harness) -> None:
    def should(policy: JsonObject, target: str) -> JsonValue:
        request: JsonObject = {
            "seq": 1,
            "cmd": "should_compact",
            "target": target,
            "policy": policy,
            "snapshot": SNAPSHOT,
        }
        return answer(harness, request)["result"]

    assert should({"kind": "llm", "maxItems": 6}, "LlmCompactPolicy") is False
    assert should({"kind": "llm", "maxItems": 5}, "LlmCompactPolicy") is True
    structured: JsonObject = {"kind": "structured", "budget": {"maxItems": 6}}
    assert should(structured, "StructuredSummaryCompactPolicy") is False
    assert should({"kind": "structured"}, "StructuredSummaryCompactPolicy") is False


def test_the_functions_target_answers_each_function_of_the_spec(harness: Harness) -> None:
    call: JsonObject = {
        "type": "function_call",
        "call_id": "c1",
        "name": "write_file",
        "arguments": '{"path": "src/app.py"}',
    }
    items: list[JsonValue] = ["u1", call, {"type": "message", "role": "user", "content": "x"}]
    requests: list[tuple[JsonObject, JsonValue]] = [
        ({"cmd": "approx_chars", "item": {"b": 1.0, "a": "\u00e9"}}, 17),
        ({"cmd": "turn_boundary_cut", "items": items, "naiveCut": 2}, 2),
        ({"cmd": "turn_boundary_cut", "items": items, "naiveCut": -3}, 0),
        ({"cmd": "extract_file_operations", "items": items, "reads": False}, ["src/app.py"]),
        ({"cmd": "extract_file_operations", "items": items, "reads": True}, []),
        (
            {"cmd": "render_summary", "summary": {"goal": "g", "parsed": True, "text": "{}"}},
            "## Goal\ng",
        ),
    ]
    for seq, (request, expected) in enumerate(requests):
        response = answer(harness, {"seq": seq, "target": "SpecFunctions", **request})
        assert response == {"seq": seq, "result": expected}, request
    wrong: Any = harness.handle(
        {"seq": 9, "cmd": "turn_boundary_cut", "target": "SpecFunctions", "items": []}
    )
    assert wrong["errored"]["message"] == (
        "HarnessRequestError: Expected a member 'naiveCut' in the turn_boundary_cut request"
    )


def test_the_scripted_model_answers_in_order_then_raises() -> None:
    model = ScriptedModel([{"outputText": "one"}, None, {"error": "two"}])
    prompt = ModelPrompt(model="m", system_prompt=None, items=())
    assert model.create(prompt).output_text == "one"
    assert model.create(prompt) is None
    with pytest.raises(ScriptedModelError, match=r"^two$"):
        model.create(prompt)
    with pytest.raises(ScriptedModelError, match="has 3 response"):
        model.create(prompt)
    assert len(model.prompts) == 4


@pytest.mark.parametrize("target", ["InMemoryAgentMemory", "SqliteAgentMemory"])
def test_a_memory_lives_behind_its_handle_until_dropped(harness: Harness, target: str) -> None:
    created: Any = answer(harness, {"seq": 1, "cmd": "memory_new", "target": target})
    handle = created["result"]["handle"]

    def call(method: str, *args: JsonValue) -> Any:
        request: JsonObject = {
            "seq": 2,
            "cmd": "memory_call",
            "handle": handle,
            "method": method,
            "args": list(args),
        }
        return answer(harness, request)

    assert call("add_user_input", "hi") == {"seq": 2, "result": None}
    assert call("add_tool_output", "c1", None)["result"] is None
    assert call("snapshot")["result"]["items"][1] == {
        "type": "function_call_output",
        "call_id": "c1",
        "output": None,
    }
    assert call("restore", {"items": ["x"], "summary": "s"})["result"] is None
    assert call("get_summary")["result"] == "s"
    assert "add_tool_output" in call("add_tool_output", "only one")["errored"]["message"]
    assert "errored" in call("add_output_items", "not a list")
    assert answer(harness, {"seq": 3, "cmd": "memory_drop", "handle": handle})["result"] is None
    assert "Expected a live memory handle" in call("clear")["errored"]["message"]


def test_a_store_saves_loads_and_lists_sessions(harness: Harness) -> None:
    created: Any = answer(harness, {"seq": 1, "cmd": "store_new", "target": "FileSessionStore"})
    handle = created["result"]["handle"]

    def call(method: str, *args: JsonValue) -> Any:
        request: JsonObject = {
            "seq": 2,
            "cmd": "store_call",
            "handle": handle,
            "method": method,
            "args": list(args),
        }
        return answer(harness, request)

    document: JsonObject = {"sessionId": "s1", "memory": SNAPSHOT, "compactResult": None}
    assert call("save", document)["result"] is None
    assert call("load", "s1")["result"] == document
    assert call("load", "s2")["result"] is None
    assert call("session_ids")["result"] == ["s1"]
    assert call("delete", "s1")["result"] is True
    assert "InvalidValueError" in call("load", "")["errored"]["message"]


def test_a_store_without_optional_methods_skips_them() -> None:
    class SaveLoadOnly:
        def save(self, snapshot: object) -> None: ...
        def load(self, session_id: str) -> None: ...

    harness = Harness(
        [
            ServedTarget(
                name="S", component="session-store", claims=("generic",), factory=SaveLoadOnly
            )
        ]
    )
    handle: Any = harness.handle({"seq": 1, "cmd": "store_new", "target": "S"})
    request: JsonObject = {
        "seq": 2,
        "cmd": "store_call",
        "handle": handle["result"]["handle"],
        "method": "delete",
        "args": ["s"],
    }
    assert harness.handle(request) == {
        "seq": 2,
        "skipped": {"reason": "SaveLoadOnly has no delete"},
    }


def test_serve_answers_line_by_line_and_exits_after_stop() -> None:
    lines = [
        b'{"seq":1,"cmd":"start","version":1}\n',
        b"not json\n",
        b'{"seq":2,"cmd":"stop"}\n',
        b'{"seq":3,"cmd":"start","version":1}\n',
    ]
    out = io.BytesIO()
    assert serve(reference_harness(), io.BytesIO(b"".join(lines)), out) == 0
    responses = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["seq"] for r in responses] == [1, None, 2]
    assert "Expected a JSON request line" in responses[1]["errored"]["message"]


def test_responses_are_ascii_lines_whatever_the_strings_hold() -> None:
    line = encode({"seq": 1, "result": "é\ud800\n"})
    assert line == b'{"seq":1,"result":"\\u00e9\\ud800\\n"}\n'
    assert b"errored" in encode({"seq": 1, "result": float("nan")})


def test_the_worked_exchange_of_harness_md_is_what_the_reference_answers() -> None:
    text = (ROOT / "spec" / "HARNESS.md").read_text(encoding="utf-8")
    section = text.split("## 9. A worked exchange", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert block is not None
    lines = block.group(1).splitlines()
    requests = [json.loads(line.removeprefix("→ ")) for line in lines if line.startswith("→ ")]
    responses = [json.loads(line.removeprefix("← ")) for line in lines if line.startswith("← ")]
    assert len(requests) == len(responses) > 5
    wanted = {"DefaultContextProjector", "LlmCompactPolicy", "InMemoryAgentMemory"}
    served = [t for t in reference_targets(lambda: None) if t.name in wanted]  # type: ignore[arg-type,return-value]
    harness = Harness(served, version="0.1.0")
    for request, response in zip(requests, responses, strict=True):
        assert answer(harness, request) == response, request["cmd"]


def test_harness_md_numbers_its_clauses_without_gaps_and_cites_only_those() -> None:
    text = (ROOT / "spec" / "HARNESS.md").read_text(encoding="utf-8")
    defined = [int(n) for n in re.findall(r"^- \*\*HRN-(\d+)\*\* ", text, re.MULTILINE)]
    assert defined == list(range(1, len(defined) + 1))
    server = (ROOT / "reference" / "ctxpact" / "reference" / "harness.py").read_text(
        encoding="utf-8"
    )
    cited = {int(n) for n in re.findall(r"\bHRN-(\d+)\b", text + server)}
    assert cited <= set(defined)
