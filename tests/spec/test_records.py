"""Records reject impossible values at construction, with errors that say what and where."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.spec import (
    SCHEMA_OF,
    AgentSessionSnapshot,
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextReport,
    CtxpactError,
    InvalidValueError,
    MemorySnapshot,
    SchemaValidationError,
    from_json,
    to_json,
    violations,
)


@pytest.mark.parametrize(
    "field", ["max_items", "max_approx_chars", "pinned_prefix_items", "max_recent_tool_results"]
)
def test_budget_rejects_negative_limits(field: str) -> None:
    with pytest.raises(
        ValueError, match=rf"non-negative integer but got -1 for ContextBudget\.{field}"
    ):
        ContextBudget(**{field: -1})  # type: ignore[arg-type]  # mypy can't see the key


@pytest.mark.parametrize("value", [True, 1.5, "3"])
def test_budget_rejects_non_integers(value: Any) -> None:
    with pytest.raises(InvalidValueError) as raised:
        ContextBudget(max_items=value)
    assert raised.value.field == "max_items"
    assert raised.value.actual == value
    assert isinstance(raised.value, CtxpactError)


def test_budget_defaults_mean_no_limits_and_tiers_off() -> None:
    budget = ContextBudget()
    assert (
        budget.max_items,
        budget.max_approx_chars,
        budget.pinned_prefix_items,
        budget.max_recent_tool_results,
        budget.trim_old_reasoning,
    ) == (None, None, 0, None, False)


def test_budget_is_keyword_only_and_frozen() -> None:
    with pytest.raises(TypeError):
        ContextBudget(3)  # type: ignore[call-arg]  # the point: positional arguments are refused
    budget = ContextBudget(max_items=3)
    with pytest.raises(AttributeError):
        budget.max_items = 4  # type: ignore[misc]  # the point: records are frozen


REPORT_FIELDS: dict[str, Any] = {
    "source_item_count": 1,
    "projected_item_count": 1,
    "dropped_item_count": 0,
    "source_approx_chars": 1,
    "projected_approx_chars": 1,
    "item_limit_applied": False,
    "character_limit_applied": False,
}


def test_report_rejects_negative_counts_and_bad_indices() -> None:
    fields = REPORT_FIELDS
    with pytest.raises(InvalidValueError, match="dropped_item_count"):
        ContextReport(**{**fields, "dropped_item_count": -2})
    with pytest.raises(InvalidValueError, match=r"dropped_indices\[1\]"):
        ContextReport(**fields, dropped_indices=[0, -1])
    with pytest.raises(InvalidValueError, match=r"notes\[0\]"):
        ContextReport(**fields, notes=[3])  # type: ignore[list-item]  # the point


@pytest.mark.parametrize(
    ("indices", "bad"),
    [((0, True), 1), ((2, 1.0), 1), ((-5, 3), 0), (("0",), 0), ((*range(10_000), -1), 10_000)],
    ids=["bool", "float", "negative", "text", "last-of-many"],
)
def test_report_indices_name_the_first_bad_one(indices: tuple[Any, ...], bad: int) -> None:
    # The validator checks plain ints at C speed; whatever fails that is named exactly.
    with pytest.raises(InvalidValueError, match=rf"cleared_indices\[{bad}\]"):
        ContextReport(**REPORT_FIELDS, cleared_indices=indices)


class Position(int):
    """An int subclass: not the common case, still a non-negative integer."""


def test_report_indices_take_any_non_negative_int() -> None:
    report = ContextReport(**REPORT_FIELDS, dropped_indices=(Position(3), 4), cleared_indices=())
    assert report.dropped_indices == (3, 4)
    assert ContextReport(**REPORT_FIELDS, dropped_indices=range(5)).dropped_indices == (
        0,
        1,
        2,
        3,
        4,
    )


def test_sequences_become_tuples() -> None:
    snapshot = MemorySnapshot(items=["a", {"b": 1}], summary=None)
    assert snapshot.items == ("a", {"b": 1})
    assert CompactResult(pending=["x"]).pending == ("x",)


def test_report_indices_none_means_not_reported() -> None:
    document = {
        "sourceItemCount": 2,
        "projectedItemCount": 1,
        "droppedItemCount": 1,
        "sourceApproxChars": 2,
        "projectedApproxChars": 1,
        "itemLimitApplied": True,
        "characterLimitApplied": False,
    }
    report = from_json(ContextReport, document)
    assert report.dropped_indices is None
    assert report.cleared_indices is None
    assert report.notes == ()


def test_from_json_reports_every_violation_with_its_path() -> None:
    document = {
        "items": ["a"],
        "report": {
            "sourceItemCount": 1,
            "projectedItemCount": 1,
            "droppedItemCount": -1,
            "sourceApproxChars": 1,
            "projectedApproxChars": "1",
            "itemLimitApplied": False,
            "characterLimitApplied": False,
            "surprise": 0,
        },
    }
    with pytest.raises(SchemaValidationError) as raised:
        from_json(ContextProjection, document)
    rendered = {str(v) for v in raised.value.violations}
    assert rendered == {
        "$.report: Additional properties are not allowed ('surprise' was unexpected)",
        "$.report.droppedItemCount: -1 is less than the minimum of 0",
        "$.report.projectedApproxChars: '1' is not of type 'integer'",
    }
    assert raised.value.schema == "context-projection"
    assert "$.report.droppedItemCount" in str(raised.value)


def test_from_json_never_leaks_a_converter_traceback_on_non_objects() -> None:
    bad: object
    for bad in (None, [], "text", 3):
        with pytest.raises(SchemaValidationError, match=r"\$: .* is not of type 'object'"):
            from_json(MemorySnapshot, bad)


def test_from_json_shares_no_object_with_its_input() -> None:
    document = {"items": [{"type": "message", "content": [{"text": "a"}]}], "summary": None}
    snapshot = from_json(MemorySnapshot, document)
    document["items"][0]["content"][0]["text"] = "changed"  # type: ignore[index]
    assert snapshot.items[0] == {"type": "message", "content": [{"text": "a"}]}


def test_to_json_copies_items_and_names_the_path_of_a_non_json_value() -> None:
    item: Any = {"nested": [1, 2]}
    document: Any = to_json(MemorySnapshot(items=[item]))
    document["items"][0]["nested"].append(3)
    assert item == {"nested": [1, 2]}
    with pytest.raises(SchemaValidationError, match=r"\$\.items\[1\]\.x\[0\]: .*set"):
        to_json(MemorySnapshot(items=["ok", {"x": [{1}]}]))  # type: ignore[list-item]
    with pytest.raises(SchemaValidationError, match=r"\$\.items\[0\]: .*not a finite"):
        to_json(MemorySnapshot(items=[float("nan")]))


def test_to_json_and_from_json_refuse_foreign_types() -> None:
    with pytest.raises(TypeError, match="ctxpact record"):
        to_json({"not": "a record"})
    with pytest.raises(TypeError, match="ctxpact record class"):
        from_json(dict, {})


def test_a_violation_inside_a_nullable_record_names_its_own_path() -> None:
    # anyOf [record, null]: the error must point into the record, not at the null branch.
    document = {"sessionId": "s", "compactResult": {"readFiles": [1], "memory": {"items": 2}}}
    with pytest.raises(SchemaValidationError) as raised:
        from_json(AgentSessionSnapshot, document)
    assert [str(v) for v in raised.value.violations] == [
        "$.compactResult.memory.items: 2 is not of type 'array'",
        "$.compactResult.readFiles[0]: 1 is not of type 'string'",
    ]


def test_session_snapshot_needs_a_session_id() -> None:
    with pytest.raises(InvalidValueError, match="non-blank str"):
        AgentSessionSnapshot(session_id="")
    with pytest.raises(SchemaValidationError, match=r"\$\.sessionId"):
        from_json(AgentSessionSnapshot, {"sessionId": ""})


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ({"maxItems": 1.0}, ContextBudget(max_items=1)),
        (
            {"pinnedPrefixItems": 2.0, "maxApproxChars": 3e2},
            ContextBudget(pinned_prefix_items=2, max_approx_chars=300),
        ),
        ({"maxRecentToolResults": 1e20}, ContextBudget(max_recent_tool_results=10**20)),
    ],
)
def test_a_whole_number_is_an_integer_however_it_is_written(
    document: dict[str, object], expected: ContextBudget
) -> None:
    # JSON-20: JSON Schema's rule, which needs only the parsed value; to_json writes 1, not 1.0.
    budget = from_json(ContextBudget, document)
    assert budget == expected
    assert all(
        type(value) is int for value in to_json(budget).values() if value not in (None, False)
    )


@pytest.mark.parametrize(
    ("document", "path"),
    [
        ({"maxItems": 1.5}, "$.maxItems"),
        ({"maxItems": "1"}, "$.maxItems"),
        ({"maxItems": True}, "$.maxItems"),
        ({"pinnedPrefixItems": False}, "$.pinnedPrefixItems"),
        ({"trimOldReasoning": 1}, "$.trimOldReasoning"),
    ],
)
def test_a_number_that_is_not_whole_a_string_or_a_boolean_is_refused(
    document: dict[str, object], path: str
) -> None:
    with pytest.raises(SchemaValidationError) as raised:
        from_json(ContextBudget, document)
    assert [v.path for v in raised.value.violations] == [path]


def test_a_whole_float_count_inside_a_nested_record_is_read_as_an_integer() -> None:
    report = {
        "sourceItemCount": 2.0,
        "projectedItemCount": 0,
        "droppedItemCount": 2,
        "sourceApproxChars": 0,
        "projectedApproxChars": 0,
        "itemLimitApplied": True,
        "characterLimitApplied": False,
        "droppedIndices": [0.0, 1],
    }
    projection = from_json(ContextProjection, {"items": [], "report": report})
    assert projection.report.source_item_count == 2
    assert projection.report.dropped_indices == (0, 1)
    assert type(projection.report.dropped_indices[0]) is int
    with pytest.raises(SchemaValidationError) as raised:
        from_json(ContextProjection, {"items": [], "report": {**report, "sourceItemCount": 2.5}})
    assert [v.path for v in raised.value.violations] == ["$.report.sourceItemCount"]


@pytest.mark.parametrize("value", ["done", b"done", {"a": 1}])
def test_a_sequence_field_refuses_a_string_or_a_mapping(value: object) -> None:
    with pytest.raises(TypeError, match="Expected a list or a tuple"):
        CompactResult(completed=value)  # type: ignore[arg-type]  # the point
    with pytest.raises(TypeError, match="Expected a list or a tuple"):
        MemorySnapshot(items=value)  # type: ignore[arg-type]  # the point


def test_violations_come_in_document_order() -> None:
    found = violations({"completed": [1] * 12}, "compact-result")
    assert [v.path for v in found] == [f"$.completed[{i}]" for i in range(12)]


def test_the_record_to_schema_map_is_read_only() -> None:
    with pytest.raises(TypeError):
        SCHEMA_OF[dict] = "x"  # type: ignore[index]  # the point


@st.composite
def kept_positions(draw: st.DrawFn) -> tuple[int, Sequence[int], list[int]]:
    count = draw(st.integers(0, 30))
    kept: Sequence[int] = sorted(draw(st.sets(st.integers(0, max(0, count - 1)), max_size=count)))
    if count and draw(st.booleans()):
        start = draw(st.integers(0, count))
        kept = range(start, draw(st.integers(start, count)), draw(st.integers(1, 3)))
    cleared = [p for p in kept if draw(st.booleans())]
    return count, kept, cleared


@given(kept_positions())
@example((0, [], []))
@example((5, range(5), [0, 4]))
@example((5, range(1, 5, 2), [3]))
@example((5, range(2, 2), []))
@example((10_000, [0, 9_999], [9_999]))
def test_a_report_of_kept_positions_is_the_report_with_their_complement(
    case: tuple[int, Sequence[int], list[int]],
) -> None:
    count, kept, cleared = case
    report = ContextReport.of_positions(
        source_item_count=count,
        kept=kept,
        cleared=cleared,
        source_approx_chars=7,
        projected_approx_chars=3,
        item_limit_applied=len(kept) < count,
        character_limit_applied=False,
        notes=["maxItems applied: 1"],
    )
    assert report == ContextReport(
        source_item_count=count,
        projected_item_count=len(kept),
        dropped_item_count=count - len(kept),
        source_approx_chars=7,
        projected_approx_chars=3,
        item_limit_applied=len(kept) < count,
        character_limit_applied=False,
        notes=("maxItems applied: 1",),
        dropped_indices=tuple(p for p in range(count) if p not in set(kept)),
        cleared_indices=tuple(cleared),
    )
    assert type(report.dropped_indices) is tuple


@pytest.mark.parametrize(
    ("count", "kept", "cleared", "field"),
    [
        (-1, [], [], "source_item_count"),
        (True, [], [], "source_item_count"),
        (3, [1, 0], [], r"kept\[1\]"),
        (3, [0, 0], [], r"kept\[1\]"),
        (3, [3], [], r"kept\[0\]"),
        (3, [False], [], r"kept\[0\]"),
        (3, range(2, -1, -1), [], r"kept\[1\]"),
        (3, range(4), [], r"kept\[3\]"),
        (3, [0, 2], [1], r"cleared\[0\]"),
        (3, [0, 2], [2, 0], r"cleared\[1\]"),
    ],
)
def test_a_report_of_kept_positions_refuses_positions_that_are_not(
    count: Any, kept: Sequence[int], cleared: list[int], field: str
) -> None:
    with pytest.raises(InvalidValueError, match=field):
        ContextReport.of_positions(
            source_item_count=count,
            kept=kept,
            cleared=cleared,
            source_approx_chars=0,
            projected_approx_chars=0,
            item_limit_applied=False,
            character_limit_applied=False,
        )
