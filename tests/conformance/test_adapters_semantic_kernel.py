"""Semantic Kernel's history reducers (run in the environment that has semantic-kernel)."""

from __future__ import annotations

import pytest

pytest.importorskip("semantic_kernel")

from ctxpact.conformance import ModelAnswer, ScriptedModelClient
from ctxpact.conformance.adapters import framework_targets, unexpressible_fields
from ctxpact.conformance.adapters import semantic_kernel_reducers as sk
from ctxpact.conformance.adapters._testing import (
    PAIRED,
    check_known_findings,
    orphans,
    tool_result,
    user,
)
from ctxpact.spec import ContextBudget, MemorySnapshot

TRUNCATION = "semantic-kernel:ChatHistoryTruncationReducer(target_count=maxItems)"
SUMMARIZATION = "semantic-kernel:ChatHistorySummarizationReducer(target_count=4)"


def test_results_are_named_after_their_calls() -> None:
    (call, result) = sk.present(PAIRED[1:3])
    assert [content.function_name for content in call.items] == ["read_file"]
    assert [content.function_name for content in result.items] == ["read_file"]
    (orphan,) = sk.present([tool_result("nobody", "x")])
    assert [content.function_name for content in orphan.items] == [""]


def test_truncation_keeps_the_newest_messages_and_whole_pairs() -> None:
    projection = sk.TruncationReducerProjector().project(PAIRED, ContextBudget(max_items=2))
    assert list(projection.items) == PAIRED[-2:]
    assert projection.report.dropped_indices == (0, 1, 2, 3)
    one = sk.TruncationReducerProjector().project(PAIRED, ContextBudget(max_items=1))
    assert list(one.items) == PAIRED[-2:]  # over the target: docs/findings/sk_history_reducers.py
    assert orphans(PAIRED, one) == []


def test_truncation_declares_what_it_cannot_express() -> None:
    (target,) = [t for t in framework_targets() if t.name == TRUNCATION]
    assert set(unexpressible_fields(target)) == {
        "pinnedPrefixItems",
        "maxApproxChars",
        "maxItems: 0",
    }
    assert sk.TruncationReducerProjector().project(PAIRED, ContextBudget(max_items=0)).items == ()


def test_the_summarization_reducer_summarizes_through_the_client() -> None:
    client = ScriptedModelClient([ModelAnswer(output="so far")])
    policy = sk.SummarizationReducerPolicy(client, target_count=2)
    snapshot = MemorySnapshot(items=[user(f"turn {n}") for n in range(5)], summary="before")
    assert policy.should_compact(snapshot)
    result = policy.compact(snapshot)
    assert result.memory is not None
    assert result.summary == result.memory.summary == "so far"
    assert list(result.memory.items) == list(snapshot.items[-2:])
    (prompt,) = client.prompts
    assert prompt.model == sk.MODEL_NAME
    assert "before" in str(prompt.items)


def test_below_its_target_the_reducer_leaves_the_memory() -> None:
    policy = sk.SummarizationReducerPolicy(ScriptedModelClient(), target_count=4)
    snapshot = MemorySnapshot(items=[user("a"), user("b")])
    assert not policy.should_compact(snapshot)
    assert policy.compact(snapshot).memory is None


@pytest.mark.parametrize("name", [TRUNCATION, SUMMARIZATION])
def test_the_reducers_fail_exactly_their_findings(name: str) -> None:
    check_known_findings(name)
