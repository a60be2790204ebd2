"""Every code block of the README and of docs/ runs as pasted, so a block that fails fails CI.

A document runs in a sandbox that stands for the root of a ctxpact checkout: ``examples`` and
``schemas`` are there (read-only), and the document's own files are written into it. Its
blocks run in order:

- a ``python`` block whose first line is ``# file: PATH`` is written to PATH and run as a
  module; any other ``python`` block runs in the document's one namespace, and an expression
  followed by a comment that is a Python literal (``# ('note',)``) must equal that literal;
- a ``js`` block must start with ``// file: PATH`` and is written there;
- a ``sh`` block runs with bash, the virtual environment's ``bin`` first on ``PATH``, and
  must exit 0, or with the status an ``<!-- exit status: N -->`` comment before it says;
- a ``json`` block must parse; a ``text`` block (or one without a language) is not code.

A block preceded by ``<!-- not run: REASON -->`` is not run, and the reason must say why.
"""

from __future__ import annotations

import ast
import json
import os
import re
import runpy
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attrs import frozen

from ctxpact.conformance import ALL_CHECKS, CLAIM_MEANINGS, OPTIONS, Claim
from ctxpact.conformance._claims import components_of, words

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
#: What a sandbox shares with the checkout, read-only.
SHARED = ("examples", "schemas")
_FENCE = re.compile(r"^```([\w-]*)\s*$")
_DIRECTIVE = re.compile(r"^<!-- (not run|exit status): (.+?) -->$")
_FILE = re.compile(r"^(?:#|//) file: (\S+)$")
#: Languages a block may have, and whether they are code.
_LANGUAGES = {"python": True, "sh": True, "js": True, "json": True, "text": False, "": False}


@frozen
class Block:
    """One fenced block: where it is, its language, its text and what precedes it."""

    document: Path
    line: int
    language: str
    code: str
    directives: tuple[tuple[str, str], ...]

    @property
    def name(self) -> str:
        """``README.md:42``."""
        return f"{self.document.relative_to(ROOT)}:{self.line}"

    def directive(self, kind: str) -> str | None:
        """The text of the directive *kind* before the block, or ``None``."""
        return next((text for found, text in self.directives if found == kind), None)


def blocks(document: Path) -> list[Block]:
    """The fenced blocks of *document*, with the directive comments right above each."""
    found: list[Block] = []
    lines = document.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        directives = []
        above = index - 1
        while above >= 0 and (lines[above].strip() == "" or _DIRECTIVE.match(lines[above])):
            match = _DIRECTIVE.match(lines[above])
            if match:
                directives.append((match.group(1), match.group(2)))
            above -= 1
        end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
        found.append(
            Block(
                document=document,
                line=index + 1,
                language=opening.group(1),
                code="\n".join(lines[index + 1 : end]) + "\n",
                directives=tuple(directives),
            )
        )
        index = end + 1
    return found


def test_every_block_is_of_a_known_kind_and_every_skip_says_why() -> None:
    for document in DOCUMENTS:
        for block in blocks(document):
            assert block.language in _LANGUAGES, f"{block.name}: say what ```{block.language} is"
            reason = block.directive("not run")
            assert reason is None or len(reason.split()) >= 4, f"{block.name}: say why not"
            if block.language == "js":
                assert _FILE.match(block.code.splitlines()[0]), (
                    f"{block.name}: a js block is a file"
                )


def _literal(comment: str) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(comment)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _run_python(block: Block, namespace: dict[str, Any]) -> None:
    """Run *block* in *namespace*; an expression with a literal comment must equal it."""
    tree = ast.parse(block.code, filename=block.name)
    source = block.code.splitlines()
    for statement in tree.body:
        code = compile(ast.Module(body=[statement], type_ignores=[]), block.name, "exec")
        if not isinstance(statement, ast.Expr):
            exec(code, namespace)  # noqa: S102 - running the documentation is the test
            continue
        value = eval(  # noqa: S307 - as above
            compile(ast.Expression(body=statement.value), block.name, "eval"), namespace
        )
        end = statement.end_lineno or statement.lineno
        after = source[end - 1][statement.end_col_offset or 0 :].strip()
        following = source[end].strip() if end < len(source) else ""
        comment = after if after.startswith("#") else following
        if comment.startswith("#"):
            ok, expected = _literal(comment[1:].strip())
            if ok:
                assert value == expected, f"{block.name}+{end}: {value!r} != {expected!r}"


def _write(block: Block, sandbox: Path, relative: str) -> Path:
    path = (sandbox / relative).resolve()
    assert path.is_relative_to(sandbox.resolve()), f"{block.name}: {relative} is outside"
    assert not any(Path(relative).parts[0] == shared for shared in SHARED), block.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(block.code.split("\n", 1)[1], encoding="utf-8")
    return path


def _run_shell(block: Block, sandbox: Path) -> None:
    bin_directory = Path(sys.executable).parent
    environment = {
        **os.environ,
        "PATH": f"{bin_directory}{os.pathsep}{os.environ.get('PATH', '')}",
        "VIRTUAL_ENV": str(bin_directory.parent),
        "PYTHONPATH": str(sandbox),
        "NO_COLOR": "1",
    }
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block.code],  # noqa: S607 - bash from PATH
        cwd=sandbox,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    wanted = int(block.directive("exit status") or 0)
    assert result.returncode == wanted, (
        f"{block.name} exited {result.returncode}, not {wanted}:\n{block.code}\n"
        f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
    )


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for shared in SHARED:
        (tmp_path / shared).symlink_to(ROOT / shared, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        module = sys.modules[name]
        if str(getattr(module, "__file__", "") or "").startswith(str(tmp_path)):
            del sys.modules[name]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_block_runs_as_pasted(document: Path, sandbox: Path) -> None:
    namespace: dict[str, Any] = {"__name__": "__documentation__"}
    for block in blocks(document):
        if not _LANGUAGES[block.language] or block.directive("not run") is not None:
            continue
        first = block.code.splitlines()[0] if block.code.strip() else ""
        target = _FILE.match(first)
        if block.language == "json":
            json.loads(block.code)
        elif target is not None:
            path = _write(block, sandbox, target.group(1))
            if block.language == "python":
                runpy.run_path(str(path), run_name=f"documentation:{target.group(1)}")
        elif block.language == "python":
            _run_python(block, namespace)
        elif block.language == "sh":
            _run_shell(block, sandbox)


def _table(text: str, header: str) -> dict[str, str]:
    """The rows of the markdown table whose header starts with *header*, by first cell."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows: dict[str, str] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows[line.split("`")[1]] = line
    return rows


@pytest.mark.parametrize("document", [ROOT / "README.md", ROOT / "docs" / "implementing.md"])
def test_the_claims_and_options_tables_name_every_claim_and_option(document: Path) -> None:
    # The suite's tables (ctxpact.conformance.CLAIM_MEANINGS, OPTIONS) are the source; a claim
    # or an option added there needs its row here.
    text = document.read_text(encoding="utf-8")
    claims = _table(text, "| claim |")
    assert set(claims) == {claim.value for claim in CLAIM_MEANINGS}
    for claim in CLAIM_MEANINGS:
        if claim is not Claim.GENERIC:
            for component in components_of(claim, ALL_CHECKS):
                assert words(component).split(" ", 1)[1] in claims[claim.value], claim
    options = _table(text, "| option |")
    keys = {cell.removeprefix("--option ").strip("'").split("=")[0] for cell in options}
    assert keys == {spec.key for spec in OPTIONS}
    for cell in options:
        # The value as a shell passes it on: JSON, as --option reads it.
        (argument,) = shlex.split(cell.removeprefix("--option "))
        json.loads(argument.split("=", 1)[1])


def test_the_readme_test_command_installs_what_ci_installs() -> None:
    # mypy checks the adapters against the frameworks they wrap: without their extra, the
    # README's own environment could not run the type check it promises.
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    (extras,) = re.findall(r"pip install --quiet -e '\.\[([\w,]+)\]'", ci)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"pip install -e '.[{extras}]'" in readme
