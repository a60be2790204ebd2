"""Hostile harnesses cannot make the suite hang or grow: every request ends, in bounded memory.

Each case runs tests/reliability/harness_driver.py (one project request) against a mode of
tests/reliability/hostile_harness.py in a fresh process, and checks how the request ended,
that it ended within the request's timeout and a margin, and that the driver's peak memory
stayed within a margin of the same driver against a harness that behaves (HRN-19 .. HRN-22).
These are bounds on liveness and on memory, far above what the transport needs, not speed
measurements.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups and setsid are POSIX")

HOSTILE = Path(__file__).with_name("hostile_harness.py")
DRIVER = Path(__file__).with_name("harness_driver.py")
#: The per-request timeout the driver uses, in seconds.
TIMEOUT = 2.0
#: How much longer than the timeout a request may take to end (starting Python included).
MARGIN_SECONDS = 15.0
#: How much more memory than against a harness that behaves a hostile one may cost the
#: suite: a few times the 16 MiB line limit; without the limits these cases took 190 MB
#: to 1.5 GB.
MARGIN_MB = 80.0


def drive(mode: str, *options: str) -> dict[str, Any]:
    """Run the driver against *mode*; its report."""
    command = [sys.executable, str(HOSTILE), "--mode", mode, *options]
    finished = subprocess.run(
        [sys.executable, str(DRIVER), str(TIMEOUT), "--", *command],
        capture_output=True,
        text=True,
        timeout=TIMEOUT + MARGIN_SECONDS,
        check=True,
    )
    report: dict[str, Any] = json.loads(finished.stdout)
    report["command"] = shlex.join(command)
    return report


@pytest.fixture(scope="module")
def baseline_mb() -> float:
    """The driver's peak memory against a harness that answers at once."""
    report = drive("stderr-flood", "--megabytes", "0")
    assert report["error"] == "HarnessSkippedError"
    return float(report["peak_mb"])


def _bounded(report: dict[str, Any], baseline_mb: float) -> None:
    assert report["seconds"] < TIMEOUT + MARGIN_SECONDS, report
    assert report["peak_mb"] < baseline_mb + MARGIN_MB, report


def test_a_daemon_holding_the_pipes_cannot_stop_the_timeout(baseline_mb: float) -> None:
    # The harness starts a daemon with setsid (outside the group the suite kills) that
    # keeps stdout open, and never answers: the request still ends at the timeout.
    report = drive("escape", "--linger", "60")
    assert report["error"] == "HarnessTimeoutError", report
    assert f"did not answer within {TIMEOUT:g} s" in report["message"]
    assert "(request: project (seq" in report["message"]
    assert report["seconds"] < TIMEOUT + 5.0, report
    _bounded(report, baseline_mb)


def test_a_harness_that_exits_is_noticed_while_a_daemon_holds_its_stdout(
    baseline_mb: float,
) -> None:
    report = drive("escape-exit", "--linger", "60")
    assert report["error"] == "HarnessCrashedError", report
    assert "exited with status 4 before answering" in report["message"]
    assert report["seconds"] < TIMEOUT + 5.0, report
    _bounded(report, baseline_mb)


def test_endless_stderr_costs_a_ring_buffer(baseline_mb: float) -> None:
    # 256 MiB of stderr without a line feed, then a correct answer: the case goes on.
    report = drive("stderr-flood", "--megabytes", "256")
    assert report["error"] == "HarnessSkippedError", report
    assert "flooded stderr first" in report["message"]
    _bounded(report, baseline_mb)


def test_stdout_without_a_line_feed_is_an_error_at_the_limit(baseline_mb: float) -> None:
    report = drive("stdout-flood", "--megabytes", "256")
    assert report["error"] == "HarnessProtocolError", report
    assert "answered with a line longer than 16777216 bytes" in report["message"]
    assert "(request: project (seq" in report["message"]
    _bounded(report, baseline_mb)


def test_a_huge_response_line_is_an_error_naming_the_request(baseline_mb: float) -> None:
    report = drive("huge-line", "--megabytes", "64")
    assert report["error"] == "HarnessProtocolError", report
    assert "answered with a line longer than 16777216 bytes" in report["message"]
    assert "(request: project (seq" in report["message"]
    _bounded(report, baseline_mb)


def test_a_reply_too_deep_to_decode_is_the_harness_error(baseline_mb: float) -> None:
    report = drive("deep-reply", "--depth", "100000")
    assert report["error"] == "HarnessProtocolError", report
    assert "nesting too deep" in report["message"]
    assert "(request: project (seq" in report["message"]
    _bounded(report, baseline_mb)
