"""The projector checks themselves: the reference passes them, and their oracle is the spec's.

The checks restate SPEC.md in ``checks/_projection_support.py``; these tests hold that
restatement against the vectors (taken from the spec's worked examples) and against the
reference on generated transcripts. Where the spec and the reference disagree, a strict
``xfail`` names the disagreement, so fixing either side turns it into a failure to update.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import pytest
from hypothesis import example, given

from ctxpact.conformance import (
    Claim,
    Component,
    Outcome,
    Target,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance.checks import projector as checks
from ctxpact.conformance.checks._projection_support import (
    Case,
    cases,
    expected_projection,
    pair_cases,
    text,
)
from ctxpact.conformance.checks.projector._exact import pair_safe_vectors, placeholders, vectors
from ctxpact.conformance.checks.projector._examples import (
    carriers,
    paired,
    tier1_example,
    tier2_example,
)
from ctxpact.conformance.checks.projector._generic import size_vectors
from ctxpact.conformance.checks.projector._pairs import pair_integrity
from ctxpact.conformance.vectors import Vector, vectors_for
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
    approx_chars,
)
from ctxpact.spec import ContextBudget, ContextProjection, JsonValue, from_json, to_json

QUICK = profile_settings("quick")
PROJECTORS = [t for t in reference_targets() if t.component is Component.PROJECTOR]
#: The checks of the tiers, skipped for a target whose options say tiers=False.
TIER_CHECKS = {
    "projector.exact.placeholders",
    "projector.exact.tier1-off",
    "projector.exact.tier2-scope",
    "projector.exact.cleared-reasoning",
    "projector.exact.idempotence",
    "projector.exact.tier-purity",
}


#: The checks of §5.5, skipped for a target whose options do not say pair_safe=True.
PAIR_SAFE_CHECKS = {
    "projector.exact.pair-safe-vectors",
    "projector.exact.unit-stages",
    "projector.exact.pair-safe-singletons",
}
#: The checks of the pair-keeping claims, which the default and type-aware projectors do not
#: make (maxItems can orphan a result).
PAIR_CLAIM_CHECKS = {"projector.pair-integrity", "projector.wire-valid"}


def _expected_outcome(target: Target, check_id: str) -> Outcome:
    pair_safe = bool(target.options.get("pair_safe"))
    if check_id in PAIR_CLAIM_CHECKS and not pair_safe:
        return Outcome.SKIP
    if check_id in PAIR_SAFE_CHECKS and not pair_safe:
        return Outcome.SKIP
    if check_id in TIER_CHECKS and target.options.get("tiers") is False:
        return Outcome.SKIP
    return Outcome.PASS


@pytest.mark.parametrize(
    ("target", "check_id"),
    [
        pytest.param(
            target,
            found.id,
            id=f"{target.name.rsplit(':', 1)[1]}-{found.id}",
        )
        for target in PROJECTORS
        for found in checks.CHECKS
    ],
)
def test_the_reference_passes_every_projector_check(target: Target, check_id: str) -> None:
    found = {c.id: c for c in checks.CHECKS}[check_id]
    result = run_check(
        found,
        factory=target.factory,
        claims=target.claims,
        settings=QUICK,
        options=target.options,
    )
    assert result.outcome is _expected_outcome(target, check_id), result.message


def test_the_reference_targets_are_the_three_projectors() -> None:
    claims = {t.name.rsplit(":", 1)[1]: t.claims for t in PROJECTORS}
    assert claims == {
        "DefaultContextProjector": {Claim.GENERIC, Claim.EXACT},
        "TypeAwareContextProjector": {Claim.GENERIC, Claim.EXACT},
        "PairSafeContextProjector": {
            Claim.GENERIC,
            Claim.EXACT,
            Claim.PAIR_INTEGRITY,
            Claim.WIRE_VALID,
        },
    }


def test_pair_integrity_passes_for_a_projector_that_keeps_every_item() -> None:
    class KeepsEverything:
        def project(self, items: Sequence[JsonValue], _: object) -> ContextProjection:
            return DefaultContextProjector().project(items, None)

    result = run_check(
        pair_integrity,
        factory=KeepsEverything,
        claims=frozenset({Claim.GENERIC, Claim.PAIR_INTEGRITY}),
        settings=QUICK,
    )
    assert result.outcome is Outcome.PASS, result.message


def test_tier_checks_skip_a_target_without_tiers() -> None:
    result = run_check(
        placeholders,
        factory=DefaultContextProjector,
        claims=frozenset({Claim.GENERIC, Claim.EXACT}),
        settings=QUICK,
        options={"tiers": False},
    )
    assert result.outcome is Outcome.SKIP
    assert "tiers=False" in result.message


# -- the vectors ----------------------------------------------------------------------------


def test_the_vectors_check_cites_every_clause_its_vectors_pin() -> None:
    pinned = {clause for vector in vectors_for("project") for clause in vector.clauses}
    assert pinned <= set(vectors.clauses)


def test_the_size_check_cites_every_clause_the_size_vectors_pin() -> None:
    pinned = {clause for vector in vectors_for("approx_chars") for clause in vector.clauses}
    assert pinned <= set(size_vectors.clauses)


def test_both_vector_files_have_cases() -> None:
    assert len(vectors_for("project")) >= 20
    assert len(vectors_for("approx_chars")) >= 20


@pytest.mark.parametrize("vector", vectors_for("approx_chars"), ids=lambda v: v.id)
def test_the_reference_measures_every_size_vector(vector: Vector) -> None:
    assert approx_chars(vector.input["item"]) == vector.expected["size"]


def _budget(vector: Vector) -> ContextBudget | None:
    raw = vector.input.get("budget")
    return None if raw is None else from_json(ContextBudget, raw)


@pytest.mark.parametrize("vector", vectors_for("project"), ids=lambda v: v.id)
def test_the_spec_oracle_computes_every_project_vector(vector: Vector) -> None:
    want = from_json(ContextProjection, vector.expected)
    for tiers in (True, False) if not vector.features else (True,):
        got = expected_projection(vector.input["items"], _budget(vector), tiers=tiers)
        assert [text(i) for i in got.items] == [text(i) for i in want.items]
        assert got.report == want.report


@pytest.mark.parametrize("vector", vectors_for("project"), ids=lambda v: v.id)
def test_the_reference_computes_every_project_vector(vector: Vector) -> None:
    projector = TypeAwareContextProjector() if vector.features else DefaultContextProjector()
    got = projector.project(vector.input["items"], _budget(vector))
    assert to_json(got) == vector.expected
    assert [text(i) for i in got.items] == [text(i) for i in vector.expected["items"]]


@pytest.mark.parametrize("vector", vectors_for("project_pair_safe"), ids=lambda v: v.id)
def test_the_spec_oracle_computes_every_pair_safe_vector(vector: Vector) -> None:
    want = from_json(ContextProjection, vector.expected)
    got = expected_projection(
        vector.input["items"], _budget(vector), tiers=vector.input["tiers"], pair_safe=True
    )
    assert [text(i) for i in got.items] == [text(i) for i in want.items]
    assert got.report == want.report


def test_the_pair_safe_vectors_check_cites_every_clause_its_vectors_pin() -> None:
    pinned = {clause for vector in vectors_for("project_pair_safe") for clause in vector.clauses}
    assert pinned <= set(pair_safe_vectors.clauses)


# -- the oracle against the reference -------------------------------------------------------

_ALGORITHMS = (
    (True, False, TypeAwareContextProjector()),
    (False, False, DefaultContextProjector()),
    (True, True, PairSafeContextProjector()),
    (False, True, PairSafeContextProjector(tiers=False)),
)


@given(case=cases(tiers=True) | pair_cases(tiers=True))
@example(
    case=(
        tier1_example() + tier2_example(),
        ContextBudget(
            max_recent_tool_results=1, trim_old_reasoning=True, max_items=6, max_approx_chars=400
        ),
    )
)
@example(case=(carriers(), ContextBudget(max_recent_tool_results=0, max_items=4)))
@example(case=(paired(), ContextBudget(max_items=3, pinned_prefix_items=2)))
def test_the_spec_oracle_agrees_with_the_reference(case: Case) -> None:
    items, budget = case
    for tiers, pair_safe, projector in _ALGORITHMS:
        want = expected_projection(items, budget, tiers=tiers, pair_safe=pair_safe)
        got = projector.project(items, budget)
        assert [text(i) for i in got.items] == [text(i) for i in want.items]
        assert got.report == want.report


# -- reasoning items are never tool results (§1.4) ------------------------------------------


def test_an_item_that_is_reasoning_and_looks_like_a_tool_message_is_reasoning() -> None:
    # §1.4: a reasoning item is never a tool result, so only Tier-2 replaces it, and the
    # suite's reading agrees with the reference's.
    items: list[JsonValue] = [
        {"type": "reasoning", "role": "tool", "tool_call_id": "c1", "content": "x", "summary": []},
        {"role": "user", "content": "next"},
    ]
    budget = ContextBudget(max_recent_tool_results=0, trim_old_reasoning=True)
    want = expected_projection(items, budget, tiers=True)
    assert "content" not in cast("dict[str, JsonValue]", want.items[0])
    assert want.report.notes == ("tier2 reasoning-trim: cleared 1 reasoning item(s)",)
    got = TypeAwareContextProjector().project(items, budget)
    assert [text(i) for i in got.items] == [text(i) for i in want.items]


@pytest.mark.parametrize(
    ("output", "placeholder"),
    [
        ("[tool result cleared]", True),
        ("[tool result cleared: x]", True),
        ("[tool result cleared: ]", True),
        ("[tool result cleared (old)]", False),
        ("[tool result cleared:x]", False),
        ("[tool result cleared", False),
        ("", False),
    ],
)
def test_only_the_forms_of_t1_6_are_placeholder_outputs(output: str, placeholder: bool) -> None:
    # §1.4 as revised: exactly the bare label, or "[tool result cleared: " ... "]".
    items: list[JsonValue] = [
        {"type": "function_call_output", "call_id": "c1", "output": output},
        {"type": "function_call_output", "call_id": "c2", "output": "newest"},
    ]
    budget = ContextBudget(max_recent_tool_results=1)
    want = expected_projection(items, budget, tiers=True)
    assert (want.items[0] == items[0]) is placeholder
    got = TypeAwareContextProjector().project(items, budget)
    assert [text(i) for i in got.items] == [text(i) for i in want.items]
    assert got.report == want.report
