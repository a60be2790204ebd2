"""Reports as people read them: grouped failures, evidence, progress and colour (SUITE-8)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ctxpact.conformance import (
    CheckResult,
    Claim,
    Component,
    ConformanceReport,
    Implementation,
    Mismatch,
    Outcome,
    check_projector,
    check_summary_parser,
)
from ctxpact.conformance._format import format_result
from ctxpact.conformance.cli import EXIT_FAILED, EXIT_OK, main, use_color
from ctxpact.reference.compaction import parse_structured_summary
from ctxpact.reference.projection import TypeAwareContextProjector
from ctxpact.spec import ContextBudget, ContextProjection, StructuredSummary, validate

SUITE = str(Path(sys.modules["ctxpact.conformance"].__file__ or "").parent)


class Raises:
    def project(self, _items: Any, _budget: ContextBudget | None) -> ContextProjection:
        raise ValueError("boom in my code")


class WrongType:
    def project(self, items: Any, _budget: ContextBudget | None) -> Any:
        return list(items)


class DropsUnderChars:
    """Drops the newest item under a character limit with six items or more kept."""

    def project(self, items: Any, budget: ContextBudget | None) -> ContextProjection:
        projection = TypeAwareContextProjector().project(items, budget)
        if budget is not None and budget.max_approx_chars and len(projection.items) >= 6:
            return ContextProjection(items=projection.items[:-1], report=projection.report)
        return projection


def test_one_error_in_many_checks_is_one_block_with_the_users_frame() -> None:
    report = check_projector(Raises, profile="quick")
    text = str(report)
    failed = len(report.failures)
    assert failed > 5
    assert f"FAIL {failed} checks with the same error: projector.result-type" in text
    assert text.count("ValueError: boom in my code") == 1
    assert f"at {__file__}:" in text
    assert 'in project: raise ValueError("boom in my code")' in text
    assert text.count("counterexample") == 1
    assert all(result.location for result in report.failures)


def test_a_wrong_return_type_is_reported_once() -> None:
    report = check_projector(WrongType, profile="quick")
    text = str(report)
    assert text.count("\nFAIL ") == 1
    assert "FAIL projector.result-type" in text
    assert "more checks failed on the same wrong value: projector." in text
    assert "AttributeError: 'list' object has no attribute 'items'" in text


def test_a_generated_counterexample_is_shown_once_as_json_without_internal_paths() -> None:
    report = check_projector(DropsUnderChars, profile="quick", keywords=["order-preserving"])
    (failure,) = report.failures
    text = str(report)
    assert "Falsifying" not in text
    assert "Failing" not in text
    assert "Explanation" not in text
    assert SUITE not in text
    # Once as JSON; on a loaded machine the shrink limit (SUITE-7) may add its own note
    # ("the counterexample may not be minimal"), which is not a second counterexample.
    assert text.count("counterexample: ") == 1
    shown = text.split("counterexample: ", 1)[1].splitlines()[0]
    assert json.loads(shown) == failure.counterexample


def test_evidence_is_shown_whole_beside_the_clause() -> None:
    long = "x" * 2000
    result = CheckResult(
        check_id="parser.raw-fallback",
        clauses=("PRS-2", "PRS-5"),
        title="Text without a JSON object is kept as it is.",
        outcome=Outcome.FAIL,
        duration=0.1,
        message="text is 'xxx…'; PRS-5 keeps the trimmed input",
        counterexample={"text": long},
        clause="PRS-5",
        mismatch=Mismatch(returned=long[:120], expected=long),
    )
    text = format_result(result)
    assert "clause: PRS-5 (the check also cites PRS-2)" in text
    assert f"returned: {json.dumps(long[:120])}" in text
    assert f"expected: {json.dumps(long)}" in text
    assert f'counterexample: {{"text": "{long}"}}' in text


def _trims_nothing() -> Any:
    def parse(text: str) -> StructuredSummary:
        summary = parse_structured_summary(text)
        return summary if summary.parsed else StructuredSummary(parsed=False, text=text)

    return parse


def test_a_check_names_the_clause_and_what_was_returned() -> None:
    report = check_summary_parser(_trims_nothing, profile="quick", keywords=["raw-fallback"])
    (failure,) = report.failures
    assert failure.clause == "PRS-5"
    assert failure.mismatch is not None
    example = failure.counterexample
    assert isinstance(example, dict)
    assert failure.mismatch.returned == example["text"]
    assert failure.mismatch.expected != failure.mismatch.returned


def _report(*results: CheckResult, interrupted: bool = False) -> ConformanceReport:
    implementation = Implementation(
        name="mine", component=Component.PROJECTOR, claims={Claim.GENERIC}
    )
    return ConformanceReport(
        implementation=implementation,
        results=results,
        profile="quick",
        interrupted=interrupted,
        not_run=("projector.report",) if interrupted else (),
    )


def _result(outcome: Outcome) -> CheckResult:
    return CheckResult(
        check_id="projector.max-items",
        clauses=("PRJ-9",),
        title="The projection never carries more than maxItems items.",
        outcome=outcome,
        duration=0.1,
    )


def test_a_report_prints_itself_readably() -> None:
    passing = _report(_result(Outcome.PASS))
    assert str(passing) == (
        "mine (projector; claims: generic)\n\n1 passed, 0 failed, 0 skipped, 0 xfailed, 0 errored\n"
    )
    assert passing.format() == str(passing)
    assert "\x1b[" not in str(passing)
    assert "\x1b[32m1 passed" in passing.format(color=True)
    stopped = _report(_result(Outcome.PASS), interrupted=True)
    assert "interrupted: 1 checks did not run: projector.report" in str(stopped)
    assert not stopped.ok


def test_the_json_report_carries_the_evidence(tmp_path: Path) -> None:
    module = tmp_path / "zoo_text_parser.py"
    module.write_text(
        "from ctxpact.reference.compaction import parse_structured_summary\n"
        "from ctxpact.spec import StructuredSummary\n"
        "def factory():\n"
        "    def parse(text):\n"
        "        summary = parse_structured_summary(text)\n"
        "        return summary if summary.parsed else StructuredSummary(parsed=False, text=text)\n"
        "    return parse\n",
        encoding="utf-8",
    )
    report = tmp_path / "report.json"
    sys.path.insert(0, str(tmp_path))
    try:
        status = main(
            [
                "check",
                "zoo_text_parser:factory",
                "-k",
                "raw-fallback",
                "--profile",
                "quick",
                "--json",
                str(report),
            ]
        )
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("zoo_text_parser", None)
    assert status == EXIT_FAILED
    document = json.loads(report.read_text(encoding="utf-8"))
    validate(document, "conformance-report")
    (result,) = document["results"]
    assert result["clause"] == "PRS-5"
    assert set(result["mismatch"]) == {"returned", "expected"}
    assert result["location"] is None


# -- progress and colour ------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(variable, raising=False)


@pytest.mark.usefixtures("plain_environment")
def test_colour_goes_to_a_terminal_only_and_no_color_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    assert use_color(_Terminal(), "auto")
    assert not use_color(io.StringIO(), "auto")
    assert use_color(io.StringIO(), "always")
    assert not use_color(_Terminal(), "never")
    monkeypatch.setenv("TERM", "dumb")
    assert not use_color(_Terminal(), "auto")
    monkeypatch.delenv("TERM")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(_Terminal(), "auto")
    monkeypatch.setenv("NO_COLOR", "")
    assert use_color(_Terminal(), "auto")  # NO_COLOR counts when it is not empty
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert use_color(io.StringIO(), "auto")


PROJECTOR = "ctxpact.reference:TypeAwareContextProjector"


@pytest.mark.usefixtures("plain_environment")
def test_progress_is_written_to_a_log_with_a_counter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", PROJECTOR, "-k", "max-items", "-k", "newest", "--profile", "quick"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines[0] == f"{PROJECTOR} (projector; claims: generic)"
    assert lines[1].startswith("  [1/2 ")
    assert lines[1].endswith("s] ok     projector.max-items (" + lines[1].rsplit("(", 1)[1])
    assert lines[2].startswith("  [2/2 ")
    assert "\x1b[" not in captured.err + captured.out
    assert captured.out.endswith("in " + captured.out.rsplit("in ", 1)[1])


def test_quiet_leaves_only_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", PROJECTOR, "-k", "max-items", "--profile", "quick", "-q"]) == EXIT_OK
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "1 passed" in captured.out


@pytest.mark.usefixtures("plain_environment")
def test_colour_can_be_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["check", PROJECTOR, "-k", "max-items", "--profile", "quick", "--color", "always"]
    assert main(arguments) == EXIT_OK
    captured = capsys.readouterr()
    assert "\x1b[32m" in captured.err
    assert "\x1b[32m1 passed" in captured.out
