"""OpenAI Agents SDK sessions: the compliance matrix's findings, with the SDK alone.

Run with ``python docs/findings/openai_agents.py`` where ``openai-agents==0.24.0`` is
installed (``pip install 'ctxpact[openai-agents]'``); ctxpact is not imported. Each function
reproduces one finding and prints ``reproduced: NAME``; it raises AssertionError when the SDK
no longer behaves so (tests/test_findings.py runs this file).
"""

from __future__ import annotations

import asyncio
from typing import Any

from agents import Agent, RunConfig, Runner, SQLiteSession
from agents.memory import SessionSettings
from agents.testing import ScriptedModel, assistant_message


async def _model_input(history: list[Any], limit: int) -> list[Any]:
    session = SQLiteSession("s", ":memory:", session_settings=SessionSettings(limit=limit))
    await session.add_items(history)
    model = ScriptedModel([[assistant_message("ok")]])
    await Runner.run(
        Agent(name="a", model=model),
        input=[{"role": "user", "content": "next"}],
        session=session,
        run_config=RunConfig(tracing_disabled=True),
    )
    session.close()
    return list(model.calls[0].input)[:-1]  # the history, without this turn's input


def limit_drops_the_newest_tool_output() -> None:
    """Limitation: a window that starts inside a step loses the step's outputs, not widens.

    ``limit`` counts stored items. With ``limit=1`` the window is the newest item, a
    ``function_call_output``; since #4324 (the fix of openai/openai-agents-python#4322) the
    SDK removes an output whose call is outside the window from the model input, so the
    model sees no history at all, not even the tool result it has to read. Valid for the
    provider, but the newest result is lost; widening the window back to the call (keeping
    the pair) would keep it. ctxpact's projectors keep the newest item (PRJ-11) and a
    pair-safe one its whole unit (PAIR-7).
    """
    history = [
        {"role": "user", "content": "list the files"},
        {"type": "function_call", "call_id": "c1", "name": "ls", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "a.py b.py"},
    ]
    seen = asyncio.run(_model_input(history, limit=1))
    assert seen == [], seen
    print("reproduced: limit_drops_the_newest_tool_output")


def limit_keeps_pairs_in_the_responses_shape() -> None:
    """Not a finding: for Responses items the limited window is pair-safe (since #4324).

    ``limit=2`` cuts between a call and its output; the output is removed and the call's
    earlier user message is not pulled in: what the model sees is valid.
    """
    history = [
        {"role": "user", "content": "list the files"},
        {"type": "function_call", "call_id": "c1", "name": "ls", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "a.py b.py"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "two files"}]},
    ]
    seen = asyncio.run(_model_input(history, limit=2))
    assert seen == [history[3]], seen
    print("reproduced: limit_keeps_pairs_in_the_responses_shape")


if __name__ == "__main__":
    limit_drops_the_newest_tool_output()
    limit_keeps_pairs_in_the_responses_shape()
