"""Strands ``SummarizingConversationManager``: the compliance matrix's finding, Strands alone.

Run with ``python docs/findings/strands_summarizing.py`` where ``strands-agents==1.62.0`` is
installed (``pip install 'ctxpact[strands]'``); ctxpact is not imported. The function
reproduces the finding and prints ``reproduced: NAME``; it raises AssertionError when Strands
no longer behaves so (tests/test_findings.py runs this file).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from strands.agent.conversation_manager import SummarizingConversationManager
from strands.models import Model
from strands.types.exceptions import ContextWindowOverflowException


class _Summarizer(Model):
    """A model that answers every call with the same summary text."""

    def update_config(self, **model_config: Any) -> None:
        del model_config

    def get_config(self) -> Any:
        return {}

    def structured_output(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def stream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        del args, kwargs
        yield {"messageStart": {"role": "assistant"}}
        yield {"contentBlockDelta": {"delta": {"text": "the summary"}}}
        yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "end_turn"}}


class _Agent:
    def __init__(self, messages: list[Any]) -> None:
        self.messages = messages
        self.aux_model = self.model = _Summarizer()


def _use(call_id: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"toolUse": {"toolUseId": call_id, "name": "ls", "input": {}}}],
    }


def _result(call_id: str) -> dict[str, Any]:
    result = {"toolUseId": call_id, "content": [{"text": "ok"}], "status": "success"}
    return {"role": "user", "content": [{"toolResult": result}]}


def split_point_checks_only_the_next_message() -> None:
    """Limitation: a split after one of two calls keeps the other call's result without it.

    ``adjust_split_point_for_tool_pairs`` accepts a split at a ``toolUse`` message when the
    *next* message holds some ``toolResult``; it does not check that the results kept belong
    to uses kept. With the calls of one step in two assistant messages (as a history converted
    from the OpenAI Responses API has them) the split falls between the two uses, and the
    result of the first stays without its use. Strands' own loop puts a step's uses in one
    message and Bedrock requires roles to alternate, so Strands' own histories do not reach
    it. Fix: accept a split only when every toolResult after it has its toolUse after it.
    No upstream issue found.
    """
    messages = [
        {"role": "user", "content": [{"text": "list both"}]},
        _use("a"),
        _use("b"),
        _result("a"),
        _result("b"),
    ]
    agent = _Agent(messages)
    manager = SummarizingConversationManager(summary_ratio=0.5, preserve_recent_messages=2)
    manager.reduce_context(agent, e=ContextWindowOverflowException())  # type: ignore[arg-type]
    kept = agent.messages[1:]  # after the summary message
    uses = {b["toolUse"]["toolUseId"] for m in kept for b in m["content"] if "toolUse" in b}
    results = [
        b["toolResult"]["toolUseId"] for m in kept for b in m["content"] if "toolResult" in b
    ]
    assert [r for r in results if r not in uses] == ["a"], (uses, results)
    print("reproduced: split_point_checks_only_the_next_message")


if __name__ == "__main__":
    split_point_checks_only_the_next_message()
