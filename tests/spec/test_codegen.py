"""Types generated from schemas/ read and write every document faithfully, in three languages.

The schemas are exported with ``ctxpact schemas export`` and fed to the generators with the
flags its help gives (JSON-19, tools/codegen pins their versions): json-schema-to-typescript
into one TypeScript module, quicktype into one Go package compiled with the Go toolchain, and
datamodel-code-generator into one package of Pydantic v2 models. Each language then reads every
example of every schema and every document of the vectors (the vector files themselves and the
records inside their cases) with the generated types, and writes it back; the result must
validate and be equal (JSON-10) to the input once both have their declared defaults filled in
(JSON-15). What a language cannot hold is listed in KNOWN with its reason, and those documents
must differ, so that a fix is noticed.

Outside CI a missing tool skips the test with the reason; in CI (``CI`` set) it fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxpact.conformance.cli import main as ctxpact
from ctxpact.spec import load_schema, schema_names, violations, with_defaults

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "codegen"
BIN = TOOLS / "node_modules" / ".bin"
VECTORS = ROOT / "conformance" / "vectors"

#: The records inside the vector cases, by operation: (path below the case, schema).
RECORDS_IN_CASES = {
    "project": [("input.budget", "context-budget"), ("expected", "context-projection")],
    "project_pair_safe": [("input.budget", "context-budget"), ("expected", "context-projection")],
    "parse_summary": [("expected", "structured-summary")],
    "render_summary": [("input", "structured-summary")],
    "compact_structured": [
        ("input.snapshot", "memory-snapshot"),
        ("input.budget", "context-budget"),
        ("expected", "compact-result"),
    ],
    "compact_llm": [
        ("input.snapshot", "memory-snapshot"),
        ("expected.prompt", "model-prompt"),
        ("expected.result", "compact-result"),
    ],
}

Document = tuple[str, str, Any]  # (where it comes from, schema, document)


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI installs it: .ci/run)")
    pytest.skip(reason)


def _run(command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **options)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(command[:3])} … failed:\n{done.stderr[-4000:]}")
    return done


# -- the documents ----------------------------------------------------------------------------


def _member(value: Any, path: str) -> Any:
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def documents() -> list[Document]:
    """Every schema's examples, every vector file, and every record inside a vector case."""
    found: list[Document] = []
    for name in schema_names():
        examples: list[Any] = load_schema(name)["examples"]  # type: ignore[assignment]
        found.extend((f"{name} example {i}", name, ex) for i, ex in enumerate(examples))
    for path in sorted(VECTORS.glob("*.json")):
        vectors = json.loads(path.read_text(encoding="utf-8"))
        found.append((f"vectors/{path.name}", "vectors", vectors))
        for case in vectors["cases"]:
            for where, schema in RECORDS_IN_CASES.get(vectors["operation"], []):
                record = _member(case, where)
                if record is not None:
                    found.append((f"{case['id']} {where}", schema, record))
    return found


DOCUMENTS = documents()


# -- what a language cannot hold ---------------------------------------------------------------


def _values(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        yield from value.keys()
        for member in value.values():
            yield from _values(member)
    elif isinstance(value, list):
        for element in value:
            yield from _values(element)


def has_lone_surrogate(_: str, document: Any) -> bool:
    return any(
        isinstance(v, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in v) for v in _values(document)
    )


def has_big_integer(_: str, document: Any) -> bool:
    return any(
        isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53 for v in _values(document)
    )


def _result_may_be_null(schema: str) -> bool:
    branches: Any = load_schema(schema).get("oneOf", [])
    result = branches[0]["properties"].get("result") if branches else None
    return result is True or (isinstance(result, dict) and result.get("type") == "null")


def skips_or_errs_where_a_result_may_be_null(schema: str, document: Any) -> bool:
    return (
        _result_may_be_null(schema)
        and isinstance(document, dict)
        and ("skipped" in document or "errored" in document)
    )


def scripts_a_model_error(_: str, document: Any) -> bool:
    return any(
        isinstance(v, dict)
        and isinstance(v.get("responses"), list)
        and any(isinstance(r, dict) and "error" in r for r in v["responses"])
        for v in _values(document)
    )


#: Per language: which documents it cannot write back, and why. Each must really differ.
KNOWN: dict[str, list[tuple[Callable[[str, Any], bool], str]]] = {
    "typescript": [
        (has_big_integer, "a JavaScript number cannot hold an integer beyond 2**53"),
    ],
    "go": [
        (has_lone_surrogate, "a Go string is UTF-8, which has no lone surrogate (JSON-6)"),
        # quicktype's Go types merge a choice between objects into one struct, which then
        # writes the members of one choice beside the other's as null.
        (
            skips_or_errs_where_a_result_may_be_null,
            (
                "a response whose result may be null is one struct: its skipped or errored "
                "answer is written with result: null beside"
            ),
        ),
        (
            scripts_a_model_error,
            (
                "a scripted model's answer (a ModelResult or a ModelError) is one struct: an "
                "error is written with outputText: null beside"
            ),
        ),
    ],
    "python": [],
}


def json_equal(left: Any, right: Any) -> bool:
    """JSON-10's equality: member order aside, numbers by value, a boolean never a number."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(json_equal, left, right))
    return type(left) is type(right) and left == right


def _compare(language: str, written: list[Any]) -> list[str]:
    """What went wrong: documents not written back faithfully, or known ones that were."""
    problems = []
    for (where, schema, document), answer in zip(DOCUMENTS, written, strict=True):
        reasons = [reason for known, reason in KNOWN[language] if known(schema, document)]
        if "error" in answer:
            faithful, why = False, f"refused: {answer['error'][:300]}"
        else:
            out = answer["document"]
            broken = violations(out, schema)
            faithful = not broken and json_equal(
                with_defaults(out, schema), with_defaults(document, schema)
            )
            why = f"invalid: {broken[0]}" if broken else f"wrote {json.dumps(out)[:300]}"
        if not faithful and not reasons:
            problems.append(f"{where} ({schema}): {why}")
        elif faithful and reasons:
            problems.append(f"{where} ({schema}) round-trips, but KNOWN says: {reasons[0]}")
    return problems


# -- generating and running -------------------------------------------------------------------


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("schemas")
    assert ctxpact(["schemas", "export", str(directory)]) == 0
    return directory


def _requests() -> str:
    return "".join(
        json.dumps({"schema": schema, "document": document}) + "\n"
        for _, schema, document in DOCUMENTS
    )


def _answers(stdout: str) -> list[Any]:
    # Split on line feeds only: a document may hold U+2028, which splitlines() splits on.
    return [json.loads(line) for line in stdout.split("\n") if line]


def _npm_tool(name: str) -> Path:
    if shutil.which("node") is None:
        _missing("node is not installed")
    tool = BIN / name
    if not tool.exists():
        _missing(f"{name} is missing: run `npm ci` in tools/codegen")
    return tool


def _titles() -> dict[str, str]:
    return {name: str(load_schema(name)["title"]) for name in schema_names()}


def _timed(figures: dict[str, float], step: str, run: Callable[[], Any]) -> Any:
    start = time.perf_counter()
    result = run()
    figures[step] = round(time.perf_counter() - start, 2)
    return result


def test_typescript_types_accept_and_write_back_every_document(
    exported: Path, tmp_path: Path
) -> None:
    json2ts, tsc = _npm_tool("json2ts"), _npm_tool("tsc")
    figures: dict[str, float] = {}
    module = tmp_path / "ctxpact.ts"
    _timed(
        figures,
        "generate",
        lambda: _run(
            [
                str(json2ts),
                "--cwd",
                str(exported),
                "-i",
                str(exported / "index.schema.json"),
                "-o",
                str(module),
            ]
        ),
    )
    declared = set(
        re.findall(r"^export (?:interface|type) (\w+)", module.read_text(), re.MULTILINE)
    )
    titles = _titles()
    assert set(titles.values()) <= declared, "a schema has no type of its own name"
    # Each document is a literal checked against its type: tsc refuses one the types reject.
    lines = ["import type * as T from './ctxpact';", "export const documents: unknown[] = ["]
    lines += [
        f"  ({json.dumps(document)} satisfies T.{titles[schema]}),"
        for _, schema, document in DOCUMENTS
    ]
    (tmp_path / "documents.ts").write_text("\n".join([*lines, "];", ""]), encoding="utf-8")
    shutil.copy(TOOLS / "roundtrip.ts", tmp_path / "roundtrip.ts")
    options = ["--strict", "--target", "ES2022", "--module", "commonjs", "--types", "node"]
    options += ["--typeRoots", str(TOOLS / "node_modules" / "@types"), "--outDir", "out"]
    files = ["ctxpact.ts", "documents.ts", "roundtrip.ts"]
    _timed(figures, "compile", lambda: _run([str(tsc), *options, *files], cwd=tmp_path))
    done = _run(["node", str(tmp_path / "out" / "roundtrip.js")])
    sys.stderr.write(f"typescript: {figures}\n")
    problems = _compare("typescript", _answers(done.stdout))
    assert not problems, "\n".join(problems)


def test_go_types_read_and_write_back_every_document(exported: Path, tmp_path: Path) -> None:
    quicktype = _npm_tool("quicktype")
    if shutil.which("go") is None:
        _missing("the Go toolchain is not installed (Debian: apt-get install golang-go)")
    figures: dict[str, float] = {}
    package = tmp_path / "ctxpact"
    package.mkdir()
    generate = [str(quicktype), "-s", "schema", "-l", "go", "--package", "ctxpact"]
    generate += ["-o", str(package / "ctxpact.go")]
    _timed(figures, "generate", lambda: _run([*generate, str(exported / "index.schema.json")]))
    declared = set(re.findall(r"^type (\w+) ", (package / "ctxpact.go").read_text(), re.MULTILINE))
    titles = _titles()
    assert set(titles.values()) <= declared, "a schema has no type of its own name"
    constructors = "".join(
        f'\t"{name}": func() interface{{}} {{ return new(ctxpact.{title}) }},\n'
        for name, title in sorted(titles.items())
    )
    (tmp_path / "types.go").write_text(
        'package main\n\nimport "roundtrip/ctxpact"\n\n'
        f"var types = map[string]func() interface{{}}{{\n{constructors}}}\n",
        encoding="utf-8",
    )
    shutil.copy(TOOLS / "go" / "main.go", tmp_path / "main.go")
    (tmp_path / "go.mod").write_text("module roundtrip\n\ngo 1.19\n", encoding="utf-8")
    environment = {**os.environ, "GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOWORK": "off"}
    # A CI machine may run without HOME, where the Go toolchain keeps its caches by default.
    environment.setdefault("GOCACHE", str(tmp_path / "go-cache"))
    environment.setdefault("GOPATH", str(tmp_path / "go-path"))
    build = ["go", "build", "-o", "roundtrip", "."]
    _timed(figures, "compile", lambda: _run(build, cwd=tmp_path, env=environment))
    done = _run([str(tmp_path / "roundtrip")], input=_requests())
    sys.stderr.write(f"go: {figures}\n")
    problems = _compare("go", _answers(done.stdout))
    assert not problems, "\n".join(problems)


def test_python_models_read_and_write_back_every_document(exported: Path, tmp_path: Path) -> None:
    generator = Path(sys.executable).with_name("datamodel-codegen")
    if not generator.exists():
        _missing("datamodel-code-generator is not installed (the test extra has it)")
    figures: dict[str, float] = {}
    schemas = tmp_path / "schemas"
    shutil.copytree(exported, schemas, ignore=shutil.ignore_patterns("index.schema.json"))
    generate = [str(generator), "--input", str(schemas), "--input-file-type", "jsonschema"]
    generate += ["--output", str(tmp_path / "ctxpact_models")]
    generate += ["--output-model-type", "pydantic_v2.BaseModel", "--use-title-as-name"]
    generate += ["--strict-nullable", "--strict-types", "str", "int", "float", "bool"]
    _timed(figures, "generate", lambda: _run(generate))
    script = [sys.executable, str(TOOLS / "roundtrip.py"), str(schemas), str(tmp_path)]
    done = _timed(figures, "run", lambda: _run(script, input=_requests()))
    sys.stderr.write(f"python: {figures}\n")
    problems = _compare("python", _answers(done.stdout))
    assert not problems, "\n".join(problems)


# -- the comparison itself --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right", "equal"),
    [
        ({"a": 1, "b": [1.0]}, {"b": [1], "a": 1.0}, True),
        (0, -0.0, True),
        (1, True, False),
        ([0], [False], False),
        ({"a": None}, {}, False),
        ("\ud800", "\ufffd", False),
        (2**60, float(2**60) + 1024, False),
    ],
)
def test_json_equal_is_the_equality_of_json_10(left: Any, right: Any, equal: bool) -> None:
    assert json_equal(left, right) is equal
    assert json_equal(right, left) is equal


def test_the_documents_cover_every_schema_and_the_vectors() -> None:
    assert {schema for _, schema, _ in DOCUMENTS} == set(schema_names())
    files = [where for where, _, _ in DOCUMENTS if where.startswith("vectors/")]
    assert len(files) == len(list(VECTORS.glob("*.json"))) >= 10
    # The known limits name documents that exist: a predicate that matches nothing is stale.
    for language, known in KNOWN.items():
        for predicate, reason in known:
            assert any(predicate(s, d) for _, s, d in DOCUMENTS), (language, reason)


def test_the_export_writes_an_index_that_refers_to_every_schema(exported: Path) -> None:
    index = json.loads((exported / "index.schema.json").read_text(encoding="utf-8"))
    assert index["$id"].removesuffix("index.schema.json") == load_schema("tool-call")[
        "$id"
    ].removesuffix("tool-call.schema.json")  # type: ignore[union-attr]
    assert {ref["$ref"] for ref in index["properties"].values()} == {
        f"{name}.schema.json" for name in schema_names()
    }
    written = sorted(p.relative_to(exported).as_posix() for p in exported.rglob("*.json"))
    assert written == sorted([*(f"{n}.schema.json" for n in schema_names()), "index.schema.json"])
