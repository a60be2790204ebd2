"""Tool calls, tool results and their pairing in the three shapes (§1.4, PAIR-1 .. PAIR-3)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.spec import (
    JsonObject,
    JsonValue,
    Shape,
    is_user_input,
    pairing,
    tool_calls,
    tool_results,
)


def user(text: str = "u") -> JsonObject:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def chat(*ids: str) -> JsonObject:
    return {
        "type": "message",
        "role": "assistant",
        "tool_calls": [{"id": i, "type": "function", "function": {"name": "t"}} for i in ids],
    }


def tool(call_id: str) -> JsonObject:
    return {"type": "message", "role": "tool", "tool_call_id": call_id, "content": "ok"}


def call(call_id: str) -> JsonObject:
    return {"type": "function_call", "call_id": call_id, "name": "t", "arguments": "{}"}


def output(call_id: str) -> JsonObject:
    return {"type": "function_call_output", "call_id": call_id, "output": "ok"}


def use(*ids: str) -> JsonObject:
    parts: list[JsonValue] = [{"type": "text", "text": "on it"}]
    parts += [{"type": "tool_use", "id": i, "name": "t", "input": {}} for i in ids]
    return {"type": "message", "role": "assistant", "content": parts}


def carrier(*ids: str) -> JsonObject:
    parts: list[JsonValue] = [{"type": "tool_result", "tool_use_id": i} for i in ids]
    return {"type": "message", "role": "user", "content": parts}


def reasoning() -> JsonObject:
    return {"type": "reasoning", "id": "rs", "summary": []}


# -- recognition -------------------------------------------------------------------------------


def test_a_result_in_each_shape() -> None:
    assert [(r.call_id, r.shape, r.part) for r in tool_results(output("a"))] == [
        ("a", Shape.RESPONSES, None)
    ]
    assert [(r.call_id, r.shape, r.part) for r in tool_results(tool("b"))] == [
        ("b", Shape.CHAT, None)
    ]
    mixed: JsonValue = {
        "role": "user",
        "content": ["text", {"type": "tool_result", "tool_use_id": "c"}],
    }
    assert [(r.call_id, r.shape, r.part) for r in tool_results(mixed)] == [
        ("c", Shape.ANTHROPIC, 1)
    ]


def test_the_first_matching_rule_wins() -> None:
    # A function_call_output with role "tool" is a Responses result, never two results.
    both: JsonValue = {
        "type": "function_call_output",
        "role": "tool",
        "call_id": "a",
        "tool_call_id": "b",
    }
    assert [r.call_id for r in tool_results(both)] == ["a"]
    # A tool message is a result item: its content is not searched for parts.
    nested: JsonValue = {"role": "tool", "tool_call_id": "a", "content": [{"type": "tool_result"}]}
    assert [(r.shape, r.part) for r in tool_results(nested)] == [(Shape.CHAT, None)]


@pytest.mark.parametrize(
    "value",
    [
        {"type": "function_call_output", "call_id": 7},
        {"role": "tool", "tool_call_id": None},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": ["a"]}]},
    ],
    ids=["responses", "chat", "anthropic"],
)
def test_a_call_id_counts_only_when_it_is_a_string(value: JsonValue) -> None:
    assert [r.call_id for r in tool_results(value)] == [None]


@pytest.mark.parametrize(
    "value",
    [None, "function_call_output", 3, ["a"], {"type": "message", "content": "text"}, {"role": 5}],
)
def test_other_values_hold_no_result(value: JsonValue) -> None:
    assert list(tool_results(value)) == []


def test_holder_and_output_key_find_the_output() -> None:
    item = carrier("a", "b")
    second = list(tool_results(item))[1]
    assert second.holder(item) == {"type": "tool_result", "tool_use_id": "b"}
    assert second.output_key == "content"
    assert next(tool_results(output("x"))).output_key == "output"


def test_user_input_items_start_turns() -> None:
    assert is_user_input(user())
    assert is_user_input({"role": "user", "content": "plain chat"})
    assert not is_user_input(carrier("a"))
    assert not is_user_input({"type": "function_call_output", "role": "user", "call_id": "a"})
    assert not is_user_input(tool("a"))
    assert not is_user_input("user")


def test_tool_calls_name_their_shape() -> None:
    assert [c.shape for c in tool_calls(chat("a", "b"))] == [Shape.CHAT, Shape.CHAT]
    assert [c.shape for c in tool_calls(use("a"))] == [Shape.ANTHROPIC]
    assert [(c.call_id, c.shape) for c in tool_calls(call("a"))] == [("a", Shape.RESPONSES)]


# -- pairing -----------------------------------------------------------------------------------


def test_results_pair_with_the_latest_earlier_call() -> None:
    items: list[JsonValue] = [chat("a"), tool("a"), chat("a"), tool("a"), output("zz")]
    found = pairing(items)
    assert [(link.position, link.call) for link in found.results] == [(1, 0), (3, 2), (4, None)]
    assert [(link.position, link.results) for link in found.calls] == [(0, (1,)), (2, (3,))]
    assert [link.position for link in found.orphans()] == [4]
    assert found.pending() == ()


def test_a_result_before_its_call_is_an_orphan_and_the_call_is_pending() -> None:
    found = pairing([output("a"), call("a")])
    assert [link.position for link in found.orphans()] == [0]
    assert [link.position for link in found.pending()] == [1]
    assert found.units() == ((0,), (1,))


def test_pairing_crosses_shapes() -> None:
    found = pairing([chat("a"), output("a"), use("b"), tool("b")])
    assert found.units() == ((0, 1), (2, 3))


def test_units_of_the_three_shapes() -> None:
    items: list[JsonValue] = [
        user(),
        reasoning(),
        call("a"),
        call("b"),
        output("a"),
        output("b"),
        chat("c", "d"),
        tool("c"),
        tool("d"),
        use("e"),
        carrier("e"),
        reasoning(),
        {"type": "message", "role": "assistant", "content": "done"},
        user(),
    ]
    assert pairing(items).units() == (
        (0,),
        (1, 2, 3, 4, 5),
        (6, 7, 8),
        (9, 10),
        (11, 12),
        (13,),
    )


# -- PAIR-3, brute force -----------------------------------------------------------------------


def _call_ids(value: JsonValue) -> set[str]:
    return {c.call_id for c in tool_calls(value) if c.call_id is not None}


def _kind(value: JsonValue) -> JsonValue:
    return value.get("type") if isinstance(value, dict) else None


def _joined(item: JsonValue, after: JsonValue) -> bool:
    if _kind(after) == "function_call":
        return _kind(item) in {"function_call", "reasoning"}
    return (
        _kind(item) == "reasoning" and isinstance(after, dict) and after.get("role") == "assistant"
    )


def brute_units(items: Sequence[JsonValue]) -> set[frozenset[int]]:
    """PAIR-1 and PAIR-3 the slow way: links, then connected parts by repeated merging."""
    groups = [{position} for position in range(len(items))]

    def merge(left: int, right: int) -> None:
        first = next(g for g in groups if left in g)
        second = next(g for g in groups if right in g)
        if first is not second:
            first |= second
            groups.remove(second)

    for position, item in enumerate(items):
        for result in tool_results(item):
            earlier = [d for d in range(position) if result.call_id in _call_ids(items[d])]
            if result.call_id is not None and earlier:
                merge(earlier[-1], position)
        if position + 1 < len(items) and _joined(item, items[position + 1]):
            merge(position, position + 1)
    return {frozenset(group) for group in groups}


IDS = st.sampled_from(["a", "b", "c"])
ITEMS = st.lists(
    st.one_of(
        st.builds(user),
        st.lists(IDS, max_size=2).map(lambda ids: chat(*ids)),
        IDS.map(tool),
        IDS.map(call),
        IDS.map(output),
        st.lists(IDS, min_size=1, max_size=2).map(lambda ids: use(*ids)),
        st.lists(IDS, min_size=1, max_size=2).map(lambda ids: carrier(*ids)),
        st.builds(reasoning),
        st.just({"type": "message", "role": "assistant"}),
        st.just("text"),
        st.none(),
    ),
    max_size=16,
)


@given(items=ITEMS)
@example(items=[user(), reasoning(), {"type": "message", "role": "assistant"}, user()])
@example(items=[call("a"), call("a"), output("a")])
@example(items=[use("a", "b"), carrier("b", "a"), carrier("a")])
@example(items=[chat("a"), user(), tool("a"), reasoning(), call("b")])
def test_units_are_the_connected_parts_of_the_links(items: list[JsonValue]) -> None:
    found = pairing(items)
    assert {frozenset(unit) for unit in found.units()} == brute_units(items)
    assert all(found.unit_of[position] == min(unit) for unit in found.units() for position in unit)


@given(items=ITEMS)
@example(items=[chat("a", "a"), tool("a")])
@example(items=[carrier("a"), use("a"), carrier("a", "a")])
def test_every_result_is_an_orphan_or_answers_a_call(items: list[JsonValue]) -> None:
    found = pairing(items)
    answered = {r for link in found.calls for r in link.results}
    for link in found.results:
        if link.call is None:
            assert link.result.call_id is None or not any(
                link.result.call_id in _call_ids(items[d]) for d in range(link.position)
            )
        else:
            assert link.position in answered
            assert link.result.call_id in _call_ids(items[link.call])


@pytest.mark.parametrize(
    "value",
    [
        {"type": "reasoning", "role": "tool", "tool_call_id": "x", "content": "a"},
        {"type": "reasoning", "content": [{"type": "tool_result", "tool_use_id": "x"}]},
        {"type": "reasoning", "content": [{"type": "tool_use", "id": "x", "name": "t"}]},
        {"type": "reasoning", "tool_calls": [{"id": "x", "name": "t"}]},
        {"role": "user", "content": [{"type": "reasoning", "tool_calls": [{"id": "x"}]}]},
    ],
    ids=["role-tool", "result-part", "tool-use-part", "tool-calls", "nested"],
)
def test_reasoning_holds_no_call_and_no_result(value: JsonValue) -> None:
    # Tier-2 rewrites a reasoning item's payload; were a call or a result inside it, clearing
    # reasoning would change the pairing (PRJ-30 says it never does).
    assert list(tool_calls(value)) == []
    assert list(tool_results(value)) == []
