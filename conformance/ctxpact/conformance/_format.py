"""Reports for a person: failures grouped by cause, each counterexample once (SUITE-8).

Checks that failed with the same message at the same place form one block that names them
all, with the error once. When one check found that a method returned the wrong type, the
checks that then crashed on that value inside the suite (an ``AttributeError`` or
``TypeError`` on the same type, raised by the suite's code rather than the implementation's)
are folded into that check's block. Each block shows the clause that broke, what the
implementation returned beside what the clause expected, the implementation's own frame for
an exception, and the counterexample as one line of JSON.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from ctxpact.conformance._model import CheckResult, ConformanceReport, Outcome
from ctxpact.spec import JsonValue

_RED, _GREEN, _YELLOW, _BOLD, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[1m", "\x1b[0m"
_COLOURS = {
    Outcome.PASS: _GREEN,
    Outcome.FAIL: _RED,
    Outcome.ERROR: _RED,
    Outcome.SKIP: _YELLOW,
    Outcome.XFAIL: _YELLOW,
}
#: The outcomes in the order of the counts line, with their words.
COUNTED = (
    (Outcome.PASS, "passed"),
    (Outcome.FAIL, "failed"),
    (Outcome.SKIP, "skipped"),
    (Outcome.XFAIL, "xfailed"),
    (Outcome.ERROR, "errored"),
)
#: How a check says a method returned the wrong type, and how a crash on that value reads.
_WRONG_TYPE = re.compile(r"(?:returned an? |but got |, got an? )(?P<type>[A-Za-z_]\w*)\b")
_CRASH = re.compile(r"^(?:AttributeError|TypeError): .*'(?P<type>[A-Za-z_]\w*)' object")


def paint(text: str, outcome: Outcome, *, color: bool) -> str:
    """*text* in the colour of *outcome*, when *color*."""
    return f"{_BOLD}{_COLOURS[outcome]}{text}{_RESET}" if color else text


def json_text(value: JsonValue) -> str:
    """One line of JSON for a counterexample or a returned value, nothing cut."""
    return json.dumps(value, ensure_ascii=False)


def counts(results: Sequence[CheckResult], *, color: bool = False) -> str:
    """``3 passed, 1 failed, ...`` for *results*, each non-zero count in its colour."""
    parts = []
    for outcome, word in COUNTED:
        number = sum(r.outcome is outcome for r in results)
        parts.append(paint(f"{number} {word}", outcome, color=color and number > 0))
    return ", ".join(parts)


def _evidence(result: CheckResult) -> list[str]:
    lines = []
    if result.clause:
        others = [c for c in result.clauses if c != result.clause]
        cited = f" (the check also cites {', '.join(others)})" if others else ""
        lines.append(f"clause: {result.clause}{cited}")
    elif result.clauses:
        lines.append(f"clauses: {', '.join(result.clauses)}")
    if result.mismatch is not None:
        lines.append(f"returned: {json_text(result.mismatch.returned)}")
        lines.append(f"expected: {json_text(result.mismatch.expected)}")
    if result.location:
        lines.append(f"at {result.location}")
    return lines


def format_result(result: CheckResult, *, color: bool = False, name: str = "") -> str:
    """One result's block: outcome, check, title, message, evidence and counterexample."""
    label = paint(result.outcome.value.upper(), result.outcome, color=color)
    lines = [f"{label} {result.check_id}{f' ({name})' if name else ''}: {result.title}"]
    lines += [f"  {line}" for line in result.message.strip().splitlines()]
    lines += [f"  {line}" for line in _evidence(result)]
    if result.counterexample is not None:
        lines.append(f"  counterexample: {json_text(result.counterexample)}")
    return "\n".join(lines)


def _group_block(group: Sequence[CheckResult], *, color: bool) -> str:
    first = group[0]
    label = paint(first.outcome.value.upper(), first.outcome, color=color)
    ids = ", ".join(result.check_id for result in group)
    lines = [f"{label} {len(group)} checks with the same error: {ids}"]
    lines += [f"  {line}" for line in first.message.strip().splitlines()]
    if first.location:
        lines.append(f"  at {first.location}")
    shown = next((r for r in group if r.counterexample is not None), None)
    if shown is not None:
        lines.append(f"  counterexample (of {shown.check_id}): {json_text(shown.counterexample)}")
    return "\n".join(lines)


def groups(failures: Sequence[CheckResult]) -> list[list[CheckResult]]:
    """*failures* grouped by the same outcome, message and location, in first-seen order."""
    grouped: dict[tuple[Outcome, str, str], list[CheckResult]] = {}
    for result in failures:
        key = (result.outcome, result.message.strip(), result.location)
        grouped.setdefault(key, []).append(result)
    return list(grouped.values())


def _folded(
    blocks: list[list[CheckResult]],
) -> list[tuple[list[CheckResult], list[list[CheckResult]]]]:
    """Each block with the crash blocks folded into it (a wrong type and its consequences)."""
    wrong: dict[str, int] = {}
    for index, block in enumerate(blocks):
        head = block[0]
        match = _WRONG_TYPE.search(head.message) if not head.location else None
        if match is not None and head.outcome is Outcome.FAIL:
            wrong.setdefault(match["type"], index)
    folded: dict[int, list[list[CheckResult]]] = {}
    kept: list[int] = []
    for index, block in enumerate(blocks):
        crash = _CRASH.match(block[0].message.strip())
        owner = wrong.get(crash["type"]) if crash and not block[0].location else None
        if owner is not None and owner != index:
            folded.setdefault(owner, []).append(block)
        else:
            kept.append(index)
    return [(blocks[index], folded.get(index, [])) for index in kept]


def failure_blocks(report: ConformanceReport, *, color: bool = False) -> list[str]:
    """The failures and errors of *report*, grouped (see the module's docstring)."""
    texts = []
    for block, consequences in _folded(groups(report.failures)):
        text = (
            format_result(block[0], color=color)
            if len(block) == 1
            else _group_block(block, color=color)
        )
        if consequences:
            crashed = [r for group in consequences for r in group]
            errors = sorted({group[0].message.strip().splitlines()[0] for group in consequences})
            text += (
                f"\n  {len(crashed)} more checks failed on the same wrong value: "
                f"{', '.join(r.check_id for r in crashed)} ({'; '.join(errors)})"
            )
        texts.append(text)
    return texts


def header(report: ConformanceReport) -> str:
    """``name (component; claims: ...)``."""
    implementation = report.implementation
    claims = ", ".join(sorted(claim.value for claim in implementation.claims))
    return f"{implementation.name} ({implementation.component.value}; claims: {claims})"


def interruption(report: ConformanceReport) -> str:
    """What an interrupted run did not run, or ``""``."""
    if not report.interrupted:
        return ""
    listed = ", ".join(report.not_run)
    return f"interrupted: {len(report.not_run)} checks did not run" + (
        f": {listed}" if listed else ""
    )


def format_report(report: ConformanceReport, *, color: bool = False) -> str:
    """The whole report of one implementation (``str(report)``, ``report.format()``)."""
    parts = [header(report), *failure_blocks(report, color=color)]
    stopped = interruption(report)
    if stopped:
        parts.append(stopped)
    parts.append(counts(report.results, color=color))
    return "\n\n".join(parts) + "\n"
