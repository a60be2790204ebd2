"""The transcript strategies give what they promise, and the suite's pairing reads §1.5 right.

Provider transcripts are lists the provider accepts (``wire_problems`` is the spec's own
oracle); well-paired transcripts leave no result without its call and no call without its
results except a pending tail; edge budgets cut where units are; the classic transcripts are
valid for their provider; and the suite's own pairing (``ctxpact.conformance._pairing``) agrees
with ``ctxpact.spec.pairing`` on the odd lists too.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._pairing import pairs
from ctxpact.conformance.checks._classics import TRANSCRIPTS, budgets, classic_cases
from ctxpact.conformance.strategies import (
    PROVIDER_SHAPES,
    adversarial_transcripts,
    edge_budgets,
    provider_transcripts,
    transcripts,
    unit_edges,
)
from ctxpact.spec import PROVIDERS, JsonValue, pairing, wire_problems

_CLASSIC = {provider: build() for provider, build in TRANSCRIPTS.items()}


def test_every_provider_has_a_strategy_and_a_classic_transcript() -> None:
    assert set(PROVIDER_SHAPES) == set(PROVIDERS) == set(TRANSCRIPTS)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_classic_transcript_is_one_its_provider_accepts(provider: str) -> None:
    assert wire_problems(_CLASSIC[provider], provider) == ()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_classic_budgets_cut_inside_the_newest_parallel_step(provider: str) -> None:
    items = _CLASSIC[provider]
    (step,) = [unit for unit in pairs(items).units if len(unit) > 1][-1:]
    limits = [budget.max_items for budget in budgets(items) if budget.max_items is not None]
    assert any(0 < limit < len(items) - step[0] for limit in limits)


def test_the_classic_cases_cover_every_provider_and_budget() -> None:
    cases = classic_cases()
    assert {provider for provider, _, _ in cases} == set(PROVIDERS)
    assert len(cases) == sum(len(budgets(build())) for build in TRANSCRIPTS.values())


@given(data=st.data())
@example(data=None)
def test_a_provider_transcript_is_one_the_provider_accepts(data: st.DataObject | None) -> None:
    for provider in PROVIDERS:
        items = _CLASSIC[provider] if data is None else data.draw(provider_transcripts(provider))
        assert wire_problems(items, provider) == (), provider


@given(items=transcripts(pending=False))
@example(items=_CLASSIC["anthropic"])
def test_a_transcript_pairs_every_call_and_result(items: list[JsonValue]) -> None:
    found = pairs(items)
    assert found.orphans() == ()
    assert found.pending() == ()


@given(items=transcripts(pending=True))
@example(items=[*_CLASSIC["openai-chat"], {"type": "function_call", "call_id": "p"}])
def test_only_the_last_step_of_a_pending_transcript_may_wait_for_results(
    items: list[JsonValue],
) -> None:
    found = pairs(items)
    assert found.orphans() == ()
    waiting = [call.position for call in found.pending()]
    if waiting:
        assert len({found.unit_of[p] for p in waiting}) == 1
        last_unit = found.units[found.unit_of[waiting[0]]]
        assert max(last_unit) == len(items) - 1


def test_transcripts_reject_unknown_shapes() -> None:
    with pytest.raises(ValueError, match="Expected shapes among responses, chat, anthropic"):
        transcripts(shapes=("gemini",))
    with pytest.raises(ValueError, match="Expected a provider among"):
        provider_transcripts("gemini")


@given(items=adversarial_transcripts() | transcripts(pending=True))
@example(items=[{"type": "function_call_output", "call_id": "x"}, "text", None, 1.0])
@example(items=_CLASSIC["openai-responses"])
def test_the_suites_pairing_agrees_with_the_spec(items: list[JsonValue]) -> None:
    mine, theirs = pairs(items), pairing(items)
    assert [list(unit) for unit in mine.units] == [list(unit) for unit in theirs.units()]
    assert [link.position for link in mine.orphans()] == [
        link.position for link in theirs.orphans()
    ]
    assert [link.position for link in mine.pending()] == [
        link.position for link in theirs.pending()
    ]


@given(items=transcripts(max_turns=2, max_steps=2), data=st.data())
@example(items=_CLASSIC["openai-chat"], data=None)
def test_edge_budgets_aim_at_the_units(items: list[JsonValue], data: st.DataObject | None) -> None:
    limits, chars, pins = unit_edges(items)
    assert {0, 1, len(items)} <= set(limits)
    for unit in pairs(items).units:
        assert len(unit) in limits
        assert len(items) - unit[0] in limits
        if len(unit) > 1:
            inside = len(items) - unit[1]
            assert inside in limits  # a tail that starts inside the unit
            assert unit[0] + 1 in pins
    assert {0, 1} <= set(chars)
    if data is not None:
        budget = data.draw(edge_budgets(items, tiers=False))
        assert budget.max_recent_tool_results is None
        assert budget.trim_old_reasoning is False
        assert budget.max_items is None or budget.max_items in limits
        assert budget.max_approx_chars is None or budget.max_approx_chars in chars
