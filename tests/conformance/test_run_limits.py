"""Bounds on a run: the time limit of a check, the shrink bound, and Ctrl-C (SUITE-6 .. SUITE-9)."""

from __future__ import annotations

import json
import math
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance import (
    SHRINK_LIMITS,
    TIME_LIMITS,
    CheckContext,
    CheckTimeout,
    Claim,
    Component,
    Implementation,
    Outcome,
    RunInterrupted,
    check_target,
    profile_settings,
    run_check,
    run_checks,
)
from ctxpact.conformance._limits import limit_method, time_limit
from ctxpact.conformance._registry import check
from ctxpact.conformance._runner import limits
from ctxpact.conformance.checks import checks_for
from ctxpact.conformance.cli import EXIT_FAILED, EXIT_INTERRUPTED, main
from ctxpact.conformance.harness import HarnessConnection, harness_targets
from ctxpact.reference.projection import TypeAwareContextProjector

QUICK = profile_settings("quick")
SPEC = Path(__file__).resolve().parents[2] / "spec" / "SPEC.md"
GENERIC = frozenset({Claim.GENERIC})


def _spin() -> None:
    # A loop in a function of its own: CPython 3.11 does not deliver an exception raised at
    # the jump of a bare `while True: pass` to a handler in the same frame.
    while True:
        pass


@pytest.mark.parametrize("method", ["signal", "thread"])
def test_a_pure_python_loop_is_interrupted(method: str) -> None:
    with pytest.raises(CheckTimeout), time_limit(0.2, method=method) as limit:
        _spin()
    assert limit is not None
    assert limit.expired


@pytest.mark.parametrize("method", ["signal", "thread"])
def test_an_implementation_that_catches_the_interruption_is_interrupted_again(
    method: str,
) -> None:
    caught = 0

    def stubborn() -> None:
        nonlocal caught
        while True:
            try:
                _spin()
            except BaseException:
                caught += 1
                if caught == 3:
                    raise

    with pytest.raises(CheckTimeout), time_limit(0.1, method=method):
        stubborn()
    assert caught == 3


@pytest.mark.parametrize("method", ["signal", "thread"])
def test_no_interruption_outlives_its_block(method: str) -> None:
    with time_limit(0.05, method=method) as limit:
        pass
    time.sleep(1.3)  # past the limit and one repetition: nothing may land here
    assert limit is not None
    assert not limit.expired


def test_no_limit_is_no_bound() -> None:
    with time_limit(None) as limit:
        assert limit is None


def test_a_worker_thread_is_bounded_by_the_watchdog() -> None:
    seen: list[str] = []

    def work() -> None:
        assert limit_method() == "thread"
        try:
            with time_limit(0.1):
                _spin()
        except CheckTimeout:
            seen.append("interrupted")

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(10)
    assert seen == ["interrupted"]


def test_the_signal_is_left_to_a_timer_someone_else_armed() -> None:
    # pytest-timeout's signal method arms the same timer; the suite must not disarm it.
    previous = signal.signal(signal.SIGALRM, lambda *_: None)
    signal.setitimer(signal.ITIMER_REAL, 30)
    try:
        assert limit_method() == "thread"
        with time_limit(5):
            remaining = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 25 < remaining <= 30
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@check("toy.hangs", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
def hangs(context: CheckContext) -> Callable[[], None]:
    """Calls the subject with a few values."""

    @given(value=st.integers(0, 10))
    @example(value=3)
    @example(value=7)
    def test(value: int) -> None:
        context.record(value=value)
        context.expect(context.subject()(value) >= 0, f"negative for {value}")

    return test


def _hangs_at_seven(value: int) -> int:
    if value == 7:
        _spin()
    return value


def test_a_hanging_check_is_an_error_naming_the_example_and_the_place() -> None:
    result = run_check(
        hangs, factory=lambda: _hangs_at_seven, claims=GENERIC, settings=QUICK, timeout=0.5
    )
    assert result.outcome is Outcome.ERROR
    assert "ran past its time limit of 0.5 s" in result.message
    assert result.counterexample == {"value": 7}
    assert "test_run_limits.py" in result.location
    assert "in _spin" in result.location


@check("toy.wide", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
def wide(context: CheckContext) -> Callable[[], None]:
    """Calls the subject with generated values only."""

    @given(value=st.integers(0, 1000))
    @example(value=0)
    def test(value: int) -> None:
        context.record(value=value)
        context.expect(context.subject()(value) >= 0, f"negative for {value}")

    return test


def _fails_then_hangs() -> Callable[[int], int]:
    failed = False

    def subject(value: int) -> int:
        # Values from 10 fail; once one has, every smaller value the shrinker tries hangs.
        nonlocal failed
        if value >= 10:
            failed = True
            return -1
        if failed:
            _spin()
        return value

    return subject


def test_a_failure_whose_shrinking_runs_out_of_time_is_still_the_failure() -> None:
    subject = _fails_then_hangs()
    result = run_check(wide, factory=lambda: subject, claims=GENERIC, settings=QUICK, timeout=0.5)
    assert result.outcome is Outcome.FAIL
    assert result.message.startswith("negative for ")
    assert "the counterexample may not be minimal" in result.message
    shown = result.counterexample
    assert isinstance(shown, dict)
    value = shown["value"]
    assert isinstance(value, int)
    assert value >= 10  # the failure found, not the example that hung


def test_a_run_has_the_profile_time_limit_by_default() -> None:
    implementation = Implementation(name="hangs", component=Component.PROJECTOR, claims=GENERIC)
    report = run_checks(
        [hangs], factory=lambda: _hangs_at_seven, implementation=implementation, timeout=0.5
    )
    assert report.results[0].outcome is Outcome.ERROR


@check("toy.shrinks", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
def shrinks(context: CheckContext) -> Callable[[], None]:
    """A failure found by generation, on long lists, for the shrinker to work on."""

    @given(values=st.lists(st.integers(), min_size=1))
    @example(values=[1])
    def test(values: list[int]) -> None:
        context.record(values=values)
        context.expect(context.subject()(values), f"refused {len(values)} values")

    return test


def test_shrinking_stops_at_its_bound_and_says_so() -> None:
    # SUITE-7, with a bound of 0 s: shrinking stops after the first smaller example.
    def short(values: list[int]) -> bool:
        return len(values) < 3

    bounded = run_check(
        shrinks, factory=lambda: short, claims=GENERIC, settings=QUICK, shrink_limit=0.0
    )
    assert bounded.outcome is Outcome.FAIL
    assert "shrinking stopped after 0 s" in bounded.message
    free = run_check(shrinks, factory=lambda: short, claims=GENERIC, settings=QUICK)
    assert "shrinking stopped" not in free.message
    assert free.counterexample == {"values": [0, 0, 0]}


# -- Ctrl-C ------------------------------------------------------------------------------------


def _interrupted_at(value: int) -> Callable[[], Callable[[int], int]]:
    def subject(seen: int) -> int:
        if seen == value:
            raise KeyboardInterrupt
        return seen

    return lambda: subject


def test_ctrl_c_ends_a_run_with_the_report_of_what_ran() -> None:
    implementation = Implementation(name="toy", component=Component.PROJECTOR, claims=GENERIC)

    @check("toy.second", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
    def second(context: CheckContext) -> Callable[[], None]:
        """Meets the interruption."""
        return lambda: context.expect(context.subject()(7) == 7, "changed 7")

    @check("toy.third", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
    def third(_: CheckContext) -> Callable[[], None]:
        """Never runs."""
        return lambda: None

    with pytest.raises(RunInterrupted) as raised:
        run_checks(
            [hangs, second, third],
            factory=_interrupted_at(7),
            implementation=implementation,
            profile="quick",
        )
    report = raised.value.report
    assert isinstance(raised.value, KeyboardInterrupt)
    assert report.interrupted
    assert not report.ok
    assert [r.check_id for r in report.results] == []  # toy.hangs met it too, at 7
    assert report.not_run == ("toy.hangs", "toy.second", "toy.third")
    assert "interrupted: 3 checks did not run: toy.hangs, toy.second, toy.third" in str(report)


INTERRUPTING = """
from ctxpact.reference.projection import TypeAwareContextProjector


class StopsAtTheFortiethCall:
    calls = 0

    def project(self, items, budget):
        type(self).calls += 1
        if type(self).calls == 40:
            raise KeyboardInterrupt
        return TypeAwareContextProjector().project(items, budget)
"""


@pytest.fixture
def interrupting(implementation_module: Callable[[str, str], str]) -> str:
    return implementation_module("zoo_interrupting", INTERRUPTING) + ":StopsAtTheFortiethCall"


def test_the_command_reports_an_interrupted_run_and_exits_130(
    interrupting: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    status = main(["check", interrupting, "--profile", "quick", "--json", str(report)])
    assert status == EXIT_INTERRUPTED
    out = capsys.readouterr().out
    assert "interrupted:" in out
    assert "ctxpact check: interrupted by Ctrl-C" in out
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["footer"]["interrupted"] is True
    ran = {r["checkId"] for r in document["results"]}
    not_run = [entry["checkId"] for entry in document["notRun"]]
    assert not_run
    assert ran.isdisjoint(not_run)
    assert len(ran) + len(not_run) == len(checks_for(Component.PROJECTOR))


def test_a_complete_run_is_not_interrupted(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    status = main(
        [
            "check",
            "ctxpact.reference:TypeAwareContextProjector",
            "-k",
            "max-items",
            "--profile",
            "quick",
            "--json",
            str(report),
        ]
    )
    assert status == 0
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["footer"]["interrupted"] is False
    assert document["notRun"] == []


SLOW = """
import time
from ctxpact.reference.projection import TypeAwareContextProjector


class Slow:
    def project(self, items, budget):
        time.sleep(0.02)
        return TypeAwareContextProjector().project(items, budget)
"""


def test_sigint_stops_the_command_with_a_partial_report(tmp_path: Path) -> None:
    (tmp_path / "zoo_slow.py").write_text(SLOW, encoding="utf-8")
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ctxpact.conformance",
            "check",
            "zoo_slow:Slow",
            "--profile",
            "quick",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "] ok " in line:  # the first check finished: the run is under way
                break
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err
    assert "ctxpact check: interrupted by Ctrl-C" in out
    assert "checks did not run" in out


def test_the_command_bounds_an_in_process_check(tmp_path: Path) -> None:
    (tmp_path / "zoo_hangs.py").write_text(
        textwrap.dedent(
            """
            from ctxpact.reference.projection import TypeAwareContextProjector

            class Hangs:
                def project(self, items, budget):
                    if len(items) > 3:
                        while True:
                            pass
                    return TypeAwareContextProjector().project(items, budget)
            """
        ),
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ctxpact.conformance",
            "check",
            "zoo_hangs:Hangs",
            "-k",
            "max-items",
            "--timeout",
            "1",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == EXIT_FAILED, result.stderr
    assert "ERROR projector.max-items" in result.stdout
    assert "ran past its time limit of 1 s" in result.stdout
    assert "zoo_hangs.py:" in result.stdout
    assert " in project: " in result.stdout
    assert '"items": ["system-summary"' in result.stdout  # the example it hung in


def test_the_spec_states_the_limits_the_profiles_have() -> None:
    spec = " ".join(SPEC.read_text(encoding="utf-8").split())
    six = spec[spec.index("**SUITE-6**") : spec.index("**SUITE-7**")]
    seven = spec[spec.index("**SUITE-7**") : spec.index("**SUITE-8**")]
    for name, seconds in TIME_LIMITS.items():
        assert f"{seconds:g} s at `{name}`" in six
    for name, seconds in SHRINK_LIMITS.items():
        assert f"{seconds:g} s at `{name}`" in seven


def test_a_target_a_harness_serves_is_bounded_by_its_harness_not_the_check_limit() -> None:
    # Interrupting a check while a request is out would leave its answer in the pipe; the
    # harness's per-request timeout bounds the check instead.
    command = f"{shlex.quote(sys.executable)} -m ctxpact.reference.harness"
    with HarnessConnection(command) as connection:
        (remote,) = [
            t for t in harness_targets(connection) if t.name.endswith(":TypeAwareContextProjector")
        ]
        assert not remote.in_process
        report = check_target(remote, profile="quick", keywords=["max-items"], timeout=0.001)
    assert [r.outcome for r in report.results] == [Outcome.PASS]
    local = check_target(
        attrs.evolve(remote, factory=TypeAwareContextProjector, in_process=True),
        profile="quick",
        keywords=["max-items"],
        timeout=0.001,
    )
    assert [r.outcome for r in local.results] == [Outcome.ERROR]


def test_a_run_without_a_time_limit_has_no_shrink_limit() -> None:
    # SUITE-13: what such a run finds does not depend on the machine's speed.
    assert limits("default", math.inf) == (math.inf, None)
    assert limits("default", None) == (TIME_LIMITS["default"], SHRINK_LIMITS["default"])
    assert limits("quick", 3.0) == (3.0, SHRINK_LIMITS["quick"])
