"""The ``ctxpact`` command: check implementations, export the schemas and the vectors.

Exit status of ``ctxpact check``: 0 when every check passed (or was skipped or an expected
failure), 1 when some check failed or errored, 2 on a usage or import error, or when a
harness (``--exec``) cannot be started.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import attrs

from ctxpact.conformance._model import CheckResult, ConformanceReport, Outcome
from ctxpact.conformance._profiles import DEFAULT_PROFILE, PROFILES
from ctxpact.conformance._references import reference_targets
from ctxpact.conformance._report import markdown, run_document
from ctxpact.conformance._target import Target, TargetError, infer_target
from ctxpact.conformance.harness import (
    DEFAULT_TIMEOUT,
    HarnessConnection,
    HarnessStartError,
    harness_targets,
)
from ctxpact.conformance.vectors import export_vectors
from ctxpact.spec import ContextBudget, SchemaValidationError, from_json, load_schema, schema_names

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


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


class _Progress:
    """One line a check on a terminal; nothing otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()

    def start(self, target: Target) -> None:
        if self.live:
            self.stream.write(f"{target.name} ({target.component.value})\n")

    def __call__(self, result: CheckResult) -> None:
        if self.live:
            mark = {Outcome.PASS: "ok", Outcome.SKIP: "skip", Outcome.XFAIL: "xfail"}.get(
                result.outcome, result.outcome.value.upper()
            )
            self.stream.write(f"  {mark:<6} {result.check_id} ({result.duration:.2f}s)\n")
            self.stream.flush()


def _summary(reports: Sequence[ConformanceReport], duration: float, stream: TextIO) -> None:
    for report in reports:
        for failure in report.failures:
            stream.write(
                f"\n{failure.outcome.value.upper()} {report.implementation.name} "
                f"{failure.check_id} ({', '.join(failure.clauses)}): {failure.title}\n"
                f"{failure.message.strip()}\n"
            )
            if failure.counterexample is not None:
                text = json.dumps(failure.counterexample, ensure_ascii=False)
                stream.write(f"counterexample: {text}\n")
    every = [result for report in reports for result in report.results]
    counts = ", ".join(
        f"{sum(r.outcome is outcome for r in every)} {label}"
        for outcome, label in (
            (Outcome.PASS, "passed"),
            (Outcome.FAIL, "failed"),
            (Outcome.SKIP, "skipped"),
            (Outcome.XFAIL, "xfailed"),
            (Outcome.ERROR, "errored"),
        )
    )
    stream.write(f"\nctxpact check: {counts} in {duration:.1f}s\n")


def _harness_targets(arguments: argparse.Namespace, stack: contextlib.ExitStack) -> list[Target]:
    """Start every ``--exec`` harness (stopped when *stack* closes) and list its targets."""
    targets: list[Target] = []
    for command in arguments.exec:
        try:
            connection = HarnessConnection(
                command, timeout=arguments.timeout, validate=arguments.validate_protocol
            )
            stack.callback(connection.close)
            targets.extend(harness_targets(connection))
        except (HarnessStartError, ValueError) as error:
            raise UsageError(str(error)) from None
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


def _with_options(target: Target, options: dict[str, object]) -> Target:
    return attrs.evolve(target, options={**target.options, **options}) if options else target


def _writable(path: Path | None, option: str) -> None:
    # Found out before the run, not after minutes of checks.
    if path is not None and (path.is_dir() or not path.parent.is_dir()):
        raise UsageError(f"{option} {path}: expected a file in an existing directory")


def _check(arguments: argparse.Namespace) -> int:
    if arguments.validate_protocol and not arguments.exec:
        raise UsageError("-V/--validate-protocol applies to harnesses named with --exec")
    _writable(arguments.json, "--json")
    _writable(arguments.markdown, "--markdown")
    with contextlib.ExitStack() as stack:
        if arguments.targets or arguments.exec:
            if arguments.claim and not arguments.targets:
                raise UsageError(
                    "--claim applies to module:attr implementations; a harness "
                    "declares its own claims"
                )
            options = _options(arguments.option)
            targets = [
                _with_options(load_target(spec, claims=arguments.claim), options)
                for spec in arguments.targets
            ]
            targets += _harness_targets(arguments, stack)
        else:
            if arguments.claim or arguments.option:
                raise UsageError(
                    "--claim and --option apply to named implementations, not to the reference"
                )
            targets = list(reference_targets())
        progress = _Progress(sys.stderr)
        started = time.perf_counter()
        reports = []
        from ctxpact.conformance._api import check_target  # noqa: PLC0415 - keeps --help fast

        for target in targets:
            progress.start(target)
            try:
                report = check_target(
                    target,
                    profile=arguments.profile,
                    seed=arguments.seed,
                    keywords=arguments.keyword,
                    progress=progress,
                )
            except TargetError as error:
                raise UsageError(str(error)) from None
            reports.append(report)
        duration = time.perf_counter() - started
    _summary(reports, duration, sys.stdout)
    if arguments.json is not None:
        document = run_document(
            reports, profile=arguments.profile, seed=arguments.seed, duration=duration
        )
        # ASCII-escaped: a counterexample may hold lone surrogates, which UTF-8 cannot carry.
        arguments.json.write_text(
            json.dumps(document, indent=2, ensure_ascii=True) + "\n", encoding="utf-8"
        )
    if arguments.markdown is not None:
        arguments.markdown.write_text(
            markdown(reports), encoding="utf-8", errors="backslashreplace"
        )
    return EXIT_OK if all(report.ok for report in reports) else EXIT_FAILED


def _export_schemas(arguments: argparse.Namespace) -> int:
    directory: Path = arguments.directory
    directory.mkdir(parents=True, exist_ok=True)
    for name in schema_names():
        path = directory / f"{name}.schema.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(load_schema(name), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    sys.stdout.write(f"wrote {len(schema_names())} schemas to {directory}\n")
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
        help="only checks whose id or clauses contain WORD ('not WORD' excludes)",
    )
    check.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="an option of the named factories' claimed checks, e.g. max_items=4, "
        "tiers=false, budget='{\"maxItems\": 4}' or providers='[\"openai-chat\"]'; "
        "repeatable",
    )
    check.add_argument(
        "--claim",
        action="append",
        default=[],
        help="a claim of the named factories (generic, pair-integrity, wire-valid, exact, "
        "llm-summary); repeatable",
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
    check.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="seconds a harness may take to answer one request before it is killed and "
        "restarted (default: %(default)s)",
    )
    check.set_defaults(run=_check)

    schemas = commands.add_parser("schemas", help="the JSON Schemas")
    schemas_commands = schemas.add_subparsers(dest="action", required=True)
    export = schemas_commands.add_parser("export", help="write every schema into DIR")
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
    except OSError as error:  # an export or report path that cannot be written
        sys.stderr.write(f"ctxpact: error: {error}\n")
        return EXIT_USAGE
    except UsageError as error:
        sys.stderr.write(f"ctxpact: error: {error}\n")
        return EXIT_USAGE
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
