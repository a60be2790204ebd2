"""LangChain ``trim_messages``: the compliance matrix's findings, with langchain-core alone.

Run with ``python docs/findings/langchain_trim_messages.py`` where ``langchain-core==1.8.1``
is installed (``pip install 'ctxpact[langchain]'``); ctxpact is not imported. Each function
reproduces one finding and prints ``reproduced: NAME``; it raises AssertionError when
LangChain no longer behaves so (tests/test_findings.py runs this file). ``token_counter=len``
counts messages, as the adapter's ``maxItems`` mapping does.
"""

from __future__ import annotations

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    trim_messages,
)


def _call(*call_ids: str) -> AIMessage:
    calls = [{"name": "read", "args": {}, "id": call_id} for call_id in call_ids]
    return AIMessage(content="", tool_calls=calls)  # type: ignore[arg-type]


def _orphans(messages: list[BaseMessage]) -> list[str]:
    declared: set[str] = set()
    found = []
    for message in messages:
        if isinstance(message, AIMessage):
            declared.update(str(call["id"]) for call in message.tool_calls)
        elif isinstance(message, ToolMessage) and message.tool_call_id not in declared:
            found.append(message.tool_call_id)
    return found


HISTORY: list[BaseMessage] = [
    HumanMessage(content="read two files"),
    _call("a", "b"),
    ToolMessage(content="A", tool_call_id="a"),
    ToolMessage(content="B", tool_call_id="b"),
]


def last_starts_on_a_tool_message() -> None:
    """Bug (langchain-ai/langchain#33245, #29637): the kept window starts on a ToolMessage.

    ``strategy="last"`` keeps the newest messages that fit and cuts anywhere, here between
    the ``AIMessage`` of two calls and their results: the result of b stays without its call.
    """
    kept = trim_messages(HISTORY, max_tokens=1, token_counter=len, strategy="last")
    assert _orphans(kept) == ["b"], kept
    print("reproduced: last_starts_on_a_tool_message")


def first_ends_on_unanswered_calls() -> None:
    """Bug: ``strategy="first"`` keeps an ``AIMessage`` whose calls' results it drops."""
    kept = trim_messages(HISTORY, max_tokens=3, token_counter=len, strategy="first")
    assert kept == HISTORY[:3], kept  # the result of b is gone, its call is kept
    print("reproduced: first_ends_on_unanswered_calls")


def start_on_human_still_orphans() -> None:
    """Bug: ``start_on="human"`` guards the window's front only.

    A human message between a call and its result is a valid start, and the result after it
    keeps no call.
    """
    history: list[BaseMessage] = [
        HumanMessage(content="go"),
        _call("a"),
        HumanMessage(content="(meanwhile)"),
        ToolMessage(content="A", tool_call_id="a"),
    ]
    kept = trim_messages(history, max_tokens=2, token_counter=len, start_on="human")
    assert _orphans(kept) == ["a"], kept
    print("reproduced: start_on_human_still_orphans")


def include_system_exceeds_max_tokens() -> None:
    """Documented-ish behaviour, a difference from a bound: the system message is kept anyway.

    ``include_system=True`` keeps the leading ``SystemMessage`` even when it alone is over
    ``max_tokens`` (here 0).
    """
    history: list[BaseMessage] = [SystemMessage(content="rules"), HumanMessage(content="hi")]
    kept = trim_messages(
        history, max_tokens=0, token_counter=len, strategy="last", include_system=True
    )
    assert kept == history[:1], kept
    print("reproduced: include_system_exceeds_max_tokens")


def newest_message_over_budget_is_dropped() -> None:
    """Contract difference: a newest message larger than ``max_tokens`` leaves nothing.

    ctxpact keeps the newest item even over budget (PRJ-11); ``allow_partial=True`` is
    LangChain's way to keep part of it.
    """
    history: list[BaseMessage] = [HumanMessage(content="x" * 50)]
    kept = trim_messages(
        history, max_tokens=5, token_counter=lambda ms: sum(len(str(m.content)) for m in ms)
    )
    assert kept == [], kept
    print("reproduced: newest_message_over_budget_is_dropped")


if __name__ == "__main__":
    last_starts_on_a_tool_message()
    first_ends_on_unanswered_calls()
    start_on_human_still_orphans()
    include_system_exceeds_max_tokens()
    newest_message_over_budget_is_dropped()
