"""Worked examples of the projector checks, shared by several checks' explicit examples.

Small transcripts that reach Tier-1 (§7), Tier-2 (§8), tool-call pairing (PAIR-1 .. PAIR-3),
the provider shapes of tool calls and results, and edge names and call ids.
"""

from __future__ import annotations

from ctxpact.spec import (
    JsonValue,
)


def items_of(*values: JsonValue) -> list[JsonValue]:
    """A list of items, typed as such (literals in examples need the context)."""
    return list(values)


def _tool_result(call_id: str, output: JsonValue) -> JsonValue:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def _message(role: str, text: str) -> JsonValue:
    return {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}


def _user(text: str) -> JsonValue:
    return _message("user", text)


# Explicit examples are built afresh for every run: a projector that mutates its input
# must not change the examples of the next run.


def tier1_example() -> list[JsonValue]:
    """§5.4's worked example (Tier-1 with K = 1)."""
    return [
        {
            "type": "message",
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "call-1",
                    "type": "function",
                    "function": {"name": "read", "arguments": '{"path":"a.txt"}'},
                }
            ],
        },
        _tool_result("call-1", "alpha"),
        {"type": "function_call", "call_id": "call-2", "name": "grep", "arguments": "{}"},
        {
            "type": "function_call_output",
            "call_id": "call-2",
            "output": "beta",
            "status": "completed",
        },
        _tool_result("orphan", "gamma"),
        {"type": "function_call_output", "output": "delta"},
        _tool_result("call-6", "[tool result cleared: x]"),
        _tool_result("call-7", "newest"),
    ]


def tier2_example() -> list[JsonValue]:
    """§8's worked example (Tier-2); ``[::2]`` leaves out its user item."""
    return [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "thinking about A"}],
            "encrypted_content": "gAAA",
        },
        _user("next"),
        {"type": "reasoning", "id": "rs_2", "summary": []},
    ]


def four_results() -> list[JsonValue]:
    """§5.3's last row: four 262-char tool results."""
    return [_tool_result(f"call-{i}", "x" * 200) for i in range(1, 5)]


def summary_and_tail() -> list[JsonValue]:
    """A pinned summary, a middle and a recent tail (§5.3's first row)."""
    return ["system-summary", "old-1", "old-2", "recent-1", "recent-2"]


def numbers() -> list[JsonValue]:
    """Values whose compact JSON text is subtle (JSON-5, JSON-6)."""
    return [1, 1.0, {"b": 1, "a": [None, -0.0]}, "\U0001f600", None, 1e16]


def passthrough() -> list[JsonValue]:
    """Items that are not objects, or objects no tier touches: they pass through (JSON-1)."""
    return [" padded text ", 1.0, {"b": 1, "a": [2, None]}, ["x", None], True, None, -0.0]


def paired() -> list[JsonValue]:
    """Two turns, each a call right before its result."""
    return [
        _user("go"),
        {"type": "function_call", "call_id": "c1", "name": "read_file", "arguments": "{}"},
        _tool_result("c1", "x" * 30),
        _user("again"),
        {"type": "function_call", "call_id": "c2", "name": "grep", "arguments": "{}"},
        _tool_result("c2", "y" * 30),
    ]


def reasoned() -> list[JsonValue]:
    """A reasoning item with the call it produced and its output: one unit of three (PAIR-3)."""
    return [
        _user("go"),
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "call_id": "c1", "name": "ls", "arguments": "{}"},
        _tool_result("c1", "a.py"),
        _user("thanks"),
    ]


def edge_names() -> list[JsonValue]:
    """Calls named ``""`` (a name), in CJK and with an astral character, with such call ids."""
    calls = [("", "呼-1"), ("読み込み", "🔧2"), ("🔧fix", "call-3")]
    items: list[JsonValue] = [_user("go")]
    for name, call_id in calls:
        items.append({"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"})
        items.append(_tool_result(call_id, f"output of {name or 'the nameless tool'}"))
    return items


def odd_call_ids() -> list[JsonValue]:
    """Tool results whose call_id is a number or null: no id (§1.4), so none on a placeholder."""
    return [
        _user("go"),
        {"type": "function_call_output", "call_id": 7, "output": "a numeric call id"},
        {"type": "function_call_output", "call_id": None, "output": "a null call id"},
        {"role": "tool", "tool_call_id": 8, "content": "a numeric tool_call_id"},
        _tool_result("call-9", "the newest"),
    ]


def carriers() -> list[JsonValue]:
    """Chat tool messages and an Anthropic carrier with two results and a text part between."""
    return [
        _user("go"),
        {
            "role": "assistant",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "alpha", "name": "read"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "grep", "input": {}},
                {"type": "tool_use", "id": "t2", "name": "ls", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "beta", "is_error": True},
                {"type": "text", "text": "between"},
                {
                    "type": "tool_result",
                    "tool_use_id": "t2",
                    "content": [{"type": "text", "text": "g"}],
                },
            ],
        },
        {"role": "tool", "tool_call_id": "c9"},
    ]
