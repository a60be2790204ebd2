"""scripts/mutation.py works: it kills mutants the suite catches; its equivalents are current.

The whole run takes about half an hour (docs/mutation.md); this runs it on two mutants of one
module, one of them the mutant that showed the gap ``compaction.llm.files-every-call`` closed.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "mutation.py"

pytest.importorskip("cosmic_ray", reason="the mutation extra: pip install -e '.[mutation]'")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_script", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


MUTATION = _script()


def test_two_killable_mutants_are_killed_and_scored(tmp_path: Path) -> None:
    report = tmp_path / "mutants.json"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--package",
            "compaction",
            "--module",
            "_files.py",
            "--operator",
            "ReplaceContinueWithBreak",
            "--workspace",
            str(tmp_path / "workspace"),
            "--json",
            str(report),
            "--fail-under",
            "100",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    mutants = json.loads(report.read_text(encoding="utf-8"))
    assert [(m["file"], m["operator"], m["outcome"]) for m in mutants] == [
        ("compaction/_files.py", "core/ReplaceContinueWithBreak", "killed"),
        ("compaction/_files.py", "core/ReplaceContinueWithBreak", "killed"),
    ]
    assert "mutants: 2, killed 2, equivalent 0, surviving 0" in done.stdout
    assert "score 100.0%" in done.stdout


def test_every_listed_equivalent_names_a_line_of_the_reference() -> None:
    listed = MUTATION.equivalents()
    assert listed, "docs/mutation.md lists no equivalent mutant"
    for file, operator, code, column in listed:
        lines = (MUTATION.REFERENCE / file).read_text(encoding="utf-8").splitlines()
        code_in_copy = code.replace(MUTATION.MUTANT, "ctxpact.reference")
        assert any(line.strip() == code_in_copy for line in lines), (file, code)
        assert operator.startswith("core/"), operator
        assert 0 <= column <= len(code), (file, code, column)


def test_the_score_leaves_out_equivalents_and_counts_unreached_mutants_as_surviving() -> None:
    def mutant(outcome: str, code: str) -> object:
        return MUTATION.Mutant(
            job_id=code,
            file="compaction/_cut.py",
            line=1,
            column=0,
            operator="core/AddNot",
            code=code,
            outcome=outcome,
        )

    mutants = [
        mutant("killed", "a"),
        mutant("killed", "b"),
        mutant("survived", "c"),
        mutant("not reached", "d"),
        mutant("survived", "e"),
    ]
    known = {("compaction/_cut.py", "core/AddNot", "e", 0): "equivalent"}
    score = MUTATION.score(mutants, known)
    assert (score.total, score.killed, score.equivalent, score.surviving) == (5, 2, 1, 2)
    assert score.not_reached == 1
    assert score.percent == pytest.approx(50.0)


def test_the_bare_star_of_a_signature_is_no_operator() -> None:
    signature = "def f(items, *, reads):"
    assert MUTATION._BARE_STAR.match(signature, signature.index("*"))
    assert MUTATION._BARE_STAR.match("    *,", 4)
    product = "x = a * b"
    assert not MUTATION._BARE_STAR.match(product, product.index("*"))
