"""LlmCompactPolicy: the summary request, outcome handling and cumulative files (LLM-n)."""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from typing import cast

import pytest

from ctxpact.reference.compaction import (
    DEFAULT_MAX_ITEMS,
    SUMMARIZER_SYSTEM_PROMPT,
    LlmCompactPolicy,
    read_file_sections,
)
from ctxpact.spec import (
    CompactPolicy as CompactPolicyProtocol,
)
from ctxpact.spec import (
    CompactResult,
    InvalidValueError,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
)

Answer = ModelResult | BaseException | None


class ScriptedModel:
    """A model client that records every prompt and answers from a script, in order."""

    def __init__(self, *answers: Answer) -> None:
        self.answers = list(answers)
        self.prompts: list[ModelPrompt] = []

    def create(self, prompt: ModelPrompt) -> ModelResult:
        self.prompts.append(prompt)
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        # A misbehaving client may answer None; the policy must cope.
        return cast("ModelResult", answer)

    def user_content(self, index: int = -1) -> str:
        (item,) = self.prompts[index].items
        assert isinstance(item, dict)
        content = item["content"]
        assert isinstance(content, list)
        part = content[0]
        assert isinstance(part, dict)
        text = part["text"]
        assert isinstance(text, str)
        return text


def said(text: str | None) -> ModelResult:
    return ModelResult(output_text=text)


def user(text: str) -> JsonValue:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def tool_call(call_id: str, name: str, path: str) -> JsonValue:
    return {
        "type": "message",
        "role": "assistant",
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": f'{{"path": "{path}"}}'},
            }
        ],
    }


def tool_result(call_id: str) -> JsonValue:
    return {"type": "function_call_output", "call_id": call_id, "output": "ok"}


FOUR_USERS = tuple(user(text) for text in ("one", "two", "three", "four"))
JSON_ANSWER = (
    '{"goal":"Implement the login flow","completed":["Added LoginController"],'
    '"pending":["Add tests"],"decisions":["Use JWT sessions"],"errors":["mvn test: 3 failures"],'
    '"testResults":["17 passed, 3 failed"],"openQuestions":["Refresh-token expiry?"]}'
)


def test_system_prompt_is_ai4js_verbatim() -> None:
    assert SUMMARIZER_SYSTEM_PROMPT == (
        "You are a conversation summarizer for a coding agent. Return ONLY a JSON object \u2014 "
        "no prose, no code fences \u2014 with exactly these keys:\n"
        '{"goal": string, "completed": [string], "pending": [string], "decisions": [string], '
        '"errors": [string], "testResults": [string], "openQuestions": [string]}\n'
        "Use an empty array for a key with nothing to report. Keep each entry to one short line.\n"
        "Carry forward any still-unresolved entries from the previous summary's pending and "
        "decisions.\n"
        "Preserve file paths, error messages, and command names verbatim."
    )


def test_previous_summary_is_fed_back_to_the_model() -> None:
    model = ScriptedModel(said(JSON_ANSWER))
    policy = LlmCompactPolicy(model, "summarizer", max_items=3)
    snapshot = MemorySnapshot(
        items=FOUR_USERS, summary="Pending: [add tests]; Decisions: [use JWT]"
    )
    result = policy.compact(snapshot)
    (prompt,) = model.prompts
    assert prompt.model == "summarizer"
    assert prompt.system_prompt == SUMMARIZER_SYSTEM_PROMPT
    assert prompt.items == (user(model.user_content()),)
    assert model.user_content() == (
        "Previous summary:\nPending: [add tests]; Decisions: [use JWT]\n\n"
        "Conversation to summarize:\n"
        '[{"type":"message","role":"user","content":[{"type":"input_text","text":"one"}]}]'
    )
    assert result.memory == MemorySnapshot(items=FOUR_USERS[1:], summary=result.summary)


def test_previous_summary_is_trimmed_and_blank_is_left_out() -> None:
    model = ScriptedModel(said("x"), said("x"))
    policy = LlmCompactPolicy(model, max_items=3)
    policy.compact(MemorySnapshot(items=FOUR_USERS, summary="\n  kept  \n"))
    policy.compact(MemorySnapshot(items=FOUR_USERS, summary=" \n\t"))
    assert model.user_content(0).startswith("Previous summary:\nkept\n\nConversation")
    assert model.user_content(1).startswith("Conversation to summarize:\n[")


def test_conversation_is_compact_json_with_unicode_and_nulls_kept() -> None:
    model = ScriptedModel(said("x"))
    items: tuple[JsonValue, ...] = ("plain", {"text": "é漢", "none": None}, user("keep"))
    LlmCompactPolicy(model, max_items=1).compact(MemorySnapshot(items=items))
    assert model.user_content() == (
        'Conversation to summarize:\n["plain",{"text":"é漢","none":null}]'
    )


def test_parsed_answer_fills_the_result() -> None:
    model = ScriptedModel(said(f"```json\n{JSON_ANSWER}\n```"))
    result = LlmCompactPolicy(model, max_items=3).compact(MemorySnapshot(items=FOUR_USERS))
    summary = (
        "## Goal\nImplement the login flow\n\n## Progress\n- Added LoginController\n\n"
        "## Pending\n- Add tests\n\n## Key Decisions\n- Use JWT sessions\n\n"
        "## Errors\n- mvn test: 3 failures\n\n## Test Results\n- 17 passed, 3 failed\n\n"
        "## Open Questions\n- Refresh-token expiry?"
    )
    assert result == CompactResult(
        memory=MemorySnapshot(items=FOUR_USERS[1:], summary=summary),
        summary=summary,
        completed=("Added LoginController",),
        pending=("Add tests",),
        decisions=("Use JWT sessions",),
        failed_commands=("mvn test: 3 failures",),
        test_results=("17 passed, 3 failed",),
        open_questions=("Refresh-token expiry?",),
    )


def test_prose_answer_becomes_the_summary() -> None:
    model = ScriptedModel(said("  The agent fixed the build.\n"))
    result = LlmCompactPolicy(model, max_items=3).compact(MemorySnapshot(items=FOUR_USERS))
    assert result == CompactResult(
        memory=MemorySnapshot(items=FOUR_USERS[1:], summary="The agent fixed the build."),
        summary="The agent fixed the build.",
    )


def test_answer_with_nothing_to_render_is_the_json_text() -> None:
    model = ScriptedModel(said('{"goal": ""}'))
    result = LlmCompactPolicy(model, max_items=3).compact(MemorySnapshot(items=FOUR_USERS))
    assert result.summary == '{"goal":""}'


FALLBACK_ONE = "Compaction summary unavailable (LLM summarization failed). 1 items were summarized."


@pytest.mark.parametrize(
    "answer",
    [RuntimeError("model down"), ValueError("bad"), None, said(None), said(""), said(" \n\t ")],
    ids=["runtime-error", "value-error", "no-result", "no-output", "empty", "blank"],
)
def test_failed_or_empty_answer_gives_the_fallback(
    answer: Answer, caplog: pytest.LogCaptureFixture
) -> None:
    model = ScriptedModel(answer)
    with caplog.at_level(logging.WARNING):
        result = LlmCompactPolicy(model, max_items=3).compact(
            MemorySnapshot(items=FOUR_USERS, summary="old")
        )
    assert result == CompactResult(
        memory=MemorySnapshot(items=FOUR_USERS[1:], summary=FALLBACK_ONE),
        summary=FALLBACK_ONE,
    )
    assert len(model.prompts) == 1
    if isinstance(answer, Exception):
        assert any(record.exc_info for record in caplog.records)


def test_fallback_counts_the_summarized_items() -> None:
    model = ScriptedModel(RuntimeError("down"))
    items = (*FOUR_USERS, user("five"), user("six"))
    result = LlmCompactPolicy(model, max_items=2).compact(MemorySnapshot(items=items))
    assert result.summary == (
        "Compaction summary unavailable (LLM summarization failed). 4 items were summarized."
    )


def test_interrupts_are_not_swallowed() -> None:
    model = ScriptedModel(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        LlmCompactPolicy(model, max_items=3).compact(MemorySnapshot(items=FOUR_USERS))


def test_should_compact_is_a_pure_count() -> None:
    policy = LlmCompactPolicy(ScriptedModel(), max_items=3)
    assert not policy.should_compact(MemorySnapshot(items=FOUR_USERS[:3]))
    assert policy.should_compact(MemorySnapshot(items=FOUR_USERS))
    assert LlmCompactPolicy(ScriptedModel(), max_items=0).should_compact(
        MemorySnapshot(items=("x",))
    )
    assert not LlmCompactPolicy(ScriptedModel(), max_items=0).should_compact(MemorySnapshot())


def test_defaults() -> None:
    policy = LlmCompactPolicy(ScriptedModel())
    assert policy.model_name == ""
    assert policy.max_items == DEFAULT_MAX_ITEMS == 20
    assert isinstance(policy, CompactPolicyProtocol)


@pytest.mark.parametrize("max_items", [-1, True, 2.5, "3", None])
def test_bad_max_items_is_rejected(max_items: object) -> None:
    with pytest.raises(InvalidValueError, match=r"non-negative integer .* LlmCompactPolicy\.max"):
        LlmCompactPolicy(ScriptedModel(), max_items=max_items)  # type: ignore[arg-type]


def test_bad_model_client_and_name_are_rejected() -> None:
    with pytest.raises(InvalidValueError, match="ModelClient"):
        LlmCompactPolicy(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="model_name"):
        LlmCompactPolicy(ScriptedModel(), 3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "items",
    [
        (),
        (user("only"),),
        # Every cut would orphan a tool result.
        (
            tool_call("a", "read", "/a.py"),
            tool_call("b", "t", "/b.py"),
            tool_result("a"),
            tool_result("b"),
        ),
    ],
    ids=["empty", "one-user", "no-safe-cut"],
)
def test_cut_zero_makes_no_model_call_and_changes_nothing(items: Sequence[JsonValue]) -> None:
    model = ScriptedModel()
    snapshot = MemorySnapshot(items=items, summary="kept as it was")
    result = LlmCompactPolicy(model, max_items=1).compact(snapshot)
    assert model.prompts == []
    assert result == CompactResult(memory=snapshot, summary="kept as it was")


def test_long_single_turn_is_compacted_without_orphaning_a_result() -> None:
    items = (
        user("refactor everything"),
        tool_call("a", "read_file", "/a.py"),
        tool_result("a"),
        tool_call("b", "write_file", "/b.py"),
        tool_result("b"),
        tool_call("c", "read_file", "/c.py"),
        tool_result("c"),
    )
    model = ScriptedModel(said('{"goal": "refactor"}'))
    result = LlmCompactPolicy(model, max_items=3).compact(MemorySnapshot(items=items))
    assert result.memory is not None
    assert result.memory.items == items[3:]
    assert result.read_files == ("/a.py",)
    assert result.modified_files == ()


def test_max_items_zero_summarizes_everything() -> None:
    model = ScriptedModel(said("all gone"))
    result = LlmCompactPolicy(model, max_items=0).compact(MemorySnapshot(items=FOUR_USERS))
    assert result.memory == MemorySnapshot(items=(), summary="all gone")


def test_files_in_the_prompt_and_the_result() -> None:
    items = (
        user("go"),
        tool_call("a", "read_file", "/src/Main.java"),
        tool_result("a"),
        tool_call("b", "grep", "src/Util.java"),
        tool_result("b"),
        user("next"),
    )
    model = ScriptedModel(said('{"goal": "g"}'))
    result = LlmCompactPolicy(model, max_items=1).compact(MemorySnapshot(items=items))
    assert model.user_content().startswith(
        "Files read: [/src/Main.java, src/Util.java]\nFiles modified: []\n\n"
        "Conversation to summarize:\n"
    )
    assert result.read_files == ("/src/Main.java", "src/Util.java")
    assert result.summary == "## Goal\ng\n\n## Files Read\n- /src/Main.java\n- src/Util.java"


def test_files_are_cumulative_across_compactions() -> None:
    first_items = (
        user("one"),
        tool_call("a", "read_file", "/a.py"),
        tool_result("a"),
        tool_call("b", "edit_file", "/b.py"),
        tool_result("b"),
        user("two"),
    )
    model = ScriptedModel(said('{"goal": "first"}'), said('{"goal": "second"}'))
    policy = LlmCompactPolicy(model, max_items=1)
    first = policy.compact(MemorySnapshot(items=first_items))
    assert first.memory is not None
    # The memory goes on; the policy keeps no state, the summary carries the files.
    second_items = (
        *first.memory.items,
        tool_call("c", "read_file", "/c.py"),
        tool_result("c"),
        tool_call("d", "cat", "/a.py"),
        tool_result("d"),
        user("three"),
    )
    second = policy.compact(MemorySnapshot(items=second_items, summary=first.summary))
    assert model.user_content(1).startswith(
        "Previous summary:\n## Goal\nfirst\n\n## Files Read\n- /a.py\n\n"
        "## Files Modified\n- /b.py\n\n"
        "Files read: [/a.py, /c.py]\nFiles modified: [/b.py]\n\n"
    )
    assert second.read_files == ("/a.py", "/c.py")
    assert second.modified_files == ("/b.py",)
    assert second.summary == (
        "## Goal\nsecond\n\n## Files Read\n- /a.py\n- /c.py\n\n## Files Modified\n- /b.py"
    )


def test_files_survive_a_failed_summarization() -> None:
    items = (user("one"), tool_call("a", "write", "/a.py"), tool_result("a"), user("two"))
    model = ScriptedModel(RuntimeError("down"), said("back"))
    policy = LlmCompactPolicy(model, max_items=1)
    first = policy.compact(MemorySnapshot(items=items, summary="## Files Read\n- /old.py"))
    assert first.summary == (
        "Compaction summary unavailable (LLM summarization failed). 3 items were summarized."
        "\n\n## Files Read\n- /old.py\n\n## Files Modified\n- /a.py"
    )
    assert (first.read_files, first.modified_files) == (("/old.py",), ("/a.py",))
    assert first.memory is not None
    second = policy.compact(
        MemorySnapshot(items=(*first.memory.items, "x", user("three")), summary=first.summary)
    )
    assert second.summary == "back\n\n## Files Read\n- /old.py\n\n## Files Modified\n- /a.py"
    assert read_file_sections(second.summary) == (["/old.py"], ["/a.py"])


def test_inputs_are_not_mutated() -> None:
    items: tuple[JsonValue, ...] = (
        user("one"),
        tool_call("a", "read_file", "/a.py"),
        tool_result("a"),
        {"nested": {"list": [1, 2]}},
        user("two"),
    )
    original = copy.deepcopy(items)
    snapshot = MemorySnapshot(items=items, summary="s")
    LlmCompactPolicy(ScriptedModel(said(JSON_ANSWER)), max_items=1).compact(snapshot)
    assert snapshot.items == original
    assert snapshot.summary == "s"


def test_spec_files_example() -> None:
    write: JsonValue = {
        "type": "message",
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "write_file", "arguments": '{"path":"/src/b.py"}'},
            }
        ],
    }
    model = ScriptedModel(said("x"))
    snapshot = MemorySnapshot(
        items=(user("one"), write, tool_result("c1"), user("two")),
        summary="earlier\n\n## Files Read\n- /src/a.py",
    )
    LlmCompactPolicy(model, max_items=1).compact(snapshot)
    assert (
        "\n\nFiles read: [/src/a.py]\nFiles modified: [/src/b.py]\n\nConversation to summarize:\n"
        in model.user_content()
    )


def test_model_name_none_is_the_empty_string() -> None:
    assert LlmCompactPolicy(ScriptedModel(), None).model_name == ""
