"""The ``ctxpact`` command: exit statuses (SUITE-1), errors, reports and exports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctxpact.conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from ctxpact.spec import load_schema, schema_names, validate

BAD_PROJECTOR = '''
from ctxpact.reference.projection import DefaultContextProjector

class Doubling:
    """Ignores maxItems by sending every item twice."""

    def project(self, items, budget):
        projection = DefaultContextProjector().project(items, None)
        return type(projection)(items=list(items) * 2, report=projection.report)
'''


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "zoo_cli_projectors.py").write_text(BAD_PROJECTOR, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return "zoo_cli_projectors"


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("mypkg.MyProjector", "Expected an implementation as module:attribute"),
        ("no_such_module_here:X", "Could not import no_such_module_here: ModuleNotFoundError"),
        ("ctxpact.reference:NoSuchName", "ctxpact.reference has no attribute 'NoSuchName'"),
        ("json:dumps", "json:dumps is not a factory the suite can call"),
        ("json:JSONDecoder", "neither a projector, a compact policy, an agent memory, a session"),
        ("json:__name__", "Expected a Target or a factory at json:__name__"),
    ],
)
def test_usage_and_import_errors_exit_2_with_a_message(
    argument: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", argument]) == EXIT_USAGE
    assert message in capsys.readouterr().err


def test_unknown_claim_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "ctxpact.reference:DefaultContextProjector", "--claim", "fast"])
    assert status == EXIT_USAGE
    assert "Expected a claim among generic, pair-integrity, wire-valid, exact, llm-summary" in (
        capsys.readouterr().err
    )


def test_a_conforming_projector_exits_0_and_writes_valid_reports(tmp_path: Path) -> None:
    report, table = tmp_path / "report.json", tmp_path / "table.md"
    status = main(
        [
            "check",
            "ctxpact.reference:DefaultContextProjector",
            "--claim",
            "generic",
            "--profile",
            "quick",
            "--json",
            str(report),
            "--markdown",
            str(table),
        ]
    )
    assert status == EXIT_OK
    document = json.loads(report.read_text(encoding="utf-8"))
    validate(document, "conformance-report")
    assert document["footer"]["failed"] == 0
    assert document["footer"]["passed"] > 0
    assert document["implementations"][0]["claims"] == ["generic"]
    assert "`ctxpact.reference:DefaultContextProjector`" in table.read_text(encoding="utf-8")


def test_a_broken_projector_exits_1_with_a_counterexample(
    module: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    status = main(["check", f"{module}:Doubling", "--profile", "quick", "--json", str(report)])
    assert status == EXIT_FAILED
    out = capsys.readouterr().out
    assert f"{module}:Doubling (projector; claims: generic):" in out
    assert "FAIL projector.max-items" in out
    assert "counterexample:" in out
    failures = [
        r
        for r in json.loads(report.read_text(encoding="utf-8"))["results"]
        if r["outcome"] == "fail"
    ]
    assert failures
    assert all(r["counterexample"] is not None for r in failures)


def test_schemas_export_writes_every_schema(tmp_path: Path) -> None:
    assert main(["schemas", "export", str(tmp_path / "out")]) == EXIT_OK
    for name in schema_names():
        written = json.loads((tmp_path / "out" / f"{name}.schema.json").read_text("utf-8"))
        assert written == load_schema(name)


def test_vectors_export_writes_valid_vector_files(tmp_path: Path) -> None:
    assert main(["vectors", "export", str(tmp_path)]) == EXIT_OK
    files = sorted(tmp_path.glob("*.json"))
    assert files
    for path in files:
        validate(json.loads(path.read_text(encoding="utf-8")), "vectors")


def test_the_console_script_checks_the_reference() -> None:
    # The README's main job, end to end through the installed entry point.
    result = subprocess.run(
        [sys.executable, "-m", "ctxpact.conformance", "check", "--profile", "quick"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == EXIT_OK, result.stdout + result.stderr
    assert " 0 failed" in result.stdout
    assert " 0 errored" in result.stdout


def test_a_counterexample_with_lone_surrogates_is_printed_escaped(tmp_path: Path) -> None:
    # A failure whose counterexample holds a lone surrogate must not crash the report.
    (tmp_path / "zoo_cli_surrogates.py").write_text(
        "from ctxpact.reference.compaction import parse_structured_summary\n"
        "def factory():\n"
        "    def parse(text):\n"
        "        if '\\ud800' in text:\n"
        "            raise ValueError('surrogate')\n"
        "        return parse_structured_summary(text)\n"
        "    return parse\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ctxpact.conformance",
            "check",
            "zoo_cli_surrogates:factory",
            "--profile",
            "quick",
        ],
        capture_output=True,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert result.returncode == EXIT_FAILED, result.stderr.decode()
    assert b"Traceback" not in result.stderr
    assert b"\\ud800" in result.stdout


@pytest.mark.parametrize("option", ["--json", "--markdown"])
def test_an_unwritable_report_path_is_refused_before_the_run(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no" / "such" / "report"
    assert main(["check", "-k", "nothing-matches", option, str(missing)]) == EXIT_USAGE
    assert "expected a file in an existing directory" in capsys.readouterr().err


def test_exporting_into_a_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    occupied = tmp_path / "a-file"
    occupied.write_text("", encoding="utf-8")
    assert main(["schemas", "export", str(occupied)]) == EXIT_USAGE
    assert "ctxpact: error:" in capsys.readouterr().err


def test_reports_keep_lone_surrogates_escaped(tmp_path: Path) -> None:
    (tmp_path / "zoo_cli_encoding.py").write_text(
        "from ctxpact.reference.compaction import parse_structured_summary\n"
        "def factory():\n"
        "    def parse(text):\n"
        "        text.encode('utf-8')\n"
        "        return parse_structured_summary(text)\n"
        "    return parse\n",
        encoding="utf-8",
    )
    report, table = tmp_path / "r.json", tmp_path / "t.md"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ctxpact.conformance",
            "check",
            "zoo_cli_encoding:factory",
            "--profile",
            "quick",
            "--json",
            str(report),
            "--markdown",
            str(table),
        ],
        capture_output=True,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == EXIT_FAILED, result.stderr.decode()
    validate(json.loads(report.read_text(encoding="utf-8")), "conformance-report")
    assert "\\ud8" in table.read_text(encoding="utf-8").lower()


def test_options_let_a_named_policy_be_checked_against_its_claim(
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = "ctxpact.reference.compaction:LlmCompactPolicy"
    common = ["check", target, "--claim", "llm-summary", "-k", "llm.cut", "--profile", "quick"]
    # Without the option the claim cannot be checked: a usage error naming the fix in the
    # command line's own syntax, before any check runs; never a silent pass.
    assert main(common) == EXIT_USAGE
    captured = capsys.readouterr()
    assert "give it with --option max_items=4" in captured.err
    assert captured.err.count("\n") == 1
    assert captured.out == ""
    assert main([*common, "--option", "max_items=20"]) == EXIT_OK


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("max_items", "Expected --option KEY=JSON"),
        ("max_items=four", "is not JSON"),
        ('budget={"maxItems": -1}', "--option budget:"),
    ],
)
def test_bad_options_are_usage_errors(
    option: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["check", "ctxpact.reference:DefaultContextProjector", "--option", option])
    assert status == EXIT_USAGE
    assert message in capsys.readouterr().err


def test_a_wire_valid_claim_names_its_providers(capsys: pytest.CaptureFixture[str]) -> None:
    common = [
        "check",
        "ctxpact.reference:PairSafeContextProjector",
        "--claim",
        "wire-valid",
        "-k",
        "wire-valid",
        "--profile",
        "quick",
    ]
    # Without providers the claim cannot be checked: a usage error, never a silent pass.
    assert main(common) == EXIT_USAGE
    assert "--option 'providers=" in capsys.readouterr().err
    assert main([*common, "--option", 'providers=["openai-chat", "anthropic"]']) == EXIT_OK


@pytest.mark.parametrize(
    ("providers", "message"),
    [
        ('["openai-chat", "gemini"]', "Expected option providers among openai-responses"),
        ('"anthropic"', "Expected option providers to be a non-empty list"),
        ("[]", "Expected option providers to be a non-empty list"),
    ],
)
def test_unknown_providers_are_usage_errors(
    providers: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        [
            "check",
            "ctxpact.reference:PairSafeContextProjector",
            "--claim",
            "wire-valid",
            "--option",
            f"providers={providers}",
        ]
    )
    assert status == EXIT_USAGE
    assert message in capsys.readouterr().err
