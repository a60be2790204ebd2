"""The turn-boundary cut (CUT-n, departure 5)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference.compaction import find_turn_boundary_cut
from ctxpact.spec import JsonValue, is_user_input, pairing


def user(text: str = "u") -> JsonValue:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def assistant(*call_ids: str) -> JsonValue:
    item: dict[str, JsonValue] = {"type": "message", "role": "assistant"}
    if call_ids:
        item["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": "t", "arguments": "{}"}}
            for call_id in call_ids
        ]
    return item


def result(call_id: str) -> JsonValue:
    return {"type": "function_call_output", "call_id": call_id, "output": "ok"}


def function_call(call_id: str) -> JsonValue:
    return {"type": "function_call", "call_id": call_id, "name": "t", "arguments": "{}"}


def tool_use(call_id: str) -> JsonValue:
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "tool_use", "id": call_id, "name": "t", "input": {}}],
    }


def tool_message(call_id: str) -> JsonValue:
    return {"type": "message", "role": "tool", "tool_call_id": call_id, "content": "ok"}


def carrier(*call_ids: str) -> JsonValue:
    return {
        "type": "message",
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": c, "content": "ok"} for c in call_ids],
    }


def reasoning() -> JsonValue:
    return {"type": "reasoning", "id": "rs", "summary": []}


def separates(items: Sequence[JsonValue], cut: int) -> bool:
    """Whether a cut at *cut* has positions of one unit on both sides (units: test_pairing)."""
    return any(unit[0] < cut <= unit[-1] for unit in pairing(items).units())


def oracle(items: Sequence[JsonValue], naive_cut: int) -> int:
    """CUT-1 .. CUT-5, written the slow and obvious way."""
    cut = min(max(naive_cut, 0), len(items))
    if cut in {0, len(items)}:
        return cut
    for index in range(cut, 0, -1):
        if is_user_input(items[index]) and not separates(items, index):
            return index
    for index in range(cut, 0, -1):
        if not separates(items, index):
            return index
    return 0


@pytest.mark.parametrize(("naive_cut", "expected"), [(-5, 0), (0, 0), (4, 4), (5, 4), (100, 4)])
def test_naive_cut_is_clamped_and_the_ends_are_kept(naive_cut: int, expected: int) -> None:
    items = [assistant("a"), result("a"), assistant("b"), result("b")]
    assert find_turn_boundary_cut(items, naive_cut) == expected


def test_empty_list() -> None:
    assert find_turn_boundary_cut([], 3) == 0


def test_walks_back_to_the_nearest_user_message() -> None:
    items = [user(), assistant("a"), result("a"), user(), assistant("b"), result("b"), assistant()]
    assert find_turn_boundary_cut(items, 5) == 3
    assert find_turn_boundary_cut(items, 3) == 3
    # No user message in [1, 2], and a cut at 2 would separate call "a" from its result.
    assert find_turn_boundary_cut(items, 2) == 1


def test_a_user_message_that_carries_results_is_no_turn_boundary() -> None:
    # The Anthropic shape: the results travel in a user message. Cutting at it would keep
    # the results and summarize their call away (a provider 400); CUT-3 passes over it.
    items = [user(), tool_use("a"), carrier("a"), tool_use("b"), carrier("b"), assistant()]
    assert find_turn_boundary_cut(items, 4) == 3
    assert find_turn_boundary_cut(items, 2) == 1


def test_a_user_message_between_a_call_and_its_result_is_passed_over() -> None:
    # ai4j cut at the user message and kept the result without its call.
    items = [user(), assistant("a"), user("late"), tool_message("a"), assistant()]
    assert find_turn_boundary_cut(items, 3) == 1
    items = [user(), function_call("a"), user("late"), result("a"), user("next")]
    assert find_turn_boundary_cut(items, 3) == 1


def test_parallel_calls_and_their_reasoning_stay_together() -> None:
    items = [
        user(),
        reasoning(),
        function_call("a"),
        function_call("b"),
        result("a"),
        result("b"),
        assistant(),
    ]
    for naive_cut in range(2, 6):
        assert find_turn_boundary_cut(items, naive_cut) == 1
    assert find_turn_boundary_cut(items, 6) == 6


def test_chat_tool_messages_stay_with_their_call() -> None:
    items = [user(), assistant("a", "b"), tool_message("a"), tool_message("b"), assistant()]
    assert find_turn_boundary_cut(items, 3) == 1
    assert find_turn_boundary_cut(items, 4) == 4


def test_user_message_is_found_by_role_alone() -> None:
    items: list[JsonValue] = ["x", {"role": "user"}, "y", "z"]
    assert find_turn_boundary_cut(items, 3) == 1


def test_index_zero_is_never_chosen_by_the_user_rule() -> None:
    items = [user(), "a", "b", "c"]
    # No user message in [1, 2]; nothing to orphan, so the naive cut stands.
    assert find_turn_boundary_cut(items, 2) == 2


def test_long_single_turn_is_cut_between_complete_tool_exchanges() -> None:
    items = [
        user("do it"),
        assistant("a"),
        result("a"),
        assistant("b", "c"),
        result("b"),
        result("c"),
        assistant("d"),
        result("d"),
        assistant(),
    ]
    # ai4j returns 0 here (nothing summarized, forever); departure 5 cuts at a safe point.
    assert find_turn_boundary_cut(items, 5) == 3
    assert find_turn_boundary_cut(items, 7) == 6
    assert find_turn_boundary_cut(items, 8) == 8
    assert find_turn_boundary_cut(items, 4) == 3


def test_no_safe_cut_gives_zero() -> None:
    items = [assistant("a"), assistant("b"), result("a"), result("b")]
    assert find_turn_boundary_cut(items, 2) == 0
    items = [assistant("a", "b"), "x", result("a"), "y", result("b")]
    assert find_turn_boundary_cut(items, 4) == 0


def test_orphan_results_do_not_constrain_the_cut() -> None:
    items = [assistant(), result("gone"), result("gone"), assistant()]
    assert find_turn_boundary_cut(items, 2) == 2


def test_a_result_pairs_with_the_nearest_earlier_call_of_its_id() -> None:
    # Ids repeat across runs (tool_step_<step>_<index>): the result belongs to the later call.
    items = [assistant("s1"), result("s1"), "x", assistant("s1"), result("s1")]
    assert find_turn_boundary_cut(items, 3) == 3
    assert find_turn_boundary_cut(items, 4) == 3


@pytest.mark.parametrize("call", [function_call, tool_use], ids=["responses", "anthropic"])
def test_other_tool_call_shapes_pair_with_their_results(call: object) -> None:
    assert callable(call)
    items = ["x", call("a"), result("a"), "y"]
    assert find_turn_boundary_cut(items, 2) == 1


# -- properties --------------------------------------------------------------------------------

CALL_IDS = st.sampled_from(["a", "b", "c"])
ITEMS = st.lists(
    st.one_of(
        st.builds(user),
        st.lists(CALL_IDS, max_size=2).map(lambda ids: assistant(*ids)),
        CALL_IDS.map(function_call),
        CALL_IDS.map(tool_use),
        CALL_IDS.map(result),
        CALL_IDS.map(tool_message),
        st.lists(CALL_IDS, min_size=1, max_size=2).map(lambda ids: carrier(*ids)),
        st.builds(reasoning),
        st.just("text"),
        st.just({"type": "function_call_output"}),
    ),
    max_size=14,
)


@given(items=ITEMS, naive_cut=st.integers(-2, 16))
@example(items=[assistant("a"), result("a"), result("a")], naive_cut=2)
@example(items=[user(), assistant("a"), result("a"), assistant("b"), result("b")], naive_cut=3)
@example(items=[user(), function_call("a"), function_call("a")], naive_cut=2)
@example(items=[user(), reasoning(), assistant(), user()], naive_cut=2)
def test_cut_follows_the_rule(items: list[JsonValue], naive_cut: int) -> None:
    assert find_turn_boundary_cut(items, naive_cut) == oracle(items, naive_cut)


@given(items=ITEMS, naive_cut=st.integers(-2, 16))
@example(items=[assistant("a"), assistant("b"), result("a"), result("b")], naive_cut=2)
@example(items=[user(), tool_use("a"), carrier("a"), user()], naive_cut=2)
@example(items=[user(), assistant("a"), user(), tool_message("a")], naive_cut=2)
def test_cut_never_separates_a_unit(items: list[JsonValue], naive_cut: int) -> None:
    cut = find_turn_boundary_cut(items, naive_cut)
    bounded = min(max(naive_cut, 0), len(items))
    assert 0 <= cut <= bounded
    assert not separates(items, cut)


@given(items=ITEMS, naive_cut=st.integers(-2, 16))
@example(items=[user(), "x", user(), "y"], naive_cut=3)
@example(items=[user(), tool_use("a"), carrier("a"), "y"], naive_cut=2)
def test_cut_lands_on_the_last_safe_user_input_in_range(
    items: list[JsonValue], naive_cut: int
) -> None:
    bounded = min(max(naive_cut, 0), len(items))
    users = [
        index
        for index in range(1, bounded + 1)
        if index < len(items) and is_user_input(items[index]) and not separates(items, index)
    ]
    if users and bounded < len(items):
        assert find_turn_boundary_cut(items, naive_cut) == users[-1]


# -- SPEC.md worked examples -------------------------------------------------------------------

SPEC_TURN = [user(), assistant("c1"), result("c1"), assistant("c2"), result("c2"), assistant()]


@pytest.mark.parametrize(
    ("items", "naive_cut", "expected"),
    [
        ([user(), assistant(), user(), assistant(), assistant()], 3, 2),
        (SPEC_TURN, 4, 3),
        (SPEC_TURN, 2, 1),
        (SPEC_TURN, 5, 5),
        ([assistant("c1"), result("c1")], 1, 0),
        ([user(), tool_use("c1"), carrier("c1"), assistant()], 2, 1),
        ([user(), assistant("c1"), user(), tool_message("c1"), assistant()], 3, 1),
        ([user(), function_call("c1"), function_call("c2"), result("c1"), result("c2")], 3, 1),
        (["a", "b", "c", "d", "e"], 0, 0),
        (["a", "b", "c", "d", "e"], 7, 5),
    ],
)
def test_spec_cut_table(items: list[JsonValue], naive_cut: int, expected: int) -> None:
    assert find_turn_boundary_cut(items, naive_cut) == expected
