"""SizedItems: sizes and tier positions kept as a list grows, read by every projector (§5.6).

A projector handed a SizedItems, or a view of one, returns exactly what it returns for the
plain list (PRJ-36); what a SizedItems keeps is what a scan of the list finds, for every
prefix (PRJ-37); the new items of the tiers are measured from their parts exactly.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance.strategies import budgets_for
from ctxpact.reference import SizedItems, SizedItemsView
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
    approx_chars,
    total_approx_chars,
)
from ctxpact.reference.projection._sized import projection_source, sized_copies
from ctxpact.reference.projection._source import ListSource, Source
from ctxpact.reference.projection._tiers import (
    ToolNames,
    cleared_reasoning,
    cleared_reasoning_size,
    tool_result_placeholder,
    tool_result_placeholder_size,
)
from ctxpact.spec import (
    MAX_JSON_DEPTH,
    ArgumentTypeError,
    ContextBudget,
    ContextProjection,
    ContextProjector,
    JsonLimitError,
    JsonObject,
    JsonValue,
    SchemaValidationError,
    compact_json,
    pairing,
    to_json,
    tool_calls,
)

PROJECTORS: list[ContextProjector] = [
    DefaultContextProjector(),
    TypeAwareContextProjector(),
    PairSafeContextProjector(),
    PairSafeContextProjector(tiers=False),
]
IDS = ("c1", "c2", "c3")
NAMES = ("read", "grep", "")
PLACEHOLDER = "[tool result cleared: read(c1)]"

# -- a transcript in every shape, with the odd items a memory holds --------------------------

texts = st.sampled_from(["", "ok", 'é "quoted" \\ \n\t', "数据", "\x01", "\U0001f600", PLACEHOLDER])
call_ids: st.SearchStrategy[JsonValue] = st.sampled_from([*IDS, None, 7])
outputs: st.SearchStrategy[JsonValue] = st.one_of(
    texts, st.none(), st.just([{"type": "text", "text": "part"}]), st.just({"n": 1.5})
)


def _without_none(members: dict[str, JsonValue]) -> JsonObject:
    return {key: value for key, value in members.items() if value is not None}


names = st.sampled_from(NAMES)
own_names = st.sampled_from([None, "own"])


@st.composite
def chat_calls(draw: st.DrawFn) -> JsonValue:
    entries: list[JsonValue] = [
        _without_none({"id": draw(call_ids), "function": {"name": draw(names)}})
        for _ in range(draw(st.integers(1, 2)))
    ]
    return {"type": "message", "role": "assistant", "tool_calls": entries}


@st.composite
def responses_calls(draw: st.DrawFn) -> JsonValue:
    name = draw(st.sampled_from([*NAMES, None]))
    return _without_none(
        {"type": "function_call", "call_id": draw(call_ids), "name": name, "arguments": "{}"}
    )


@st.composite
def anthropic_calls(draw: st.DrawFn) -> JsonValue:
    parts: list[JsonValue] = [{"type": "text", "text": draw(texts)}]
    parts += [
        _without_none({"type": "tool_use", "id": draw(call_ids), "name": draw(names)})
        for _ in range(draw(st.integers(1, 2)))
    ]
    return {"type": "message", "role": "assistant", "content": parts}


@st.composite
def responses_results(draw: st.DrawFn) -> JsonValue:
    return _without_none(
        {
            "type": "function_call_output",
            "call_id": draw(call_ids),
            "output": draw(outputs),
            "name": draw(own_names),
            "status": draw(st.sampled_from([None, "completed"])),
        }
    )


@st.composite
def chat_results(draw: st.DrawFn) -> JsonValue:
    message = _without_none(
        {"type": "message", "role": "tool", "tool_call_id": draw(call_ids), "name": draw(own_names)}
    )
    if draw(st.booleans()):
        message["content"] = draw(outputs)
    return message


@st.composite
def result_parts(draw: st.DrawFn) -> JsonValue:
    if not draw(st.booleans()):
        return {"type": "text", "text": draw(texts)}
    is_error = draw(st.sampled_from([None, False]))
    part = _without_none(
        {"type": "tool_result", "tool_use_id": draw(call_ids), "is_error": is_error}
    )
    if draw(st.booleans()):
        part["content"] = draw(outputs)
    return part


@st.composite
def carriers(draw: st.DrawFn) -> JsonValue:
    parts: list[JsonValue] = draw(st.lists(result_parts(), min_size=1, max_size=3))
    return {"role": draw(st.sampled_from(["user", "assistant"])), "content": parts}


@st.composite
def reasonings(draw: st.DrawFn) -> JsonValue:
    if draw(st.booleans()):
        return {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": "[reasoning cleared]"}],
        }
    return _without_none(
        {
            "type": "reasoning",
            "id": draw(st.sampled_from([None, "rs_1"])),
            "summary": [{"type": "summary_text", "text": draw(texts)}],
            "encrypted_content": draw(st.sampled_from([None, "gAAA"])),
        }
    )


odd_items: st.SearchStrategy[JsonValue] = st.one_of(
    texts, st.integers(-3, 3), st.none(), st.just([1, None, "a"]), st.just({})
)


def items() -> st.SearchStrategy[JsonValue]:
    """One item of any shape the tiers and units read, or an odd one."""
    messages: st.SearchStrategy[JsonValue] = st.sampled_from(
        [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "u"}]},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "a"}],
            },
            {"type": "message", "role": "system", "content": [{"type": "input_text", "text": "s"}]},
            {"role": "user", "content": "a chat-style user message"},
        ]
    )
    return st.one_of(
        messages,
        chat_calls(),
        responses_calls(),
        anthropic_calls(),
        responses_results(),
        chat_results(),
        carriers(),
        reasonings(),
        odd_items,
    )


transcripts = st.lists(items(), max_size=14)


@st.composite
def sized_cases(draw: st.DrawFn) -> tuple[list[JsonValue], list[JsonValue], ContextBudget]:
    """A transcript, items appended after it, and a budget sized to the transcript."""
    source = draw(transcripts)
    later = draw(st.lists(items(), max_size=4))
    chars = sum(map(approx_chars, source))
    return source, later, draw(budgets_for(source, chars=chars))


def user(text: str = "u") -> JsonObject:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def use(*ids: str) -> JsonObject:
    parts: list[JsonValue] = [
        {"type": "tool_use", "id": i, "name": "view", "input": {}} for i in ids
    ]
    return {"type": "message", "role": "assistant", "content": parts}


def carrier(*ids: str) -> JsonObject:
    parts: list[JsonValue] = [
        {"type": "tool_result", "tool_use_id": i, "content": "x"} for i in ids
    ]
    return {"type": "message", "role": "user", "content": parts}


def output(call_id: str, text: str = "a long output") -> JsonObject:
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def call(call_id: str, name: str = "grep") -> JsonObject:
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"}


def identical(left: ContextProjection, right: ContextProjection) -> bool:
    """JSON-10: the same items, member order included, and the same report."""
    return compact_json(to_json(left)) == compact_json(to_json(right))


TIERS = ContextBudget(max_recent_tool_results=0, trim_old_reasoning=True)
EVERYTHING = ContextBudget(
    max_items=3, max_approx_chars=150, pinned_prefix_items=1, max_recent_tool_results=1,
    trim_old_reasoning=True,
)  # fmt: skip
# Two units that the last item joins: a view of the list before it had them apart.
MERGING = [user(), use("a"), use("b"), carrier("a", "b")]


# -- projectors read a sized list as they read the plain one ---------------------------------


@given(sized_cases())
@example(([], [], ContextBudget()))
@example(([user(), call("c1"), output("c1"), call("c2"), output("c2")], [], EVERYTHING))
@example((MERGING[:3], MERGING[3:], ContextBudget(max_items=2)))
@example((MERGING[:3], MERGING[3:], ContextBudget(max_approx_chars=100, pinned_prefix_items=1)))
@example(([carrier("a"), use("a"), carrier("a", "a")], [], TIERS))
@example(
    (
        [
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "[reasoning cleared]"}],
            },
            user(),
        ],
        [],
        TIERS,
    )
)
@example(
    (
        [{"type": "reasoning", "summary": []}, user(), {"type": "reasoning"}, output("x")],
        [user()],
        TIERS,
    )
)
def test_a_sized_list_or_view_projects_as_the_plain_list(
    case: tuple[list[JsonValue], list[JsonValue], ContextBudget],
) -> None:
    source, later, budget = case
    before = copy.deepcopy(source)
    sized = SizedItems(source)
    view = sized.view()
    sized.extend(later)  # the view keeps the items it was taken with
    assert list(view) == before
    for projector in PROJECTORS:
        plain = projector.project(source, budget)
        assert identical(projector.project(sized_copies(source), budget), plain)
        assert identical(projector.project(view, budget), plain)
        assert identical(
            projector.project(SizedItems(source).view(), None), projector.project(source, None)
        )
    assert source == before
    for projector in PROJECTORS:
        whole = [*source, *later]
        assert identical(projector.project(sized, budget), projector.project(whole, budget))


def test_the_units_of_a_view_are_those_of_its_items() -> None:
    # The carrier joins the two calls' units after the view was taken: the pair-safe
    # projector must still see them apart in the view.
    sized = SizedItems(MERGING[:3])
    view = sized.view()
    sized.append(MERGING[3])
    projection = PairSafeContextProjector().project(view, ContextBudget(max_items=1))
    assert projection.items == (MERGING[2],)
    assert identical(
        projection, PairSafeContextProjector().project(MERGING[:3], ContextBudget(max_items=1))
    )
    # ... and the whole list holds them in one unit with the carrier.
    whole = PairSafeContextProjector().project(sized, ContextBudget(max_items=2))
    assert whole.report.dropped_indices == (1, 2, 3)


# -- what a sized list keeps is what a scan finds, for every prefix --------------------------


def _names(source: Source, items: Sequence[JsonValue]) -> dict[str, str | None]:
    ids = {call.call_id for item in items for call in tool_calls(item) if call.call_id}
    name_of = source.tool_names()
    return {call_id: name_of(call_id) for call_id in [*ids, "missing"]}


def _groups(source: Source, count: int) -> list[list[int]]:
    units = source.units()
    found: dict[int, list[int]] = {}
    for position in range(count):
        found.setdefault(units.unit_of(position), []).append(position)
    for unit, positions in found.items():
        assert sorted(units.members(unit)) == positions
        assert units.first(unit) == positions[0]
    return list(found.values())


CLEARED_REASONING: JsonObject = {
    "type": "reasoning",
    "summary": [{"type": "summary_text", "text": "[reasoning cleared]"}],
}


@given(transcripts)
@example(MERGING)
@example([CLEARED_REASONING, {"type": "reasoning"}, user(), CLEARED_REASONING])
@example([call("c1"), call("c1", "read"), output("c1"), use("c1"), carrier("c1", "c1")])
def test_a_sized_list_knows_what_a_scan_of_each_prefix_finds(items: list[JsonValue]) -> None:
    sized = SizedItems()
    views: list[SizedItemsView] = []
    for item in items:
        views.append(sized.view())
        sized.append(item)
    views.append(sized.view())
    for count, view in enumerate(views):
        prefix = items[:count]
        scanned = ListSource(prefix)
        kept, _ = projection_source("test", view, None)
        assert kept.count == count
        assert [view.approx_chars(i) for i in range(count)] == scanned.sizes
        assert kept.total == view.total_approx_chars == total_approx_chars(prefix)
        for keep_recent in range(4):
            ours, theirs = kept.tier1(keep_recent), scanned.tier1(keep_recent)
            assert ours.cleared == theirs.cleared
            assert [ours.parts(p) for p in range(count)] == [theirs.parts(p) for p in range(count)]
            assert [p in ours for p in range(count)] == [p in theirs for p in range(count)]
            assert ours.among(range(count)) == theirs.among(range(count)) == set(ours.positions())
            assert set(theirs.positions()) == set(ours.positions())
            assert "0" not in ours
        tier2, scanned2 = kept.tier2(), scanned.tier2()
        assert tier2.cleared == scanned2.cleared
        assert [p in tier2 for p in range(count)] == [p in scanned2 for p in range(count)]
        assert tier2.among(range(count)) == scanned2.among(range(count)) == set(tier2.positions())
        assert "0" not in tier2
        assert _names(kept, prefix) == _names(scanned, prefix)
        assert _groups(kept, count) == [list(unit) for unit in pairing(prefix).units()]


# -- the new items of the tiers, measured from their parts -----------------------------------


@given(items(), st.lists(st.integers(0, 3), max_size=3))
@example({"type": "function_call_output", "call_id": "c1", "output": "x" * 200}, [])
@example({"type": "function_call_output", "output": "no id", "name": "own"}, [])
@example({"role": "tool", "tool_call_id": "c1"}, [])
@example({"role": "tool"}, [])
@example({"role": "user", "content": [{"type": "tool_result"}, {"type": "text", "text": "é"}]}, [0])
@example({"type": "reasoning", "summary": [], "content": "raw", "text": "t", "status": "done"}, [])
@example({"type": "reasoning"}, [])
def test_a_new_item_is_measured_exactly_without_building_it(
    item: JsonValue, parts: list[int]
) -> None:
    names = ToolNames(
        [
            call("c1", "read"),
            use("c2"),
            {"role": "assistant", "tool_calls": [{"id": "c3", "name": "é\n"}]},
        ]
    )
    assert cleared_reasoning_size(item) == approx_chars(cleared_reasoning(item))
    content = item.get("content") if isinstance(item, dict) else None
    result_parts = (
        [index for index in parts if index < len(content) and isinstance(content[index], dict)]
        if isinstance(content, list)
        else []
    )
    for chosen in [(None,), *([tuple(dict.fromkeys(result_parts))] if result_parts else [])]:
        built = tool_result_placeholder(item, names, parts=chosen)
        assert tool_result_placeholder_size(item, names, parts=chosen) == approx_chars(built)


def test_a_deep_new_item_is_measured_from_deep_in_the_stack() -> None:
    deep: JsonValue = "bottom"
    for _ in range(MAX_JSON_DEPTH - 2):
        deep = [deep]
    item: JsonObject = {"role": "tool", "tool_call_id": "c1", "name": deep, "content": "x"}
    reasoning: JsonObject = {"type": "reasoning", "id": deep, "content": "raw"}

    def measure(frames: int) -> tuple[int, int]:
        if frames:
            return measure(frames - 1)
        return (
            tool_result_placeholder_size(item, ToolNames([])),
            cleared_reasoning_size(reasoning),
        )

    assert measure(900) == (
        approx_chars(tool_result_placeholder(item, ToolNames([]))),
        approx_chars(cleared_reasoning(reasoning)),
    )


# -- the sequence itself ---------------------------------------------------------------------


def test_a_sized_list_reads_like_a_list_and_keeps_its_sizes() -> None:
    sized = SizedItems(["héllo", None, {"a": [1, "é"]}])
    assert len(sized) == 3
    assert sized[0] == "héllo"
    assert sized[-1] == {"a": [1, "é"]}
    assert sized[1:] == [None, {"a": [1, "é"]}]
    assert list(reversed(sized)) == [{"a": [1, "é"]}, None, "héllo"]
    assert [sized.approx_chars(i) for i in range(3)] == [5, 0, 13]
    assert sized.approx_chars(-1) == 13
    assert sized.total_approx_chars == 18 == total_approx_chars(sized)
    assert sized.index(None) == 1
    assert repr(sized) == "<SizedItems of 3 item(s), 18 approx chars>"
    with pytest.raises(IndexError, match="below 3 but got 3"):
        sized[3]
    with pytest.raises(IndexError):
        sized.approx_chars(-4)
    with pytest.raises(TypeError, match="int or a slice"):
        sized["0"]  # type: ignore[call-overload]  # the wrong index type on purpose


def test_a_sized_list_holds_copies_of_what_it_is_given() -> None:
    item: JsonObject = {"type": "function_call_output", "call_id": "c", "output": "abc"}
    sized = SizedItems([item])
    sized.append(item)
    item["output"] = "changed after the fact"
    assert sized[0] == sized[1] == {"type": "function_call_output", "call_id": "c", "output": "abc"}
    assert sized.total_approx_chars == 2 * approx_chars(sized[0])


@pytest.mark.parametrize("bad", ["abc", b"abc", {"a": 1}, 3])
def test_a_sized_list_refuses_what_is_not_a_list_of_items(bad: object) -> None:
    with pytest.raises(ArgumentTypeError, match=r"SizedItems\.extend\(items\)"):
        SizedItems(bad)  # type: ignore[arg-type]  # the wrong type on purpose


def test_a_bad_item_is_refused_with_its_place_and_nothing_is_added() -> None:
    sized = SizedItems(["a"])
    with pytest.raises(SchemaValidationError, match=r"\$\[2\]"):
        sized.extend(["b", {1: "non-string key"}])  # type: ignore[dict-item]  # on purpose
    with pytest.raises(SchemaValidationError, match=r"\$\[1\]"):
        sized.append({"a": {"b"}})  # type: ignore[dict-item]  # a set is not JSON
    too_deep: JsonValue = "x"
    for _ in range(MAX_JSON_DEPTH + 1):
        too_deep = [too_deep]
    with pytest.raises(JsonLimitError, match=r"\$\[1\]"):
        sized.append(too_deep)
    assert list(sized) == ["a"]
    assert sized.total_approx_chars == 1


def test_a_view_is_frozen_and_changes_nothing() -> None:
    sized = SizedItems([user("a"), call("c1")])
    view = sized.view()
    sized.extend([output("c1"), user("b")])
    assert len(view) == 2
    assert list(view) == [user("a"), call("c1")]
    assert view.total_approx_chars == approx_chars(user("a")) + approx_chars(call("c1"))
    assert list(SizedItemsView(sized)) == list(sized)
    for name in (
        "append",
        "extend",
        "insert",
        "pop",
        "remove",
        "clear",
        "view",
        "__setitem__",
        "__delitem__",
    ):
        assert not hasattr(view, name), name
    with pytest.raises(AttributeError):
        view.anything = 1  # type: ignore[attr-defined]  # no such attribute, none can be added
    with pytest.raises(ArgumentTypeError, match="SizedItemsView"):
        SizedItemsView(view)  # type: ignore[arg-type]  # a view of a view is refused


def test_projecting_a_sized_list_checks_only_the_budget() -> None:
    with pytest.raises(ArgumentTypeError, match="budget"):
        TypeAwareContextProjector().project(SizedItems([]), {"maxItems": 1})  # type: ignore[arg-type]  # on purpose
