"""Reports for people and for machines: the JSON run report and the markdown compliance table."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata

from ctxpact.conformance._model import CheckResult, ConformanceReport, Outcome
from ctxpact.spec import SPEC_VERSION, JsonObject, JsonValue, compact_json, validate

#: Version of the report format (and of its schema, ``conformance-report``).
REPORT_SCHEMA_VERSION = "1"
_MARK = {
    Outcome.PASS: "pass",
    Outcome.FAIL: "**FAIL**",
    Outcome.SKIP: "skip",
    Outcome.XFAIL: "xfail",
    Outcome.ERROR: "**ERROR**",
}


def suite_version() -> str:
    """The installed ctxpact's version, which is the suite's."""
    try:
        return metadata.version("ctxpact")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0+unknown"


def _result(implementation: str, result: CheckResult) -> JsonObject:
    return {
        "implementation": implementation,
        "checkId": result.check_id,
        "clauses": list(result.clauses),
        "title": result.title,
        "outcome": result.outcome.value,
        "duration": result.duration,
        "message": result.message,
        "counterexample": result.counterexample,
        "clause": result.clause or None,
        "mismatch": (
            None
            if result.mismatch is None
            else {"returned": result.mismatch.returned, "expected": result.mismatch.expected}
        ),
        "location": result.location or None,
    }


def run_document(  # noqa: PLR0913 - every part of the run, all keywords
    reports: Sequence[ConformanceReport],
    *,
    profile: str,
    seed: int | None,
    duration: float,
    interrupted: bool = False,
    not_run: Sequence[tuple[str, str]] = (),
) -> JsonObject:
    """The JSON document of a whole run: header, implementations, one record a check, footer.

    An *interrupted* run (Ctrl-C) says so in its footer and lists in ``notRun`` the
    ``(implementation, check id)`` pairs it did not run. The document validates against the
    ``conformance-report`` schema; this function checks that.
    """
    results: list[JsonValue] = [
        _result(report.implementation.name, result)
        for report in reports
        for result in report.results
    ]
    implementations: list[JsonValue] = [
        {
            "name": report.implementation.name,
            "component": report.implementation.component.value,
            "claims": [
                claim.value for claim in sorted(report.implementation.claims, key=lambda c: c.value)
            ],
            "language": report.implementation.language,
            "version": report.implementation.version,
        }
        for report in reports
    ]
    every = [result for report in reports for result in report.results]
    document: JsonObject = {
        "header": {
            "suite": "ctxpact",
            "suiteVersion": suite_version(),
            "specVersion": SPEC_VERSION,
            "schemaVersion": REPORT_SCHEMA_VERSION,
            "profile": profile,
            "seed": seed,
        },
        "implementations": implementations,
        "results": results,
        "notRun": [
            {"implementation": implementation, "checkId": check_id}
            for implementation, check_id in not_run
        ],
        "footer": {
            "total": len(every),
            **{
                key: sum(r.outcome is outcome for r in every)
                for key, outcome in (
                    ("passed", Outcome.PASS),
                    ("failed", Outcome.FAIL),
                    ("skipped", Outcome.SKIP),
                    ("xfailed", Outcome.XFAIL),
                    ("errored", Outcome.ERROR),
                )
            },
            "duration": round(duration, 3),
            "interrupted": interrupted,
        },
    }
    validate(document, "conformance-report")
    return document


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(reports: Sequence[ConformanceReport]) -> str:
    """A compliance table: one row per check, one column per implementation.

    Below it, every failure with its message and shrunk counterexample, for a maintainer to
    act on.
    """
    reports = [report for report in reports if report.results]  # -k may leave some empty
    names = [report.implementation.name for report in reports]
    lines = [
        "| implementation | component | claims | pass | fail | skip | xfail | error |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for report in reports:
        impl = report.implementation
        claims = ", ".join(sorted(claim.value for claim in impl.claims))
        counts = " | ".join(str(report.count(outcome)) for outcome in Outcome)
        lines.append(f"| `{_cell(impl.name)}` | {impl.component.value} | {claims} | {counts} |")
    check_ids: dict[str, CheckResult] = {}
    for report in reports:
        for result in report.results:
            check_ids.setdefault(result.check_id, result)
    lines += [
        "",
        "| check | clauses | " + " | ".join(f"`{_cell(n)}`" for n in names) + " |",
        "| --- | --- |" + " --- |" * len(names),
    ]
    by_report = [{r.check_id: r for r in report.results} for report in reports]
    for check_id, first in check_ids.items():
        cells = [_MARK[found[check_id].outcome] if check_id in found else "" for found in by_report]
        lines.append(f"| `{check_id}` | {', '.join(first.clauses)} | " + " | ".join(cells) + " |")
    failures = [(report, r) for report in reports for r in report.failures]
    if failures:
        lines += ["", "## Failures", ""]
        for report, result in failures:
            lines += [
                (
                    f"### `{report.implementation.name}`: `{result.check_id}` "
                    f"({', '.join(result.clauses)})"
                ),
                "",
                result.title,
                "",
                "```",
                result.message.strip(),
                "```",
            ]
            if result.clause:
                lines += ["", f"Clause: {result.clause}"]
            if result.mismatch is not None:
                lines += [
                    "",
                    f"Returned: `{_cell(compact_json(result.mismatch.returned))}`",
                    "",
                    f"Expected: `{_cell(compact_json(result.mismatch.expected))}`",
                ]
            if result.counterexample is not None:
                lines += [
                    "",
                    "Counterexample:",
                    "",
                    "```json",
                    compact_json(result.counterexample),
                    "```",
                ]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
