"""LangChain v1 agent middleware: the compliance matrix's findings, with LangChain alone.

Run with ``python docs/findings/langchain_middleware.py`` where ``langchain==1.5.2`` is
installed (``pip install 'ctxpact[langchain-agents]'``); ctxpact is not imported. Each
function reproduces one finding and prints ``reproduced: NAME``; it raises AssertionError
when the framework no longer behaves so (tests/test_findings.py runs this file).
"""

from __future__ import annotations

from langchain.agents.middleware import ClearToolUsesEdit, SummarizationMiddleware
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately


def _call(call_id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": "read", "args": {}, "id": call_id}])


def _orphans(messages: list[BaseMessage]) -> list[str]:
    """Ids of the ToolMessages whose call no earlier AIMessage in *messages* declares."""
    declared: set[str] = set()
    found = []
    for message in messages:
        if isinstance(message, AIMessage):
            declared.update(str(call["id"]) for call in message.tool_calls)
        elif isinstance(message, ToolMessage) and message.tool_call_id not in declared:
            found.append(message.tool_call_id)
    return found


def summarization_orphans_results_of_earlier_calls() -> None:
    """Bug: the cut moves back to the nearest AIMessage holding *any* of the cut's call ids.

    Three calls in three AIMessages (one call per model turn, as a Responses-style history
    has them) and then their three results. ``keep=("messages", 3)`` puts the cut on the
    first result; ``_find_safe_cutoff_point`` walks back to the first AIMessage whose ids
    intersect the run's, the one of call c, and summarizes the calls of a and b away while
    their results stay: the next request is a 400 (``No tool call found for function call
    output``). langchain-ai/langchain#38352 (open) reports it; PRs #38423, #38424, #38449
    propose to walk back until every id of the run is covered.
    """
    messages: list[BaseMessage] = [
        HumanMessage(content="read three files", id="h"),
        _call("a"),
        _call("b"),
        _call("c"),
        ToolMessage(content="A", tool_call_id="a"),
        ToolMessage(content="B", tool_call_id="b"),
        ToolMessage(content="C", tool_call_id="c"),
    ]
    model = GenericFakeChatModel(messages=iter([AIMessage(content="the summary")]))
    middleware = SummarizationMiddleware(model=model, trigger=("messages", 7), keep=("messages", 3))
    update = middleware.before_model({"messages": messages}, None)  # type: ignore[arg-type]
    assert update is not None
    kept = update["messages"][2:]  # after RemoveMessage and the summary message
    assert _orphans(kept) == ["a", "b"], _orphans(kept)
    print("reproduced: summarization_orphans_results_of_earlier_calls")


def summarization_keep_is_not_a_bound() -> None:
    """Documented behaviour: ``keep`` is a target, the cut moves back to keep a call's results.

    ``keep=("messages", 1)`` on a call and its result keeps both (the class docstring:
    "ensuring AI/Tool message pairs remain together"). ctxpact's ``maxItems`` is a bound
    (PRJ-9), so the projector row fails max-items: a difference of contract, not a bug.
    """
    messages: list[BaseMessage] = [_call("a"), ToolMessage(content="A", tool_call_id="a")]
    model = GenericFakeChatModel(messages=iter([AIMessage(content="the summary")]))
    middleware = SummarizationMiddleware(model=model, trigger=("messages", 2), keep=("messages", 1))
    update = middleware.before_model({"messages": messages}, None)  # type: ignore[arg-type]
    assert update is None, update  # the cut moved to 0: nothing to summarize, both kept
    print("reproduced: summarization_keep_is_not_a_bound")


def clear_tool_uses_reads_only_the_nearest_ai_message() -> None:
    """Bug: a result whose call is not in the nearest earlier AIMessage is never cleared.

    ``ClearToolUsesEdit.apply`` looks up a ToolMessage's call in the closest preceding
    AIMessage only. With one call per AIMessage, the result of a sits after the AIMessage of
    b, so it is skipped (kept in full) while the newer result of b is cleared: the edit
    clears less than ``keep`` asks and not the oldest first. Fix: search every earlier
    AIMessage for the call id (as the Anthropic clear_tool_uses strategy it mirrors matches
    tool_use ids). No upstream issue found.
    """
    messages: list[BaseMessage] = [
        HumanMessage(content="read two files"),
        _call("a"),
        _call("b"),
        ToolMessage(content="A" * 40, tool_call_id="a"),
        ToolMessage(content="B" * 40, tool_call_id="b"),
        HumanMessage(content="and now?"),
    ]
    ClearToolUsesEdit(trigger=0, keep=0).apply(messages, count_tokens=count_tokens_approximately)
    contents = [m.content for m in messages if isinstance(m, ToolMessage)]
    assert contents == ["A" * 40, "[cleared]"], contents
    print("reproduced: clear_tool_uses_reads_only_the_nearest_ai_message")


def clear_tool_uses_placeholder_names_nothing() -> None:
    """Contract difference: the placeholder is one fixed text, ``[cleared]``.

    ctxpact's Tier-1 label names the call (``[tool result cleared: read(a)]``, T1-4, T1-6),
    so the model can tell which result it lost and ask again; LangChain's cannot be set per
    result. A maintainer could accept a callable placeholder (tool name, call id).
    """
    messages: list[BaseMessage] = [_call("a"), ToolMessage(content="A", tool_call_id="a")]
    ClearToolUsesEdit(trigger=0, keep=0).apply(messages, count_tokens=count_tokens_approximately)
    assert messages[1].content == "[cleared]", messages[1].content
    print("reproduced: clear_tool_uses_placeholder_names_nothing")


if __name__ == "__main__":
    summarization_orphans_results_of_earlier_calls()
    summarization_keep_is_not_a_bound()
    clear_tool_uses_reads_only_the_nearest_ai_message()
    clear_tool_uses_placeholder_names_nothing()
