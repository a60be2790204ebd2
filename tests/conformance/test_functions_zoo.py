"""Wrong ports of the spec's functions that the suite must catch, each on one check only."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from attrs import frozen

from ctxpact.conformance import (
    Claim,
    Component,
    Outcome,
    check_spec_functions,
    check_target,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance.checks import checks_for
from ctxpact.conformance.testing import SpecFunctionsConformance
from ctxpact.reference import SpecFunctions
from ctxpact.spec import JsonValue, StructuredSummary, compact_json

QUICK = profile_settings("quick")
CHECKS = {check.id: check for check in checks_for(Component.FUNCTIONS)}
CLAIMS = frozenset({Claim.GENERIC, Claim.EXACT})


class MutatingCut(SpecFunctions):
    """Right cut, but it leaves a mark on the items it was given (JSON-16)."""

    def turn_boundary_cut(self, items: Sequence[JsonValue], naive_cut: int) -> int:
        cut = super().turn_boundary_cut(items, naive_cut)
        if isinstance(items, list):
            items.append("seen")
        return cut


class ByteCounting(SpecFunctions):
    """Counts UTF-8 bytes where the spec counts code points (SIZE-1)."""

    def approx_chars(self, item: JsonValue) -> int:
        text = item if isinstance(item, str) else compact_json(item)
        return 0 if item is None else len(text.encode("utf-8", "surrogatepass"))


class NaiveCut(SpecFunctions):
    """Cuts where it is told, turn or no turn (CUT-2)."""

    def turn_boundary_cut(self, items: Sequence[JsonValue], naive_cut: int) -> int:
        return min(max(naive_cut, 0), len(items))


class SortedFiles(SpecFunctions):
    """Sorts the paths instead of keeping their order of first appearance (FIL-6)."""

    def extract_file_operations(self, items: Sequence[JsonValue], reads: bool) -> list[str]:
        return sorted(super().extract_file_operations(items, reads))


class UntrimmedRender(SpecFunctions):
    """Leaves the trailing line feed of the last section (PRS-13)."""

    def render_summary(self, summary: StructuredSummary) -> str:
        return super().render_summary(summary) + "\n"


@frozen
class Wrong:
    name: str
    factory: type[SpecFunctions]
    check_id: str
    reason: str


ZOO = (
    Wrong("mutating-cut", MutatingCut, "functions.answers", "changed the arguments"),
    Wrong("byte-counting", ByteCounting, "functions.approx-chars", "the spec gives"),
    Wrong("naive-cut", NaiveCut, "functions.turn-boundary-cut", "the spec gives"),
    Wrong("sorted-files", SortedFiles, "functions.file-operations", "the spec gives"),
    Wrong("untrimmed-render", UntrimmedRender, "functions.render-summary", "is wrong"),
)


@pytest.mark.parametrize("wrong", ZOO, ids=lambda wrong: wrong.name)
def test_each_wrong_port_fails_its_check_and_only_it(wrong: Wrong) -> None:
    for check_id, check in CHECKS.items():
        result = run_check(check, factory=wrong.factory, claims=CLAIMS, settings=QUICK)
        if check_id == wrong.check_id:
            assert result.outcome is Outcome.FAIL, result
            assert wrong.reason in result.message
            assert result.counterexample is not None
        else:
            assert result.outcome is Outcome.PASS, (check_id, result)


def test_every_check_of_the_functions_has_a_zoo_member() -> None:
    assert set(CHECKS) == {wrong.check_id for wrong in ZOO}


class OnlySizes:
    def approx_chars(self, item: JsonValue) -> int:
        return SpecFunctions().approx_chars(item)


def test_a_port_with_some_functions_is_checked_on_those_and_skips_the_rest() -> None:
    outcomes = {
        check_id: run_check(check, factory=OnlySizes, claims=CLAIMS, settings=QUICK).outcome
        for check_id, check in CHECKS.items()
    }
    assert outcomes == {
        "functions.answers": Outcome.PASS,
        "functions.approx-chars": Outcome.PASS,
        "functions.turn-boundary-cut": Outcome.SKIP,
        "functions.file-operations": Outcome.SKIP,
        "functions.render-summary": Outcome.SKIP,
    }


def test_the_reference_functions_pass_every_check() -> None:
    (target,) = [t for t in reference_targets() if t.component is Component.FUNCTIONS]
    report = check_target(target, profile="quick")
    assert report.ok, report.failures
    assert {r.outcome for r in report.results} == {Outcome.PASS}


def test_the_python_api_and_the_pytest_class_check_a_port_of_the_functions() -> None:
    assert check_spec_functions(SpecFunctions, claims=["exact"], profile="quick").ok
    report = check_spec_functions(NaiveCut, claims=["exact"], profile="quick")
    assert [r.check_id for r in report.failures] == ["functions.turn-boundary-cut"]
    names = sorted(name for name in dir(SpecFunctionsConformance) if name.startswith("test_"))
    assert len(names) == len(CHECKS)
