"""The runner itself: outcomes, strict expected failures, selection, counterexamples."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ctxpact.conformance import (
    Check,
    CheckContext,
    Claim,
    Component,
    ExpectedFailure,
    Implementation,
    Outcome,
    SkipCheck,
    profile_settings,
    run_check,
    run_checks,
)
from ctxpact.conformance._registry import check
from ctxpact.conformance._target import TargetError
from ctxpact.conformance.checks import checks_for
from ctxpact.conformance.checks import compaction as compaction_checks
from ctxpact.conformance.checks.compaction._common import EXAMPLE_TRANSCRIPTS
from ctxpact.conformance.harness._errors import HarnessCrashedError, HarnessSkippedError
from ctxpact.spec import CompactResult, MemorySnapshot

QUICK = profile_settings("quick")


@check("toy.positive", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
def positive(context: CheckContext) -> Callable[[], None]:
    """The subject returns a positive number for any positive input."""

    @given(value=st.integers(1, 1000))
    @example(value=1)
    def test(value: int) -> None:
        context.record(value=value)
        context.expect(context.subject()(value) > 0, f"not positive for {value}")

    return test


@check("toy.skips", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
def skips(_: CheckContext) -> Callable[[], None]:
    """Needs a capability nobody has."""

    def test() -> None:
        raise SkipCheck("no such capability")

    return test


@check("toy.exact", component=Component.PROJECTOR, claim=Claim.EXACT, clauses=("PRJ-1",))
def exact(context: CheckContext) -> Callable[[], None]:
    """Only for exact implementations."""
    return lambda: context.expect(condition=False, message="never reached when not claimed")


def _run(check: Check, factory: Callable[[], object]) -> Outcome:
    return run_check(
        check, factory=factory, claims=frozenset({Claim.GENERIC}), settings=QUICK
    ).outcome


def test_a_correct_subject_passes() -> None:
    assert _run(positive, lambda: abs) is Outcome.PASS


def test_a_wrong_subject_fails_with_the_shrunk_counterexample() -> None:
    result = run_check(
        positive,
        factory=lambda: lambda v: 10 - v,
        claims=frozenset({Claim.GENERIC}),
        settings=QUICK,
    )
    assert result.outcome is Outcome.FAIL
    assert result.counterexample == {"value": 10}  # the minimal failing value
    assert "not positive for 10" in result.message


def test_an_exception_from_the_subject_is_a_failure_naming_it() -> None:
    def explode(value: int) -> int:
        raise KeyError(value)

    result = run_check(
        positive, factory=lambda: explode, claims=frozenset({Claim.GENERIC}), settings=QUICK
    )
    assert result.outcome is Outcome.FAIL
    assert result.message.startswith("KeyError: 1")


def test_a_factory_that_raises_is_an_error() -> None:
    def broken() -> object:
        raise RuntimeError("cannot build")

    result = run_check(positive, factory=broken, claims=frozenset({Claim.GENERIC}), settings=QUICK)
    assert result.outcome is Outcome.ERROR
    assert "cannot build" in result.message


def test_unclaimed_checks_and_missing_capabilities_are_skipped() -> None:
    assert _run(exact, lambda: abs) is Outcome.SKIP
    assert _run(skips, lambda: abs) is Outcome.SKIP


def test_expected_failures_are_strict() -> None:
    known = ExpectedFailure(check_id="toy.positive", reason="known bug")
    failing = run_check(
        positive,
        factory=lambda: lambda v: -v,
        claims=frozenset({Claim.GENERIC}),
        settings=QUICK,
        expected=known,
    )
    assert failing.outcome is Outcome.XFAIL
    passing = run_check(
        positive,
        factory=lambda: abs,
        claims=frozenset({Claim.GENERIC}),
        settings=QUICK,
        expected=known,
    )
    assert passing.outcome is Outcome.FAIL
    assert "expected to fail (known bug) but passed" in passing.message


def test_run_checks_selects_by_keyword_and_rejects_unknown_expected_failures() -> None:
    implementation = Implementation(
        name="abs", component=Component.PROJECTOR, claims={Claim.GENERIC}
    )
    report = run_checks(
        [positive, skips, exact],
        factory=lambda: abs,
        implementation=implementation,
        profile="quick",
        keywords=["not skip"],
    )
    assert [r.check_id for r in report.results] == ["toy.positive", "toy.exact"]
    assert report.ok
    with pytest.raises(TargetError, match=r"do not exist for projector: toy\.nope"):
        run_checks(
            [positive],
            factory=lambda: abs,
            implementation=implementation,
            expected_failures=[ExpectedFailure(check_id="toy.nope", reason="?")],
        )


def test_unknown_profile_is_refused() -> None:
    with pytest.raises(ValueError, match="Expected a profile among quick, default, thorough"):
        profile_settings("fast")


@check("toy.examples", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
def explicit(context: CheckContext) -> Callable[[], None]:
    """Explicit examples only: the second one is the failing one."""

    @given(value=st.integers(100, 200))
    @example(value=1)
    @example(value=-5)
    @example(value=7)
    def test(value: int) -> None:
        context.record(value=value)
        context.expect(context.subject()(value) > 0, f"not positive for {value}")

    return test


def test_the_counterexample_of_a_failing_explicit_example_is_that_example() -> None:
    # With report_multiple_bugs (Hypothesis's default, kept by settings a user passes in),
    # every explicit example runs before the report; the failing one must be the one shown.
    result = run_check(
        explicit,
        factory=lambda: lambda v: v,
        claims=frozenset({Claim.GENERIC}),
        settings=settings(QUICK, report_multiple_bugs=True),
    )
    assert result.outcome is Outcome.FAIL
    assert result.counterexample == {"value": -5}


def test_a_seed_leaves_state_machines_derandomised() -> None:
    seen: list[bool] = []

    @check("toy.machine", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
    def machine(context: CheckContext) -> Callable[[], None]:
        """Looks at the settings a state machine would get."""
        return lambda: seen.append(context.settings.derandomize)

    run_check(
        machine,
        factory=lambda: abs,
        claims=frozenset({Claim.GENERIC}),
        settings=profile_settings("quick", seed=3),
        seed=3,
    )
    assert seen == [True]


def _parser_raising(error: Exception) -> Callable[[], Callable[[str], object]]:
    def parse(text: str) -> object:
        raise error from ValueError(text)

    return lambda: parse


@pytest.mark.parametrize(
    ("error", "outcome"),
    [
        (HarnessSkippedError("parse_summary #3", "not implemented"), Outcome.SKIP),
        (
            HarnessCrashedError("harness", "parse_summary #3", "exited", restarted=True),
            Outcome.ERROR,
        ),
    ],
)
def test_a_skip_or_fault_caught_by_a_check_is_not_a_finding(
    error: Exception, outcome: Outcome
) -> None:
    # parser.never-raises catches what the parser raises to report PRS-1; a harness that
    # skipped the request, or crashed, must end the check as a skip or an error instead.
    (never_raises,) = [
        c for c in checks_for(Component.SUMMARY_PARSER) if c.id == "parser.never-raises"
    ]
    result = run_check(
        never_raises,
        factory=_parser_raising(error),
        claims=frozenset({Claim.GENERIC}),
        settings=QUICK,
    )
    assert result.outcome is outcome, result.message


@check("toy.two-bugs", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
def two_bugs(context: CheckContext) -> Callable[[], None]:
    """Fails one way above 1000 (a finding) and another way below 0 (an exception)."""

    @given(value=st.integers(-5, 2000))
    @example(value=1001)
    def test(value: int) -> None:
        context.record(value=value)
        context.expect(context.subject()(value) <= 1000, f"too big: {value}")

    return test


def test_the_counterexample_belongs_to_the_failure_reported() -> None:
    def subject(value: int) -> int:
        if value < 0:
            raise ValueError(f"negative {value}")
        return value

    result = run_check(
        two_bugs, factory=lambda: subject, claims=frozenset({Claim.GENERIC}), settings=QUICK
    )
    assert result.outcome is Outcome.FAIL
    reported = result.message.splitlines()[0]
    shown = result.counterexample
    assert isinstance(shown, dict)
    value = shown["value"]
    assert isinstance(value, int)
    if reported.startswith("ValueError"):
        assert value < 0, (reported, shown)
    else:
        assert value > 1000, (reported, shown)


class MarksWhatItSees:
    """A policy that marks every item it is shown: it changes its input in place (CMP-1)."""

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        for item in snapshot.items:
            if isinstance(item, dict):
                item["seen"] = True
        return False

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        self.should_compact(snapshot)
        return CompactResult()


def test_an_implementation_that_changes_its_input_leaves_later_checks_examples_alone() -> None:
    # SUITE-12: the explicit examples of the compaction checks share their transcripts; a
    # policy that marks them used to change them for every check that ran after it.
    shared = EXAMPLE_TRANSCRIPTS
    before = json.dumps(shared)
    (pure,) = [c for c in compaction_checks.CHECKS if c.id == "compaction.should-compact-pure"]
    result = run_check(
        pure,
        factory=lambda *_: MarksWhatItSees(),
        claims=frozenset({Claim.GENERIC}),
        settings=QUICK,
    )
    assert result.outcome is Outcome.FAIL, result.message
    assert "should_compact changed the snapshot" in result.message
    assert json.dumps(shared) == before
