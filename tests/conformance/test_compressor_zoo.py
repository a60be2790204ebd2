"""Wrong memory compressors that the suite must catch, each on the check of the clause it breaks."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from attrs import frozen

from ctxpact.conformance import (
    Claim,
    Component,
    Outcome,
    check_target,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance.checks import checks_for
from ctxpact.reference.compaction import (
    CompactPolicyMemoryCompressor,
    StructuredSummaryCompactPolicy,
    WindowedMemoryCompressor,
)
from ctxpact.spec import CompactPolicy, ContextBudget, MemorySnapshot

QUICK = profile_settings("quick")
CHECKS = {check.id: check for check in checks_for(Component.MEMORY_COMPRESSOR)}
_POLICY = StructuredSummaryCompactPolicy(ContextBudget(max_items=2))


class MutatingWindow(WindowedMemoryCompressor):
    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        for item in snapshot.items:
            if isinstance(item, dict):
                item["touched"] = True
        return super().compress(snapshot)


_COUNTER = itertools.count()


class DriftingWindow(WindowedMemoryCompressor):
    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        result = super().compress(snapshot)
        return MemorySnapshot(items=result.items, summary=f"run {next(_COUNTER)}")


class OldestWindow(WindowedMemoryCompressor):
    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        if len(snapshot.items) <= self.max_items:
            return snapshot
        return MemorySnapshot(items=snapshot.items[: self.max_items], summary=snapshot.summary)


class ForgetfulWindow(WindowedMemoryCompressor):
    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        result = super().compress(snapshot)
        return MemorySnapshot(items=result.items, summary=None)


class LenientWindow:
    """Accepts any max_items, so 0 empties every memory instead of failing at construction."""

    def __init__(self, max_items: int) -> None:
        self.max_items = max_items

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        if len(snapshot.items) <= self.max_items:
            return snapshot
        return MemorySnapshot(items=snapshot.items[-self.max_items :], summary=snapshot.summary)


class ConsultingAdapter(CompactPolicyMemoryCompressor):
    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        if not self.policy.should_compact(snapshot):
            return snapshot
        return super().compress(snapshot)


class SwallowingAdapter(CompactPolicyMemoryCompressor):
    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        try:
            return super().compress(snapshot)
        except RuntimeError:
            return snapshot


class AmnesicAdapter(CompactPolicyMemoryCompressor):
    """Forgets the remembered result when the policy fails."""

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        try:
            return super().compress(snapshot)
        except RuntimeError:
            self._last_result = None
            raise


class PolicylessAdapter:
    def __init__(self, policy: CompactPolicy | None) -> None:
        self.inner = CompactPolicyMemoryCompressor(policy or _POLICY)

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        return self.inner.compress(snapshot)

    def get_last_result(self) -> Any:
        return self.inner.get_last_result()


@frozen
class Wrong:
    """A zoo member: the clause it breaks, the check that must catch it, the reason shown."""

    name: str
    factory: Callable[..., Any]
    kind: str
    clause: str
    check_id: str
    reason: str


WINDOW = (3,)
ZOO = (
    Wrong("mutating", MutatingWindow, "windowed", "JSON-16", "compressor.pure", "changed"),
    Wrong("drifting", DriftingWindow, "windowed", "JSON-14", "compressor.pure", "and then"),
    Wrong("oldest", OldestWindow, "windowed", "CMP-8", "compressor.windowed", "expected"),
    Wrong("forgetful", ForgetfulWindow, "windowed", "CMP-8", "compressor.windowed", "expected"),
    Wrong("lenient", LenientWindow, "windowed", "CMP-8", "compressor.windowed", "was accepted"),
    Wrong(
        "consulting",
        ConsultingAdapter,
        "policy-adapter",
        "CMP-6",
        "compressor.policy-adapter",
        "call 0: expected",
    ),
    Wrong(
        "swallowing",
        SwallowingAdapter,
        "policy-adapter",
        "CMP-6",
        "compressor.policy-adapter",
        "swallowed",
    ),
    Wrong(
        "amnesic",
        AmnesicAdapter,
        "policy-adapter",
        "CMP-7",
        "compressor.policy-adapter",
        "get_last_result()",
    ),
    Wrong(
        "policyless",
        PolicylessAdapter,
        "policy-adapter",
        "CMP-6",
        "compressor.policy-adapter",
        "without a policy",
    ),
)


@pytest.mark.parametrize("wrong", ZOO, ids=lambda wrong: wrong.name)
def test_the_suite_catches_each_wrong_compressor(wrong: Wrong) -> None:
    options: dict[str, object] = {"kind": wrong.kind}
    if wrong.kind == "windowed":
        options["args"] = WINDOW
    result = run_check(
        CHECKS[wrong.check_id],
        factory=wrong.factory,
        claims=frozenset({Claim.GENERIC, Claim.EXACT}),
        settings=QUICK,
        options=options,
    )
    assert result.outcome is Outcome.FAIL, result
    assert wrong.reason in result.message
    assert result.counterexample is not None


def test_every_clause_of_the_compressor_checks_has_a_zoo_member() -> None:
    cited = {clause for check in CHECKS.values() for clause in check.clauses}
    assert cited == {wrong.clause for wrong in ZOO}


def test_the_reference_compressors_pass_every_check() -> None:
    for target in reference_targets():
        if target.component is Component.MEMORY_COMPRESSOR:
            report = check_target(target, profile="quick")
            assert report.ok, report.failures
            assert {r.outcome for r in report.results} <= {Outcome.PASS, Outcome.SKIP}
