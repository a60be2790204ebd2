"""The turn-boundary cut (CUT-n, departure 5)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference.compaction import find_turn_boundary_cut
from ctxpact.spec import JsonValue


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


def separated_pairs(items: Sequence[JsonValue], cut: int) -> list[tuple[int, int]]:
    """Brute force: every (call, result) pair that a cut at *cut* separates."""
    pairs = []
    for position, item in enumerate(items):
        if not (isinstance(item, dict) and item.get("type") == "function_call_output"):
            continue
        call_id = item.get("call_id")
        for earlier in range(position - 1, -1, -1):
            if call_id in _call_ids(items[earlier]):
                if earlier < cut <= position:
                    pairs.append((earlier, position))
                break
    return pairs


def _call_ids(item: JsonValue) -> set[JsonValue]:
    if not isinstance(item, dict):
        return set()
    ids: set[JsonValue] = set()
    if item.get("type") == "function_call":
        ids.add(item.get("call_id"))
    if item.get("type") == "tool_use":
        ids.add(item.get("id"))
    calls = item.get("tool_calls")
    if isinstance(calls, list):
        ids.update(call.get("id") for call in calls if isinstance(call, dict))
    content = item.get("content")
    if isinstance(content, list):
        for part in content:
            ids |= _call_ids(part)
    return ids


def is_user(item: JsonValue) -> bool:
    return isinstance(item, dict) and item.get("role") == "user"


def oracle(items: Sequence[JsonValue], naive_cut: int) -> int:
    """The rule of departure 5, written the slow and obvious way."""
    cut = min(max(naive_cut, 0), len(items))
    if cut in {0, len(items)}:
        return cut
    for index in range(cut, 0, -1):
        if is_user(items[index]):
            return index
    for index in range(cut, 0, -1):
        if not separated_pairs(items, index):
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
        st.just("text"),
        st.just({"type": "function_call_output"}),
    ),
    max_size=14,
)


@given(items=ITEMS, naive_cut=st.integers(-2, 16))
@example(items=[assistant("a"), result("a"), result("a")], naive_cut=2)
@example(items=[user(), assistant("a"), result("a"), assistant("b"), result("b")], naive_cut=3)
def test_cut_follows_the_rule(items: list[JsonValue], naive_cut: int) -> None:
    assert find_turn_boundary_cut(items, naive_cut) == oracle(items, naive_cut)


@given(items=ITEMS, naive_cut=st.integers(-2, 16))
@example(items=[assistant("a"), assistant("b"), result("a"), result("b")], naive_cut=2)
def test_cut_never_orphans_a_tool_result_unless_at_a_user_message(
    items: list[JsonValue], naive_cut: int
) -> None:
    cut = find_turn_boundary_cut(items, naive_cut)
    bounded = min(max(naive_cut, 0), len(items))
    assert 0 <= cut <= bounded
    if not (0 < cut < len(items) and is_user(items[cut])):
        assert separated_pairs(items, cut) == []


@given(items=ITEMS, naive_cut=st.integers(-2, 16))
@example(items=[user(), "x", user(), "y"], naive_cut=3)
def test_cut_lands_on_the_last_user_message_in_range(
    items: list[JsonValue], naive_cut: int
) -> None:
    bounded = min(max(naive_cut, 0), len(items))
    users = [
        index for index in range(1, bounded + 1) if index < len(items) and is_user(items[index])
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
        (["a", "b", "c", "d", "e"], 0, 0),
        (["a", "b", "c", "d", "e"], 7, 5),
    ],
)
def test_spec_cut_table(items: list[JsonValue], naive_cut: int, expected: int) -> None:
    assert find_turn_boundary_cut(items, naive_cut) == expected
