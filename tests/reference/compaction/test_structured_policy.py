"""StructuredSummaryCompactPolicy: ai4j's first summary, bounded nesting (CMP-n, departure 8)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference.compaction import (
    COMPACT_SUMMARY_MARKER,
    StructuredSummaryCompactPolicy,
    carried_summary,
)
from ctxpact.reference.projection import DefaultContextProjector, PairSafeContextProjector
from ctxpact.spec import (
    CompactPolicy as CompactPolicyProtocol,
)
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextReport,
    InvalidValueError,
    JsonValue,
    MemorySnapshot,
)

ITEMS = ("goal", "done", "pending", "decision", "recent")
BUDGET = ContextBudget(max_items=2, pinned_prefix_items=1)
CLOSING = "Preserved recent items should be treated as the authoritative working context."
FIRST_SUMMARY = (
    "AI4J_COMPACT_SUMMARY\nExisting summary:\nprevious summary\n"
    "Context projection: 2/5 items retained, 3 dropped.\n" + CLOSING
)


def test_first_compaction_is_exactly_ai4js() -> None:
    policy = StructuredSummaryCompactPolicy(BUDGET)
    result = policy.compact(MemorySnapshot(items=ITEMS, summary="previous summary"))
    assert result.summary == FIRST_SUMMARY
    assert result.memory == MemorySnapshot(items=("goal", "recent"), summary=FIRST_SUMMARY)
    assert result.context_report == DefaultContextProjector().project(ITEMS, BUDGET).report
    assert result == CompactResult(
        memory=result.memory, summary=FIRST_SUMMARY, context_report=result.context_report
    )


def test_no_drop_form_and_no_previous_summary() -> None:
    policy = StructuredSummaryCompactPolicy(ContextBudget(max_items=5))
    result = policy.compact(MemorySnapshot(items=("a", "b", "c")))
    assert result.summary == (
        "AI4J_COMPACT_SUMMARY\nContext projection: 3/3 items retained.\n" + CLOSING
    )


@pytest.mark.parametrize("previous", [None, "", "  \n\t "])
def test_blank_previous_summary_is_not_carried(previous: str | None) -> None:
    result = StructuredSummaryCompactPolicy(None).compact(
        MemorySnapshot(items=("a",), summary=previous)
    )
    assert result.summary == (
        "AI4J_COMPACT_SUMMARY\nContext projection: 1/1 items retained.\n" + CLOSING
    )


def test_previous_summary_of_another_kind_is_carried_trimmed_and_whole() -> None:
    result = StructuredSummaryCompactPolicy(None).compact(
        MemorySnapshot(items=(), summary="\n## Goal\nship it\n\n## Pending\n- tests\n")
    )
    assert result.summary == (
        "AI4J_COMPACT_SUMMARY\nExisting summary:\n## Goal\nship it\n\n## Pending\n- tests\n"
        "Context projection: 0/0 items retained.\n" + CLOSING
    )


def test_own_summary_is_nested_without_marker_projection_or_closing_lines() -> None:
    policy = StructuredSummaryCompactPolicy(BUDGET)
    first = policy.compact(MemorySnapshot(items=ITEMS, summary="previous summary"))
    assert first.memory is not None
    second = policy.compact(
        MemorySnapshot(items=(*first.memory.items, "new"), summary=first.summary)
    )
    assert second.summary == (
        "AI4J_COMPACT_SUMMARY\nExisting summary:\nprevious summary\n"
        "Context projection: 2/3 items retained, 1 dropped.\n" + CLOSING
    )


def test_repeated_compaction_does_not_grow_the_summary() -> None:
    policy = StructuredSummaryCompactPolicy(BUDGET)
    snapshot = MemorySnapshot(items=ITEMS, summary="line one\nline two")
    summaries = []
    for step in range(5):
        result = policy.compact(snapshot)
        assert result.memory is not None
        summaries.append(result.summary)
        snapshot = MemorySnapshot(
            items=(*result.memory.items, f"item {step}"), summary=result.summary
        )
    assert len(set(summaries[1:])) == 1
    assert summaries[-1] == (
        "AI4J_COMPACT_SUMMARY\nExisting summary:\nline one\nline two\n"
        "Context projection: 2/3 items retained, 1 dropped.\n" + CLOSING
    )


def test_own_summary_without_an_existing_summary_carries_nothing() -> None:
    policy = StructuredSummaryCompactPolicy(None)
    first = policy.compact(MemorySnapshot(items=("a",)))
    second = policy.compact(MemorySnapshot(items=("a",), summary=first.summary))
    assert second.summary == first.summary


@pytest.mark.parametrize(
    ("previous", "carried"),
    [
        ("plain", "plain"),
        (f"{COMPACT_SUMMARY_MARKER}", None),
        (f"{COMPACT_SUMMARY_MARKER}\nonly body", "only body"),
        (f"{COMPACT_SUMMARY_MARKER}\nExisting summary:\nx\n{CLOSING}", "x"),
        # ai4j's own nesting is flattened by one level.
        (
            (
                f"{COMPACT_SUMMARY_MARKER}\nExisting summary:\n{COMPACT_SUMMARY_MARKER}\n"
                f"Existing summary:\nx\nContext projection: 1/1 items retained.\n{CLOSING}\n"
                f"Context projection: 1/1 items retained.\n{CLOSING}"
            ),
            (
                f"{COMPACT_SUMMARY_MARKER}\nExisting summary:\nx\n"
                f"Context projection: 1/1 items retained.\n{CLOSING}"
            ),
        ),
        # Only the exact marker line counts; only the last projection line is ours.
        (f" {COMPACT_SUMMARY_MARKER}x\ny", f"{COMPACT_SUMMARY_MARKER}x\ny"),
        (
            (
                f"{COMPACT_SUMMARY_MARKER}\nExisting summary:\nContext projection: 1/1 items "
                f"retained.\nContext projection: 9/12 items retained, 3 dropped.\n{CLOSING}"
            ),
            "Context projection: 1/1 items retained.",
        ),
        (
            f"{COMPACT_SUMMARY_MARKER}\nx\nContext projection: one/1 items retained.",
            "x\nContext projection: one/1 items retained.",
        ),
    ],
)
def test_carried_summary(previous: str, carried: str | None) -> None:
    assert carried_summary(previous) == carried


@given(previous=st.none() | st.text())
@example(previous=f"{COMPACT_SUMMARY_MARKER}\nExisting summary:\n{COMPACT_SUMMARY_MARKER}")
@example(previous="Existing summary:\nContext projection: 1/1 items retained.")
@example(previous=f"\n{CLOSING}\n")
def test_compacting_again_carries_the_same_text(previous: str | None) -> None:
    policy = StructuredSummaryCompactPolicy(BUDGET)
    first = policy.compact(MemorySnapshot(items=ITEMS, summary=previous))
    assert carried_summary(first.summary) == carried_summary(previous)
    second = policy.compact(MemorySnapshot(items=ITEMS, summary=first.summary))
    assert second.summary == first.summary


def test_should_compact_counts_items_against_max_items() -> None:
    snapshot = MemorySnapshot(items=ITEMS)
    assert StructuredSummaryCompactPolicy(ContextBudget(max_items=4)).should_compact(snapshot)
    assert not StructuredSummaryCompactPolicy(ContextBudget(max_items=5)).should_compact(snapshot)
    assert StructuredSummaryCompactPolicy(ContextBudget(max_items=0)).should_compact(
        MemorySnapshot(items=("x",))
    )
    assert not StructuredSummaryCompactPolicy(None).should_compact(snapshot)
    assert not StructuredSummaryCompactPolicy(ContextBudget(max_approx_chars=1)).should_compact(
        snapshot
    )


class RecordingProjector:
    def __init__(self) -> None:
        self.calls: list[tuple[tuple[JsonValue, ...], ContextBudget | None]] = []

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        self.calls.append((tuple(items), budget))
        kept = tuple(items)[-1:]
        report = ContextReport(
            source_item_count=len(items),
            projected_item_count=len(kept),
            dropped_item_count=len(items) - len(kept),
            source_approx_chars=0,
            projected_approx_chars=0,
            item_limit_applied=True,
            character_limit_applied=False,
        )
        return ContextProjection(items=kept, report=report)


def test_a_given_projector_is_used_with_the_budget() -> None:
    projector = RecordingProjector()
    policy = StructuredSummaryCompactPolicy(BUDGET, projector)
    result = policy.compact(MemorySnapshot(items=ITEMS))
    assert projector.calls == [(ITEMS, BUDGET)]
    assert result.memory is not None
    assert result.memory.items == ("recent",)
    assert "Context projection: 1/5 items retained, 4 dropped." in (result.summary or "")


def test_default_projector_and_protocol() -> None:
    policy = StructuredSummaryCompactPolicy(BUDGET)
    assert policy.projector == PairSafeContextProjector(tiers=False)
    assert isinstance(policy, CompactPolicyProtocol)


def _call(call_id: str) -> JsonValue:
    return {"type": "function_call", "call_id": call_id, "name": "read", "arguments": "{}"}


def _output(call_id: str) -> JsonValue:
    return {"type": "function_call_output", "call_id": call_id, "output": "x" * 40}


def _user(text: str) -> JsonValue:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def test_the_retained_items_keep_their_pairs() -> None:
    # With DefaultContextProjector (ai4j's default) maxItems 2 retains [output, message]: the
    # output without its call, persisted into memory, fails every later turn.
    items = (_user("go"), _call("c1"), _output("c1"), _user("next"))
    budget = ContextBudget(max_items=3)
    assert DefaultContextProjector().project(items, budget).items == items[1:]
    result = StructuredSummaryCompactPolicy(ContextBudget(max_items=2)).compact(
        MemorySnapshot(items=items)
    )
    assert result.memory is not None
    # The exchange (call and output, one unit) does not fit beside the newest item; the
    # stage passes over it whole and still has room for the first message.
    assert result.memory.items == (items[0], items[3])
    assert "Context projection: 2/4 items retained, 2 dropped." in (result.summary or "")
    three = StructuredSummaryCompactPolicy(budget).compact(MemorySnapshot(items=items))
    assert three.memory is not None
    assert three.memory.items == items[1:]


def test_tier_fields_of_the_budget_never_reach_memory() -> None:
    items = (_user("go"), _call("c1"), _output("c1"), _call("c2"), _output("c2"))
    budget = ContextBudget(max_items=4, max_recent_tool_results=0, trim_old_reasoning=True)
    result = StructuredSummaryCompactPolicy(budget).compact(MemorySnapshot(items=items))
    assert result.memory is not None
    assert result.memory.items == items[1:]  # verbatim: no placeholder is ever persisted


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(InvalidValueError, match="ContextBudget"):
        StructuredSummaryCompactPolicy(3)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="ContextProjector"):
        StructuredSummaryCompactPolicy(BUDGET, "projector")  # type: ignore[arg-type]


def test_the_snapshot_is_not_changed() -> None:
    items: tuple[JsonValue, ...] = ({"a": [1]}, {"b": [2]}, {"c": [3]})
    snapshot = MemorySnapshot(items=items, summary="s")
    StructuredSummaryCompactPolicy(ContextBudget(max_items=1)).compact(snapshot)
    assert snapshot == MemorySnapshot(items=({"a": [1]}, {"b": [2]}, {"c": [3]}), summary="s")
