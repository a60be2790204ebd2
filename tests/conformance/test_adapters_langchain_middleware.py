"""LangChain v1 middleware: summarization as a policy and a projector, ClearToolUsesEdit."""

from __future__ import annotations

import pytest

pytest.importorskip("langchain.agents")

from ctxpact.conformance import ModelAnswer, Outcome, ScriptedModelClient
from ctxpact.conformance.adapters import framework_targets, unexpressible_fields
from ctxpact.conformance.adapters import langchain_middleware as lm
from ctxpact.conformance.adapters._testing import (
    PAIRED,
    check_known_findings,
    orphans,
    tool_result,
    user,
)
from ctxpact.spec import ContextBudget, JsonValue, MemorySnapshot

POLICY = 'langchain:SummarizationMiddleware(trigger=("messages", 8), keep=("messages", 4))'


def _turns(count: int) -> list[JsonValue]:
    return [user(f"turn {n}") for n in range(count)]


def test_the_policy_summarizes_through_the_client_and_keeps_the_tail_verbatim() -> None:
    client = ScriptedModelClient([ModelAnswer(output="what happened")])
    policy = lm.SummarizationCompactPolicy(client, trigger_messages=4, keep_messages=2)
    snapshot = MemorySnapshot(items=_turns(5), summary="before")
    assert policy.should_compact(snapshot)
    result = policy.compact(snapshot)
    assert result.memory is not None
    assert list(result.memory.items) == list(snapshot.items[-2:])
    assert result.memory.items[0] is snapshot.items[-2]  # the item itself, not a copy
    assert result.summary == result.memory.summary == "what happened"
    (prompt,) = client.prompts
    assert prompt.model == lm.MODEL_NAME
    # The previous summary reaches the model as the message LangChain writes for it.
    assert "before" in str(prompt.items)


def test_the_policy_below_its_trigger_leaves_the_memory() -> None:
    policy = lm.SummarizationCompactPolicy(ScriptedModelClient(), trigger_messages=8)
    snapshot = MemorySnapshot(items=_turns(3))
    assert not policy.should_compact(snapshot)
    assert policy.compact(snapshot).memory is None


def test_a_client_without_text_is_a_failed_model_call() -> None:
    policy = lm.SummarizationCompactPolicy(
        ScriptedModelClient([ModelAnswer(no_result=True)]), trigger_messages=2, keep_messages=1
    )
    with pytest.raises(lm.ModelAnswerMissingError):
        policy.compact(MemorySnapshot(items=_turns(3)))


def test_the_policy_passes_the_generic_checks() -> None:
    check_known_findings(POLICY)


def test_the_projector_keeps_what_the_middleware_preserved() -> None:
    projection = lm.SummarizationProjector().project(_turns(5), ContextBudget(max_items=2))
    assert list(projection.items) == _turns(5)[-2:]
    assert projection.report.dropped_indices == (0, 1, 2)
    assert any("left out 1 message(s)" in note for note in projection.report.notes)


def test_the_projector_moves_its_cut_back_to_a_call() -> None:
    # keep=("messages", 1) lands on a tool result: the cut moves back to its call (a finding:
    # keep is not a bound), and the pair stays whole.
    projection = lm.SummarizationProjector().project(PAIRED, ContextBudget(max_items=1))
    assert list(projection.items) == PAIRED[-2:]
    assert orphans(PAIRED, projection) == []


def test_the_projector_declares_what_it_cannot_express() -> None:
    (target,) = [t for t in framework_targets() if "kept verbatim" in t.name]
    assert set(unexpressible_fields(target)) == {"pinnedPrefixItems", "maxItems: 0"}
    projection = lm.SummarizationProjector().project(_turns(2), ContextBudget(max_items=0))
    assert projection.items == ()


def test_clear_tool_uses_is_a_tier1_peer_with_its_own_placeholder() -> None:
    items = [*PAIRED, user("next")]
    projection = lm.ClearToolUsesProjector().project(
        items, ContextBudget(max_recent_tool_results=1)
    )
    assert projection.report.cleared_indices == (2,)
    assert projection.items[2] == tool_result("c1", "[cleared]")
    assert projection.items[5] is items[5]
    assert [item for index, item in enumerate(projection.items) if index != 2] == [
        item for index, item in enumerate(items) if index != 2
    ]


def test_clear_tool_uses_without_a_tier1_budget_changes_nothing() -> None:
    projection = lm.ClearToolUsesProjector().project(PAIRED, ContextBudget(max_items=2))
    assert list(projection.items) == PAIRED
    assert projection.report.cleared_indices == ()
    assert any("not expressible" in note for note in projection.report.notes)


@pytest.mark.parametrize(
    "name",
    [
        "langchain:SummarizationMiddleware (kept verbatim)",
        "langchain:ContextEditingMiddleware(ClearToolUsesEdit)",
    ],
)
def test_the_projectors_fail_exactly_their_findings(name: str) -> None:
    check_known_findings(name)


def test_clear_tool_uses_keeps_tier_purity() -> None:
    from ctxpact.conformance import Claim, check_target  # noqa: PLC0415

    (target,) = [t for t in framework_targets() if "ClearToolUses" in t.name]
    import attrs  # noqa: PLC0415

    tiered = attrs.evolve(target, claims=(Claim.GENERIC, Claim.EXACT), expected_failures=())
    report = check_target(
        tiered,
        profile="quick",
        keywords=["projector.exact.tier-purity", "projector.exact.idempotence"],
    )
    assert [r.outcome for r in report.results] == [Outcome.PASS, Outcome.PASS]
