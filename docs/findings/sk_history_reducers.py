"""Semantic Kernel's history reducers: the compliance matrix's finding, Semantic Kernel alone.

Run with ``python docs/findings/sk_history_reducers.py`` where ``semantic-kernel==1.45.0`` is
installed (``pip install 'ctxpact[semantic-kernel]'``); ctxpact is not imported. The function
reproduces the finding and prints ``reproduced: NAME``; it raises AssertionError when the
reducer no longer behaves so (tests/test_findings.py runs this file).
"""

from __future__ import annotations

import asyncio

from semantic_kernel.contents import (
    AuthorRole,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
)
from semantic_kernel.contents.history_reducer.chat_history_truncation_reducer import (
    ChatHistoryTruncationReducer,
)


def truncation_keeps_a_pair_over_its_target() -> None:
    """Documented behaviour: ``target_count`` is a target; a call is kept with its result.

    ``locate_safe_reduction_index`` moves the cut back so that a function call and its
    result are never separated ("so the function-call and its function-result are never
    separated"), so ``target_count=1`` on a call and its result keeps both. ctxpact's
    ``maxItems`` is a bound (PRJ-9): a difference of contract, not a bug; a pair-safe ctxpact
    projector drops the pair whole instead (PAIR-6).
    """
    messages = [
        ChatMessageContent(role=AuthorRole.USER, content="list the files"),
        ChatMessageContent(
            role=AuthorRole.ASSISTANT,
            items=[FunctionCallContent(id="c1", function_name="ls", arguments="{}")],
        ),
        ChatMessageContent(
            role=AuthorRole.TOOL,
            items=[FunctionResultContent(id="c1", function_name="ls", result="a.py")],
        ),
    ]
    reducer = ChatHistoryTruncationReducer(target_count=1, messages=list(messages))
    asyncio.run(reducer.reduce())
    assert reducer.messages == messages[1:], reducer.messages
    print("reproduced: truncation_keeps_a_pair_over_its_target")


if __name__ == "__main__":
    truncation_keeps_a_pair_over_its_target()
