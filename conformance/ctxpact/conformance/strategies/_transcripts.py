"""Realistic, adversarial agent transcripts, and budgets sized to them.

A transcript is a list of memory items as agents really write them: several turns of user
messages, assistant text, parallel tool calls in the three shapes the spec knows (Chat
``tool_calls``, Responses ``function_call`` items, Anthropic ``tool_use`` parts), their
results, reasoning items and system messages mid-history; and the odd things too: orphan
results, calls never answered, results already cleared to placeholders, plain strings and
numbers, CJK, emoji and astral characters, empty and large outputs.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from ctxpact.spec import ContextBudget, JsonObject, JsonValue

#: Tool names, including ones whose words a file tracker must not mistake for file tools.
TOOL_NAMES = (
    "read_file",
    "write_file",
    "edit",
    "grep",
    "ls",
    "bash",
    "run_tests",
    "search",
    "createFile",
    "readHTTPResource",
    "tools",
    "details",
    "format",
    "location",
    "view-image",
)
_ALPHABETS = st.sampled_from(
    [
        st.characters(codec="ascii", exclude_categories=["Cs", "Cc"]),
        st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF),  # CJK
        st.characters(min_codepoint=0x1F300, max_codepoint=0x1F64F),  # emoji, astral
        st.characters(exclude_categories=["Cs"]),
    ]
)


def json_faithful(text: str) -> str:
    """Return *text* as it reads back from JSON.

    A high surrogate followed by a low one becomes the astral character they encode, as every
    JSON reader makes of them; lone surrogates stay. Text that crosses a process boundary (a
    harness) can only hold what JSON can carry, so the strategies generate only such text, and
    a check compares like with like.
    """
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


@st.composite
def texts(draw: st.DrawFn, *, max_size: int = 40) -> str:
    """Short prose in one of several scripts, sometimes empty."""
    alphabet = draw(_ALPHABETS)
    return draw(st.text(alphabet, max_size=max_size))


@st.composite
def tool_outputs(draw: st.DrawFn) -> str | None:
    """A tool's output: usually short, sometimes empty, null, large, or already cleared."""
    kind = draw(
        st.sampled_from(["short", "short", "short", "empty", "null", "large", "placeholder"])
    )
    if kind == "empty":
        return ""
    if kind == "null":
        return None
    if kind == "large":
        return draw(texts(max_size=20)) * draw(st.integers(50, 200))
    if kind == "placeholder":
        return draw(
            st.sampled_from(
                [
                    "[tool result cleared]",
                    "[tool result cleared: call-0]",
                    "[tool result cleared: read_file(call-0)]",
                    "[tool result cleared: read_file]",
                ]
            )
        )
    return draw(texts())


def _text_part(text: str) -> JsonObject:
    return {"type": "input_text", "text": text}


def _message(role: str, text: str) -> JsonObject:
    return {"type": "message", "role": role, "content": [_text_part(text)]}


@st.composite
def _arguments(draw: st.DrawFn, name: str) -> JsonObject:
    key = draw(st.sampled_from(["path", "file", "filename", "filepath", "file_path", "query"]))
    value = draw(
        st.sampled_from(
            ["src/app.py", "README.md", "/etc/hosts", "docs\\a.txt", "noslash", " ", "日本/語.txt"]
        )
    )
    arguments: JsonObject = {key: value}
    if name == "bash":
        arguments = {"command": draw(texts(max_size=20))}
    return arguments


@st.composite
def _step(draw: st.DrawFn, counter: list[int]) -> list[JsonValue]:
    """One model step: optional reasoning, 1-3 parallel tool calls in one shape, results."""
    items: list[JsonValue] = []
    if draw(st.booleans()):
        reasoning: JsonObject = {
            "type": "reasoning",
            "id": f"rs_{counter[0]}",
            "summary": [{"type": "summary_text", "text": draw(texts())}],
        }
        if draw(st.booleans()):
            reasoning["encrypted_content"] = draw(texts(max_size=16))
        items.append(reasoning)
    calls: list[tuple[str, str, JsonObject]] = []
    for _ in range(draw(st.integers(1, 3))):
        counter[0] += 1
        name = draw(st.sampled_from(TOOL_NAMES))
        calls.append((f"call-{counter[0]}", name, draw(_arguments(name))))
    shape = draw(st.sampled_from(["chat", "chat-flat", "responses", "anthropic"]))
    if shape == "chat":
        items.append(
            {
                "type": "message",
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": cid,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args)},
                    }
                    for cid, name, args in calls
                ],
            }
        )
    elif shape == "chat-flat":
        items.append(
            {
                "type": "message",
                "role": "assistant",
                "tool_calls": [
                    {"id": cid, "name": name, "arguments": json.dumps(args)}
                    for cid, name, args in calls
                ],
            }
        )
    elif shape == "responses":
        items.extend(
            {"type": "function_call", "call_id": cid, "name": name, "arguments": json.dumps(args)}
            for cid, name, args in calls
        )
    else:
        parts: list[JsonValue] = [_text_part(draw(texts()))]
        parts.extend(
            {"type": "tool_use", "id": cid, "name": name, "input": args}
            for cid, name, args in calls
        )
        items.append({"type": "message", "role": "assistant", "content": parts})
    answered = draw(st.lists(st.booleans(), min_size=len(calls), max_size=len(calls)))
    for (cid, _, _), answer in zip(calls, answered, strict=True):
        if answer or draw(st.booleans()):  # most calls get their result
            items.append(
                {"type": "function_call_output", "call_id": cid, "output": draw(tool_outputs())}
            )
    return items


@st.composite
def _oddity(draw: st.DrawFn) -> JsonValue:
    """Something a real memory sometimes holds that is not a well-formed message."""
    oddity: JsonValue = draw(
        st.one_of(
            texts(),
            st.integers(-(2**31), 2**31),
            st.none(),
            st.just({"type": "function_call_output", "call_id": "orphan-1", "output": "lost"}),
            st.just({"type": "function_call_output", "output": "no call id"}),
            st.builds(_message, st.just("system"), texts()),
            st.just(
                {
                    "type": "reasoning",
                    "id": "rs_x",
                    "content": [{"type": "reasoning_text", "text": "raw"}],
                }
            ),
            st.just({"role": "user", "content": "a chat-style user message"}),
        )
    )
    return oddity


@st.composite
def transcripts(draw: st.DrawFn, *, max_turns: int = 4, max_steps: int = 3) -> list[JsonValue]:
    """A whole agent transcript: turns of user input, tool-calling steps and answers."""
    counter = [0]
    items: list[JsonValue] = []
    if draw(st.booleans()):
        items.append(_message("system", draw(texts())))
    for _ in range(draw(st.integers(0, max_turns))):
        if draw(st.integers(0, 9)) > 0:  # a turn almost always starts with the user
            items.append(_message("user", draw(texts())))
        for _ in range(draw(st.integers(0, max_steps))):
            items.extend(draw(_step(counter)))
            if draw(st.integers(0, 5)) == 0:
                items.append(draw(_oddity()))
        if draw(st.booleans()):
            items.append(_message("assistant", draw(texts())))
    return items


def _limit(total: int) -> st.SearchStrategy[int | None]:
    return st.none() | st.integers(0, total + 2)


@st.composite
def budgets_for(draw: st.DrawFn, items: list[JsonValue], *, chars: int) -> ContextBudget:
    """A budget sized to a transcript of ``len(items)`` items and *chars* approximate chars."""
    return ContextBudget(
        max_items=draw(_limit(len(items))),
        max_approx_chars=draw(st.none() | st.integers(0, chars + 10)),
        pinned_prefix_items=draw(st.integers(0, 3)),
        max_recent_tool_results=draw(st.none() | st.integers(0, 5)),
        trim_old_reasoning=draw(st.booleans()),
    )


_SUMMARY_KEYS = ("completed", "pending", "decisions", "errors", "testResults", "openQuestions")


@st.composite
def summary_objects(draw: st.DrawFn) -> dict[str, Any]:
    """A summarizer's JSON object, with the odd value types models produce."""
    entry = st.one_of(
        texts(max_size=20),
        st.integers(-5, 5),
        st.booleans(),
        st.none(),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
    )
    document: dict[str, Any] = {}
    if draw(st.booleans()):
        document["goal"] = draw(st.one_of(texts(), st.none(), st.integers(0, 9)))
    for key in _SUMMARY_KEYS:
        if draw(st.integers(0, 3)) > 0:
            document[key] = draw(
                st.one_of(
                    st.lists(entry, max_size=3),
                    texts(max_size=20),
                    st.none(),
                    st.integers(0, 9),
                    st.just({"nested": ["x"]}),
                )
            )
    if draw(st.booleans()):
        document["extraKey"] = draw(texts(max_size=10))
    return document


@st.composite
def model_outputs(draw: st.DrawFn) -> str:  # noqa: PLR0911 - one return per kind
    """What a summarizer model returns: JSON, fenced JSON, JSON in prose, or no JSON at all."""
    body = json.dumps(draw(summary_objects()), ensure_ascii=draw(st.booleans()))
    kind = draw(
        st.sampled_from(
            [
                "json",
                "fenced",
                "prose",
                "braces-in-prose",
                "garbage",
                "empty",
                "truncated",
                "two-objects",
            ]
        )
    )
    prose = draw(texts(max_size=30))
    if kind == "fenced":
        return f"```json\n{body}\n```"
    if kind == "prose":
        return f"{prose}\n{body}\n{draw(texts(max_size=20))}"
    if kind == "braces-in-prose":
        return f"Note {{see below}}: {body} (done {{ok}})"
    if kind == "garbage":
        return draw(st.text(max_size=60))
    if kind == "empty":
        return draw(st.sampled_from(["", " ", "\n\t"]))
    if kind == "truncated":
        return body[: max(1, len(body) // 2)]
    if kind == "two-objects":
        return f'{body} and also {{"goal": "second"}}'
    return body
