"""docs/compliance.md is exactly what scripts/compliance_matrix.py renders from its record.

Running the matrix takes minutes (every row, every check, no time limit), so this test renders
the committed record, docs/compliance.json, and compares bytes; .ci/run runs the whole matrix
and fails when the record or the document it writes differ from the committed ones. The
document must also be the same on any machine: no path of this checkout, no line number of
a source file, no timing.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "docs" / "compliance.md"
RECORD = ROOT / "docs" / "compliance.json"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "compliance_matrix", ROOT / "scripts" / "compliance_matrix.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_document_is_what_the_record_renders() -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    assert _script().render(record) == DOCUMENT.read_text(encoding="utf-8")


def test_the_record_is_written_as_the_script_writes_it(tmp_path: Path) -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    written = tmp_path / "compliance.json"
    _script().write_record(record, written)
    assert written.read_bytes() == RECORD.read_bytes()


def test_the_document_names_nothing_of_this_machine() -> None:
    for path in (DOCUMENT, RECORD):
        text = path.read_text(encoding="utf-8")
        assert str(ROOT) not in text
        assert "site-packages" not in text
        assert re.search(r"\.py:\d+", text) is None, path
        assert re.search(r"\d+\.\d+ ?s\b", text) is None, path  # no timings


def test_render_only_writes_the_committed_document(tmp_path: Path) -> None:
    output = tmp_path / "compliance.md"
    status = _script().main(["--render-only", "--record", str(RECORD), "--output", str(output)])
    assert status == 0
    assert output.read_bytes() == DOCUMENT.read_bytes()


def test_a_not_expressible_field_replaces_only_its_own_failure() -> None:
    script = _script()
    row = {
        "component": "projector",
        "name": "some-framework:Trimmer",
        "language": "python",
        "version": "1.0",
        "claims": ["generic"],
        "notExpressible": {"pinnedPrefixItems": "no setting pins the first items"},
        "results": {
            "projector.pinned-prefix": {
                "outcome": "fail",
                "clauses": ["PRJ-10"],
                "message": "pinned source items [0] are missing",
                "counterexample": None,
            },
            "projector.max-items": {
                "outcome": "fail",
                "clauses": ["PRJ-9"],
                "message": "3 items over maxItems 2",
                "counterexample": None,
            },
        },
    }
    text = script.render({"profile": "default", "rows": [row], "unavailable": []})
    (line,) = [line for line in text.splitlines() if line.startswith("| `some-framework")]
    assert "not expressible" in line
    assert "**FAIL**" in line
    assert "not expressible: `pinnedPrefixItems`: no setting pins the first items." in text
    assert "3 items over maxItems 2" in text
    assert "pinned source items [0] are missing" not in text


def test_the_separately_recorded_rows_are_merged() -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    script = _script()
    for extra in sorted(script.SEPARATE_EXTRAS):
        separate = json.loads(script.separate_record(extra).read_text(encoding="utf-8"))
        assert separate["profile"] == record["profile"]
        assert separate["rows"]
        for row in separate["rows"]:
            assert row in record["rows"], row["name"]
