"""The AutoGen adapter: conversions both ways, model contexts as projectors, and back."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("autogen_core")

from autogen_core import FunctionCall, Image
from autogen_core.model_context import ChatCompletionContext
from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    SystemMessage,
    UserMessage,
)
from hypothesis import example, given

from ctxpact.conformance import Outcome
from ctxpact.conformance.adapters import (
    UnsupportedItemError,
    UnsupportedMessageError,
)
from ctxpact.conformance.adapters import autogen as ag
from ctxpact.conformance.adapters._testing import (
    PAIRED,
    carried,
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


#: A 1x1 PNG, for an image AutoGen holds.
_PIXEL = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9"
    "awAAAABJRU5ErkJggg=="
)

EVERY_SHAPE: list[JsonValue] = [
    {"type": "message", "role": "system", "content": [text("be brief")]},
    user("read a.txt"),
    {"type": "message", "role": "user", "content": "plain string content"},
    {
        "type": "message",
        "role": "assistant",
        "content": [text("reading both")],
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read", "arguments": '{"p":1}'}},
            {"id": "c2", "type": "function", "function": {"name": "ls", "arguments": "not json"}},
        ],
    },
    tool_result("c1", "alpha 🙂"),
    tool_result("c2", ""),
    tool_result("orphan", "no call"),
    {"type": "message", "role": "assistant", "content": [text("done")]},
]


# -- conversions ---------------------------------------------------------------------------


@given(items=transcripts())
@example(items=EVERY_SHAPE)
@example(items=[*PAIRED, None])
def test_a_round_trip_gives_identical_items_or_names_what_it_cannot_carry(
    items: list[JsonValue],
) -> None:
    error: UnsupportedItemError | None = None
    messages = []
    try:
        messages = ag.to_autogen(items)
    except UnsupportedItemError as raised:
        error = raised
    if error is not None:
        assert 0 <= error.index < len(items)
        assert error.item is items[error.index]
        assert error.framework == "AutoGen"
        assert f"at $[{error.index}]: {error.reason}" in str(error)
        return
    assert len(messages) == len(items)
    assert identical(ag.from_autogen(messages), items)


@given(items=transcripts().map(lambda items: [i for i in items if carried(ag.to_autogen, i)]))
@example(items=EVERY_SHAPE)
def test_carried_items_come_back_identical(items: list[JsonValue]) -> None:
    assert identical(ag.from_autogen(ag.to_autogen(items)), items)


def test_items_become_the_messages_autogen_uses() -> None:
    messages = ag.to_autogen(EVERY_SHAPE, user_source="alice", assistant_source="bot")
    assert messages[0] == SystemMessage(content="be brief")
    assert messages[1] == UserMessage(content=["read a.txt"], source="alice")
    assert messages[2] == UserMessage(content="plain string content", source="alice")
    assert messages[3] == AssistantMessage(
        content=[
            FunctionCall(id="c1", arguments='{"p":1}', name="read"),
            FunctionCall(id="c2", arguments="not json", name="ls"),
        ],
        thought="reading both",
        source="bot",
    )
    assert messages[4] == FunctionExecutionResultMessage(
        content=[FunctionExecutionResult(content="alpha 🙂", name="read", call_id="c1")]
    )
    result = messages[6]
    assert isinstance(result, FunctionExecutionResultMessage)
    assert result.content[0].name == ""  # no call declares "orphan"


def test_a_result_message_with_several_results_reads_as_several_items() -> None:
    messages: list[LLMMessage] = [
        AssistantMessage(
            content=[FunctionCall(id="a", arguments="{}", name="f")] * 1
            + [FunctionCall(id="b", arguments="{}", name="g")],
            source="assistant",
        ),
        FunctionExecutionResultMessage(
            content=[
                FunctionExecutionResult(content="1", name="f", call_id="a", is_error=False),
                FunctionExecutionResult(content="2", name="g", call_id="b"),
            ]
        ),
    ]
    items = ag.from_autogen(messages)
    assert items[1:] == [tool_result("a", "1"), tool_result("b", "2")]


@pytest.mark.parametrize(
    ("item", "reason"),
    [
        (7, "a int is not a message"),
        (tool_result("c", {"rows": 1}), "an AutoGen result carries a string"),
        (
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
            "function_call",
        ),
        ({"type": "reasoning", "id": "rs"}, '"reasoning"'),
        ({"type": "message", "role": "system", "content": "x"}, "content is not an array"),
        (
            {"type": "message", "role": "assistant", "content": [text("a"), text("b")]},
            "has 2 input_text parts",
        ),
        ({"type": "message", "role": "developer", "content": [text("x")]}, 'role "developer"'),
    ],
)
def test_what_autogen_cannot_carry_is_named(item: JsonValue, reason: str) -> None:
    with pytest.raises(UnsupportedItemError, match=r"at \$\[1\]") as raised:
        ag.to_autogen([user("first"), item])
    assert raised.value.index == 1
    assert reason in raised.value.reason


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (UserMessage(content=[Image.from_base64(_PIXEL)], source="u"), "Image"),
        (AssistantMessage(content="x", thought="t", source="a"), "thought next to text"),
        (
            FunctionExecutionResultMessage(
                content=[FunctionExecutionResult(content="x", name="", call_id="c", is_error=True)]
            ),
            "is_error=True",
        ),
        (
            FunctionExecutionResultMessage(
                content=[FunctionExecutionResult(content="x", name="other", call_id="c")]
            ),
            "is named 'other'",
        ),
    ],
)
def test_what_ctxpact_cannot_carry_is_named(message: LLMMessage, reason: str) -> None:
    with pytest.raises(UnsupportedMessageError, match=r"at \[1\]") as raised:
        ag.from_autogen([UserMessage(content="first", source="u"), message])
    assert reason in raised.value.reason


# -- the model contexts as projectors --------------------------------------------------------

BUFFERED = "autogen-core:BufferedChatCompletionContext"
HEAD_AND_TAIL = "autogen-core:HeadAndTailChatCompletionContext"
WITHOUT_PLACEHOLDER = "autogen-core:HeadAndTailChatCompletionContext (placeholder left out)"

#: A parallel step whose results are two result messages (one item each).
PARALLEL: list[JsonValue] = [
    user("go"),
    {
        "type": "message",
        "role": "assistant",
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}},
            {"id": "c2", "type": "function", "function": {"name": "read", "arguments": "{}"}},
        ],
    },
    tool_result("c1", "one"),
    tool_result("c2", "two"),
    {"type": "message", "role": "assistant", "content": [text("done")]},
]


def test_buffered_drops_one_leading_result_message_and_orphans_the_next() -> None:
    projection = ag.BufferedContextProjector().project(PARALLEL, ContextBudget(max_items=3))
    assert projection.items == (PARALLEL[3], PARALLEL[4])
    assert projection.items[0] is PARALLEL[3]
    assert orphans(PARALLEL, projection) == [3]


def test_head_and_tail_inserts_its_placeholder_and_orphans_a_result() -> None:
    projector = ag.HeadAndTailContextProjector()
    projection = projector.project(PARALLEL, ContextBudget(max_items=3, pinned_prefix_items=1))
    assert projection.items == (
        PARALLEL[0],
        {"type": "message", "role": "user", "content": "Skipped 2 messages."},
        PARALLEL[4],
    )
    assert projection.report.dropped_indices is None
    assert "the framework inserted 1 message(s) of its own" in projection.report.notes
    left_out = ag.HeadAndTailContextProjector(keep_placeholder=False).project(
        PARALLEL, ContextBudget(max_items=4, pinned_prefix_items=1)
    )
    assert left_out.items == (PARALLEL[0], PARALLEL[3], PARALLEL[4])
    assert orphans(PARALLEL, left_out) == [3]


def test_max_items_zero_keeps_nothing_though_autogen_rejects_buffer_size_zero() -> None:
    for projector in (ag.BufferedContextProjector(), ag.HeadAndTailContextProjector()):
        projection = projector.project(PARALLEL, ContextBudget(max_items=0))
        assert projection.items == ()
        assert projection.report.dropped_indices == (0, 1, 2, 3, 4)


def test_a_tool_result_that_would_open_the_window_is_dropped_though_it_is_the_newest() -> None:
    # AutoGen drops a function-result message at the start of the window, so that no result
    # goes without its call; with a window of one, the newest item goes (PRJ-11).
    items = [*PAIRED]
    for projector in (
        ag.BufferedContextProjector(),
        ag.HeadAndTailContextProjector(keep_placeholder=False),
    ):
        projection = projector.project(items, ContextBudget(max_items=1))
        assert 5 in (projection.report.dropped_indices or ()), type(projector).__name__
    buffered = ag.BufferedContextProjector().project(items, ContextBudget(max_items=1))
    assert buffered.items == ()


@pytest.mark.parametrize("name", [BUFFERED, HEAD_AND_TAIL, WITHOUT_PLACEHOLDER])
def test_each_context_passes_the_generic_checks_but_its_known_findings(name: str) -> None:
    check_known_findings(name)


@pytest.mark.parametrize("name", [BUFFERED, HEAD_AND_TAIL])
def test_the_pair_integrity_check_fails_on_the_contexts(name: str) -> None:
    assert pair_integrity(name) is Outcome.FAIL


# -- the other direction ---------------------------------------------------------------------


def _messages() -> list[LLMMessage]:
    return [
        SystemMessage(content="rules"),
        UserMessage(content="read both", source="user"),
        AssistantMessage(
            content=[
                FunctionCall(id="c1", arguments="{}", name="read"),
                FunctionCall(id="c2", arguments="{}", name="read"),
            ],
            source="assistant",
        ),
        FunctionExecutionResultMessage(
            content=[
                FunctionExecutionResult(content="x" * 300, name="read", call_id="c1"),
                FunctionExecutionResult(content="y" * 300, name="read", call_id="c2"),
            ]
        ),
        AssistantMessage(content="done", source="assistant"),
    ]


def test_the_ctxpact_context_is_an_autogen_context_that_returns_the_originals() -> None:
    messages = _messages()
    context = ag.CtxpactChatCompletionContext(
        DefaultContextProjector(), ContextBudget(max_items=2, pinned_prefix_items=1)
    )
    assert isinstance(context, ChatCompletionContext)

    async def run() -> list[LLMMessage]:
        for message in messages:
            await context.add_message(message)
        return await context.get_messages()

    kept = asyncio.run(run())
    assert [id(m) for m in kept] == [id(messages[0]), id(messages[4])]


def test_the_ctxpact_context_rebuilds_a_result_message_it_cleared_in_part() -> None:
    messages = _messages()
    context = ag.CtxpactChatCompletionContext(
        TypeAwareContextProjector(), ContextBudget(max_recent_tool_results=1), messages
    )
    kept = asyncio.run(context.get_messages())
    assert kept[:3] == messages[:3]
    assert kept[4] is messages[4]
    results = kept[3]
    assert isinstance(results, FunctionExecutionResultMessage)
    assert [r.content for r in results.content] == ["[tool result cleared: read(c1)]", "y" * 300]
    original = messages[3]
    assert isinstance(original, FunctionExecutionResultMessage)
    assert original.content[0].content == "x" * 300  # unchanged


def test_the_ctxpact_context_saves_and_loads_its_state() -> None:
    context = ag.CtxpactChatCompletionContext(
        DefaultContextProjector(), ContextBudget(max_items=1), _messages()
    )
    state = asyncio.run(context.save_state())
    again = ag.CtxpactChatCompletionContext(DefaultContextProjector(), ContextBudget(max_items=1))
    asyncio.run(again.load_state(state))
    assert asyncio.run(again.get_messages()) == [_messages()[-1]]
