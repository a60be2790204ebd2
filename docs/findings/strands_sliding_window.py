"""Strands ``SlidingWindowConversationManager``: the matrix's findings, with Strands alone.

Run with ``python docs/findings/strands_sliding_window.py`` where ``strands-agents==1.62.0``
is installed (``pip install 'ctxpact[strands]'``); ctxpact is not imported. Each function
reproduces one finding and prints ``reproduced: NAME``; it raises AssertionError when Strands
no longer behaves so (tests/test_findings.py runs this file).
"""

from __future__ import annotations

import logging
from typing import Any

from strands.agent.conversation_manager import SlidingWindowConversationManager


class _Agent:
    def __init__(self, messages: list[Any]) -> None:
        self.messages = messages


def _use(call_id: str) -> dict[str, Any]:
    use = {"toolUseId": call_id, "name": "ls", "input": {}}
    return {"role": "assistant", "content": [{"toolUse": use}]}


def _result(call_id: str) -> dict[str, Any]:
    result = {"toolUseId": call_id, "content": [{"text": "ok"}], "status": "success"}
    return {"role": "user", "content": [{"toolResult": result}]}


def _text(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "content": [{"text": text}]}


def _manage(messages: list[Any], window: int) -> list[Any]:
    agent = _Agent(list(messages))
    manager = SlidingWindowConversationManager(window_size=window, should_truncate_results=False)
    logging.getLogger("strands").addHandler(logging.NullHandler())
    manager.apply_management(agent)  # type: ignore[arg-type]
    return agent.messages


def trim_point_checks_only_its_own_message() -> None:
    """Bug: a plain user message is a trim point even when a later result's use is before it.

    ``find_valid_trim_point`` checks only the message at the trim point. With a user message
    between a ``toolUse`` and its ``toolResult`` (a step's results spread over messages), the
    window starts at that user message and the result after it keeps no use. Strands' own loop
    puts all results in one message right after the uses, which hides it. Fix: reject a trim
    point when a kept toolResult's toolUseId is not kept. Related: strands-agents/harness-sdk
    #2173 and #2174 (the trim-point fallback for tool-heavy histories).
    """
    messages = [
        _text("user", "go"),
        _text("assistant", "ok"),
        _use("a"),
        _text("user", "(meanwhile)"),
        _result("a"),
        _text("assistant", "done"),
    ]
    kept = _manage(messages, window=3)
    assert kept == messages[3:], kept  # the result of a, without its use
    print("reproduced: trim_point_checks_only_its_own_message")


def no_trim_point_keeps_everything() -> None:
    """Contract difference: without a valid trim point the window is not applied at all.

    ``reduce_context`` logs a warning and keeps every message, over ``window_size``.
    """
    messages = [_text("assistant", f"a{n}") for n in range(5)]
    kept = _manage(messages, window=3)
    assert kept == messages, kept
    print("reproduced: no_trim_point_keeps_everything")


if __name__ == "__main__":
    trim_point_checks_only_its_own_message()
    no_trim_point_keeps_everything()
