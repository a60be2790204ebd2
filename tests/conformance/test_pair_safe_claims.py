"""The pair-keeping claims can all be met at once: ctxpact's own pair-safe projector meets them.

PAIR-5 to PAIR-7 reconcile the generic rules with pair integrity so that no two MUST clauses
contradict each other for any input and budget. The proof is a projector that claims
``generic``, ``pair-integrity``, ``wire-valid`` (every provider) and its own ``exact``, and
passes every check at every profile, and the checks of pair integrity at twenty seeds.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest

from ctxpact.conformance import (
    Claim,
    Component,
    ConformanceReport,
    Outcome,
    Target,
    check_target,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance._pairing import is_carrier
from ctxpact.conformance.checks import projector as checks
from ctxpact.conformance.checks.projector._pairs import wire_valid
from ctxpact.reference import PairSafeContextProjector
from ctxpact.spec import PROVIDERS, ContextBudget, ContextProjection, JsonValue

QUICK = profile_settings("quick")

(PAIR_SAFE,) = [t for t in reference_targets() if t.name.endswith(":PairSafeContextProjector")]
#: The checks whose rules pair integrity changes or adds (PAIR-4 to PAIR-7, WIRE-18).
PAIR_CHECKS = ("pair-integrity", "pinned-prefix", "newest-item", "wire-valid")


def _problems(report: ConformanceReport) -> list[tuple[str, str]]:
    return [(result.check_id, result.message[:400]) for result in report.failures]


def test_the_pair_safe_target_claims_everything_at_once() -> None:
    assert PAIR_SAFE.component is Component.PROJECTOR
    assert PAIR_SAFE.claims == {
        Claim.GENERIC,
        Claim.PAIR_INTEGRITY,
        Claim.WIRE_VALID,
        Claim.EXACT,
    }
    assert PAIR_SAFE.options == {"pair_safe": True, "providers": PROVIDERS}


@pytest.mark.parametrize("profile", ["quick", "default"])
def test_every_claimed_check_passes_at_the_profile(profile: str) -> None:
    report = check_target(PAIR_SAFE, profile=profile)
    assert report.ok, _problems(report)
    ran = {result.check_id for result in report.results if result.outcome is Outcome.PASS}
    assert {check.id for check in checks.CHECKS} <= ran


def test_the_pair_checks_pass_at_the_thorough_profile() -> None:
    report = check_target(PAIR_SAFE, profile="thorough", keywords=PAIR_CHECKS[:3])
    assert report.ok, _problems(report)
    assert len(report.results) == 3


@pytest.mark.parametrize("seed", range(20))
def test_the_pair_checks_pass_at_the_seed(seed: int) -> None:
    report = check_target(PAIR_SAFE, profile="quick", seed=seed, keywords=PAIR_CHECKS)
    assert report.ok, _problems(report)
    assert len(report.results) == len(PAIR_CHECKS)


def test_without_tiers_the_pair_safe_projector_keeps_its_claims() -> None:
    def without_tiers() -> PairSafeContextProjector:
        return PairSafeContextProjector(tiers=False)

    target = Target(
        name="pair-safe without tiers",
        component=Component.PROJECTOR,
        factory=without_tiers,
        claims=PAIR_SAFE.claims,
        options={"pair_safe": True, "tiers": False, "providers": PROVIDERS},
    )
    report = check_target(target, profile="quick")
    assert report.ok, _problems(report)


def test_a_claimed_wire_valid_check_without_providers_is_an_error_not_a_skip() -> None:
    result = run_check(
        wire_valid,
        factory=PairSafeContextProjector,
        claims=frozenset({Claim.GENERIC, Claim.WIRE_VALID}),
        settings=QUICK,
    )
    assert result.outcome is Outcome.ERROR
    assert "options={'providers': [...]}" in result.message


class DropsCarriers:
    """Pair-safe, but it leaves out every message that carries Anthropic results."""

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        projection = PairSafeContextProjector().project(items, budget)
        kept = tuple(item for item in projection.items if not is_carrier(item))
        return attrs.evolve(projection, items=kept)


@pytest.mark.parametrize(
    ("providers", "outcome"),
    [(("openai-responses", "openai-chat"), Outcome.PASS), (("anthropic",), Outcome.FAIL)],
)
def test_the_wire_valid_check_holds_only_the_claimed_providers_rules(
    providers: tuple[str, ...], outcome: Outcome
) -> None:
    result = run_check(
        wire_valid,
        factory=DropsCarriers,
        claims=frozenset({Claim.GENERIC, Claim.WIRE_VALID}),
        settings=QUICK,
        options={"providers": providers},
    )
    assert result.outcome is outcome, result.message
