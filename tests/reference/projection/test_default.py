"""DefaultContextProjector: the item stage, then the character stage (contract §4)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference._items import function_call_output
from ctxpact.reference.projection import (
    MAX_APPROX_CHARS_NOTE,
    MAX_ITEMS_NOTE,
    DefaultContextProjector,
    approx_chars,
)
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextReport,
    JsonValue,
    SchemaValidationError,
)

PROJECTOR = DefaultContextProjector()

items_strategy = st.lists(
    st.one_of(
        st.text(alphabet="abcé😀", max_size=12),
        st.none(),
        st.integers(),
        st.dictionaries(st.sampled_from("kvw"), st.text(max_size=5), max_size=2),
    ),
    max_size=12,
)
budgets = st.builds(
    ContextBudget,
    max_items=st.none() | st.integers(0, 14),
    max_approx_chars=st.none() | st.integers(0, 80),
    pinned_prefix_items=st.integers(0, 6),
    max_recent_tool_results=st.none() | st.integers(0, 3),
    trim_old_reasoning=st.booleans(),
)


Pairs = list[tuple[int, JsonValue]]


def chars(pairs: Pairs) -> int:
    return sum(approx_chars(item) for _, item in pairs)


def oracle_item_stage(pairs: Pairs, limit: int, pinned: int) -> Pairs:
    if len(pairs) <= limit:
        return pairs
    if limit == 0:
        return []
    prefix_count = min(pinned, limit, len(pairs))
    tail_count = limit - prefix_count
    return pairs[:prefix_count] + pairs[max(prefix_count, len(pairs) - tail_count) :]


def oracle_char_stage(pairs: Pairs, limit: int, pinned: int) -> Pairs:
    if chars(pairs) <= limit:
        return pairs
    if limit == 0:
        return []
    used = 0
    prefix: Pairs = []
    prefix_count = min(pinned, len(pairs))
    for pair in pairs[:prefix_count]:
        size = approx_chars(pair[1])
        if used + size <= limit or not prefix:
            prefix.append(pair)
            used += size
    tail: Pairs = []
    for pair in reversed(pairs[prefix_count:]):
        size = approx_chars(pair[1])
        if tail and used + size > limit:
            continue
        tail.append(pair)
        used += size
    return prefix + tail[::-1]


def oracle(items: list[JsonValue], budget: ContextBudget | None) -> ContextProjection:
    """Contract §4 read literally, on (position, item) pairs."""
    projected: Pairs = list(enumerate(items))
    notes: list[str] = []
    item_applied = char_applied = False
    if budget is not None and budget.max_items is not None:
        result = oracle_item_stage(projected, budget.max_items, budget.pinned_prefix_items)
        item_applied = len(result) < len(projected)
        if item_applied:
            notes.append(f"maxItems applied: {budget.max_items}")
        projected = result
    if budget is not None and budget.max_approx_chars is not None:
        limit = budget.max_approx_chars
        result = oracle_char_stage(projected, limit, budget.pinned_prefix_items)
        char_applied = len(result) < len(projected) or chars(result) < chars(projected)
        if char_applied:
            notes.append(f"maxApproxChars applied: {limit}")
        projected = result
    kept = {position for position, _ in projected}
    return ContextProjection(
        items=[item for _, item in projected],
        report=ContextReport(
            source_item_count=len(items),
            projected_item_count=len(projected),
            dropped_item_count=len(items) - len(projected),
            source_approx_chars=sum(approx_chars(item) for item in items),
            projected_approx_chars=chars(projected),
            item_limit_applied=item_applied,
            character_limit_applied=char_applied,
            notes=notes,
            dropped_indices=[position for position in range(len(items)) if position not in kept],
            cleared_indices=[],
        ),
    )


def report(**fields: object) -> ContextReport:
    base: dict[str, object] = {
        "item_limit_applied": False,
        "character_limit_applied": False,
        "notes": (),
        "cleared_indices": (),
    }
    return ContextReport(**{**base, **fields})  # type: ignore[arg-type]  # test shorthand


EXAMPLES = [
    # Contract §4.1; string items keep ai4j's numbers.
    pytest.param(
        ["system-summary", "old-1", "old-2", "recent-1", "recent-2"],
        ContextBudget(max_items=3, pinned_prefix_items=1),
        ["system-summary", "recent-1", "recent-2"],
        report(
            source_item_count=5,
            projected_item_count=3,
            dropped_item_count=2,
            source_approx_chars=40,
            projected_approx_chars=30,
            item_limit_applied=True,
            notes=["maxItems applied: 3"],
            dropped_indices=[1, 2],
        ),
        id="pinned-prefix-and-recent-tail",
    ),
    pytest.param(
        ["a", "b", "c", "d", "e"],
        ContextBudget(max_items=3, pinned_prefix_items=5),
        ["a", "b", "c"],
        report(
            source_item_count=5,
            projected_item_count=3,
            dropped_item_count=2,
            source_approx_chars=5,
            projected_approx_chars=3,
            item_limit_applied=True,
            notes=["maxItems applied: 3"],
            dropped_indices=[3, 4],
        ),
        id="pinned-beyond-max-items-keeps-only-the-head",
    ),
    pytest.param(
        ["a", "b", "c", "d", "e"],
        ContextBudget(max_items=0),
        [],
        report(
            source_item_count=5,
            projected_item_count=0,
            dropped_item_count=5,
            source_approx_chars=5,
            projected_approx_chars=0,
            item_limit_applied=True,
            notes=["maxItems applied: 0"],
            dropped_indices=[0, 1, 2, 3, 4],
        ),
        id="max-items-zero",
    ),
    pytest.param(
        [],
        ContextBudget(max_items=0),
        [],
        report(
            source_item_count=0,
            projected_item_count=0,
            dropped_item_count=0,
            source_approx_chars=0,
            projected_approx_chars=0,
            dropped_indices=[],
        ),
        id="empty-under-max-items-zero",
    ),
    pytest.param(
        ["AA", "B" * 10, "D" * 6],
        ContextBudget(max_approx_chars=9),
        ["AA", "DDDDDD"],
        report(
            source_item_count=3,
            projected_item_count=2,
            dropped_item_count=1,
            source_approx_chars=18,
            projected_approx_chars=8,
            character_limit_applied=True,
            notes=["maxApproxChars applied: 9"],
            dropped_indices=[1],
        ),
        id="non-contiguous-tail",
    ),
    pytest.param(
        ["x" * 20],
        ContextBudget(max_approx_chars=5),
        ["x" * 20],
        report(
            source_item_count=1,
            projected_item_count=1,
            dropped_item_count=0,
            source_approx_chars=20,
            projected_approx_chars=20,
            dropped_indices=[],
        ),
        id="single-oversize-item-is-kept-without-a-note",
    ),
    pytest.param(
        ["P" * 10, "a", "bb"],
        ContextBudget(max_approx_chars=5, pinned_prefix_items=1),
        ["P" * 10, "bb"],
        report(
            source_item_count=3,
            projected_item_count=2,
            dropped_item_count=1,
            source_approx_chars=13,
            projected_approx_chars=12,
            character_limit_applied=True,
            notes=["maxApproxChars applied: 5"],
            dropped_indices=[1],
        ),
        id="first-pinned-and-newest-are-unconditional",
    ),
    pytest.param(
        ["", ""],
        ContextBudget(max_approx_chars=0),
        ["", ""],
        report(
            source_item_count=2,
            projected_item_count=2,
            dropped_item_count=0,
            source_approx_chars=0,
            projected_approx_chars=0,
            dropped_indices=[],
        ),
        id="zero-chars-fit-a-zero-budget",
    ),
    pytest.param(
        ["goal", "done", "pending", "decision", "recent"],
        ContextBudget(max_items=2, pinned_prefix_items=1),
        ["goal", "recent"],
        report(
            source_item_count=5,
            projected_item_count=2,
            dropped_item_count=3,
            source_approx_chars=29,
            projected_approx_chars=10,
            item_limit_applied=True,
            notes=["maxItems applied: 2"],
            dropped_indices=[1, 2, 3],
        ),
        id="ai4j-repo-test",
    ),
    pytest.param(
        [function_call_output(f"call-{i}", "x" * 200) for i in range(1, 5)],
        ContextBudget(max_approx_chars=600),
        [function_call_output(f"call-{i}", "x" * 200) for i in (3, 4)],
        # Each item is 262 code points of compact JSON (ai4j's toString form had 252).
        report(
            source_item_count=4,
            projected_item_count=2,
            dropped_item_count=2,
            source_approx_chars=1048,
            projected_approx_chars=524,
            character_limit_applied=True,
            notes=["maxApproxChars applied: 600"],
            dropped_indices=[0, 1],
        ),
        id="tool-results-under-a-char-cap",
    ),
    # Beyond §4.1.
    pytest.param(
        ["PPPPP", "Q" * 10, "R", "ss", "t"],
        ContextBudget(max_approx_chars=8, pinned_prefix_items=3),
        ["PPPPP", "R", "t"],
        report(
            source_item_count=5,
            projected_item_count=3,
            dropped_item_count=2,
            source_approx_chars=19,
            projected_approx_chars=7,
            character_limit_applied=True,
            notes=["maxApproxChars applied: 8"],
            dropped_indices=[1, 3],
        ),
        id="a-pinned-item-that-does-not-fit-leaves-a-gap",
    ),
    pytest.param(
        ["s", "x" * 10, "y" * 10, "zzz", "www"],
        ContextBudget(max_items=4, max_approx_chars=8, pinned_prefix_items=1),
        ["s", "zzz", "www"],
        report(
            source_item_count=5,
            projected_item_count=3,
            dropped_item_count=2,
            source_approx_chars=27,
            projected_approx_chars=7,
            item_limit_applied=True,
            character_limit_applied=True,
            notes=["maxItems applied: 4", "maxApproxChars applied: 8"],
            dropped_indices=[1, 2],
        ),
        id="item-stage-then-char-stage",
    ),
    pytest.param(
        ["aaaa", "bbbb", "cc", "d"],
        ContextBudget(max_items=3, max_approx_chars=5, pinned_prefix_items=5),
        ["aaaa"],
        report(
            source_item_count=4,
            projected_item_count=1,
            dropped_item_count=3,
            source_approx_chars=11,
            projected_approx_chars=4,
            item_limit_applied=True,
            character_limit_applied=True,
            notes=["maxItems applied: 3", "maxApproxChars applied: 5"],
            dropped_indices=[1, 2, 3],
        ),
        id="all-pinned-only-the-first-is-guaranteed",
    ),
    pytest.param(
        ["abc", {"k": "v"}, None, 7],
        None,
        ["abc", {"k": "v"}, None, 7],
        report(
            source_item_count=4,
            projected_item_count=4,
            dropped_item_count=0,
            source_approx_chars=3 + 9 + 0 + 1,
            projected_approx_chars=13,
            dropped_indices=[],
        ),
        id="no-budget-no-stages",
    ),
    pytest.param(
        ["abc", "de"],
        ContextBudget(max_items=2, max_approx_chars=5, pinned_prefix_items=1),
        ["abc", "de"],
        report(
            source_item_count=2,
            projected_item_count=2,
            dropped_item_count=0,
            source_approx_chars=5,
            projected_approx_chars=5,
            dropped_indices=[],
        ),
        id="exactly-at-both-limits",
    ),
]


@pytest.mark.parametrize(("items", "budget", "expected_items", "expected_report"), EXAMPLES)
def test_worked_examples(
    items: list[JsonValue],
    budget: ContextBudget | None,
    expected_items: list[JsonValue],
    expected_report: ContextReport,
) -> None:
    projection = PROJECTOR.project(items, budget)
    assert list(projection.items) == expected_items
    assert projection.report == expected_report
    assert projection == oracle(items, budget)


def test_note_formats() -> None:
    assert MAX_ITEMS_NOTE.format(max_items=3) == "maxItems applied: 3"
    assert MAX_APPROX_CHARS_NOTE.format(max_approx_chars=9) == "maxApproxChars applied: 9"


def test_tier_fields_of_the_budget_are_ignored() -> None:
    items: list[JsonValue] = [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        function_call_output("call-1", "old"),
        {"type": "message", "role": "user", "content": []},
        function_call_output("call-2", "new"),
    ]
    budget = ContextBudget(max_recent_tool_results=0, trim_old_reasoning=True)
    projection = PROJECTOR.project(items, budget)
    assert list(projection.items) == items
    assert projection.report.notes == ()


@given(items_strategy, st.none() | budgets)
@example(["AA", "B" * 10, "D" * 6], ContextBudget(max_approx_chars=9))
@example(
    ["PPPPP", "Q" * 10, "R", "ss", "t"], ContextBudget(max_approx_chars=8, pinned_prefix_items=3)
)
@example(
    ["a", "", "", "bbbbbb"], ContextBudget(max_items=3, max_approx_chars=0, pinned_prefix_items=1)
)
def test_matches_the_contract_read_literally(
    items: list[JsonValue], budget: ContextBudget | None
) -> None:
    assert PROJECTOR.project(items, budget) == oracle(items, budget)


@given(items_strategy, st.none() | budgets)
@example(["x", {"k": "v"}, "y"], ContextBudget(max_items=2, pinned_prefix_items=1))
@example([{"k": "long value"}, {"k": "v"}], ContextBudget(max_approx_chars=3))
def test_keeps_the_callers_objects_and_changes_nothing(
    items: list[JsonValue], budget: ContextBudget | None
) -> None:
    before = copy.deepcopy(items)
    source = tuple(items)
    projection = PROJECTOR.project(source, budget)
    assert items == before
    report_ = projection.report
    assert report_.dropped_indices is not None
    kept = [index for index in range(len(items)) if index not in report_.dropped_indices]
    assert len(projection.items) == len(kept)
    assert all(item is source[index] for item, index in zip(projection.items, kept, strict=True))
    assert list(report_.dropped_indices) == sorted(set(report_.dropped_indices))
    assert report_.cleared_indices == ()
    assert report_.dropped_item_count == len(items) - len(projection.items)


@given(items_strategy, budgets.filter(lambda budget: budget.pinned_prefix_items <= 1))
@example(["P" * 10, "a", "bb"], ContextBudget(max_approx_chars=5, pinned_prefix_items=1))
@example(["x" * 9, "y" * 9], ContextBudget(max_approx_chars=4))
def test_projecting_a_projection_changes_nothing_with_at_most_one_pinned_item(
    items: list[JsonValue], budget: ContextBudget
) -> None:
    once = PROJECTOR.project(items, budget)
    twice = PROJECTOR.project(list(once.items), budget)
    assert twice.items == once.items
    assert twice.report.dropped_item_count == 0


def test_with_several_pinned_items_a_projection_may_shrink_again() -> None:
    # ai4j's greedy rule, kept on purpose: the second pass sees the kept newest item inside
    # its pinned prefix, where it is no longer unconditional.
    budget = ContextBudget(max_approx_chars=5, pinned_prefix_items=2)
    once = PROJECTOR.project(["P" * 6, "Q" * 6, "R" * 6], budget)
    assert list(once.items) == ["P" * 6, "R" * 6]
    assert list(PROJECTOR.project(list(once.items), budget).items) == ["P" * 6]


def test_an_item_json_cannot_carry_is_named_by_its_position() -> None:
    with pytest.raises(SchemaValidationError) as raised:
        PROJECTOR.project(["ok", {"k": {1, 2}}], None)  # type: ignore[dict-item]  # not JSON
    assert [violation.path for violation in raised.value.violations] == ["$.items[1].k"]
