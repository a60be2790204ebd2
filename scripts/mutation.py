# ruff: noqa: INP001 - a script, not a package module
"""Mutation testing of the conformance suite: how many wrong references it catches.

cosmic-ray mutates a copy of the reference implementation, one small change at a time, and
runs the conformance suite against each mutant: the checks of the component the mutated
package implements, with the reference targets' own claims (``exact`` among them), at the
``quick`` profile, without shrinking, stopping at the first failing check. The pristine
reference stays the oracle of the ``exact`` checks: the mutants live in a renamed copy of the
package (``ctxpact_mutant``), so a mutant is compared with the real reference, never with
itself. docs/mutation.md says why cosmic-ray, which operators, and which survivors are
equivalent (and why).

Usage::

    python scripts/mutation.py [--package NAME] [--module FILE] [--operator REGEX]
                               [--limit N] [--budget SECONDS] [--workspace DIR]
                               [--json PATH] [--fail-under PERCENT]

One worker: cosmic-ray's ``local`` distributor runs one mutant at a time. Its test command,
scripts/mutation_client.py, asks a server (``mutation.py serve``) that has imported the suite
once to fork a child that imports the mutated copy and runs the checks that reach the
mutated lines (``mutation.py trace`` found them on the unmutated copy). ``--budget`` bounds
the wall time; what had not run by then is reported as not run.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import difflib
import importlib
import json
import math
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import attrs
import hypothesis
from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

from ctxpact.conformance import (
    TIME_LIMITS,
    Check,
    CheckResult,
    Claim,
    Component,
    Outcome,
    Target,
    checks_for,
    profile_settings,
    reference_targets,
    run_check,
)

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "reference" / "ctxpact" / "reference"
EQUIVALENTS = ROOT / "docs" / "mutation.md"
#: The name the mutated copy of ``ctxpact.reference`` is imported under.
MUTANT = "ctxpact_mutant"
#: The unmutated copy the test command compares the mutated one with.
PRISTINE = "pristine"
PROFILE = "quick"
PASSING = frozenset({Outcome.PASS, Outcome.SKIP})
#: The components whose checks run against the mutants of each package.
PACKAGES: dict[str, tuple[Component, ...]] = {
    "projection": (Component.PROJECTOR,),
    "compaction": (Component.COMPACT_POLICY, Component.SUMMARY_PARSER, Component.MEMORY_COMPRESSOR),
}
#: Modules of the packages that are not mutated, with the reason: what they implement is not
#: the suite's to check (tests/conformance/test_clause_coverage.py, NOT_CHECKABLE).
EXCLUDED: dict[str, str] = {
    "projection/_sized.py": "SizedItems, a Python object of the reference (PRJ-36, PRJ-37): "
    "the suite never hands one to a projector; tests/reference/projection/test_sized.py does",
}
#: What the test command prints when no check reaches the mutated lines.
NOT_REACHED = "no check reaches the mutated lines"
#: Seconds one mutant's test run may take before cosmic-ray kills it (and counts it killed).
MUTANT_TIMEOUT = 120.0
#: cosmic-ray's operators, narrowed to one replacement per operator (the selective set that
#: mutmut also uses): an arithmetic operator becomes its inverse, a comparison its boundary
#: or negation. The other nine replacements of each binary operator mostly repeat what the
#: first one shows, at nine times the cost. An operator name matching none is not run.
OPERATORS = re.compile(
    r"core/(?:"
    r"ReplaceBinaryOperator_(?:Add_Sub|Sub_Add|Mul_Div|Div_Mul|FloorDiv_Div|Mod_FloorDiv"
    r"|BitOr_BitAnd|BitAnd_BitOr|BitXor_BitOr|LShift_RShift|RShift_LShift|Pow_Mul)"
    r"|ReplaceComparisonOperator_(?:Eq_NotEq|NotEq_Eq|Lt_LtE|LtE_Lt|Gt_GtE|GtE_Gt"
    r"|Is_IsNot|IsNot_Is)"
    r"|ReplaceUnaryOperator_(?:USub_UAdd|Delete_Not|Delete_USub)"
    r"|AddNot|ReplaceTrueWithFalse|ReplaceFalseWithTrue|ReplaceAndWithOr|ReplaceOrWithAnd"
    r"|ReplaceBreakWithContinue|ReplaceContinueWithBreak|ExceptionReplacer|NumberReplacer"
    r"|RemoveDecorator|ZeroIterationForLoop"
    r")$"
)


def _say(text: str) -> None:
    sys.stdout.write(f"{text}\n")
    sys.stdout.flush()


# --- the test command: the suite against the mutated copy -----------------------------------


def _mutant_targets(package: str) -> list[Target]:
    """The reference targets of *package*'s components, their factories from the mutated copy.

    Names, claims and options stay the reference's; only what is built changes.
    """
    projection = importlib.import_module(f"{MUTANT}.projection")
    compaction = importlib.import_module(f"{MUTANT}.compaction")
    targets = [t for t in reference_targets() if t.component in PACKAGES[package]]
    budget = next((t.options["budget"] for t in reference_targets() if "budget" in t.options), None)

    def structured(_model_client: object) -> object:
        return compaction.StructuredSummaryCompactPolicy(budget)

    def llm(model_client: object, keep: int) -> object:
        return compaction.LlmCompactPolicy(model_client, max_items=keep)

    def mutant(target: Target) -> Target:
        name = target.name.rpartition(":")[2]
        if name == "StructuredSummaryCompactPolicy":
            return attrs.evolve(target, factory=structured)
        if name == "LlmCompactPolicy":
            keep = target.options["max_items"]
            return attrs.evolve(target, factory=lambda model_client: llm(model_client, keep))
        if name == "parse_structured_summary":
            return attrs.evolve(target, factory=lambda: compaction.parse_structured_summary)
        if name == "CompactPolicyMemoryCompressor":
            options = {**target.options, "args": (structured(None),)}
            return attrs.evolve(
                target, factory=compaction.CompactPolicyMemoryCompressor, options=options
            )
        module = projection if target.component is Component.PROJECTOR else compaction
        return attrs.evolve(target, factory=getattr(module, name))

    return [mutant(target) for target in targets]


def _settings() -> hypothesis.settings:
    # A mutant needs one failing example, not a minimal one: shrinking would only cost time.
    quick = profile_settings(PROFILE)
    return hypothesis.settings(
        quick, phases=[phase for phase in quick.phases if phase is not hypothesis.Phase.shrink]
    )


def _tracer(prefix: str, lines: set[tuple[str, int]]) -> Callable[..., Any]:
    """A ``sys.settrace`` function that records the lines run in files under *prefix*."""

    def local(frame: FrameType, event: str, _arg: object) -> Callable[..., Any]:
        if event == "line":
            lines.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def calls(frame: FrameType, _event: str, _arg: object) -> Callable[..., Any] | None:
        return local if frame.f_code.co_filename.startswith(prefix) else None

    return calls


@contextlib.contextmanager
def _tracing(prefix: str, lines: set[tuple[str, int]]) -> Iterator[None]:
    tracer = _tracer(prefix, lines)
    threading.settrace(tracer)
    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(None)
        threading.settrace(None)


def _run(target: Target, check: Check) -> CheckResult:
    return run_check(
        check,
        factory=target.factory,
        claims=target.claims,
        settings=_settings(),
        options=target.options,
        timeout=TIME_LIMITS[PROFILE],
    )


def _checks(target: Target) -> list[Check]:
    # The exact checks first: they compare with the reference and the vectors, so they are
    # the likeliest to kill a mutant early.
    claimed = [
        c
        for c in checks_for(target.component)
        if c.claim is Claim.GENERIC or c.claim in target.claims
    ]
    return sorted(claimed, key=lambda check: check.claim is not Claim.EXACT)


def trace_suite(package: str, workspace: Path) -> None:
    """Run *package*'s checks on the unmutated copy and record which lines each one runs.

    Writes ``PACKAGE.lines.json`` in *workspace*: the lines run while importing (a mutant
    there may change anything) and, for every line a check runs, the checks that run it. The
    profile is derandomised, so a check that never reaches a line cannot tell a mutant of it
    from the reference: the test command runs only the checks that reach the mutated line.
    """
    copy = workspace / MUTANT
    prefix = f"{copy}{os.sep}"
    imported: set[tuple[str, int]] = set()
    with _tracing(prefix, imported):
        targets = _mutant_targets(package)
    reached: dict[str, list[str]] = {}
    for target in targets:
        for check in _checks(target):
            lines: set[tuple[str, int]] = set()
            with _tracing(prefix, lines):
                result = _run(target, check)
            if result.outcome not in PASSING:
                raise SystemExit(
                    f"the unmutated copy fails {check.id} on {target.name}: {result.message}"
                )
            for file, line in lines:
                key = f"{Path(file).relative_to(copy).as_posix()}:{line}"
                reached.setdefault(key, []).append(f"{target.name}|{check.id}")
    record = {
        "imported": sorted(f"{Path(f).relative_to(copy).as_posix()}:{n}" for f, n in imported),
        "reached": reached,
    }
    (workspace / f"{package}.lines.json").write_text(json.dumps(record), encoding="utf-8")


def mutated_lines(workspace: Path, package: str) -> list[str]:
    """``file:line`` of each line of the copy that differs from the pristine copy."""
    copy, pristine = workspace / MUTANT, workspace / PRISTINE
    changed: list[str] = []
    for path in sorted((pristine / package).rglob("*.py")):
        relative = path.relative_to(pristine)
        before = path.read_text(encoding="utf-8").splitlines()
        after = (copy / relative).read_text(encoding="utf-8").splitlines()
        if before == after:
            continue
        matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
        for tag, first, last, _, _ in matcher.get_opcodes():
            if tag != "equal":
                changed.extend(
                    f"{relative.as_posix()}:{n + 1}" for n in range(first, max(last, first + 1))
                )
    return changed


def run_suite(package: str, workspace: Path, out: Callable[[str], None] = _say) -> bool:
    """Run the checks that reach the mutated lines; False at the first that does not pass."""
    record = json.loads((workspace / f"{package}.lines.json").read_text(encoding="utf-8"))
    changed = mutated_lines(workspace, package)
    everything = any(line in record["imported"] for line in changed)
    wanted = {key for line in changed for key in record["reached"].get(line, ())}
    if not everything and not wanted:
        out(NOT_REACHED)
        return True
    for target in _mutant_targets(package):
        for check in _checks(target):
            if not everything and f"{target.name}|{check.id}" not in wanted:
                continue
            result = _run(target, check)
            if result.outcome not in PASSING:
                out(f"killed by {check.id} on {target.name}: {result.outcome.value}")
                out(result.message)
                return False
    return True


def serve(package: str, workspace: Path) -> None:
    """Answer each request on ``PACKAGE.sock`` with a forked child that runs the suite.

    This process has imported Hypothesis and the suite, never the mutated copy: each child
    imports the copy as cosmic-ray left it, runs :func:`run_suite` and sends back its status
    and output. One request at a time: one worker.
    """
    sys.dont_write_bytecode = True  # a mutant's bytecode must never be cached
    path = workspace / f"{package}.sock"
    path.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        server.listen(1)
        while True:
            connection, _ = server.accept()
            with connection:
                _answer(connection, package, workspace)


def _answer(connection: socket.socket, package: str, workspace: Path) -> None:
    request = b""
    while not request.endswith(b"\n"):
        chunk = connection.recv(64)
        if not chunk:
            return
        request += chunk
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child leaves through os._exit
        os.close(reader)
        said: list[str] = []
        try:
            status = 0 if run_suite(package, workspace, said.append) else 1
        except BaseException as error:  # noqa: BLE001 - a mutant that cannot even be imported is caught
            said.append(f"{type(error).__name__}: {error}")
            status = 1
        with os.fdopen(writer, "wb") as out:
            out.write(f"{status}\n".encode() + "\n".join(said).encode("utf-8", "replace"))
        os._exit(0)
    os.close(writer)
    answer: list[bytes] = []
    with os.fdopen(reader, "rb", buffering=0) as output:
        while True:
            waiting: list[Any] = [output, connection]
            ready, _, _ = select.select(waiting, [], [])
            if connection in ready and not connection.recv(64):
                os.kill(child, signal.SIGKILL)  # cosmic-ray's timeout ended the client
                os.waitpid(child, 0)
                return
            if output in ready:
                data = output.read(65536)
                if not data:
                    break
                answer.append(data)
    os.waitpid(child, 0)
    connection.sendall(b"".join(answer) or b"1\nthe child died without an answer")


@contextlib.contextmanager
def _server(package: str, workspace: Path) -> Iterator[Path]:
    """Start :func:`serve` for *package*; the socket's path once it listens."""
    path = workspace / f"{package}.sock"
    path.unlink(missing_ok=True)
    log = (workspace / f"{package}.server.log").open("w", encoding="utf-8")
    with (
        log,
        subprocess.Popen(  # noqa: S603 - this script, our own arguments
            [sys.executable, __file__, "serve", package, "--workspace", str(workspace)],
            stdout=log,
            stderr=log,
        ) as process,
    ):
        try:
            for _ in range(600):
                if path.exists() or process.poll() is not None:
                    break
                time.sleep(0.1)
            if not path.exists():
                raise SystemExit(f"the suite server of {package} did not start: see {log.name}")
            yield path
        finally:
            process.terminate()
            process.wait()


# --- the run: a workspace, a cosmic-ray session per package, a score ------------------------


def make_workspace(workspace: Path) -> Path:
    """Copy ``ctxpact.reference`` to *workspace*/``ctxpact_mutant``, its imports renamed.

    A second copy, never mutated, is what the test command finds the mutated lines against.
    """
    for name in (MUTANT, PRISTINE):
        copy = workspace / name
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(REFERENCE, copy, ignore=shutil.ignore_patterns("__pycache__"))
        for path in copy.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace("ctxpact.reference", MUTANT), encoding="utf-8")
    return workspace / MUTANT


def _annotation_lines(source: str) -> set[tuple[int, int, int]]:
    """(line, first column, end column) of every one-line annotation in *source*.

    An annotation is not run (``from __future__ import annotations``), so its mutants say
    nothing about the suite; multi-line annotations are rare enough to be mutated as usual.
    """
    spans: set[tuple[int, int, int]] = set()
    for node in ast.walk(ast.parse(source)):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.arg):
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        for annotation in found:
            if annotation is not None and annotation.lineno == annotation.end_lineno:
                end = annotation.end_col_offset or annotation.col_offset
                spans.add((annotation.lineno, annotation.col_offset, end))
    return spans


#: cosmic-ray reads the ``*`` that starts keyword-only parameters as a multiplication.
_BARE_STAR = re.compile(r"\*\s*(?:,|\)|$)")


def _in_annotation(spans: set[tuple[int, int, int]], line: int, column: int) -> bool:
    return any(line == at and start <= column < end for at, start, end in spans)


@attrs.frozen(kw_only=True)
class Mutant:
    """One mutant of a session: where, which operator, and what became of it."""

    job_id: str
    file: str
    line: int
    column: int
    operator: str
    code: str
    outcome: str
    diff: str = ""

    @property
    def survived(self) -> bool:
        """Whether the suite let this mutant through (run or not reached)."""
        return self.outcome in {"survived", "not reached"}

    @property
    def key(self) -> tuple[str, str, str, int]:
        """What docs/mutation.md names an equivalent mutant by (line numbers move)."""
        text = self.code.strip()
        return (
            self.file,
            self.operator,
            text,
            self.column - (len(self.code) - len(self.code.lstrip())),
        )


def _never_run(
    operator: str, code: str, annotations: set[tuple[int, int, int]], at: tuple[int, int]
) -> str:
    """Why a mutant is no mutant worth running, or ``""``: a rule of every run."""
    line, column = at
    if not OPERATORS.match(operator):
        return "operator not in the selective set"
    if _in_annotation(annotations, line, column):
        return "inside an annotation"
    if _BARE_STAR.match(code, column):
        return "the bare * of a signature, which is no operator"
    return ""


def _select(
    db: WorkDB,
    copy: Path,
    *,
    modules: Sequence[str] = (),
    chosen: re.Pattern[str] | None = None,
    limit: int | None = None,
) -> None:
    """Mark as skipped what this run does not test.

    Operators outside the selective set, annotations and excluded modules always; and, as the
    caller chooses, other modules than *modules*, operators *chosen* does not match, and the
    mutants past *limit*.
    """
    kept = 0
    sources: dict[Path, tuple[set[tuple[int, int, int]], list[str]]] = {}
    for item in list(db.pending_work_items):
        (mutation,) = item.mutations
        path = Path(mutation.module_path)
        if path not in sources:
            text = path.read_text(encoding="utf-8")
            sources[path] = (_annotation_lines(text), text.splitlines())
        annotations, lines = sources[path]
        line, column = mutation.start_pos
        relative = path.relative_to(copy).as_posix()
        unchosen = chosen is not None and not chosen.search(mutation.operator_name)
        reason = (
            _never_run(mutation.operator_name, lines[line - 1], annotations, (line, column))
            or EXCLUDED.get(relative, "")
            or ("module not selected" if modules and path.name not in modules else "")
            or ("operator not selected" if unchosen else "")
            or ("over the limit" if limit is not None and kept >= limit else "")
        )
        if reason:
            db.set_result(
                item.job_id, WorkResult(output=reason, worker_outcome=WorkerOutcome.SKIPPED)
            )
        else:
            kept += 1


def _config(package: str, copy: Path, workspace: Path) -> Path:
    client = Path(__file__).resolve().with_name("mutation_client.py")
    command = f"{sys.executable} -I {client} {workspace / package}.sock"
    lines = [
        "[cosmic-ray]",
        f"module-path = {json.dumps(str(copy / package))}",
        f"timeout = {MUTANT_TIMEOUT}",
        "excluded-modules = []",
        f"test-command = {json.dumps(command)}",
        "",
        "[cosmic-ray.distributor]",
        'name = "local"',
        "",
    ]
    config = workspace / f"{package}.toml"
    config.write_text("\n".join(lines), encoding="utf-8")
    return config


def _cosmic_ray(*arguments: str, timeout: float | None = None) -> bool:
    """Run ``cosmic-ray``; False when *timeout* ran out first (the run is stopped)."""
    tool = Path(sys.executable).with_name("cosmic-ray")
    with subprocess.Popen(  # noqa: S603 - our own tool, our own arguments
        [str(tool), *arguments], start_new_session=True
    ) as process:
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
            return False
    if status != 0:
        raise SystemExit(f"cosmic-ray {arguments[0]} exited with status {status}")
    return True


def _mutants(db: WorkDB, copy: Path) -> Iterator[Mutant]:
    """The mutants of *db* that this run selected, with their outcome (``not run`` too)."""
    results = dict(db.results)
    for item in db.work_items:
        (mutation,) = item.mutations
        result = results.get(item.job_id)
        if result is not None and result.worker_outcome is WorkerOutcome.SKIPPED:
            continue
        path = Path(mutation.module_path)
        line, column = mutation.start_pos
        code = path.read_text(encoding="utf-8").splitlines()[line - 1]
        if result is None:
            outcome = "not run"
        elif result.test_outcome is TestOutcome.SURVIVED and NOT_REACHED in (result.output or ""):
            outcome = "not reached"
        elif result.test_outcome is None:
            outcome = TestOutcome.INCOMPETENT.value
        else:
            outcome = result.test_outcome.value
        yield Mutant(
            job_id=item.job_id,
            file=path.relative_to(copy).as_posix(),
            line=line,
            column=column,
            operator=mutation.operator_name,
            code=code,
            outcome=outcome,
            diff=(result.diff or "") if result is not None else "",
        )


def equivalents(document: Path = EQUIVALENTS) -> dict[tuple[str, str, str, int], str]:
    """The equivalent mutants that *document* lists, by key, with the reason given.

    Rows of its tables read ``| `file:line` | `operator` | column | `code` | reason |``;
    a bar inside the code is written with a backslash before it.
    """
    found: dict[tuple[str, str, str, int], str] = {}
    if not document.exists():
        return found
    row = re.compile(
        r"^\|\s*`([^`:]+):\d+`\s*\|\s*`([^`]+)`\s*\|\s*(\d+)\s*\|\s*`(.*?)`\s*\|(.*)\|$"
    )
    for line in document.read_text(encoding="utf-8").splitlines():
        match = row.match(line.strip())
        if match:
            file, operator, column, code, reason = match.groups()
            found[(file, operator, code.replace("\\|", "|"), int(column))] = reason.strip()
    return found


@attrs.frozen(kw_only=True)
class Score:
    """The counts of a run and the share of non-equivalent mutants it killed."""

    total: int
    killed: int
    equivalent: int
    surviving: int
    not_reached: int
    not_run: int
    incompetent: int

    @property
    def percent(self) -> float:
        """Killed over killed plus surviving (equivalent and not-run mutants left out)."""
        tested = self.killed + self.surviving
        return 100.0 * self.killed / tested if tested else math.nan


def score(mutants: Sequence[Mutant], known: dict[tuple[str, str, str, int], str]) -> Score:
    """Count *mutants*: a survivor listed in *known* is equivalent, the others surviving.

    A mutant of a line no check reaches survives like any other; it is counted apart too.
    """
    outcomes = Counter(
        "equivalent" if m.survived and m.key in known else m.outcome for m in mutants
    )
    return Score(
        total=len(mutants),
        killed=outcomes["killed"],
        equivalent=outcomes["equivalent"],
        surviving=outcomes["survived"] + outcomes["not reached"],
        not_reached=outcomes["not reached"],
        not_run=outcomes["not run"],
        incompetent=outcomes["incompetent"],
    )


def _describe(mutant: Mutant) -> str:
    changed = [
        line[1:].strip()
        for line in mutant.diff.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]
    after = f" -> {changed[0]}" if changed else ""
    reached = " [not reached]" if mutant.outcome == "not reached" else ""
    return (
        f"  {mutant.file}:{mutant.line} {mutant.operator} col "
        f"{mutant.key[3]}: {mutant.code.strip()}{after}{reached}"
    )


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--package",
        action="append",
        choices=sorted(PACKAGES),
        help="a package of ctxpact.reference to mutate (default: all); repeatable",
    )
    parser.add_argument(
        "--module", action="append", default=[], help="only this file, e.g. _size.py; repeatable"
    )
    parser.add_argument(
        "--operator", default="", help="only operators whose name matches this regex"
    )
    parser.add_argument("--limit", type=int, help="at most this many mutants per package")
    parser.add_argument(
        "--budget",
        type=float,
        default=2400.0,
        help="seconds of wall time for the whole run (default 2400); the rest is not run",
    )
    parser.add_argument("--workspace", type=Path, help="where the copy and the sessions go")
    parser.add_argument("--json", type=Path, help="write every mutant and its outcome here")
    parser.add_argument(
        "--fail-under", type=float, help="exit 1 when the score is below this percentage"
    )
    return parser.parse_args(argv)


def _trace(package: str, workspace: Path) -> float:
    """Record the lines each check reaches on the unmutated copy; the seconds it took."""
    started = time.perf_counter()
    done = subprocess.run(  # noqa: S603 - this script, our own arguments
        [sys.executable, __file__, "trace", package, "--workspace", str(workspace)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"tracing the suite on {package} failed:\n{done.stdout}{done.stderr}")
    return time.perf_counter() - started


def run(arguments: argparse.Namespace) -> int:
    """Mutate, test, count, print; the exit status of the run."""
    deadline = time.monotonic() + arguments.budget
    with contextlib.ExitStack() as stack:
        workspace = arguments.workspace or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        workspace.mkdir(parents=True, exist_ok=True)
        copy = make_workspace(workspace.resolve())
        mutants: list[Mutant] = []
        for package in arguments.package or sorted(PACKAGES):
            config = _config(package, copy, workspace.resolve())
            session = workspace / f"{package}.sqlite"
            session.unlink(missing_ok=True)
            _cosmic_ray("init", str(config), str(session))
            with use_db(str(session), WorkDB.Mode.open) as db:
                _select(
                    db,
                    copy,
                    modules=arguments.module,
                    chosen=re.compile(arguments.operator) if arguments.operator else None,
                    limit=arguments.limit,
                )
            seconds = _trace(package, workspace.resolve())
            _say(f"{package}: traced the suite on the unmutated copy in {seconds:.1f} s")
            remaining = deadline - time.monotonic()
            with _server(package, workspace.resolve()):
                if remaining > 0 and not _cosmic_ray(
                    "exec", str(config), str(session), timeout=remaining
                ):
                    _say(f"{package}: stopped at the budget of {arguments.budget:g} s")
            with use_db(str(session), WorkDB.Mode.open) as db:
                mutants.extend(_mutants(db, copy))
        return _report(mutants, arguments)


def _report(mutants: Sequence[Mutant], arguments: argparse.Namespace) -> int:
    known = equivalents()
    result = score(mutants, known)
    if arguments.json is not None:
        records = [
            {**attrs.asdict(m), "equivalent": m.survived and m.key in known} for m in mutants
        ]
        arguments.json.write_text(json.dumps(records, indent=2) + "\n", encoding="utf-8")
    survivors = [m for m in mutants if m.survived and m.key not in known]
    if survivors:
        _say("surviving mutants (kill them, or list them in docs/mutation.md as equivalent):")
        for mutant in survivors:
            _say(_describe(mutant))
    _say(
        f"mutants: {result.total}, killed {result.killed}, equivalent {result.equivalent}, "
        f"surviving {result.surviving} ({result.not_reached} not reached by any check), "
        f"incompetent {result.incompetent}, "
        f"not run {result.not_run}; score {result.percent:.1f}%"
    )
    if arguments.fail_under is not None and not result.percent >= arguments.fail_under:
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``mutation.py [options]`` runs; ``test`` and ``trace`` are its own steps."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["test"], ["trace"], ["serve"]):
        parser = argparse.ArgumentParser(prog=f"mutation.py {argv[0]}")
        parser.add_argument("package", choices=sorted(PACKAGES))
        parser.add_argument("--workspace", type=Path, required=True)
        chosen = parser.parse_args(argv[1:])
        sys.path.insert(0, str(chosen.workspace))
        if argv[0] == "trace":
            trace_suite(chosen.package, chosen.workspace)
            return 0
        if argv[0] == "serve":
            serve(chosen.package, chosen.workspace)
        return 0 if run_suite(chosen.package, chosen.workspace) else 1
    return run(_arguments(argv))


if __name__ == "__main__":
    sys.exit(main())
