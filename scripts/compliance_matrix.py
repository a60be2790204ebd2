# ruff: noqa: INP001 - a script, not a package module
"""Regenerate docs/compliance.md: ctxpact's generic checks against context trimmers and compactors.

Rows: ctxpact's reference projectors and compact policies, the JavaScript example's projectors
(through its harness), and every framework trimmer and summarizer wrapped by
``ctxpact.conformance.adapters`` (``pip install 'ctxpact[frameworks]'``). Every row is checked
against every generic check of its component, pair integrity and wire validity, whatever it
claims, with the derandomised ``default`` profile and no time or shrink limit (SUITE-13), so
the same versions give the same bytes on any machine.

The run is recorded in docs/compliance.json (each row's outcomes, messages and
counterexamples) and the document is rendered from that record alone, so a test can check
the committed document against the committed record cheaply, and CI regenerates both and
checks that nothing changed.

Usage: ``python scripts/compliance_matrix.py [--profile NAME] [--output PATH] [--record PATH]``;
``--render-only`` renders the document from the record without running anything. Semantic
Kernel lives in an environment of its own (it pins an older pydantic than the others):
``--environment semantic-kernel``, run there, records its rows in
docs/compliance-semantic-kernel.json, which the main run merges. A row that
cannot be run (node or a framework missing) is an error: a partial matrix is never written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import shutil
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from ctxpact.conformance import (
    OPTIONS,
    Claim,
    Component,
    ConformanceReport,
    Outcome,
    Target,
    check_target,
    checks_for,
    reference_targets,
)
from ctxpact.conformance.adapters import (
    FRAMEWORK_MODULES,
    SEPARATE_EXTRAS,
    UNAVAILABLE_FRAMEWORKS,
    framework_targets,
    unexpressible_fields,
)
from ctxpact.spec import PROVIDERS, JsonValue, compact_json

ROOT = Path(__file__).resolve().parent.parent
JAVASCRIPT = ROOT / "examples" / "javascript" / "harness.js"
#: The claims of the matrix's columns. The generic columns are checked with ``generic`` alone
#: (a pair-integrity claim changes what the pinned-prefix and newest-item checks require,
#: PAIR-5); the pair and wire columns with their own claim, for the three providers.
CLAIMS = (Claim.GENERIC, Claim.PAIR_INTEGRITY, Claim.WIRE_VALID)
#: The components with a table, in document order, with the table's heading.
TABLES = {
    Component.PROJECTOR: "Projectors: what this turn's prompt carries",
    Component.COMPACT_POLICY: "Compact policies: what the memory becomes",
}
#: The checks of each table, in column order.
COLUMNS = {
    component: [check for check in checks_for(component) if check.claim in CLAIMS]
    for component in TABLES
}
#: The check that tests each budget field a framework may be unable to express.
FIELD_CHECKS = {"pinnedPrefixItems": "projector.pinned-prefix", "maxItems": "projector.max-items"}
#: The tier checks that apply to a Tier-1 peer (a projector that clears old tool results in
#: place, whatever its placeholder text): only tool results change, a second pass changes
#: nothing, and which results are cleared and how (ctxpact's placeholder text included).
TIER_CHECKS = (
    "projector.exact.tier-purity",
    "projector.exact.idempotence",
    "projector.exact.placeholders",
)
TIER_HEADING = "Tier-1 peers: the tier checks that apply"
NOT_EXPRESSIBLE = "not expressible"
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
        "between an `AIMessage` with `tool_calls` and its last `ToolMessage`. Reproduced by "
        "docs/findings/langchain_trim_messages.py."
    ),
    ("autogen-core:", "projector.newest-item"): (
        "Both contexts drop a leading `FunctionExecutionResultMessage` after taking the window "
        "(to avoid an orphan at its start); with a window of one message that message is the "
        "newest one, so the turn the model must answer is dropped. Take the window after "
        "removing the orphan, not before, or widen it by the messages removed. Reproduced by "
        "docs/findings/autogen_contexts.py."
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
        "`ToolMessage` (advance past it, or pull in its `AIMessage`), whatever `start_on` is. "
        "Reproduced by docs/findings/langchain_trim_messages.py."
    ),
    ('langchain-core:trim_messages(strategy="last"', "projector.max-items"): (
        "With `include_system=True` the leading `SystemMessage` is kept even when it alone "
        "exceeds `max_tokens` (here `max_tokens=0` with `token_counter=len` returns one "
        "message): the result can be larger than the budget asked for. Either document it or "
        "drop the system message when it does not fit. Reproduced by "
        "docs/findings/langchain_trim_messages.py."
    ),
    ('langchain-core:trim_messages(strategy="last"', "projector.newest-item"): (
        "When the newest message alone is larger than `max_tokens`, the result is empty (or "
        "just the system message): the turn the model must answer is dropped. ctxpact keeps "
        "the newest item even over budget (PRJ-11); `allow_partial=True` is LangChain's way "
        "to keep part of it. Reproduced by docs/findings/langchain_trim_messages.py."
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
        "still orphaned. Check the ids of the kept `ToolMessage`s against the kept calls. "
        "Reproduced by docs/findings/langchain_trim_messages.py."
    ),
    ("autogen-core:BufferedChatCompletionContext", "projector.pair-integrity"): (
        "`get_messages()` drops a leading `FunctionExecutionResultMessage` with an `if`, "
        "not a `while`: when a step's results are stored as several result messages (one "
        "per call, as Responses-style histories and hand-built contexts do), the second one "
        "stays at the head of the view without its `AssistantMessage`. AutoGen's own agents "
        "store one result message per step, which hides it. Fix: drop every leading result "
        "message, or match results to calls by `call_id`. The same index-0-only clean-up is "
        "microsoft/autogen#7955 (TokenLimitedChatCompletionContext, open). Reproduced by "
        "docs/findings/autogen_contexts.py."
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
        "a dangling call or result). Reproduced by docs/findings/autogen_contexts.py."
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
        "messages as the whole view is not expressible. Reproduced by "
        "docs/findings/autogen_contexts.py."
    ),
    ("autogen-core:HeadAndTailChatCompletionContext", "projector.newest-item"): (
        "The tail drops its first message when that is a `FunctionExecutionResultMessage`; "
        "with `tail_size` 1 that message is the newest one, so the view ends without the "
        "result the model has to read."
    ),
    ("", "compaction.wire-valid"): (
        "The tool results the compaction kept without their calls (its pair-integrity "
        "finding) are what the providers reject: the counterexample names the rule, the "
        "position and the provider's own error text."
    ),
    ("langchain:SummarizationMiddleware (kept verbatim)", "projector.max-items"): (
        "Documented behaviour, a difference from ctxpact's contract: `keep=('messages', N)` is "
        "a target, not a bound. When the cut lands on a `ToolMessage`, "
        "`_find_safe_cutoff_point` moves it back to the `AIMessage` of the call, so more than "
        "N messages are kept (the class docstring: 'ensuring AI/Tool message pairs remain "
        "together'); `maxItems` is a bound (PRJ-9). Reproduced by "
        "docs/findings/langchain_middleware.py (`summarization_keep_is_not_a_bound`)."
    ),
    ("langchain:SummarizationMiddleware (kept verbatim)", "projector.pair-integrity"): (
        "A user message carrying two tool results is, to LangChain, one `HumanMessage` (a "
        "`ToolMessage` holds one result), and the middleware may cut right after the calls "
        "it answers. With LangChain's own shapes the cut orphans results too: when one step's "
        "calls sit in several `AIMessage`s, `_find_safe_cutoff_point` stops at the first "
        "`AIMessage` whose ids intersect the cut's and leaves the results of the earlier ones "
        "without their calls: a bug, langchain-ai/langchain#38352 (open; PRs #38423, #38424, "
        "#38449 walk back until every id is covered). Reproduced by "
        "docs/findings/langchain_middleware.py (`summarization_orphans_results_of_earlier_calls`)."
    ),
    ("langchain:SummarizationMiddleware(", "compaction.pair-integrity"): (
        "A bug, langchain-ai/langchain#38352 (open): when the cut lands on a run of "
        "`ToolMessage`s whose calls sit in several `AIMessage`s (one call per model turn, as "
        "Responses-style histories have them), `_find_safe_cutoff_point` moves the cut back "
        "to the nearest `AIMessage` holding *any* of the run's ids, and the calls before it "
        "are summarized while their results stay. The next request is a 400 (`No tool call "
        "found for function call output`), on every later turn once the history is saved. "
        "Fix: keep walking back until every id of the run is covered (PRs #38423, #38424, "
        "#38449). Reproduced by docs/findings/langchain_middleware.py."
    ),
    ("langchain:ContextEditingMiddleware", "projector.exact.placeholders"): (
        "A difference from ctxpact's contract, not a bug: `ClearToolUsesEdit` replaces an old "
        "result with one fixed text, `[cleared]`, where Tier-1's label names the call "
        "(`[tool result cleared: read(call-1)]`, T1-4, T1-6), so a model can tell which result "
        "it lost and ask again. The check stops at the first difference; the edit also skips a "
        "result whose call is not in the nearest earlier `AIMessage` (a bug, no upstream issue "
        "found: docs/findings/langchain_middleware.py, "
        "`clear_tool_uses_reads_only_the_nearest_ai_message`). Only tool results change and a "
        "second pass changes nothing (tier-purity and idempotence pass)."
    ),
    ("openai-agents:", "projector.newest-item"): (
        "A limitation: `limit` counts stored items, and since the fix of "
        "openai/openai-agents-python#4322 (PR #4324) the SDK removes from the model input an "
        "output whose call fell outside the window. With `limit=1` on a history that ends "
        "with a `function_call_output` the model sees no history at all, not even the result "
        "it has to read. Valid for the provider, but the newest result is lost; widening the "
        "window back to the call would keep the pair. Reproduced by "
        "docs/findings/openai_agents.py (`limit_drops_the_newest_tool_output`)."
    ),
    ("openai-agents:", "projector.pair-integrity"): (
        "A difference of scope, not a bug: the SDK's clean-up of a limited window reads the "
        "Responses shapes it stores (`function_call`, `function_call_output`) and prunes them "
        "pair-safely (docs/findings/openai_agents.py, "
        "`limit_keeps_pairs_in_the_responses_shape`); Chat tool messages and Anthropic "
        "`tool_result` parts in a session are not its format, and the window cuts through them."
    ),
    ("strands-agents:SummarizingConversationManager", "compaction.pair-integrity"): (
        "A difference from ctxpact's units (PAIR-3): a Responses reasoning item belongs with "
        "the call after it, but Strands keeps reasoning inside the assistant message of its "
        "`toolUse`, so a history with reasoning as its own message (as the presentation of a "
        "Responses item gives it) can be cut between the two. Strands' own histories do not "
        "reach it."
    ),
    ("strands-agents:SummarizingConversationManager", "compaction.wire-valid"): (
        "A limitation: `adjust_split_point_for_tool_pairs` accepts a split at a `toolUse` "
        "message when the next message holds some `toolResult`, without checking that the "
        "kept results belong to kept uses. With one step's calls in two assistant messages "
        "(a history converted from the Responses API) the split falls between them and the "
        "first call's result stays without it. Strands' own loop puts a step's uses in one "
        "message, and Bedrock requires alternating roles, so its own histories do not reach "
        "it. Fix: accept a split only when every `toolResult` after it has its `toolUse` "
        "after it. No upstream issue found. Reproduced by docs/findings/strands_summarizing.py."
    ),
    ("semantic-kernel:ChatHistoryTruncationReducer", "projector.max-items"): (
        "Documented behaviour, a difference from ctxpact's contract: `target_count` is a "
        "target. `locate_safe_reduction_index` moves the cut back so that a function call "
        "and its result are never separated, so more than `target_count` messages can be "
        "kept; `maxItems` is a bound (PRJ-9), and a pair-safe projector drops such a pair "
        "whole instead (PAIR-6). Reproduced by docs/findings/sk_history_reducers.py."
    ),
    ("semantic-kernel:ChatHistorySummarizationReducer", "compaction.pair-integrity"): (
        "A difference from ctxpact's units (PAIR-3), as for Strands: a Responses reasoning "
        "item belongs with the call after it, but Semantic Kernel keeps reasoning inside the "
        "assistant message of its call, so a history with reasoning as its own message (as "
        "the presentation of a Responses item gives it) can be cut between the two. Its own "
        "histories do not reach it; calls and results themselves stay paired."
    ),
    ("strands-agents:SlidingWindowConversationManager", "projector.max-items"): (
        "When no valid trim point exists (no plain user message and no toolUse/toolResult "
        "boundary after `len - window_size`), `reduce_context` logs a warning and keeps "
        "*everything*: the history stays over `window_size` (here 5 messages for a window of "
        "3). Pinned messages (`pin_first`) are also kept on top of the window. Reproduced by "
        "docs/findings/strands_sliding_window.py."
    ),
    ("strands-agents:SlidingWindowConversationManager", "projector.pair-integrity"): (
        "`find_valid_trim_point` checks only the message at the trim point: a plain user "
        "message there is accepted even when a later `toolResult`'s `toolUse` lies before "
        "it. That happens when a step's results are spread over several user messages with "
        "another user message between them; Strands' own event loop puts all results in one "
        "message, which hides it. Fix: reject a trim point when a kept toolResult's "
        "toolUseId is not kept. Related: strands-agents/harness-sdk#2173 and #2174 (the "
        "trim-point fallback for tool-heavy histories). Reproduced by "
        "docs/findings/strands_sliding_window.py."
    ),
}
INTRO = (
    "Every row was checked against every generic check of its component (spec/SPEC.md §5 for "
    "a projector, §8 for a compact policy, with the report, document and budget clauses they "
    "cite), claiming `generic` alone, and against pair integrity (§1.5: a kept tool result "
    "keeps its call, a kept call its results) and wire validity for the three providers of "
    "§1.6 (an input the provider accepts gives an output it accepts), whatever the "
    "implementation claims, with the derandomised `{profile}` profile of `ctxpact check` and "
    "no time or shrink limit (SUITE-13): the same versions give the same document on any "
    "machine. Each column is one check, headed by the first clause it verifies. The *claims* "
    "column says what each row honestly claims; a failure outside its claims is a difference "
    "from ctxpact's contract, a failure inside them a bug. A budget field the framework has "
    "no setting for is listed under *not expressible*, and the check about that field reads "
    "*not expressible* instead of a failure that would only be the adapter's."
)
MAPPING = (
    "Framework rows run the framework's own code through `ctxpact.conformance.adapters`: "
    "each item becomes one framework message (the faithful conversion, or the nearest "
    "message for items the framework has no shape for), the real trimmer or summarizer "
    "runs, and what it keeps is mapped back to the original items. The adapters' module "
    "docstrings give each budget mapping; the notes of each projection repeat the call made. "
    "Findings that need a hand-built history are reproduced with the framework's own API, "
    "without ctxpact, by the scripts under docs/findings/ (run by tests/test_findings.py). "
    "Semantic Kernel's rows are recorded in an environment of its own "
    "(docs/compliance-semantic-kernel.json) and merged."
)
UNDESCRIBED = "New finding, not described yet: read the counterexample."


def _description(name: str, check_id: str) -> str:
    for (prefix, finding_check), text in FINDINGS.items():
        if finding_check == check_id and name.startswith(prefix):
            return text
    return UNDESCRIBED


@contextlib.contextmanager
def _javascript_targets() -> Iterator[list[Target]]:
    """The JavaScript example's projectors, through its harness."""
    node = shutil.which("node")
    if node is None or not JAVASCRIPT.exists():
        raise SystemExit("the matrix needs node and examples/javascript for its JavaScript rows")
    from ctxpact.conformance.harness import HarnessConnection, harness_targets  # noqa: PLC0415

    with HarnessConnection(f"{node} {JAVASCRIPT}") as connection:
        yield [
            target
            for target in harness_targets(connection)
            if target.component is Component.PROJECTOR
        ]


# -- the record -----------------------------------------------------------------------------


def _cell(result: Any) -> dict[str, JsonValue]:  # noqa: ANN401 - a CheckResult
    cell: dict[str, JsonValue] = {"outcome": result.outcome.value}
    if result.outcome in (Outcome.FAIL, Outcome.ERROR):
        cell["clauses"] = list(result.clauses)
        cell["message"] = result.message.strip()
        cell["counterexample"] = result.counterexample
    return cell


def record_row(report: ConformanceReport, target: Target) -> dict[str, JsonValue]:
    """One row of the record: the implementation, its honest claims, each check's outcome."""
    impl = report.implementation
    return {
        "component": impl.component.value,
        "name": impl.name,
        "language": impl.language,
        "version": impl.version,
        "claims": [claim.value for claim in sorted(target.claims, key=lambda c: c.value)],
        "notExpressible": dict(unexpressible_fields(target)),
        "tier1Peer": _tier1_peer(target),
        "results": {result.check_id: _cell(result) for result in report.results},
    }


def _tier1_peer(target: Target) -> bool:
    """Whether *target* gets the tier checks: a framework's Tier-1 peer, or the reference's.

    The reference's tiered projector is the row to compare the peers with.
    """
    if target.name == "ctxpact.reference:TypeAwareContextProjector":
        return True
    if target.component is not Component.PROJECTOR or target.name.startswith("ctxpact"):
        return False
    return bool(getattr(target.factory(), "tier1_peer", False))


def _check_row(target: Target, profile: str) -> ConformanceReport:
    """Every matrix column of *target*'s component, each check under the claim it belongs to."""
    columns = COLUMNS[target.component]
    generic_ids = sorted(check.id for check in columns if check.claim is Claim.GENERIC)
    # A target that honestly claims pair integrity is held to PAIR-6 and PAIR-7 in place of
    # PRJ-10 and PRJ-11 (PAIR-5); every other one to the generic rules.
    honest = {Claim.GENERIC} | (target.claims & {Claim.PAIR_INTEGRITY})
    generic = attrs.evolve(
        target, claims=tuple(honest), expected_failures=(), options=_options(target, honest)
    )
    report = check_target(generic, profile=profile, keywords=generic_ids, timeout=math.inf)
    results = list(report.results)
    for claim in (Claim.PAIR_INTEGRITY, Claim.WIRE_VALID):
        claimed_checks = [check.id for check in columns if check.claim is claim]
        claims = {Claim.GENERIC, claim}
        options = {**_options(target, claims), "providers": PROVIDERS}
        if claim is not Claim.WIRE_VALID:
            options.pop("providers")
        claimed = attrs.evolve(target, claims=tuple(claims), options=options, expected_failures=())
        results += check_target(
            claimed, profile=profile, keywords=claimed_checks, timeout=math.inf
        ).results
    if _tier1_peer(target):
        tiered = attrs.evolve(
            target,
            claims=(Claim.GENERIC, Claim.EXACT),
            options=_options(target, {Claim.GENERIC, Claim.EXACT}),
            expected_failures=(),
        )
        results += check_target(
            tiered, profile=profile, keywords=list(TIER_CHECKS), timeout=math.inf
        ).results
    return attrs.evolve(report, implementation=target.implementation, results=tuple(results))


def _options(target: Target, claims: set[Claim]) -> dict[str, Any]:
    """The target's options that the checks of *claims* read (SUITE-3 refuses the others)."""
    read = {
        spec.key for spec in OPTIONS if spec.component is target.component and spec.claims & claims
    }
    return {key: value for key, value in target.options.items() if key in read}


def _run_rows(targets: list[Target], profile: str) -> list[JsonValue]:
    rows: list[JsonValue] = []
    for target in targets:
        began = time.perf_counter()
        report = _check_row(target, profile)
        rows.append(record_row(report, target))
        print(  # noqa: T201
            f"{target.name}: {len(report.failures)} finding(s) in "
            f"{time.perf_counter() - began:.1f}s"
        )
    return rows


def separate_record(extra: str) -> Path:
    """Where the rows of a framework installed in its own environment are recorded."""
    return ROOT / "docs" / f"compliance-{extra}.json"


def run(profile: str) -> dict[str, JsonValue]:
    """Run every row of this environment, merge the separately recorded ones, return the record.

    The frameworks of :data:`SEPARATE_EXTRAS` are recorded by ``--environment EXTRA`` in
    their own environment; their record must be there (CI writes it first).
    """
    main_extras = set(FRAMEWORK_MODULES) - SEPARATE_EXTRAS
    with _javascript_targets() as javascript:
        targets = [
            *(t for t in reference_targets() if t.component in TABLES),
            *javascript,
            *framework_targets(required=True, extras=main_extras),
        ]
        rows = _run_rows(targets, profile)
    for extra in sorted(SEPARATE_EXTRAS):
        path = separate_record(extra)
        if not path.exists():
            raise SystemExit(f"{path.name} is missing: run --environment {extra} first")
        separate = json.loads(path.read_text(encoding="utf-8"))
        if separate["profile"] != profile:
            raise SystemExit(f"{path.name} was recorded with profile {separate['profile']}")
        rows += separate["rows"]
    order = [component.value for component in TABLES]
    rows.sort(key=lambda row: order.index(str(row["component"])))  # type: ignore[index,call-overload]
    unavailable: list[JsonValue] = [
        {"name": name, "reason": reason} for name, reason in UNAVAILABLE_FRAMEWORKS.items()
    ]
    return {"profile": profile, "rows": rows, "unavailable": unavailable}


def run_separate(extra: str, profile: str) -> dict[str, JsonValue]:
    """The rows of one framework of :data:`SEPARATE_EXTRAS`, in its own environment."""
    targets = list(framework_targets(required=True, extras={extra}))
    return {"profile": profile, "rows": _run_rows(targets, profile)}


# -- the document ---------------------------------------------------------------------------


def _mark(row: dict[str, Any], check_id: str) -> str:
    cell = row["results"].get(check_id)
    if cell is None:
        return ""
    outcome = Outcome(cell["outcome"])
    field = next((f for f, c in FIELD_CHECKS.items() if c == check_id), None)
    if outcome is Outcome.FAIL and field in row["notExpressible"]:
        return NOT_EXPRESSIBLE
    return MARK[outcome]


def _row_line(row: dict[str, Any], columns: Sequence[Any]) -> str:
    cells = [_mark(row, check.id) for check in columns]
    unexpressed = ", ".join(f"`{name}`" for name in row["notExpressible"]) or "—"
    return (
        f"| `{row['name']}` | {row['language']} {row['version']} | {', '.join(row['claims'])} "
        f"| {unexpressed} | " + " | ".join(cells) + " |"
    )


def _evidence(message: str, counterexample: JsonValue) -> list[str]:
    """The check's message and the counterexample that goes with it, as JSON.

    The counterexample is the failing explicit example when one failed, else the example
    Hypothesis shrank the failure to.
    """
    lines = ["```", message, "```"]
    if counterexample is not None:
        lines += ["", "Counterexample:", "", "```json", compact_json(counterexample), "```"]
    return lines


def _prefix(component: Component) -> str:
    return "projector." if component is Component.PROJECTOR else "compaction."


def render(record: dict[str, Any]) -> str:
    """The markdown document: one table per component, then every finding with its evidence."""
    lines = [
        "# Compliance matrix: context trimmers and compactors against ctxpact's generic checks",
        "",
        (
            "<!-- Generated by scripts/compliance_matrix.py from docs/compliance.json; "
            "do not edit by hand. -->"
        ),
        "",
        INTRO.format(profile=record["profile"]),
        "",
        MAPPING,
    ]
    rows = record["rows"]
    for component, heading in TABLES.items():
        columns = COLUMNS[component]
        header = " | ".join(
            f"{check.clauses[0]} `{check.id.removeprefix(_prefix(component))}`" for check in columns
        )
        lines += [
            "",
            f"## {heading}",
            "",
            "| implementation | version | claims | not expressible | " + header + " |",
            "| --- | --- | --- | --- |" + " --- |" * len(columns),
        ]
        lines += [_row_line(row, columns) for row in rows if row["component"] == component.value]
    tiered = [row for row in rows if row.get("tier1Peer")]
    if tiered:
        checks = {check.id: check for check in checks_for(Component.PROJECTOR)}
        columns = [checks[check_id] for check_id in TIER_CHECKS]
        header = " | ".join(
            f"{check.clauses[0]} `{check.id.removeprefix('projector.exact.')}`" for check in columns
        )
        lines += [
            "",
            f"## {TIER_HEADING}",
            "",
            "| implementation | version | " + header + " |",
            "| --- | --- |" + " --- |" * len(columns),
        ]
        lines += [
            f"| `{row['name']}` | {row['language']} {row['version']} | "
            + " | ".join(_mark(row, check.id) for check in columns)
            + " |"
            for row in tiered
        ]
    if record["unavailable"]:
        lines += ["", "## Not checked", ""]
        lines += [f"- **{entry['name']}**: {entry['reason']}." for entry in record["unavailable"]]
    lines += ["", "## Findings", ""]
    found = False
    for row in rows:
        for check_id, cell in row["results"].items():
            if cell["outcome"] not in (Outcome.FAIL.value, Outcome.ERROR.value):
                continue
            found = True
            field = next((f for f, c in FIELD_CHECKS.items() if c == check_id), None)
            title = f"### `{row['name']}`: `{check_id}` ({', '.join(cell['clauses'])})"
            if cell["outcome"] == Outcome.FAIL.value and field in row["notExpressible"]:
                reason = row["notExpressible"][field]
                lines += [title, "", f"{NOT_EXPRESSIBLE}: `{field}`: {reason}.", ""]
                continue
            lines += [
                title,
                "",
                _description(row["name"], check_id),
                "",
                *_evidence(cell["message"], cell["counterexample"]),
                "",
            ]
    if not found:
        lines.append("None.")
    return "\n".join(lines).rstrip() + "\n"


def write_record(record: dict[str, JsonValue], path: Path) -> None:
    """The record as JSON text that is the same bytes for the same record."""
    text = json.dumps(record, ensure_ascii=False, indent=1, sort_keys=False)
    path.write_text(text + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the matrix (or only render it) and write the record and the document."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="default", help="quick, default or thorough")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "compliance.md")
    parser.add_argument("--record", type=Path, default=ROOT / "docs" / "compliance.json")
    parser.add_argument(
        "--render-only", action="store_true", help="render the document from the record"
    )
    parser.add_argument(
        "--environment",
        choices=sorted(SEPARATE_EXTRAS),
        help="record only this framework's rows (in the environment that has it installed)",
    )
    arguments = parser.parse_args(argv)
    started = time.perf_counter()
    if arguments.environment is not None:
        path = separate_record(arguments.environment)
        write_record(run_separate(arguments.environment, arguments.profile), path)
        print(f"wrote {path.name} in {time.perf_counter() - started:.1f}s")  # noqa: T201
        return 0
    if arguments.render_only:
        record = json.loads(arguments.record.read_text(encoding="utf-8"))
    else:
        record = run(arguments.profile)
        arguments.record.parent.mkdir(parents=True, exist_ok=True)
        write_record(record, arguments.record)
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text(render(record), encoding="utf-8")
    print(f"wrote {arguments.output.name} in {time.perf_counter() - started:.1f}s")  # noqa: T201
    return 0


if __name__ == "__main__":
    sys.exit(main())
