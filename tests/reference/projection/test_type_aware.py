"""TypeAwareContextProjector: Tier-1 and Tier-2, then the default limits (contract §5).

With ctxpact's departures 2-4 and the report describing the caller's list.
"""

from __future__ import annotations

import copy

import pytest
from attrs import evolve
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference._items import function_call_output, user_message
from ctxpact.reference.projection import (
    REASONING_CLEARED_TEXT,
    TIER1_NOTE,
    TIER2_NOTE,
    TOOL_RESULT_PLACEHOLDER,
    TOOL_RESULT_PLACEHOLDER_BARE,
    TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY,
    TOOL_RESULT_PLACEHOLDER_NAME_ONLY,
    DefaultContextProjector,
    TypeAwareContextProjector,
    approx_chars,
    total_approx_chars,
)
from ctxpact.reference.projection._tiers import (
    PLACEHOLDER_FLOOR,
    PlannedTier1,
    PlannedTier2,
    TierReplacements,
    ToolNames,
    plan_tier1,
    plan_tier2,
)
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextReport,
    JsonObject,
    JsonValue,
    tool_calls,
)

PROJECTOR = TypeAwareContextProjector()
DEFAULT = DefaultContextProjector()
CLEARED_SUMMARY: list[JsonValue] = [{"type": "summary_text", "text": "[reasoning cleared]"}]


def chat_call(call_id: str, name: str) -> JsonObject:
    return {
        "type": "message",
        "role": "assistant",
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}
        ],
    }


def responses_call(call_id: str, name: str) -> JsonObject:
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"}


def anthropic_call(call_id: str, name: str) -> JsonObject:
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "tool_use", "id": call_id, "name": name, "input": {}}],
    }


def reasoning(identifier: str, **extra: JsonValue) -> JsonObject:
    item: JsonObject = {
        "type": "reasoning",
        "id": identifier,
        "summary": [{"type": "summary_text", "text": f"thinking {identifier}"}],
    }
    item.update(extra)
    return item


def tier1(keep: int) -> ContextBudget:
    return ContextBudget(max_recent_tool_results=keep)


TIER2 = ContextBudget(trim_old_reasoning=True)


# --- an independent, eager reading of contract §5 with departures 2-4 -------------------


def is_placeholder(output: JsonValue) -> bool:
    return isinstance(output, str) and (
        output == "[tool result cleared]"
        or (output.startswith("[tool result cleared: ") and output.endswith("]"))
    )


def label(call_id: str | None, name: str | None) -> str:
    if name is not None and call_id is not None:
        return f"[tool result cleared: {name}({call_id})]"
    if name is not None:
        return f"[tool result cleared: {name}]"
    if call_id is not None:
        return f"[tool result cleared: {call_id}]"
    return "[tool result cleared]"


def _name_for(call_id: JsonValue, own: JsonValue, names: dict[str, str]) -> str | None:
    name = names.get(call_id) if isinstance(call_id, str) else None
    if name is None and isinstance(own, str):
        name = own
    return name


def placeholder(old: JsonObject, names: dict[str, str]) -> JsonObject:
    """T1-4 for a Responses-style tool result."""
    call_id = old.get("call_id")
    call_id = call_id if isinstance(call_id, str) else None
    new: JsonObject = {"type": "function_call_output"}
    if call_id is not None:
        new["call_id"] = call_id
    new["output"] = label(call_id, _name_for(call_id, old.get("name"), names))
    return new


def with_label(old: JsonObject, id_key: str, names: dict[str, str]) -> JsonObject:
    """T1-4 for a Chat tool message or an Anthropic result part: content becomes the label."""
    call_id = old.get(id_key)
    call_id = call_id if isinstance(call_id, str) else None
    new = dict(old)
    new["content"] = label(call_id, _name_for(call_id, old.get("name"), names))
    return new


def result_slots(item: JsonValue) -> list[int | None]:
    """Where *item*'s tool results are (§1.4): the item itself, or its tool_result parts."""
    if not isinstance(item, dict) or item.get("type") == "reasoning":
        return []
    if item.get("type") == "function_call_output" or item.get("role") == "tool":
        return [None]
    content = item.get("content")
    if not isinstance(content, list):
        return []
    return [
        index
        for index, part in enumerate(content)
        if isinstance(part, dict) and part.get("type") == "tool_result"
    ]


def eager_tier1(working: list[JsonValue], keep: int, replaced: set[int]) -> int:
    names: dict[str, str] = {}
    for item in working:
        for call in tool_calls(item):
            if call.call_id is not None and call.name is not None:
                names[call.call_id] = call.name
    results = [(index, slot) for index, item in enumerate(working) for slot in result_slots(item)]
    cleared = 0
    for index, slot in results[: len(results) - keep] if len(results) > keep else []:
        old = working[index]
        assert isinstance(old, dict)
        if slot is None and old.get("type") == "function_call_output":
            if is_placeholder(old.get("output")):
                continue
            working[index] = placeholder(old, names)
        elif slot is None:
            if is_placeholder(old.get("content")):
                continue
            working[index] = with_label(old, "tool_call_id", names)
        else:
            parts = list(old["content"])  # type: ignore[arg-type]  # a carrier's content
            part = parts[slot]
            assert isinstance(part, dict)
            if is_placeholder(part.get("content")):
                continue
            parts[slot] = with_label(part, "tool_use_id", names)
            working[index] = {**old, "content": parts}
        replaced.add(index)
        cleared += 1
    return cleared


def is_user_input(item: JsonValue) -> bool:
    return isinstance(item, dict) and item.get("role") == "user" and not result_slots(item)


def eager_tier2(working: list[JsonValue], replaced: set[int]) -> int:
    users = [index for index, item in enumerate(working) if is_user_input(item)]
    payload = {"summary", "content", "text", "encrypted_content"}
    cleared = 0
    for index in range(users[-1] if users else 0):
        old = working[index]
        if not (isinstance(old, dict) and old.get("type") == "reasoning"):
            continue
        if old.get("summary") == CLEARED_SUMMARY and not (payload - {"summary"}) & set(old):
            continue
        new = {key: value for key, value in old.items() if key not in payload}
        new["summary"] = [{"type": "summary_text", "text": "[reasoning cleared]"}]
        working[index] = new
        replaced.add(index)
        cleared += 1
    return cleared


def eager_tiers(
    items: list[JsonValue], budget: ContextBudget
) -> tuple[list[JsonValue], list[str], set[int]]:
    working = list(items)
    notes: list[str] = []
    replaced: set[int] = set()
    keep = budget.max_recent_tool_results
    if keep is not None and (cleared := eager_tier1(working, keep, replaced)):
        notes.append(
            f"tier1 microcompact: cleared {cleared} old tool result(s), kept recent {keep}"
        )
    if budget.trim_old_reasoning and (cleared := eager_tier2(working, replaced)):
        notes.append(f"tier2 reasoning-trim: cleared {cleared} reasoning item(s)")
    return working, notes, replaced


def oracle(items: list[JsonValue], budget: ContextBudget | None) -> ContextProjection:
    if budget is None:
        return DEFAULT.project(items, None)
    working, notes, replaced = eager_tiers(items, budget)
    limited = DEFAULT.project(working, budget)
    dropped = limited.report.dropped_indices
    assert dropped is not None
    kept = [index for index in range(len(items)) if index not in dropped]
    return ContextProjection(
        items=limited.items,
        report=evolve(
            limited.report,
            source_item_count=len(items),
            source_approx_chars=total_approx_chars(items),
            dropped_item_count=len(items) - len(limited.items),
            notes=[*notes, *limited.report.notes],
            cleared_indices=[index for index in kept if index in replaced],
        ),
    )


# --- strategies -----------------------------------------------------------------------------

call_ids = st.sampled_from(["c1", "c2", "c3", ""])
names = st.sampled_from(["read", "write", "grep"])
texts = st.text(alphabet="ab é", max_size=8)
outputs = st.one_of(
    texts,
    st.none(),
    st.sampled_from(
        [
            "[tool result cleared]",
            "[tool result cleared: read(c1)]",
            "[tool result cleared: c2]",
            "[tool result cleared-not-a-placeholder]",
            "[tool result cleared: unclosed",
        ]
    ),
)


@st.composite
def tool_results(draw: st.DrawFn) -> JsonObject:
    item: JsonObject = {"type": "function_call_output"}
    call_id = draw(st.one_of(call_ids, st.just(7), st.none()))
    if call_id is not None:
        item["call_id"] = call_id
    item["output"] = draw(outputs)
    if draw(st.booleans()):
        item["name"] = draw(names)
    if draw(st.booleans()):
        item["status"] = "completed"
    if draw(st.integers(0, 9)) == 0:
        item["role"] = "user"
    return item


@st.composite
def reasoning_items(draw: st.DrawFn) -> JsonObject:
    if draw(st.integers(0, 3)) == 0:
        return {"type": "reasoning", "id": "rs", "summary": list(CLEARED_SUMMARY)}
    item: JsonObject = {"type": "reasoning", "id": draw(st.sampled_from(["rs_1", "rs_2"]))}
    for key in draw(
        st.lists(
            st.sampled_from(["summary", "content", "text", "encrypted_content", "status"]),
            unique=True,
        )
    ):
        item[key] = draw(texts)
    return item


@st.composite
def chat_results(draw: st.DrawFn) -> JsonObject:
    item: JsonObject = {"type": "message", "role": "tool"}
    call_id = draw(st.one_of(call_ids, st.just(7), st.none()))
    if call_id is not None:
        item["tool_call_id"] = call_id
    if draw(st.integers(0, 5)) > 0:
        item["content"] = draw(outputs)
    if draw(st.booleans()):
        item["name"] = draw(names)
    return item


@st.composite
def result_carriers(draw: st.DrawFn) -> JsonObject:
    parts: list[JsonValue] = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.integers(0, 4)) == 0:
            parts.append({"type": "text", "text": draw(texts)})
            continue
        part: JsonObject = {"type": "tool_result"}
        call_id = draw(st.one_of(call_ids, st.none()))
        if call_id is not None:
            part["tool_use_id"] = call_id
        if draw(st.integers(0, 5)) > 0:
            part["content"] = draw(outputs)
        if draw(st.booleans()):
            part["is_error"] = True
        parts.append(part)
    return {"type": "message", "role": "user", "content": parts}


transcript_items = st.one_of(
    tool_results(),
    chat_results(),
    result_carriers(),
    reasoning_items(),
    texts.map(user_message),
    st.builds(chat_call, call_ids, names),
    st.builds(responses_call, call_ids, names),
    st.builds(anthropic_call, call_ids, names),
    st.builds(
        lambda call_id: {"type": "message", "role": "assistant", "tool_calls": [{"id": call_id}]},
        call_ids,
    ),
    texts,
    st.none(),
)
transcripts = st.lists(transcript_items, max_size=14)
budgets = st.builds(
    ContextBudget,
    max_items=st.none() | st.integers(0, 16),
    max_approx_chars=st.none() | st.integers(0, 600),
    pinned_prefix_items=st.integers(0, 4),
    max_recent_tool_results=st.none() | st.integers(0, 4),
    trim_old_reasoning=st.booleans(),
)

# --- Tier-1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "calls", "expected"),
    [
        pytest.param(
            function_call_output("call-1", "payload"),
            [responses_call("call-1", "read")],
            {
                "type": "function_call_output",
                "call_id": "call-1",
                "output": "[tool result cleared: read(call-1)]",
            },
            id="name-and-call-id",
        ),
        pytest.param(
            {"type": "function_call_output", "name": "read", "output": "payload"},
            [],
            {"type": "function_call_output", "output": "[tool result cleared: read]"},
            id="name-only-from-the-result-itself",
        ),
        pytest.param(
            function_call_output("orphan-call", "payload"),
            [],
            {
                "type": "function_call_output",
                "call_id": "orphan-call",
                "output": "[tool result cleared: orphan-call]",
            },
            id="call-id-only",
        ),
        pytest.param(
            {"type": "function_call_output", "output": "payload"},
            [],
            {"type": "function_call_output", "output": "[tool result cleared]"},
            id="bare",
        ),
        pytest.param(
            {
                "type": "function_call_output",
                "call_id": 7,
                "output": "payload",
                "status": "completed",
            },
            [responses_call("7", "read")],
            {"type": "function_call_output", "output": "[tool result cleared]"},
            id="a-call-id-that-is-not-a-string-is-dropped",
        ),
        pytest.param(
            {
                "id": "fco_1",
                "type": "function_call_output",
                "call_id": "c",
                "output": "x",
                "status": "done",
                "name": "own",
            },
            [chat_call("c", "looked-up")],
            {
                "type": "function_call_output",
                "call_id": "c",
                "output": "[tool result cleared: looked-up(c)]",
            },
            id="the-call-name-wins-over-the-results-own-and-other-keys-go",
        ),
        pytest.param(
            function_call_output("c", "x"),
            [chat_call("c", "chat")],
            {
                "type": "function_call_output",
                "call_id": "c",
                "output": "[tool result cleared: chat(c)]",
            },
            id="chat-tool-calls",
        ),
        pytest.param(
            function_call_output("c", "x"),
            [{"type": "message", "role": "assistant", "tool_calls": [{"id": "c", "name": "flat"}]}],
            {
                "type": "function_call_output",
                "call_id": "c",
                "output": "[tool result cleared: flat(c)]",
            },
            id="chat-tool-calls-with-a-flat-name",
        ),
        pytest.param(
            function_call_output("c", "x"),
            [anthropic_call("c", "anthropic")],
            {
                "type": "function_call_output",
                "call_id": "c",
                "output": "[tool result cleared: anthropic(c)]",
            },
            id="anthropic-tool-use",
        ),
        pytest.param(
            function_call_output("c", "x"),
            [responses_call("c", "first"), chat_call("c", "second")],
            {
                "type": "function_call_output",
                "call_id": "c",
                "output": "[tool result cleared: second(c)]",
            },
            id="a-later-call-overwrites",
        ),
        pytest.param(
            function_call_output("c", "x"),
            [
                responses_call("c", "named"),
                {"type": "message", "role": "assistant", "tool_calls": [{"id": "c"}]},
            ],
            {
                "type": "function_call_output",
                "call_id": "c",
                "output": "[tool result cleared: named(c)]",
            },
            id="a-later-call-without-a-name-does-not-erase",
        ),
    ],
)
def test_placeholder(result: JsonObject, calls: list[JsonValue], expected: JsonObject) -> None:
    # The calls come after the result too: the lookup spans the whole list.
    items: list[JsonValue] = [calls[0] if calls else "start", result, *calls[1:]]
    projection = PROJECTOR.project(items, tier1(0))
    placeholder = projection.items[1]
    assert placeholder == expected
    assert isinstance(placeholder, dict)
    assert list(placeholder) == list(expected)
    assert projection.report.notes == (
        "tier1 microcompact: cleared 1 old tool result(s), kept recent 0",
    )
    assert projection.report.cleared_indices == (1,)
    assert projection == oracle(items, tier1(0))


def test_placeholder_and_note_formats() -> None:
    assert (
        TOOL_RESULT_PLACEHOLDER.format(name="read", call_id="call-1")
        == "[tool result cleared: read(call-1)]"
    )
    assert TOOL_RESULT_PLACEHOLDER_NAME_ONLY.format(name="read") == "[tool result cleared: read]"
    assert (
        TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY.format(call_id="orphan-call")
        == "[tool result cleared: orphan-call]"
    )
    assert TOOL_RESULT_PLACEHOLDER_BARE == "[tool result cleared]"
    assert (
        TIER1_NOTE.format(cleared=3, kept=2)
        == "tier1 microcompact: cleared 3 old tool result(s), kept recent 2"
    )
    assert TIER2_NOTE.format(cleared=1) == "tier2 reasoning-trim: cleared 1 reasoning item(s)"
    assert REASONING_CLEARED_TEXT == "[reasoning cleared]"


def test_keeps_the_newest_k_and_clears_the_older() -> None:
    items: list[JsonValue] = [
        user_message("go"),
        responses_call("c1", "read"),
        function_call_output("c1", "one" * 30),
        chat_call("c2", "grep"),
        function_call_output("c2", "two" * 30),
        "chatter",
        function_call_output("c3", "three"),
        function_call_output("c4", "four"),
    ]
    projection = PROJECTOR.project(items, tier1(2))
    assert list(projection.items) == [
        items[0],
        items[1],
        {
            "type": "function_call_output",
            "call_id": "c1",
            "output": "[tool result cleared: read(c1)]",
        },
        items[3],
        {
            "type": "function_call_output",
            "call_id": "c2",
            "output": "[tool result cleared: grep(c2)]",
        },
        "chatter",
        items[6],
        items[7],
    ]
    assert projection.items[6] is items[6]
    assert projection.items[7] is items[7]
    assert projection.report.notes == (
        "tier1 microcompact: cleared 2 old tool result(s), kept recent 2",
    )
    assert projection.report.cleared_indices == (2, 4)
    assert projection.report.dropped_indices == ()
    assert projection.report.source_approx_chars == total_approx_chars(items)
    assert projection.report.projected_approx_chars == total_approx_chars(projection.items)
    assert projection.report.projected_approx_chars < projection.report.source_approx_chars


def test_the_last_call_wins_when_several_results_are_cleared() -> None:
    items: list[JsonValue] = [
        chat_call("c2", "grep"),
        responses_call("c1", "first"),
        anthropic_call("c1", "second"),
        function_call_output("c1", "x"),
        function_call_output("c2", "y"),
        function_call_output("c3", "z"),
    ]
    projection = PROJECTOR.project(items, tier1(1))
    assert [item["output"] for item in projection.items[3:5] if isinstance(item, dict)] == [
        "[tool result cleared: second(c1)]",
        "[tool result cleared: grep(c2)]",
    ]
    assert projection == oracle(items, tier1(1))


def test_the_last_call_wins_however_far_the_lookup_reads() -> None:
    # Looking up c2 reads past both calls of c1; the later one must still win.
    items: list[JsonValue] = [
        chat_call("c2", "grep"),
        responses_call("c1", "first"),
        anthropic_call("c1", "second"),
        {
            "type": "message",
            "role": "assistant",
            "tool_calls": [{"id": "c3", "name": "a"}, {"id": "c3", "name": "b"}],
        },
        function_call_output("c2", "x"),
        function_call_output("c1", "y"),
        function_call_output("c3", "z"),
        function_call_output("c4", "newest"),
    ]
    projection = PROJECTOR.project(items, tier1(1))
    assert [item["output"] for item in projection.items[4:7] if isinstance(item, dict)] == [
        "[tool result cleared: grep(c2)]",
        "[tool result cleared: second(c1)]",
        "[tool result cleared: b(c3)]",
    ]
    assert projection == oracle(items, tier1(1))


def test_k_zero_clears_every_tool_result() -> None:
    items: list[JsonValue] = [function_call_output(f"c{i}", "x") for i in range(3)]
    projection = PROJECTOR.project(items, tier1(0))
    assert [item["output"] for item in projection.items if isinstance(item, dict)] == [
        "[tool result cleared: c0]",
        "[tool result cleared: c1]",
        "[tool result cleared: c2]",
    ]
    assert projection.report.notes == (
        "tier1 microcompact: cleared 3 old tool result(s), kept recent 0",
    )


@pytest.mark.parametrize("keep", [3, 4, 100])
def test_at_most_k_tool_results_is_a_no_op(keep: int) -> None:
    items: list[JsonValue] = [function_call_output(f"c{i}", "x" * 50) for i in range(3)]
    budget = ContextBudget(max_recent_tool_results=keep, max_approx_chars=100)
    assert PROJECTOR.project(items, budget) == DEFAULT.project(items, budget)


def test_a_placeholder_stays_as_it_is_and_is_not_counted() -> None:
    old_placeholder: JsonObject = {
        "type": "function_call_output",
        "call_id": "c1",
        "output": "[tool result cleared: c1]",
        "status": "completed",
    }
    items: list[JsonValue] = [
        responses_call("c1", "read"),  # would relabel it, if placeholders were relabelled
        old_placeholder,
        {"type": "function_call_output", "output": "[tool result cleared]"},
        function_call_output("c2", "[tool result cleared-but-not-a-placeholder]"),
        function_call_output("c3", "new"),
    ]
    projection = PROJECTOR.project(items, tier1(1))
    assert projection.items[1] is old_placeholder
    assert projection.items[2] is items[2]
    assert projection.items[3] == {
        "type": "function_call_output",
        "call_id": "c2",
        "output": "[tool result cleared: c2]",
    }
    assert projection.report.notes == (
        "tier1 microcompact: cleared 1 old tool result(s), kept recent 1",
    )
    assert projection.report.cleared_indices == (3,)


def test_only_placeholders_left_means_no_note_and_the_default_projection() -> None:
    items: list[JsonValue] = [
        {
            "type": "function_call_output",
            "call_id": "c1",
            "output": "[tool result cleared: read(c1)]",
        },
        function_call_output("c2", "recent"),
    ]
    budget = ContextBudget(max_recent_tool_results=1, max_items=1)
    assert PROJECTOR.project(items, budget) == DEFAULT.project(items, budget)


def test_placeholders_are_measured_by_the_char_stage() -> None:
    # Contract §5's example with compact-JSON sizes: 262 per result, 91 per placeholder.
    items: list[JsonValue] = [function_call_output(f"call-{i}", "x" * 200) for i in range(1, 5)]
    projection = PROJECTOR.project(
        items, ContextBudget(max_recent_tool_results=1, max_approx_chars=600)
    )
    assert projection.report == ContextReport(
        source_item_count=4,
        projected_item_count=4,
        dropped_item_count=0,
        source_approx_chars=1048,  # the caller's list, not the tiered one (ai4j: 495)
        projected_approx_chars=3 * 91 + 262,
        item_limit_applied=False,
        character_limit_applied=False,
        notes=("tier1 microcompact: cleared 3 old tool result(s), kept recent 1",),
        dropped_indices=(),
        cleared_indices=(0, 1, 2),
    )
    assert approx_chars(projection.items[0]) == 91


def test_tool_results_of_every_shape_count() -> None:
    chat: JsonObject = {
        "type": "message",
        "role": "tool",
        "tool_call_id": "c1",
        "content": "chat style",
    }
    carrier: JsonObject = {
        "type": "message",
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "c2", "content": "first", "is_error": True},
            {"type": "text", "text": "and a remark"},
            {"type": "tool_result", "tool_use_id": "c3"},
        ],
    }
    items: list[JsonValue] = [
        anthropic_call("c2", "grep"),
        chat,
        carrier,
        "function_call_output",
        {"kind": "function_call_output", "output": "x"},
    ]
    projection = PROJECTOR.project(items, tier1(1))
    assert projection.items[1] == {
        "type": "message",
        "role": "tool",
        "tool_call_id": "c1",
        "content": "[tool result cleared: c1]",
    }
    # The carrier's parts count one by one: the newest (c3) stays, c2 is cleared in place.
    assert projection.items[2] == {
        "type": "message",
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "c2",
                "content": "[tool result cleared: grep(c2)]",
                "is_error": True,
            },
            {"type": "text", "text": "and a remark"},
            {"type": "tool_result", "tool_use_id": "c3"},
        ],
    }
    assert projection.items[2]["content"][1] is carrier["content"][1]  # type: ignore[index]
    assert projection.items[3:] == tuple(items[3:])
    assert projection.report.notes == (
        "tier1 microcompact: cleared 2 old tool result(s), kept recent 1",
    )
    assert projection.report.cleared_indices == (1, 2)
    assert chat["content"] == "chat style"  # the caller's items are not touched


def test_a_part_without_content_gets_one() -> None:
    carrier: JsonValue = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c"}]}
    projection = PROJECTOR.project([carrier, function_call_output("d", "y")], tier1(1))
    assert projection.items[0] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "c", "content": "[tool result cleared: c]"}
        ],
    }


# --- Tier-2 ---------------------------------------------------------------------------------


def test_reasoning_before_the_last_user_message_is_cleared() -> None:
    old = reasoning("rs_1", encrypted_content="opaque", content=[], text="t", status="completed")
    current = reasoning("rs_2", encrypted_content="opaque")
    items: list[JsonValue] = [user_message("first"), old, user_message("second"), current]
    projection = PROJECTOR.project(items, TIER2)
    cleared = projection.items[1]
    assert cleared == {
        "type": "reasoning",
        "id": "rs_1",
        "status": "completed",
        "summary": CLEARED_SUMMARY,
    }
    assert isinstance(cleared, dict)
    assert list(cleared) == ["type", "id", "status", "summary"]
    assert projection.items[3] is current
    assert projection.report.notes == ("tier2 reasoning-trim: cleared 1 reasoning item(s)",)
    assert projection.report.cleared_indices == (1,)
    assert old["summary"] == [{"type": "summary_text", "text": "thinking rs_1"}]  # untouched


def test_without_a_user_message_nothing_is_trimmed() -> None:
    items: list[JsonValue] = [
        reasoning("rs_1"),
        {"type": "message", "role": "assistant"},
        reasoning("rs_2"),
    ]
    assert PROJECTOR.project(items, TIER2) == DEFAULT.project(items, TIER2)


def test_a_cleared_reasoning_item_is_not_cleared_again() -> None:
    already: JsonObject = {"type": "reasoning", "id": "rs_1", "summary": list(CLEARED_SUMMARY)}
    almost: JsonObject = {
        "type": "reasoning",
        "id": "rs_2",
        "summary": list(CLEARED_SUMMARY),
        "encrypted_content": "e",
    }
    items: list[JsonValue] = [already, almost, user_message("now")]
    projection = PROJECTOR.project(items, TIER2)
    assert projection.items[0] is already
    assert projection.items[1] == {"type": "reasoning", "id": "rs_2", "summary": CLEARED_SUMMARY}
    assert projection.report.notes == ("tier2 reasoning-trim: cleared 1 reasoning item(s)",)


def test_the_boundary_is_the_last_user_input_item() -> None:
    # A message that only delivers tool results starts no turn, in any shape; so Tier-1,
    # which only ever replaces such messages, cannot move the boundary.
    odd: JsonObject = {
        "type": "function_call_output",
        "role": "user",
        "call_id": "c",
        "output": "x",
    }
    carrier: JsonObject = {
        "type": "message",
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "d", "content": "y"}],
    }
    items: list[JsonValue] = [
        reasoning("rs_1"),
        user_message("u"),
        reasoning("rs_2"),
        odd,
        carrier,
    ]
    only_tier2 = PROJECTOR.project(items, TIER2)
    assert only_tier2.report.cleared_indices == (0,)
    both = PROJECTOR.project(
        items, ContextBudget(max_recent_tool_results=0, trim_old_reasoning=True)
    )
    assert both.report.cleared_indices == (0, 3, 4)
    assert both.items[2] is items[2]


# --- both tiers and the limits --------------------------------------------------------------


def test_notes_come_tier1_tier2_then_the_limits() -> None:
    items: list[JsonValue] = [
        user_message("goal"),
        reasoning("rs_1", encrypted_content="e" * 40),
        responses_call("c1", "read"),
        function_call_output("c1", "a" * 300),
        user_message("next" + "n" * 100),
        responses_call("c2", "read"),
        function_call_output("c2", "b" * 300),
        "x" * 50,
        "done",
    ]
    budget = ContextBudget(
        max_items=8,
        max_approx_chars=660,
        pinned_prefix_items=1,
        max_recent_tool_results=1,
        trim_old_reasoning=True,
    )
    projection = PROJECTOR.project(items, budget)
    assert projection.report.notes == (
        "tier1 microcompact: cleared 1 old tool result(s), kept recent 1",
        "tier2 reasoning-trim: cleared 1 reasoning item(s)",
        "maxItems applied: 8",
        "maxApproxChars applied: 660",
    )
    report = projection.report
    assert report.item_limit_applied
    assert report.character_limit_applied
    # Sizes 80, -, 70, 89 (the placeholder), 180, 70, 358, 50, 4: the greedy tail skips the
    # user message but keeps the smaller placeholder; the cleared reasoning item went with
    # the item stage, so it is counted in the note but is not in cleared_indices.
    assert report.dropped_indices == (1, 2, 4)
    assert report.cleared_indices == (3,)
    assert report.source_item_count == 9
    assert report.dropped_item_count == 3
    assert report.projected_approx_chars == 80 + 89 + 70 + 358 + 50 + 4
    assert projection == oracle(items, budget)


def test_no_budget_means_the_default_projection() -> None:
    items: list[JsonValue] = [function_call_output("c", "x"), reasoning("r"), user_message("u")]
    assert PROJECTOR.project(items, None) == DEFAULT.project(items, None)


# --- properties -----------------------------------------------------------------------------

EXAMPLE_ITEMS: list[JsonValue] = [
    user_message("goal"),
    reasoning("rs_1", encrypted_content="e"),
    chat_call("c1", "read"),
    function_call_output("c1", "aaaa"),
    anthropic_call("c2", "grep"),
    function_call_output("c2", "bbbb"),
    user_message("next"),
    responses_call("c3", "write"),
    function_call_output("c3", "cccc"),
]
EVERYTHING = ContextBudget(
    max_items=6,
    max_approx_chars=300,
    pinned_prefix_items=1,
    max_recent_tool_results=1,
    trim_old_reasoning=True,
)


@given(transcripts, st.none() | budgets)
@example(EXAMPLE_ITEMS, EVERYTHING)
@example(EXAMPLE_ITEMS, evolve(EVERYTHING, max_items=None, pinned_prefix_items=0))
@example([function_call_output("c", "x"), function_call_output("c", "y")], tier1(1))
def test_matches_the_contract_read_eagerly(
    items: list[JsonValue], budget: ContextBudget | None
) -> None:
    projection = PROJECTOR.project(items, budget)
    assert projection == oracle(items, budget)
    cleared = set(projection.report.cleared_indices or ())
    kept = [i for i in range(len(items)) if i not in (projection.report.dropped_indices or ())]
    assert cleared <= set(kept)
    for item, index in zip(projection.items, kept, strict=True):
        assert (item is items[index]) == (index not in cleared)


@given(transcripts, budgets)
@example(EXAMPLE_ITEMS, EVERYTHING)
@example([reasoning("r"), user_message("u")], ContextBudget(max_items=1))
def test_equals_the_default_projector_with_the_tiers_off(
    items: list[JsonValue], budget: ContextBudget
) -> None:
    off = evolve(budget, max_recent_tool_results=None, trim_old_reasoning=False)
    type_aware = PROJECTOR.project(items, off)
    assert type_aware == DEFAULT.project(items, off)
    assert all(
        a is b for a, b in zip(type_aware.items, DEFAULT.project(items, off).items, strict=True)
    )
    projection = PROJECTOR.project(items, budget)
    if not any(note.startswith(("tier1", "tier2")) for note in projection.report.notes):
        assert projection == DEFAULT.project(items, budget)


@given(transcripts, budgets.filter(lambda budget: budget.pinned_prefix_items <= 1))
@example(EXAMPLE_ITEMS, EVERYTHING)
@example(EXAMPLE_ITEMS, evolve(EVERYTHING, max_items=None, max_approx_chars=20))
def test_projecting_a_projection_changes_nothing(
    items: list[JsonValue], budget: ContextBudget
) -> None:
    once = PROJECTOR.project(items, budget)
    twice = PROJECTOR.project(list(once.items), budget)
    assert twice.items == once.items
    assert twice.report.notes == ()
    assert twice.report.cleared_indices == ()


@given(
    transcripts, budgets.map(lambda budget: evolve(budget, max_items=None, max_approx_chars=None))
)
@example(
    EXAMPLE_ITEMS, evolve(EVERYTHING, max_items=None, max_approx_chars=None, pinned_prefix_items=3)
)
def test_the_tiers_alone_are_idempotent_for_any_pinned_prefix(
    items: list[JsonValue], budget: ContextBudget
) -> None:
    once = PROJECTOR.project(items, budget)
    twice = PROJECTOR.project(list(once.items), budget)
    assert twice.items == once.items
    assert all(a is b for a, b in zip(twice.items, once.items, strict=True))


@given(transcripts, st.none() | budgets)
@example(EXAMPLE_ITEMS, EVERYTHING)
@example([reasoning("r", content=[{"type": "x"}]), user_message("u")], TIER2)
def test_changes_neither_the_list_nor_any_item(
    items: list[JsonValue], budget: ContextBudget | None
) -> None:
    before = copy.deepcopy(items)
    projection = PROJECTOR.project(items, budget)
    assert items == before
    # A new cleared reasoning item's summary is its own list, not a caller's.
    summaries = [id(item.get("summary")) for item in items if isinstance(item, dict)]
    for item in projection.items:
        is_new = all(item is not original for original in items)
        if is_new and isinstance(item, dict) and item.get("type") == "reasoning":
            assert id(item["summary"]) not in summaries


# --- the lazy building of new items ---------------------------------------------------------


@pytest.mark.parametrize(
    "old",
    [
        {"type": "function_call_output", "output": "a large output " * 20},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "long " * 40}]},
    ],
    ids=["bare-placeholder", "minimal-cleared-reasoning"],
)
def test_a_new_item_that_fits_exactly_is_kept(old: JsonObject) -> None:
    # The smallest new items: the char stage may skip an item on a lower bound of its size,
    # and the bound must never exceed the real size.
    newest = function_call_output("c", "y")
    items: list[JsonValue] = ["z" * 100, old, user_message("u"), newest]
    budget = ContextBudget(max_recent_tool_results=1, trim_old_reasoning=True)
    new = PROJECTOR.project(items, budget).items[1]
    exact = approx_chars(items[2]) + approx_chars(new) + approx_chars(newest)
    projection = PROJECTOR.project(items, evolve(budget, max_approx_chars=exact))
    assert projection.items == (new, items[2], newest)
    assert projection.report.dropped_indices == (0,)
    assert projection.report.cleared_indices == (1,)
    assert projection == oracle(items, evolve(budget, max_approx_chars=exact))


@given(transcripts)
@example([{"type": "function_call_output"}, {"type": "reasoning"}, user_message("u")])
def test_the_size_bound_of_a_new_item_holds(items: list[JsonValue]) -> None:
    tier1_positions = plan_tier1(items, 0)
    tier2_positions = plan_tier2(items)
    replacements = TierReplacements(
        items,
        tier1=PlannedTier1(tier1_positions),
        tier2=PlannedTier2(tier2_positions),
        names=ToolNames(items),
    )
    floors = replacements.floors()
    assert floors.keys() == {*tier1_positions, *tier2_positions}
    for position in [*tier1_positions, *tier2_positions]:
        assert position in replacements
        exact = approx_chars(replacements.build(position))
        assert floors[position] == replacements.floor(position) <= exact
        assert replacements.size(position) == exact
    assert (
        approx_chars({"type": "function_call_output", "output": "[tool result cleared]"})
        == PLACEHOLDER_FLOOR
    )


@pytest.mark.parametrize(
    "odd",
    [
        {"type": "reasoning", "role": "tool", "tool_call_id": "x", "content": "a"},
        {"type": "reasoning", "content": [{"type": "tool_result", "tool_use_id": "x"}]},
    ],
    ids=["role-tool", "result-part"],
)
def test_a_reasoning_item_is_never_a_tool_result(odd: JsonObject) -> None:
    # Only Tier-2 replaces it, and projecting the projection again changes nothing (PRJ-29).
    items: list[JsonValue] = [odd, user_message("hi")]
    budget = ContextBudget(max_recent_tool_results=0, trim_old_reasoning=True)
    first = PROJECTOR.project(items, budget)
    assert first.report.notes == ("tier2 reasoning-trim: cleared 1 reasoning item(s)",)
    assert "content" not in first.items[0]  # type: ignore[operator]  # a dict here
    again = PROJECTOR.project(list(first.items), budget)
    assert again.items == first.items
    assert again.report.notes == ()
