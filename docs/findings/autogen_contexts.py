"""AutoGen's model contexts: the compliance matrix's findings, with autogen-core alone.

Run with ``python docs/findings/autogen_contexts.py`` where ``autogen-core==0.7.5`` is
installed (``pip install 'ctxpact[autogen]'``); ctxpact is not imported. Each function
reproduces one finding and prints ``reproduced: NAME``; it raises AssertionError when AutoGen
no longer behaves so (tests/test_findings.py runs this file).
"""

from __future__ import annotations

import asyncio

from autogen_core import FunctionCall
from autogen_core.model_context import (
    BufferedChatCompletionContext,
    HeadAndTailChatCompletionContext,
)
from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    UserMessage,
)


def _calls(*call_ids: str) -> AssistantMessage:
    calls = [FunctionCall(id=call_id, name="read", arguments="{}") for call_id in call_ids]
    return AssistantMessage(content=calls, source="assistant")


def _result(call_id: str) -> FunctionExecutionResultMessage:
    result = FunctionExecutionResult(content="ok", name="read", call_id=call_id)
    return FunctionExecutionResultMessage(content=[result])


def buffered_drops_one_leading_result_message_only() -> None:
    """Bug: ``get_messages()`` drops a leading result message with an ``if``, not a ``while``.

    When one step's results are stored as several result messages (one per call), the second
    stays at the head of the view without its ``AssistantMessage``. AutoGen's own agents store
    one result message per step, which hides it. The same index-0-only clean-up is
    microsoft/autogen#7955 (TokenLimitedChatCompletionContext, open).
    """
    history: list[LLMMessage] = [
        UserMessage(content="read both", source="user"),
        _calls("a", "b"),
        _result("a"),
        _result("b"),
    ]
    view = asyncio.run(
        BufferedChatCompletionContext(buffer_size=2, initial_messages=history).get_messages()
    )
    assert view == [history[3]], view  # the result of b, without its call
    print("reproduced: buffered_drops_one_leading_result_message_only")


def a_window_of_one_result_is_empty() -> None:
    """Bug: with ``buffer_size=1`` the newest message, a result, is dropped: the view is empty."""
    history: list[LLMMessage] = [
        UserMessage(content="go", source="user"),
        _calls("a"),
        _result("a"),
    ]
    view = asyncio.run(
        BufferedChatCompletionContext(buffer_size=1, initial_messages=history).get_messages()
    )
    assert view == [], view
    print("reproduced: a_window_of_one_result_is_empty")


def head_and_tail_inserts_a_user_message() -> None:
    """Contract difference: the view carries ``UserMessage("Skipped N messages.")``.

    A user-role message the user never wrote, counted as a slot (head + tail + 1 messages).
    """
    history: list[LLMMessage] = [UserMessage(content=f"m{n}", source="user") for n in range(6)]
    view = asyncio.run(
        HeadAndTailChatCompletionContext(
            head_size=1, tail_size=1, initial_messages=history
        ).get_messages()
    )
    assert len(view) == 3, view
    assert isinstance(view[1], UserMessage)
    assert view[1].content == "Skipped 4 messages.", view[1]
    print("reproduced: head_and_tail_inserts_a_user_message")


def head_drops_its_trailing_calls() -> None:
    """Contract difference: the head drops its last message when it is a message of calls."""
    history: list[LLMMessage] = [
        UserMessage(content="go", source="user"),
        _calls("a"),
        _result("a"),
        UserMessage(content="m3", source="user"),
        UserMessage(content="m4", source="user"),
    ]
    view = asyncio.run(
        HeadAndTailChatCompletionContext(
            head_size=2, tail_size=1, initial_messages=history
        ).get_messages()
    )
    assert view[0] == history[0], view
    assert history[1] not in view, view  # asked to keep the first two, it keeps one
    print("reproduced: head_drops_its_trailing_calls")


if __name__ == "__main__":
    buffered_drops_one_leading_result_message_only()
    a_window_of_one_result_is_empty()
    head_and_tail_inserts_a_user_message()
    head_drops_its_trailing_calls()
