"""The LangChain adapter: conversions both ways, trim_messages as a projector, and back."""

from __future__ import annotations

import pytest

pytest.importorskip("langchain_core")

from hypothesis import example, given
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import RunnableLambda

from ctxpact.conformance import Outcome
from ctxpact.conformance.adapters import (
    UnsupportedItemError,
    UnsupportedMessageError,
)
from ctxpact.conformance.adapters import langchain as lc
from ctxpact.conformance.adapters._testing import (
    PAIRED,
    carried,
    chat_call,
    check_known_findings,
    identical,
    orphans,
    pair_integrity,
    text,
    tool_result,
    user,
)
from ctxpact.conformance.strategies import transcripts
from ctxpact.reference.projection import DefaultContextProjector, TypeAwareContextProjector
from ctxpact.spec import ContextBudget, JsonValue

#: Two turns, each a call and its result; trimming to the newest item orphans the last result.


CHAT_CALL: JsonValue = {
    "type": "message",
    "role": "assistant",
    "tool_calls": [
        {
            "id": "call-1",
            "type": "function",
            "function": {"name": "read_file", "arguments": '{"path":"a.txt"}'},
        }
    ],
}
EVERY_SHAPE: list[JsonValue] = [
    {"type": "message", "role": "system", "content": [text("be brief")]},
    {"type": "message", "role": "developer", "content": "plain string content"},
    user("read a.txt"),
    {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "hm"}]},
    CHAT_CALL,
    tool_result("call-1", "alpha"),
    {"type": "function_call", "call_id": "call-2", "name": "grep", "arguments": "{}"},
    tool_result("call-2", ""),
    {
        "type": "message",
        "role": "assistant",
        "content": [
            text("looking"),
            {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {"dir": "日本"}},
        ],
    },
    tool_result("toolu_1", "a.txt 🙂"),
    {"type": "message", "role": "assistant", "content": [text("done")]},
]


# -- conversions ---------------------------------------------------------------------------


@given(items=transcripts())
@example(items=EVERY_SHAPE)
@example(items=[*PAIRED, 7])
def test_a_round_trip_gives_identical_items_or_names_what_it_cannot_carry(
    items: list[JsonValue],
) -> None:
    error: UnsupportedItemError | None = None
    messages = []
    try:
        messages = lc.to_langchain(items)
    except UnsupportedItemError as raised:
        error = raised
    if error is not None:
        assert 0 <= error.index < len(items)
        assert error.item is items[error.index]
        assert error.framework == "LangChain"
        assert f"at $[{error.index}]: {error.reason}" in str(error)
        assert not carried(lc.to_langchain, items[error.index])
        assert all(carried(lc.to_langchain, item) for item in items[: error.index])
        return
    assert len(messages) == len(items)
    assert identical(lc.from_langchain(messages), items)


@given(items=transcripts().map(lambda items: [i for i in items if carried(lc.to_langchain, i)]))
@example(items=EVERY_SHAPE)
def test_carried_items_come_back_identical(items: list[JsonValue]) -> None:
    assert identical(lc.from_langchain(lc.to_langchain(items)), items)


def test_items_become_the_messages_langchain_uses() -> None:
    messages = lc.to_langchain(EVERY_SHAPE)
    assert [type(m).__name__ for m in messages] == [
        "SystemMessage",
        "SystemMessage",
        "HumanMessage",
        "AIMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
    ]
    assert messages[1].additional_kwargs == {"__openai_role__": "developer"}
    assert messages[2].content == [{"type": "text", "text": "read a.txt"}]
    chat, function_call, anthropic = messages[4], messages[6], messages[8]
    assert isinstance(chat, AIMessage)
    assert isinstance(function_call, AIMessage)
    assert isinstance(anthropic, AIMessage)
    assert chat.tool_calls == [
        {"name": "read_file", "args": {"path": "a.txt"}, "id": "call-1", "type": "tool_call"}
    ]
    assert function_call.tool_calls[0]["id"] == "call-2"
    assert anthropic.tool_calls[0]["args"] == {"dir": "日本"}
    assert isinstance(messages[5], ToolMessage)
    assert messages[5].tool_call_id == "call-1"


def test_langchain_messages_come_back_equal() -> None:
    messages: list[BaseMessage] = [
        SystemMessage("rules"),
        HumanMessage("hi"),
        AIMessage(
            "",
            tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c1", "type": "tool_call"}],
        ),
        ToolMessage("out", tool_call_id="c1"),
        AIMessage([{"type": "text", "text": "ok"}]),
    ]
    back = lc.to_langchain(lc.from_langchain(messages))
    assert [_prompt(m) for m in back] == [_prompt(m) for m in messages]


def _prompt(message: BaseMessage) -> tuple[object, ...]:
    return (
        type(message),
        message.content,
        getattr(message, "tool_calls", None),
        getattr(message, "tool_call_id", None),
    )


def test_raw_openai_tool_calls_keep_their_arguments_text() -> None:
    raw = [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"x":1}'}}]
    message = AIMessage("", additional_kwargs={"tool_calls": raw})
    (item,) = lc.from_langchain([message])
    assert item == {"type": "message", "role": "assistant", "tool_calls": raw}
    assert lc.to_langchain([item]) == [message]


def test_provider_metadata_is_not_carried() -> None:
    message = AIMessage("hi", id="run-1", response_metadata={"model": "m"})
    assert lc.from_langchain([message]) == [
        {"type": "message", "role": "assistant", "content": "hi"}
    ]


@pytest.mark.parametrize(
    ("item", "reason"),
    [
        ("a plain string", "a str is not a message"),
        (tool_result("c", None), "output is null"),
        ({"type": "function_call_output", "output": "x"}, "members ['call_id'] are missing"),
        (
            {"type": "function_call_output", "call_id": "c", "output": "x", "status": "completed"},
            "members ['status'] are not carried",
        ),
        (
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": "[1]"},
            "arguments is JSON but not a JSON object",
        ),
        (
            {"type": "message", "role": "assistant", "tool_calls": [{"id": "c", "name": "f"}]},
            "tool_calls[0] is not in the Chat Completions shape",
        ),
        (
            {"type": "message", "role": "user", "content": [{"type": "output_text", "text": "x"}]},
            "content[0] is",
        ),
        ({"type": "message", "role": "tool", "content": "x"}, 'role "tool" has no LangChain'),
        ({**CHAT_CALL, "content": ""}, 'content "" next to tool_calls'),  # type: ignore[dict-item]
    ],
)
def test_what_langchain_cannot_carry_is_named(item: JsonValue, reason: str) -> None:
    with pytest.raises(UnsupportedItemError, match=r"at \$\[1\]") as raised:
        lc.to_langchain([user("first"), item])
    assert raised.value.index == 1
    assert reason in raised.value.reason


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (FunctionMessage(content="x", name="f"), "name is not carried"),
        (ChatMessage(content="x", role="critic"), "ChatMessage has no ctxpact item shape"),
        (ToolMessage("x", tool_call_id="c", status="error"), 'status "error"'),
        (HumanMessage([{"type": "image_url", "image_url": {"url": "u"}}]), "'image_url' block"),
        (
            AIMessage(
                "", invalid_tool_calls=[{"name": "f", "args": "{", "id": "c", "error": None}]
            ),
            "invalid_tool_calls",
        ),
    ],
)
def test_what_ctxpact_cannot_carry_is_named(message: BaseMessage, reason: str) -> None:
    with pytest.raises(UnsupportedMessageError, match=r"at \[1\]") as raised:
        lc.from_langchain([HumanMessage("first"), message])
    assert reason in raised.value.reason


# -- trim_messages as a projector ----------------------------------------------------------


def test_trim_messages_last_leaves_a_tool_message_without_its_ai_message() -> None:
    """The finding of langchain #33245: the kept window starts with a ToolMessage."""
    projection = lc.TrimMessagesProjector(strategy="last").project(
        PAIRED, ContextBudget(max_items=1)
    )
    assert projection.items == (PAIRED[-1],)
    assert projection.items[0] is PAIRED[-1]  # the original item, not a copy
    assert orphans(PAIRED, projection) == [5]
    assert projection.report.dropped_indices == (0, 1, 2, 3, 4)
    (message,) = lc.to_langchain(list(projection.items))
    assert isinstance(message, ToolMessage)  # what the model would be sent: a lone ToolMessage


def test_trim_messages_last_with_start_on_human_keeps_the_pair() -> None:
    projector = lc.TrimMessagesProjector(strategy="last", start_on="human", include_system=True)
    projection = projector.project(PAIRED, ContextBudget(max_items=3))
    assert projection.items == tuple(PAIRED[3:])
    assert orphans(PAIRED, projection) == []


def test_the_character_budget_counts_approx_chars() -> None:
    items: list[JsonValue] = ["aaaa", "bb", "cc"]
    projection = lc.TrimMessagesProjector().project(items, ContextBudget(max_approx_chars=4))
    assert projection.items == ("bb", "cc")
    assert projection.report.character_limit_applied
    note = (
        f"langchain-core {lc.VERSION}: trim_messages(strategy='last', include_system=False, "
        "token_counter=approx_chars, max_tokens=4)"
    )
    assert projection.report.notes == (note,)


LAST = 'langchain-core:trim_messages(strategy="last")'
FIRST = 'langchain-core:trim_messages(strategy="first")'
RECOMMENDED = 'langchain-core:trim_messages(strategy="last", start_on="human", include_system=True)'


@pytest.mark.parametrize("name", [LAST, FIRST, RECOMMENDED])
def test_each_trimmer_passes_the_generic_checks_but_its_known_findings(name: str) -> None:
    check_known_findings(name)


@pytest.mark.parametrize("name", [LAST, FIRST])
def test_the_pair_integrity_check_finds_what_trim_messages_does(name: str) -> None:
    # "last" keeps results whose calls it cut off; "first" keeps calls whose results it cut
    # off (PAIR-4 (b)): either is the 400 of a provider.
    assert pair_integrity(name) is Outcome.FAIL


def test_strategy_first_keeps_a_call_and_drops_its_result() -> None:
    items = [user("go"), chat_call("c1"), tool_result("c1", "x"), user("more")]
    projection = lc.TrimMessagesProjector(strategy="first").project(
        items, ContextBudget(max_items=2)
    )
    assert projection.items == (items[0], items[1])
    assert projection.report.dropped_indices == (2, 3)


def test_start_on_human_still_orphans_a_result_after_an_interleaved_human_message() -> None:
    items = [user("go"), chat_call("c1"), user("meanwhile"), tool_result("c1", "late")]
    projector = lc.TrimMessagesProjector(strategy="last", start_on="human", include_system=True)
    projection = projector.project(items, ContextBudget(max_items=2))
    assert projection.items == (items[2], items[3])
    assert orphans(items, projection) == [3]


# -- the other direction ---------------------------------------------------------------------


def _conversation() -> list[BaseMessage]:
    return [
        SystemMessage("rules"),
        HumanMessage("read a"),
        AIMessage("", tool_calls=[{"name": "read", "args": {}, "id": "c1", "type": "tool_call"}]),
        ToolMessage("x" * 300, tool_call_id="c1"),
        HumanMessage("and b?"),
        AIMessage("", tool_calls=[{"name": "read", "args": {}, "id": "c2", "type": "tool_call"}]),
        ToolMessage("y" * 300, tool_call_id="c2"),
    ]


def test_ctxpact_trimmer_returns_the_original_messages_it_keeps() -> None:
    messages = _conversation()
    trim = lc.ctxpact_trimmer(
        DefaultContextProjector(), ContextBudget(max_items=3, pinned_prefix_items=1)
    )
    kept = trim(messages)
    assert [id(m) for m in kept] == [id(messages[0]), id(messages[5]), id(messages[6])]


def test_ctxpact_trimmer_copies_a_tool_message_it_clears() -> None:
    messages = _conversation()
    trim = lc.ctxpact_trimmer(TypeAwareContextProjector(), ContextBudget(max_recent_tool_results=1))
    kept = trim(messages)
    assert len(kept) == len(messages)
    cleared = kept[3]
    assert isinstance(cleared, ToolMessage)
    assert cleared.content == "[tool result cleared: read(c1)]"
    assert cleared.tool_call_id == "c1"
    assert messages[3].content == "x" * 300  # the original is unchanged
    assert kept[6] is messages[6]


def test_ctxpact_trimmer_runs_inside_a_chain() -> None:
    seen: list[list[BaseMessage]] = []

    def model_input(messages: list[BaseMessage]) -> list[BaseMessage]:
        seen.append(messages)
        return messages

    model = FakeMessagesListChatModel(responses=[AIMessage("answer")])
    trim = lc.ctxpact_trimmer(DefaultContextProjector(), ContextBudget(max_items=2))
    chain = RunnableLambda(trim) | RunnableLambda(model_input) | model
    reply = chain.invoke(_conversation())
    assert reply.content == "answer"
    assert [m.content for m in seen[0]] == ["", "y" * 300]


@given(items=st.lists(st.sampled_from(EVERY_SHAPE), max_size=12), limit=st.integers(0, 12))
@example(items=EVERY_SHAPE, limit=4)
def test_ctxpact_trimmer_keeps_what_the_projector_keeps(items: list[JsonValue], limit: int) -> None:
    messages = lc.to_langchain(items)
    budget = ContextBudget(max_items=limit, pinned_prefix_items=1)
    kept = lc.ctxpact_trimmer(DefaultContextProjector(), budget)(messages)
    want = DefaultContextProjector().project(lc.from_langchain(messages), budget)
    assert identical(lc.from_langchain(kept), list(want.items))
