"""The ``ctxpact`` command: check implementations, export the schemas and the vectors.

Exit status of ``ctxpact check`` (SUITE-1): 0 when every check passed (or was skipped or an
expected failure), 1 when some check failed or errored, 2 on a usage or import error (before
any check runs), or when a harness (``--exec``) cannot be started, and 130 when Ctrl-C
stopped the run (after the report of what ran).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import shlex
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import attrs

from ctxpact.conformance._claims import (
    MissingOptionError,
    check_options,
    claims_help,
    options_help,
)
from ctxpact.conformance._format import counts, failure_blocks, header, interruption, paint
from ctxpact.conformance._model import (
    Check,
    CheckResult,
    ConformanceReport,
    ExpectedFailure,
    Outcome,
)
from ctxpact.conformance._profiles import DEFAULT_PROFILE, PROFILES, SHRINK_LIMITS, TIME_LIMITS
from ctxpact.conformance._references import reference_targets
from ctxpact.conformance._report import markdown, run_document
from ctxpact.conformance._runner import RunInterrupted, check_keywords, prepare
from ctxpact.conformance._target import Target, TargetError, infer_target
from ctxpact.conformance.checks import ALL_CHECKS, checks_for
from ctxpact.conformance.harness import (
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_TIMEOUT,
    HarnessConnection,
    HarnessStartError,
    harness_targets,
)
from ctxpact.conformance.vectors import export_vectors
from ctxpact.spec import (
    SCHEMA_VERSION,
    ContextBudget,
    JsonObject,
    SchemaValidationError,
    from_json,
    load_schema,
    schema_names,
)

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """Something on the command line cannot be done; the message says what."""


def load_target(spec: str, *, claims: Sequence[str]) -> Target:
    """Import ``module:attribute`` and make it a :class:`Target`."""
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise UsageError(
            f"Expected an implementation as module:attribute (e.g. mypkg.trim:MyProjector) "
            f"but got {spec!r}"
        )
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # noqa: BLE001 - any import failure is the user's to see
        raise UsageError(
            f"Could not import {module_name}: {type(error).__name__}: {error}"
        ) from None
    obj: object = module
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UsageError(f"{module_name} has no attribute {attribute!r}") from None
    try:
        return infer_target(obj, name=spec, claims=claims)
    except TargetError as error:
        raise UsageError(str(error)) from None


def use_color(stream: TextIO, mode: str) -> bool:
    """Whether to colour *stream*: ``always``, ``never``, or ``auto``.

    ``auto`` colours a terminal that is not ``TERM=dumb``, unless ``NO_COLOR`` is set to
    anything but the empty string; ``FORCE_COLOR`` (non-empty) colours any stream.
    """
    if mode != "auto":
        return mode == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty() and os.environ.get("TERM") != "dumb"


_MARKS = {Outcome.PASS: "ok", Outcome.SKIP: "skip", Outcome.XFAIL: "xfail"}


class Progress:
    """One line a check on *stream* (stderr), with N/total and the time since the start.

    On a terminal the check about to run is shown first, and its result line replaces it.
    """

    def __init__(self, stream: TextIO, *, total: int, color: bool, quiet: bool = False) -> None:
        self.stream = stream
        self.total = total
        self.color = color
        self.quiet = quiet
        self.live = stream.isatty() and not quiet
        self.done = 0
        self.started = time.perf_counter()

    def _write(self, text: str) -> None:
        if not self.quiet:
            self.stream.write(text)
            self.stream.flush()

    def _counter(self) -> str:
        width = len(str(self.total))
        elapsed = time.perf_counter() - self.started
        return f"[{self.done:>{width}}/{self.total} {elapsed:6.1f}s]"

    def start(self, target: Target) -> None:
        """A target begins."""
        claims = ", ".join(sorted(claim.value for claim in target.claims))
        self._write(f"{target.name} ({target.component.value}; claims: {claims})\n")

    def starting(self, check: Check) -> None:
        """A check begins (shown on a terminal only)."""
        if self.live:
            self.done += 1
            self._write(f"  {self._counter()} ...    {check.id}\r")
            self.done -= 1

    def __call__(self, result: CheckResult) -> None:
        """A check ended."""
        self.done += 1
        mark = _MARKS.get(result.outcome, result.outcome.value.upper())
        painted = paint(f"{mark:<6}", result.outcome, color=self.color)
        clear = "\x1b[K" if self.live else ""
        self._write(
            f"  {self._counter()} {painted} {result.check_id} ({result.duration:.2f}s){clear}\n"
        )


def _summary(
    reports: Sequence[ConformanceReport], duration: float, stream: TextIO, *, color: bool
) -> None:
    for report in reports:
        blocks = failure_blocks(report, color=color)
        stopped = interruption(report)
        line = f"{header(report)}: {counts(report.results, color=color)}"
        stream.write("\n" + "\n\n".join([line, *blocks, *([stopped] if stopped else [])]) + "\n")
    every = [result for report in reports for result in report.results]
    stream.write(f"\nctxpact check: {counts(every, color=color)} in {duration:.1f}s\n")


def _python_hint(command: str) -> str:
    """Why ``python`` in a harness command may not be the interpreter running ctxpact."""
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return ""
    if Path(program).name not in ("python", "python3", f"python3.{sys.version_info.minor}"):
        return ""
    if os.sep in program:
        return ""
    found = shutil.which(program)
    if found is not None and Path(found).resolve() == Path(sys.executable).resolve():
        return ""
    where = f"runs {found}" if found is not None else "is not on PATH"
    return (
        f" ({program!r} {where}, not the Python running ctxpact: activate its virtual "
        f"environment or write its path, {sys.executable})"
    )


def _harness_targets(arguments: argparse.Namespace, stack: contextlib.ExitStack) -> list[Target]:
    """Start every ``--exec`` harness (stopped when *stack* closes) and list its targets."""
    targets: list[Target] = []
    for command in arguments.exec:
        try:
            connection = HarnessConnection(
                command,
                timeout=arguments.timeout or DEFAULT_TIMEOUT,
                validate=arguments.validate_protocol,
                max_line_bytes=arguments.max_line_bytes,
            )
            stack.callback(connection.close)
            targets.extend(harness_targets(connection))
        except (HarnessStartError, ValueError) as error:
            raise UsageError(f"{error}{_python_hint(command)}") from None
    return targets


def _options(pairs: Sequence[str]) -> dict[str, object]:
    """``KEY=JSON`` pairs as the options claimed checks read (``budget`` as a ContextBudget)."""
    options: dict[str, object] = {}
    for pair in pairs:
        key, equals, text = pair.partition("=")
        if not equals or not key:
            raise UsageError(f"Expected --option KEY=JSON (e.g. max_items=4) but got {pair!r}")
        try:
            value = json.loads(text)
        except ValueError as error:
            raise UsageError(f"--option {key}: {text!r} is not JSON ({error})") from None
        if key == "budget":
            try:
                value = from_json(ContextBudget, value)
            except SchemaValidationError as error:
                raise UsageError(f"--option budget: {error}") from None
        options[key] = value
    return options


def _expected_failures(pairs: Sequence[str], files: Sequence[Path]) -> list[ExpectedFailure]:
    """``CHECK_ID=REASON`` from ``--xfail`` and from the lines of ``--xfail-file`` files.

    In a file, blank lines and lines starting with ``#`` are skipped.
    """
    entries = [(pair, "--xfail") for pair in pairs]
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"--xfail-file {path}: {error}") from None
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip() and not line.lstrip().startswith("#"):
                entries.append((line.strip(), f"{path}:{number}"))
    expected = []
    for entry, where in entries:
        check_id, equals, reason = entry.partition("=")
        if not equals or not check_id.strip() or not reason.strip():
            raise UsageError(
                f"{where}: expected CHECK_ID=REASON (e.g. projector.max-items=keeps the system "
                f"message) but got {entry!r}"
            )
        expected.append(ExpectedFailure(check_id=check_id.strip(), reason=reason.strip()))
    return expected


def _with_expected(targets: list[Target], expected: Sequence[ExpectedFailure]) -> list[Target]:
    """Each target with the expected failures of its component's checks."""
    known = {check.id: check.component for check in ALL_CHECKS}
    components = {target.component for target in targets}
    for entry in expected:
        if known.get(entry.check_id) not in components:
            where = ", ".join(sorted(c.value for c in components))
            raise UsageError(f"--xfail {entry.check_id}: no such check for the {where} checked")
    updated = []
    for target in targets:
        mine = {e.check_id: e for e in target.expected_failures}
        mine.update({e.check_id: e for e in expected if known[e.check_id] is target.component})
        updated.append(attrs.evolve(target, expected_failures=tuple(mine.values())))
    return updated


def _writable(path: Path | None, option: str) -> None:
    # Found out before the run, not after minutes of checks.
    if path is not None and (path.is_dir() or not path.parent.is_dir()):
        raise UsageError(f"{option} {path}: expected a file in an existing directory")


def _named_targets(arguments: argparse.Namespace) -> list[Target]:
    options = _options(arguments.option)
    targets = []
    for spec in arguments.targets:
        target = load_target(spec, claims=arguments.claim)
        try:
            check_options(target.component, target.claims, target.options)
            check_options(target.component, target.claims, options, cli=True)
        except TargetError as error:
            raise UsageError(f"{spec}: {error}") from None
        targets.append(attrs.evolve(target, options={**target.options, **options}))
    return targets


def _targets(arguments: argparse.Namespace, stack: contextlib.ExitStack) -> list[Target]:
    """The targets of the run: the named ones, those the harnesses serve, or the reference."""
    if not (arguments.targets or arguments.exec):
        if arguments.claim or arguments.option:
            raise UsageError(
                "--claim and --option apply to named implementations, not to the reference"
            )
        return list(reference_targets())
    if arguments.claim and not arguments.targets:
        raise UsageError(
            "--claim applies to module:attr implementations; a harness declares its own claims"
        )
    if arguments.option and not arguments.targets:
        raise UsageError(
            "--option applies to module:attr implementations; a harness declares its own options"
        )
    return _named_targets(arguments) + _harness_targets(arguments, stack)


def _plan(targets: Sequence[Target], keywords: Sequence[str]) -> list[list[Check]]:
    """Each target's checks, validated before any runs: a usage error stops the run here."""
    components = {target.component for target in targets}
    try:
        check_keywords(
            keywords,
            [check for component in components for check in checks_for(component)],
            "the targets checked",
        )
    except TargetError as error:
        raise UsageError(f"-k: {error}") from None
    planned = []
    for target in targets:
        try:
            planned.append(
                prepare(
                    ALL_CHECKS,
                    implementation=target.implementation,
                    factory=target.factory,
                    options=target.options,
                    keywords=keywords,
                    expected_failures=target.expected_failures,
                )
            )
        except MissingOptionError as error:
            if not target.in_process:
                raise UsageError(
                    f"{target.name}: {error.spelled(cli=False)} (in the options its harness "
                    "declares, camelCase)"
                ) from None
            raise UsageError(f"{target.name}: {error.spelled(cli=True)}") from None
        except TargetError as error:
            raise UsageError(f"{target.name}: {error}") from None
    return planned


def _check(arguments: argparse.Namespace) -> int:
    if arguments.validate_protocol and not arguments.exec:
        raise UsageError("-V/--validate-protocol applies to harnesses named with --exec")
    _writable(arguments.json, "--json")
    _writable(arguments.markdown, "--markdown")
    expected = _expected_failures(arguments.xfail, arguments.xfail_file)
    from ctxpact.conformance._api import run_target  # noqa: PLC0415 - keeps --help fast

    reports: list[ConformanceReport] = []
    interrupted = False
    not_started: list[tuple[Target, list[Check]]] = []
    color = use_color(sys.stderr, arguments.color)
    with contextlib.ExitStack() as stack:
        targets = _with_expected(_targets(arguments, stack), expected)
        planned = _plan(targets, arguments.keyword)
        progress = Progress(
            sys.stderr,
            total=sum(len(checks) for checks in planned),
            color=color,
            quiet=arguments.quiet,
        )
        started = progress.started
        for index, target in enumerate(targets):
            progress.start(target)
            try:
                report = run_target(
                    target,
                    profile=arguments.profile,
                    seed=arguments.seed,
                    keywords=arguments.keyword,
                    progress=progress,
                    starting=progress.starting,
                    timeout=arguments.timeout,
                )
            except RunInterrupted as stop:
                reports.append(stop.report)
                not_started = list(zip(targets[index + 1 :], planned[index + 1 :], strict=True))
                interrupted = True
                break
            except KeyboardInterrupt:
                not_started = list(zip(targets[index:], planned[index:], strict=True))
                interrupted = True
                break
            except TargetError as error:
                raise UsageError(str(error)) from None
            reports.append(report)
    duration = time.perf_counter() - started
    stdout_color = use_color(sys.stdout, arguments.color)
    _summary(reports, duration, sys.stdout, color=stdout_color)
    if interrupted:
        skipped = sum(len(checks) for _, checks in not_started)
        names = ", ".join(target.name for target, _ in not_started)
        sys.stdout.write(
            "ctxpact check: interrupted by Ctrl-C"
            + (
                f"; {len(not_started)} targets did not start ({skipped} checks): {names}"
                if not_started
                else ""
            )
            + "\n"
        )
    not_run = [
        (report.implementation.name, check_id) for report in reports for check_id in report.not_run
    ] + [(target.name, check.id) for target, checks in not_started for check in checks]
    if arguments.json is not None:
        document = run_document(
            reports,
            profile=arguments.profile,
            seed=arguments.seed,
            duration=duration,
            interrupted=interrupted,
            not_run=not_run,
        )
        # ASCII-escaped: a counterexample may hold lone surrogates, which UTF-8 cannot carry.
        arguments.json.write_text(
            json.dumps(document, indent=2, ensure_ascii=True) + "\n", encoding="utf-8"
        )
    if arguments.markdown is not None:
        arguments.markdown.write_text(
            markdown(reports), encoding="utf-8", errors="backslashreplace"
        )
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_OK if all(report.ok for report in reports) else EXIT_FAILED


#: The file ``ctxpact schemas export`` writes beside the schemas: one entry point that refers
#: to every schema file, for code generators that read one schema (JSON-19).
INDEX_FILE = "index.schema.json"

#: How to generate faithful types from an exported directory; ``schemas export --help`` shows
#: it, and tests/spec/test_codegen.py runs these commands (tools/codegen pins the versions).
CODEGEN_EPILOG = """\
Code generators, run on DIR (each gets the flags it needs to be faithful):

  TypeScript, json-schema-to-typescript 16 (one module, each record declared once):
    json2ts --cwd DIR -i DIR/index.schema.json -o ctxpact.ts
  Go, quicktype 26 (one package; compile with the Go toolchain):
    quicktype -s schema -l go --package ctxpact -o ctxpact/ctxpact.go \\
      DIR/index.schema.json
    Given the index rather than the files one by one, quicktype declares each record
    once. Not --omit-empty: it would leave out an empty droppedIndices, which is not an
    absent one (RPT-8). Decode with json.Decoder.UseNumber(), so that the numbers in
    items keep their value. Known limits: a Go string cannot hold a lone surrogate, and
    a choice between objects becomes one struct, so a skipped or errored answer to a
    command whose result may be null, and a scripted model's error answer, are written
    with the other choice's members as null beside them.
  Python, datamodel-code-generator 0.89 with Pydantic v2 (one package of modules):
    datamodel-codegen --input DIR --input-file-type jsonschema \\
      --output ctxpact_models --output-model-type pydantic_v2.BaseModel \\
      --use-title-as-name --strict-nullable --strict-types str int float bool
    --strict-nullable keeps null out of members whose default is not null,
    --strict-types stops "5" and true from being read as integers. Read documents
    with json.loads and Model.model_validate (Pydantic's own JSON parser refuses a
    lone surrogate) and write them with model_dump(mode="json", exclude_unset=True).

DIR/index.schema.json is not a document: it refers to every schema file, so that a
generator given that one file reaches every record by the same $id.
"""


def _schema_index() -> JsonObject:
    """The index written beside the exported schemas: one member per schema, by name."""
    index: JsonObject = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://ctxpact.dev/schemas/{SCHEMA_VERSION}/{INDEX_FILE}",
        "title": "CtxpactDocuments",
        "description": "Not a document: one schema that refers to every ctxpact schema, by "
        "name, so that a code generator given this one file declares each record once.",
        "type": "object",
        "additionalProperties": False,
        "properties": {name: {"$ref": f"{name}.schema.json"} for name in schema_names()},
    }
    return index


def _export_schemas(arguments: argparse.Namespace) -> int:
    directory: Path = arguments.directory
    directory.mkdir(parents=True, exist_ok=True)
    for name in schema_names():
        path = directory / f"{name}.schema.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(load_schema(name), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    (directory / INDEX_FILE).write_text(
        json.dumps(_schema_index(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    sys.stdout.write(f"wrote {len(schema_names())} schemas and {INDEX_FILE} to {directory}\n")
    return EXIT_OK


def _export_vectors(arguments: argparse.Namespace) -> int:
    written = export_vectors(arguments.directory)
    sys.stdout.write(f"wrote {len(written)} vector files to {arguments.directory}\n")
    return EXIT_OK


def _seed(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative seed but got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds but got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds but got {text}")
    return value


def _byte_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of bytes but got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of bytes but got {text}")
    return value


def _check_epilog() -> str:
    shrink = ", ".join(f"{name} {SHRINK_LIMITS[name]:g} s" for name in sorted(PROFILES))
    return (
        "claims (each selects the checks of its name; generic is always included):\n"
        f"{claims_help(ALL_CHECKS)}\n\n"
        "options (--option KEY=JSON; an option no claimed check reads is an error):\n"
        f"{options_help()}\n\n"
        "factories: a projector, memory, summary parser or session store factory is called\n"
        "with no argument; a compact-policy factory with the suite's model client when its\n"
        "first parameter has no default, with no argument otherwise.\n\n"
        "progress: one line a check on stderr (N/total, seconds since the start); the report\n"
        f"on stdout. Shrinking a failure stops after {shrink}.\n\n"
        "exit status: 0 all passed (skips and expected failures included), 1 a check failed\n"
        "or errored, 2 a usage or import error or a harness that cannot start (before any\n"
        "check runs), 130 interrupted by Ctrl-C (after the report of what ran)."
    )


def parser() -> argparse.ArgumentParser:
    """The command line's parser."""
    top = argparse.ArgumentParser(
        prog="ctxpact",
        description="Check context projectors, compact policies, memories and summary parsers "
        "against the ctxpact spec.",
    )
    commands = top.add_subparsers(dest="command", required=True)

    check = commands.add_parser(
        "check",
        help="run the conformance suite",
        description="Run the conformance suite against the named implementations (module:attr "
        "factories or ctxpact.conformance.Target objects) and the targets of the --exec "
        "harnesses, or against the reference implementations when none is named.",
        epilog=_check_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("targets", nargs="*", metavar="module:attr")
    check.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default=DEFAULT_PROFILE,
        help="Hypothesis profile (default: %(default)s)",
    )
    check.add_argument("--seed", type=_seed, default=None, help="seed for a random run")
    check.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="PATH",
        help="write the machine-readable report (schema conformance-report)",
    )
    check.add_argument(
        "--markdown",
        type=Path,
        default=None,
        metavar="PATH",
        help="write a markdown compliance table",
    )
    check.add_argument(
        "-k",
        dest="keyword",
        action="append",
        default=[],
        metavar="WORD",
        help="only checks whose id or clauses contain WORD ('not WORD' excludes); each WORD "
        "must match some check; repeatable",
    )
    check.add_argument(
        "--claim",
        action="append",
        default=[],
        help="a claim of the named factories (see below; generic is always included); repeatable",
    )
    check.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="an option the named factories' claimed checks read (see below), e.g. "
        "max_items=4 or budget='{\"maxItems\": 4}'; repeatable",
    )
    check.add_argument(
        "--xfail",
        action="append",
        default=[],
        metavar="CHECK_ID=REASON",
        help="a check known to fail, and why; strict: it fails the run when it passes; repeatable",
    )
    check.add_argument(
        "--xfail-file",
        action="append",
        default=[],
        type=Path,
        metavar="PATH",
        help="read CHECK_ID=REASON lines (blank lines and # comments skipped) as --xfail",
    )
    check.add_argument(
        "--exec",
        action="append",
        default=[],
        metavar="COMMAND",
        help="check the targets of a harness process speaking spec/HARNESS.md (e.g. "
        "'node harness.js'); split like a shell would, run without one; repeatable",
    )
    check.add_argument(
        "-V",
        "--validate-protocol",
        action="store_true",
        help="validate every message to and from the --exec harnesses against "
        "schemas/harness/ (for harness authors)",
    )
    limits = ", ".join(f"{name} {TIME_LIMITS[name]:g}" for name in sorted(PROFILES))
    check.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="the time limit of one check of a named or reference implementation, after "
        f"which it is interrupted and reported as an error (default by profile: {limits}); "
        "and the seconds a harness may take to answer one request before it is killed and "
        f"restarted (default {DEFAULT_TIMEOUT:g})",
    )
    check.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no per-check progress lines on stderr, only the report on stdout",
    )
    check.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the output: auto (a terminal, unless NO_COLOR is set), always or never",
    )
    check.add_argument(
        "--max-line-bytes",
        type=_byte_count,
        default=DEFAULT_MAX_LINE_BYTES,
        metavar="BYTES",
        help="the longest response line a harness may write; a longer one is an error of "
        "the request (default: %(default)s, 16 MiB; HRN-19)",
    )
    check.set_defaults(run=_check)

    schemas = commands.add_parser("schemas", help="the JSON Schemas")
    schemas_commands = schemas.add_subparsers(dest="action", required=True)
    export = schemas_commands.add_parser(
        "export",
        help="write every schema into DIR",
        description="Write every JSON Schema into DIR (harness messages under DIR/harness/), "
        f"and {INDEX_FILE}, which refers to them all.",
        epilog=CODEGEN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    export.add_argument("directory", type=Path, metavar="DIR")
    export.set_defaults(run=_export_schemas)

    vectors = commands.add_parser("vectors", help="the language-neutral test vectors")
    vectors_commands = vectors.add_subparsers(dest="action", required=True)
    export = vectors_commands.add_parser("export", help="write every vector file into DIR")
    export.add_argument("directory", type=Path, metavar="DIR")
    export.set_defaults(run=_export_vectors)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = parser().parse_args(argv)
    for stream in (sys.stdout, sys.stderr):
        # Counterexamples may hold lone surrogates, which no terminal encoding accepts: show
        # them escaped rather than crash the report of a failure.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        status: int = arguments.run(arguments)
    except KeyboardInterrupt:  # before the run started, or while its report was written
        sys.stderr.write("ctxpact: interrupted\n")
        return EXIT_INTERRUPTED
    except OSError as error:  # an export or report path that cannot be written
        sys.stderr.write(f"ctxpact: error: {error}\n")
        return EXIT_USAGE
    except UsageError as error:
        sys.stderr.write(f"ctxpact: error: {error}\n")
        return EXIT_USAGE
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
