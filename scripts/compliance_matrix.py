# ruff: noqa: INP001 - a script, not a package module
"""Regenerate docs/compliance.md: ctxpact's generic projector checks against every projector.

Rows: ctxpact's reference projectors, the JavaScript example (when ``node`` and
``examples/javascript`` are there, through its harness), and each framework trimmer wrapped
by ``ctxpact.conformance.adapters`` (the installed ones: ``pip install 'ctxpact[frameworks]'``).
Every row is checked against every generic check and pair integrity, whatever it claims,
with the derandomised ``default`` profile, so the same versions give the same document.

Usage: ``python scripts/compliance_matrix.py [--profile NAME] [--output PATH]``.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from ctxpact.conformance import (
    Claim,
    Component,
    ConformanceReport,
    Outcome,
    Target,
    check_target,
    checks_for,
    reference_targets,
)
from ctxpact.conformance.adapters import framework_targets
from ctxpact.spec import PROVIDERS, compact_json

ROOT = Path(__file__).resolve().parent.parent
JAVASCRIPT = ROOT / "examples" / "javascript" / "harness.js"
#: The claims of the matrix's columns. The generic columns are checked with ``generic`` alone
#: (a pair-integrity claim changes what the pinned-prefix and newest-item checks require,
#: PAIR-5); the pair and wire columns with their own claim, for the three providers.
CLAIMS = (Claim.GENERIC, Claim.PAIR_INTEGRITY, Claim.WIRE_VALID)
#: The checks of the matrix, in column order, with a short column label.
COLUMNS = [check for check in checks_for(Component.PROJECTOR) if check.claim in CLAIMS]
#: The generic columns, which one run per target checks.
GENERIC_COLUMNS = {check.id for check in COLUMNS if check.claim is Claim.GENERIC}
GENERIC_KEYWORDS = sorted(GENERIC_COLUMNS)
MARK = {
    Outcome.PASS: "pass",
    Outcome.FAIL: "**FAIL**",
    Outcome.ERROR: "**ERROR**",
    Outcome.SKIP: "skip",
    Outcome.XFAIL: "xfail",
}

#: What a maintainer upstream can act on, for each finding: (row name prefix, check id).
FINDINGS: dict[tuple[str, str], str] = {
    ("ctxpact.reference:", "projector.pair-integrity"): (
        "`DefaultContextProjector` and `TypeAwareContextProjector` claim *generic* and "
        "*exact*, not pair integrity: their item and character stages (PRJ-15, PRJ-20, "
        "PRJ-21) keep the pinned head and the newest tail by position, so they orphan a tool "
        "result exactly where `trim_messages` does. `PairSafeContextProjector` (§5.5) selects "
        "whole units and is the one to use for a prompt."
    ),
    ("ctxpact.reference:", "projector.wire-valid"): (
        "The positional projectors orphan tool results (see their pair-integrity finding), "
        "which every provider rejects; `PairSafeContextProjector` claims wire validity."
    ),
    ("ctxpact-js:", "projector.pair-integrity"): (
        "The JavaScript example ports the reference algorithms exactly, and with them the same "
        "orphaning of the positional projectors (see the reference rows); its "
        "`PairSafeContextProjector` keeps every pair."
    ),
    ("ctxpact-js:", "projector.wire-valid"): (
        "As for the reference rows: the positional projectors do not claim wire validity."
    ),
    ("", "projector.wire-valid"): (
        "The orphaned tool results of the pair-integrity finding are what the providers reject "
        "(WIRE-4, WIRE-8, WIRE-13 and their neighbours): the counterexample names the rule, "
        "the position and the provider's own error text."
    ),
    ('langchain-core:trim_messages(strategy="first")', "projector.pair-integrity"): (
        "`strategy='first'` keeps the oldest messages that fit and cuts anywhere: when the cut "
        "falls after an `AIMessage` with `tool_calls` and before (some of) its `ToolMessage`s, "
        "the kept history ends with calls whose results were dropped, which providers reject "
        "(`tool_calls` must be followed by tool messages). Fix: never end the kept window "
        "between an `AIMessage` with `tool_calls` and its last `ToolMessage`."
    ),
    ("autogen-core:", "projector.newest-item"): (
        "Both contexts drop a leading `FunctionExecutionResultMessage` after taking the window "
        "(to avoid an orphan at its start); with a window of one message that message is the "
        "newest one, so the turn the model must answer is dropped. Take the window after "
        "removing the orphan, not before, or widen it by the messages removed."
    ),
    ("strands-agents:", "projector.pair-integrity"): (
        "The sliding window looks for a cut where the first kept message is not a tool result, "
        "but checks only that message: a tool result whose call lies before the cut, after "
        "another message of the kept window (a user message between a call and its result), "
        "stays without its call. Check every kept `toolResult` against the kept `toolUse`s."
    ),
    ('langchain-core:trim_messages(strategy="last")', "projector.pair-integrity"): (
        "`trim_messages(strategy='last')` keeps the newest messages that fit and cuts "
        "anywhere: when the cut falls between an `AIMessage` with `tool_calls` and its "
        "`ToolMessage`s, the trimmed history starts with a `ToolMessage` whose call is gone, "
        "which providers reject with a 400 error (langchain #33245, #29637). Without "
        "`start_on`, nothing moves the cut. Fix: never start the kept window on a "
        "`ToolMessage` (advance past it, or pull in its `AIMessage`), whatever `start_on` is."
    ),
    ('langchain-core:trim_messages(strategy="last"', "projector.max-items"): (
        "With `include_system=True` the leading `SystemMessage` is kept even when it alone "
        "exceeds `max_tokens` (here `max_tokens=0` with `token_counter=len` returns one "
        "message): the result can be larger than the budget asked for. Either document it or "
        "drop the system message when it does not fit."
    ),
    ('langchain-core:trim_messages(strategy="last"', "projector.newest-item"): (
        "When the newest message alone is larger than `max_tokens`, the result is empty (or "
        "just the system message): the turn the model must answer is dropped. ctxpact keeps "
        "the newest item even over budget (PRJ-11); `allow_partial=True` is LangChain's way "
        "to keep part of it."
    ),
    ('langchain-core:trim_messages(strategy="last"', "projector.pinned-prefix"): (
        "trim_messages can keep only one leading `SystemMessage` (`include_system`); it has "
        "no way to pin the first N messages (for example a system message and a task "
        "statement), so a pinned prefix of a user message or of more than one message is "
        "trimmed like the rest."
    ),
    ('langchain-core:trim_messages(strategy="first")', "projector.pinned-prefix"): (
        "`strategy='first'` keeps a prefix but not a budget-independent one: when the first "
        "message is larger than `max_tokens` the result is empty."
    ),
    ('langchain-core:trim_messages(strategy="first")', "projector.newest-item"): (
        "`strategy='first'` drops the newest messages by design, so the prompt loses the turn "
        "to answer; it suits summarising old history, not building a prompt."
    ),
    (
        'langchain-core:trim_messages(strategy="last", start_on="human"',
        "projector.pair-integrity",
    ): (
        "`start_on='human'` keeps a suffix that starts at a `HumanMessage`, which protects "
        "the front of the window; but a tool result whose call lies before a later human "
        "message (a human or other message interleaved between a call and its results) is "
        "still orphaned. Check the ids of the kept `ToolMessage`s against the kept calls."
    ),
    ("autogen-core:BufferedChatCompletionContext", "projector.pair-integrity"): (
        "`get_messages()` drops a leading `FunctionExecutionResultMessage` with an `if`, "
        "not a `while`: when a step's results are stored as several result messages (one "
        "per call, as Responses-style histories and hand-built contexts do), the second one "
        "stays at the head of the view without its `AssistantMessage`. AutoGen's own agents "
        "store one result message per step, which hides it. Fix: drop every leading result "
        "message, or match results to calls by `call_id`."
    ),
    ("autogen-core:BufferedChatCompletionContext", "projector.pinned-prefix"): (
        "`BufferedChatCompletionContext` keeps only the last `buffer_size` messages: there "
        "is no pinned head (the system message and the task statement are dropped with the "
        "rest). `HeadAndTailChatCompletionContext` is AutoGen's answer."
    ),
    ("autogen-core:HeadAndTailChatCompletionContext", "projector.order-preserving"): (
        "The view carries a message that is not in the history, `UserMessage('Skipped N "
        "messages.', source='System')`: a user-role message the user never wrote, which "
        "also breaks role alternation. Its N counts the head and tail sizes, not the "
        "messages actually left out (the head or tail may drop one more message to avoid "
        "a dangling call or result)."
    ),
    ("autogen-core:HeadAndTailChatCompletionContext", "projector.report"): (
        "Same cause as order-preserving: the inserted placeholder message is not a selection "
        "of the history, so no report of kept and dropped positions can describe the view."
    ),
    ("autogen-core:HeadAndTailChatCompletionContext", "projector.pair-integrity"): (
        "The inserted placeholder stops the check before it can look at pairs; the row "
        "*placeholder left out* below shows what the context keeps otherwise."
    ),
    ("autogen-core:HeadAndTailChatCompletionContext", "projector.max-items"): (
        "The view holds `head_size + tail_size + 1` messages (the placeholder takes a slot), "
        "and `head_size` and `tail_size` must each be at least 1, so a view of at most 1 "
        "message cannot be configured."
    ),
    ("autogen-core:HeadAndTailChatCompletionContext", "projector.pinned-prefix"): (
        "The head drops its last message when that is an `AssistantMessage` of function "
        "calls, even though it is part of the head the user asked to keep; and with "
        "`head_size` < 1 forbidden and `head_size + tail_size` bounded, pinning as many "
        "messages as the whole view is not expressible."
    ),
    ("autogen-core:HeadAndTailChatCompletionContext", "projector.newest-item"): (
        "The tail drops its first message when that is a `FunctionExecutionResultMessage`; "
        "with `tail_size` 1 that message is the newest one, so the view ends without the "
        "result the model has to read."
    ),
    ("strands-agents:SlidingWindowConversationManager", "projector.max-items"): (
        "When no valid trim point exists (no plain user message and no toolUse/toolResult "
        "boundary after `len - window_size`), `reduce_context` logs a warning and keeps "
        "*everything*: the history stays over `window_size` (here 5 messages for a window of "
        "3). Pinned messages (`pin_first`) are also kept on top of the window."
    ),
    ("strands-agents:SlidingWindowConversationManager", "projector.pair-integrity"): (
        "`find_valid_trim_point` checks only the message at the trim point: a plain user "
        "message there is accepted even when a later `toolResult`'s `toolUse` lies before "
        "it. That happens when a step's results are spread over several user messages with "
        "another user message between them; Strands' own event loop puts all results in one "
        "message, which hides it. Fix: reject a trim point when a kept toolResult's "
        "toolUseId is not kept."
    ),
}
INTRO = (
    "Every row was checked against every generic projector check of spec/SPEC.md §5 "
    "(PRJ-1 to PRJ-12, with the report, document and budget clauses they cite), claiming "
    "`generic` alone, and against pair integrity (§1.5: a kept tool result keeps its call, a "
    "kept call its results) and wire validity for the three providers of §1.6 (an input the "
    "provider accepts gives an output it accepts), whatever the implementation claims, "
    "with the derandomised `{profile}` profile of `ctxpact check` (the same versions give "
    "the same document). Each column is one check, headed by the first clause it verifies. "
    "The *claims* column says what each row honestly claims; a failure outside its claims is "
    "a difference from ctxpact's contract, a failure inside them a bug."
)
MAPPING = (
    "Framework rows run the framework's own trimmer through `ctxpact.conformance.adapters`: "
    "each item becomes one framework message (the faithful conversion, or the nearest "
    "message for items the framework has no shape for), the real trimmer runs, and its "
    "survivors are mapped back to the original items. Budget mapping: `trim_messages` gets "
    "`token_counter=len` and `max_tokens=maxItems`, then a counter summing `approx_chars` and "
    "`max_tokens=maxApproxChars`, and `include_system` for a pinned prefix; AutoGen "
    "`buffer_size=maxItems`, `head_size=pinnedPrefixItems`, `tail_size=maxItems-head_size`; "
    "Strands `window_size=maxItems`, `pin_first=pinnedPrefixItems`. The adapters' module "
    "docstrings give the details."
)
UNDESCRIBED = "New finding, not described yet: read the counterexample."


def _description(name: str, check_id: str) -> str:
    for (prefix, finding_check), text in FINDINGS.items():
        if finding_check == check_id and name.startswith(prefix):
            return text
    return UNDESCRIBED


@contextlib.contextmanager
def _javascript_targets() -> Iterator[list[Target]]:
    """The JavaScript example's projectors, through its harness, when node is available."""
    node = shutil.which("node")
    if node is None or not JAVASCRIPT.exists():
        print("skipping the JavaScript example: no node or no examples/javascript")  # noqa: T201
        yield []
        return
    from ctxpact.conformance.harness import HarnessConnection, harness_targets  # noqa: PLC0415

    with HarnessConnection(f"{node} {JAVASCRIPT}") as connection:
        yield [
            target
            for target in harness_targets(connection)
            if target.component is Component.PROJECTOR
        ]


def _row(report: ConformanceReport) -> str:
    found = {result.check_id: result for result in report.results}
    impl = report.implementation
    cells = [MARK[found[check.id].outcome] if check.id in found else "" for check in COLUMNS]
    claims = ", ".join(sorted(claim.value for claim in impl.claims))
    return (
        f"| `{impl.name}` | {impl.language} {impl.version} | {claims} | " + " | ".join(cells) + " |"
    )


def _evidence(message: str, counterexample: object) -> list[str]:
    """The check's message and the counterexample that goes with it, as JSON.

    The counterexample is the failing explicit example when one failed, else the example
    Hypothesis shrank the failure to.
    """
    lines = ["```", message.strip(), "```"]
    if counterexample is not None:
        text = compact_json(counterexample)  # type: ignore[arg-type] # a counterexample is JSON
        lines += ["", "Counterexample:", "", "```json", text, "```"]
    return lines


def render(reports: Sequence[tuple[ConformanceReport, frozenset[Claim]]], profile: str) -> str:
    """The markdown document: the table, then every failure with its counterexample."""
    header = " | ".join(
        f"{check.clauses[0]} `{check.id.removeprefix('projector.')}`" for check in COLUMNS
    )
    lines = [
        "# Compliance matrix: context trimmers against ctxpact's generic projector checks",
        "",
        "<!-- Generated by scripts/compliance_matrix.py; do not edit by hand. -->",
        "",
        INTRO.format(profile=profile),
        "",
        MAPPING,
        "",
        "| implementation | version | claims | " + header + " |",
        "| --- | --- | --- |" + " --- |" * len(COLUMNS),
    ]
    lines += [_row(report) for report, _ in reports]
    failures = [
        (report, result)
        for report, _ in reports
        for result in report.results
        if result.outcome in (Outcome.FAIL, Outcome.ERROR)
    ]
    lines += ["", "## Findings", ""]
    if not failures:
        lines.append("None.")
    for report, result in failures:
        name = report.implementation.name
        lines += [
            f"### `{name}`: `{result.check_id}` ({', '.join(result.clauses)})",
            "",
            _description(name, result.check_id),
            "",
            *_evidence(result.message, result.counterexample),
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the matrix and write the document; return 0 (findings are not errors)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="default", help="quick, default or thorough")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "compliance.md")
    arguments = parser.parse_args(argv)
    started = time.perf_counter()
    reports: list[tuple[ConformanceReport, frozenset[Claim]]] = []  # with the honest claims
    with _javascript_targets() as javascript:
        targets = [
            *(t for t in reference_targets() if t.component is Component.PROJECTOR),
            *javascript,
            *framework_targets(),
        ]
        for target in targets:
            began = time.perf_counter()
            # A target that honestly claims pair integrity is held to PAIR-6 and PAIR-7 in place
            # of PRJ-10 and PRJ-11 (PAIR-5); every other one to the generic rules.
            honest = {Claim.GENERIC} | (target.claims & {Claim.PAIR_INTEGRITY})
            generic = attrs.evolve(target, claims=tuple(honest), expected_failures=())
            generic_report = check_target(
                generic, profile=arguments.profile, keywords=GENERIC_KEYWORDS
            )
            report = generic_report
            results = [r for r in report.results if r.check_id in GENERIC_COLUMNS]
            for claim in (Claim.PAIR_INTEGRITY, Claim.WIRE_VALID):
                claimed = attrs.evolve(
                    target,
                    claims=(Claim.GENERIC, claim),
                    options={**target.options, "providers": PROVIDERS},
                    expected_failures=(),
                )
                keyword = claim.value
                results += check_target(
                    claimed, profile=arguments.profile, keywords=[f"projector.{keyword}"]
                ).results
            report = attrs.evolve(
                report, implementation=target.implementation, results=tuple(results)
            )
            reports.append((report, target.claims))
            failed = len(report.failures)
            print(  # noqa: T201
                f"{target.name}: {failed} finding(s) in {time.perf_counter() - began:.1f}s"
            )
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text(render(reports, arguments.profile), encoding="utf-8")
    print(f"wrote {arguments.output} in {time.perf_counter() - started:.1f}s")  # noqa: T201
    return 0


if __name__ == "__main__":
    sys.exit(main())
