"""The compaction checks catch deliberately wrong policies, each for the reason it is wrong.

Every member of the zoo breaks one clause in one small way and names the check that must
catch it, with a phrase of the failure message. ``Reassembled`` is the reference LLM policy
rebuilt from the reference's public pieces with one method per rule, so that each wrong
policy overrides exactly one of them; a control test shows the reassembly itself passes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import pytest
from attrs import evolve, frozen

from ctxpact.conformance import (
    Claim,
    Component,
    Outcome,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance.checks import compaction
from ctxpact.conformance.checks._compaction_support import ScriptedModelClient
from ctxpact.conformance.vectors import vectors_for
from ctxpact.reference.compaction import (
    COMPACT_SUMMARY_MARKER,
    SUMMARIZER_SYSTEM_PROMPT,
    SUMMARY_UNAVAILABLE,
    LlmCompactPolicy,
    StructuredSummaryCompactPolicy,
    extract_file_operations,
    find_turn_boundary_cut,
    parse_structured_summary,
    read_file_sections,
    render_structured_summary,
    summary_request_content,
    tool_name_words,
)
from ctxpact.reference.projection import DefaultContextProjector
from ctxpact.spec import (
    PROVIDERS,
    CompactResult,
    ContextBudget,
    ContextProjection,
    JsonValue,
    MemorySnapshot,
    ModelClient,
    ModelPrompt,
    ModelResult,
    StructuredSummary,
    compact_json,
    from_json,
    to_json,
)

QUICK = profile_settings("quick")


def finding(message: str) -> str:
    """A failure message without Hypothesis's notes, which quote the example."""
    lines = message.split("\n")
    notes = [i for i, line in enumerate(lines) if line.startswith(("Fals", "Failing"))]
    return "\n".join(lines[: notes[0]] if notes else lines)


MAX_ITEMS = 4
BUDGET = ContextBudget(max_items=4, pinned_prefix_items=1)
LLM_CLAIMS = frozenset({Claim.GENERIC, Claim.LLM_SUMMARY})
EXACT_CLAIMS = frozenset({Claim.GENERIC, Claim.EXACT})
CHECKS = {check.id: check for check in compaction.CHECKS}
_TRIM = "".join(chr(code) for code in range(0x21))


def _user(text: str) -> JsonValue:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


class Reassembled:
    """LlmCompactPolicy, rebuilt from the reference's public pieces, one method per rule."""

    def __init__(self, model_client: ModelClient, max_items: int = MAX_ITEMS) -> None:
        if model_client is None:
            raise ValueError("a model client is required")
        self.model_client = model_client
        self.max_items = max_items

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        return len(snapshot.items) > self.max_items

    def naive_cut(self, count: int) -> int:
        return count - min(self.max_items, count)

    def cut(self, items: Sequence[JsonValue], naive: int) -> int:
        return find_turn_boundary_cut(items, naive)

    def kept(self, items: Sequence[JsonValue], cut: int) -> list[JsonValue]:
        return list(items[cut:])

    def files(self, items: Sequence[JsonValue], *, reads: bool) -> list[str]:
        return extract_file_operations(items, reads=reads)

    def previous_files(self, summary: str | None) -> tuple[list[str], list[str]]:
        return read_file_sections(summary)

    def merge(self, previous: Sequence[str], new: Sequence[str]) -> list[str]:
        return list(dict.fromkeys([*previous, *new]))

    def content(
        self,
        summary: str | None,
        read: Sequence[str],
        modified: Sequence[str],
        to_summarize: Sequence[JsonValue],
    ) -> str:
        return summary_request_content(summary, read, modified, to_summarize)

    def prompt(self, content: str) -> ModelPrompt:
        return ModelPrompt(
            model="", system_prompt=SUMMARIZER_SYSTEM_PROMPT, items=(_user(content),)
        )

    def ask(self, prompt: ModelPrompt) -> str | None:
        try:
            result = self.model_client.create(prompt)
        except Exception:  # noqa: BLE001 - LLM-11: any error is a failed call
            return None
        if result is None or result.output_text is None or not result.output_text.strip(_TRIM):
            return None
        return result.output_text

    def fallback(self, to_summarize: Sequence[JsonValue], kept: Sequence[JsonValue]) -> str:
        del kept
        return SUMMARY_UNAVAILABLE.format(count=len(to_summarize))

    def parse(self, text: str) -> StructuredSummary:
        return parse_structured_summary(text)

    def render(self, summary: StructuredSummary) -> str:
        return render_structured_summary(summary)

    def unchanged(self, snapshot: MemorySnapshot) -> CompactResult:
        return CompactResult(memory=snapshot, summary=snapshot.summary)

    def result(
        self, kept: Sequence[JsonValue], summary: str, parsed: StructuredSummary
    ) -> CompactResult:
        return CompactResult(
            memory=MemorySnapshot(items=kept, summary=summary),
            summary=summary,
            completed=parsed.completed,
            pending=parsed.pending,
            decisions=parsed.decisions,
            failed_commands=parsed.errors,
            test_results=parsed.test_results,
            open_questions=parsed.open_questions,
            read_files=parsed.read_files,
            modified_files=parsed.modified_files,
        )

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        items = snapshot.items
        cut = self.cut(items, self.naive_cut(len(items)))
        if cut == 0:
            return self.unchanged(snapshot)
        to_summarize, kept = list(items[:cut]), self.kept(items, cut)
        previous_read, previous_modified = self.previous_files(snapshot.summary)
        read = self.merge(previous_read, self.files(to_summarize, reads=True))
        modified = self.merge(previous_modified, self.files(to_summarize, reads=False))
        answer = self.ask(self.prompt(self.content(snapshot.summary, read, modified, to_summarize)))
        if answer is None:
            parsed = StructuredSummary(parsed=False, text=self.fallback(to_summarize, kept))
        else:
            parsed = self.parse(answer)
        parsed = evolve(parsed, read_files=read, modified_files=modified)
        return self.result(kept, self.render(parsed), parsed)


# -- the wrong LLM policies, one perturbation each ------------------------------------------------


class ShouldCompactMutates(Reassembled):
    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        for item in snapshot.items:
            if isinstance(item, dict):
                item["seen"] = True
        return super().should_compact(snapshot)


class ShouldCompactFlips(Reassembled):
    flips = 0

    def should_compact(self, snapshot: MemorySnapshot) -> bool:  # noqa: ARG002 - answers without looking
        self.flips += 1
        return self.flips % 2 == 0


class ShouldCompactOffByOne(Reassembled):
    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        return len(snapshot.items) >= self.max_items


class ShouldCompactAsksModel(Reassembled):
    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        self.ask(self.prompt("should I compact?"))
        return super().should_compact(snapshot)


class CompactMutates(Reassembled):
    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        result = super().compact(snapshot)
        for item in snapshot.items:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                item["output"] = "[tool result cleared]"
        return result


class ReturnsNone(Reassembled):
    def compact(self, snapshot: MemorySnapshot) -> CompactResult:  # noqa: ARG002 - returns nothing at all
        return None  # type: ignore[return-value] # the wrong policy's whole point


class NotJsonMemory(Reassembled):
    def kept(self, items: Sequence[JsonValue], cut: int) -> list[JsonValue]:
        return [*items[cut:], float("nan")]

    def unchanged(self, snapshot: MemorySnapshot) -> CompactResult:
        return CompactResult(memory=MemorySnapshot(items=[*snapshot.items, float("nan")]))


class NullList(Reassembled):
    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        result = super().compact(snapshot)
        object.__setattr__(result, "pending", None)
        return result


class SortsKeptMembers(Reassembled):
    def kept(self, items: Sequence[JsonValue], cut: int) -> list[JsonValue]:
        return [json.loads(json.dumps(item, sort_keys=True)) for item in items[cut:]]


class RewritesStringItems(Reassembled):
    def kept(self, items: Sequence[JsonValue], cut: int) -> list[JsonValue]:
        return [str(item) if isinstance(item, int | float) else item for item in items[cut:]]


class KeepsTheHead(Reassembled):
    def kept(self, items: Sequence[JsonValue], cut: int) -> list[JsonValue]:
        return list(items[: len(items) - cut])


class KeepsOneTooFew(Reassembled):
    def naive_cut(self, count: int) -> int:
        return count - min(self.max_items - 1, count)


class CallsModelAtCutZero(Reassembled):
    """ai4j: the model is called even when nothing is to be summarized (DIF-6)."""

    def unchanged(self, snapshot: MemorySnapshot) -> CompactResult:
        self.ask(self.prompt(self.content(snapshot.summary, [], [], [])))
        return super().unchanged(snapshot)


class DropsSummaryAtCutZero(Reassembled):
    def unchanged(self, snapshot: MemorySnapshot) -> CompactResult:
        return CompactResult(memory=snapshot)


class SummarizesWithinMaxItems(Reassembled):
    def cut(self, items: Sequence[JsonValue], naive: int) -> int:
        return max(super().cut(items, naive), 1 if items else 0)


class NaiveCut(Reassembled):
    def cut(self, items: Sequence[JsonValue], naive: int) -> int:
        boundary = max((i for i in range(1, naive + 1) if _is_user(items, i)), default=None)
        return naive if boundary is None else boundary


class Ai4jCut(Reassembled):
    """ai4j: walk back to a user item, else 0 when item 0 is one, else the naive cut."""

    def cut(self, items: Sequence[JsonValue], naive: int) -> int:
        if naive <= 0 or naive >= len(items):
            return naive
        for index in range(naive, 0, -1):
            if _is_user(items, index):
                return index
        return 0 if _is_user(items, 0) else naive


class FallsBackToNaive(Reassembled):
    def cut(self, items: Sequence[JsonValue], naive: int) -> int:
        return super().cut(items, naive) or naive


class IgnoresUserItems(Reassembled):
    def cut(self, items: Sequence[JsonValue], naive: int) -> int:
        stripped: list[JsonValue] = [
            {"role": "not-user"} if isinstance(item, dict) and item.get("role") == "user" else item
            for item in items
        ]
        return find_turn_boundary_cut(stripped, naive)


def _is_user(items: Sequence[JsonValue], index: int) -> bool:
    item = items[index]
    return isinstance(item, dict) and item.get("role") == "user"


class HyphenInSystemPrompt(Reassembled):
    def prompt(self, content: str) -> ModelPrompt:
        return evolve(
            super().prompt(content), system_prompt=SUMMARIZER_SYSTEM_PROMPT.replace("\u2014", "-")
        )


class NamesTheModel(Reassembled):
    def prompt(self, content: str) -> ModelPrompt:
        return evolve(super().prompt(content), model="gpt-summarizer")


class SendsTwoMessages(Reassembled):
    def prompt(self, content: str) -> ModelPrompt:
        system: JsonValue = {
            "type": "message",
            "role": "system",
            "content": [{"type": "input_text", "text": "hi"}],
        }
        return evolve(super().prompt(content), items=(system, _user(content)))


class ForgetsPreviousSummary(Reassembled):
    def content(
        self,
        summary: str | None,  # noqa: ARG002 - the wrong policy drops it
        read: Sequence[str],
        modified: Sequence[str],
        to_summarize: Sequence[JsonValue],
    ) -> str:
        return super().content(None, read, modified, to_summarize)


class QuotesFileLists(Reassembled):
    def content(
        self,
        summary: str | None,
        read: Sequence[str],
        modified: Sequence[str],
        to_summarize: Sequence[JsonValue],
    ) -> str:
        text = super().content(summary, read, modified, to_summarize)
        for paths in (read, modified):
            text = text.replace("[" + ", ".join(paths) + "]", json.dumps(list(paths)), 1)
        return text


class AsciiDump(Reassembled):
    def content(
        self,
        summary: str | None,
        read: Sequence[str],
        modified: Sequence[str],
        to_summarize: Sequence[JsonValue],
    ) -> str:
        text = super().content(summary, read, modified, to_summarize)
        return text.replace(
            compact_json(list(to_summarize)), json.dumps(list(to_summarize), separators=(",", ":"))
        )


class DumpOmitsNulls(Reassembled):
    """ai4j's JSON library may leave out members whose value is null (DIF-11)."""

    def content(
        self,
        summary: str | None,
        read: Sequence[str],
        modified: Sequence[str],
        to_summarize: Sequence[JsonValue],
    ) -> str:
        def strip(value: JsonValue) -> JsonValue:
            if isinstance(value, dict):
                return {k: strip(v) for k, v in value.items() if v is not None}
            if isinstance(value, list):
                return [strip(v) for v in value]
            return value

        return super().content(summary, read, modified, [strip(item) for item in to_summarize])


class ForgetsTheFallback(Reassembled):
    def ask(self, prompt: ModelPrompt) -> str | None:
        result = self.model_client.create(prompt)
        return None if result is None else result.output_text


class BlankIsAnAnswer(Reassembled):
    def ask(self, prompt: ModelPrompt) -> str | None:
        try:
            result = self.model_client.create(prompt)
        except Exception:  # noqa: BLE001 - as the reference
            return None
        return None if result is None else result.output_text


class FallbackWithoutFiles(Reassembled):
    """ai4j: the fallback summary is only the sentence (DIF-9)."""

    def render(self, summary: StructuredSummary) -> str:
        if not summary.parsed and summary.text.startswith("Compaction summary unavailable"):
            return summary.text
        return super().render(summary)


class FallbackCountsKept(Reassembled):
    def fallback(self, to_summarize: Sequence[JsonValue], kept: Sequence[JsonValue]) -> str:  # noqa: ARG002 - counts the wrong list
        return SUMMARY_UNAVAILABLE.format(count=len(kept))


class ErrorsNotFailedCommands(Reassembled):
    def result(
        self, kept: Sequence[JsonValue], summary: str, parsed: StructuredSummary
    ) -> CompactResult:
        return evolve(super().result(kept, summary, parsed), failed_commands=())


class MemoryWithoutSummary(Reassembled):
    def result(
        self, kept: Sequence[JsonValue], summary: str, parsed: StructuredSummary
    ) -> CompactResult:
        return evolve(super().result(kept, summary, parsed), memory=MemorySnapshot(items=kept))


class FillsContextReport(Reassembled):
    def result(
        self, kept: Sequence[JsonValue], summary: str, parsed: StructuredSummary
    ) -> CompactResult:
        report = DefaultContextProjector().project(kept, None).report
        return evolve(super().result(kept, summary, parsed), context_report=report)


class FilesNotRendered(Reassembled):
    def render(self, summary: StructuredSummary) -> str:
        if summary.parsed:
            summary = evolve(summary, read_files=(), modified_files=())
        return super().render(summary)


class SubstringTools(Reassembled):
    """ai4j: tools are classified by substring, so ``tools`` reads and ``format`` modifies."""

    def files(self, items: Sequence[JsonValue], *, reads: bool) -> list[str]:
        words = (
            ("read", "cat", "grep", "find", "ls", "head", "tail", "less", "view")
            if reads
            else (
                "write",
                "edit",
                "create",
                "delete",
                "mkdir",
                "mv",
                "rm",
                "patch",
                "save",
                "append",
            )
        )
        renamed = [_renamed(item, words) for item in items]
        return extract_file_operations(renamed, reads=reads)


def _renamed(item: JsonValue, words: Sequence[str]) -> JsonValue:
    """The item with every tool name that contains a word replaced by that word."""
    if isinstance(item, dict):
        copied = {key: _renamed(value, words) for key, value in item.items()}
        name = copied.get("name")
        if isinstance(name, str):
            found = [word for word in words if word in name.lower()]
            if found:
                copied["name"] = found[0]
        return copied
    if isinstance(item, list):
        return [_renamed(value, words) for value in item]
    return item


class ChatToolCallsOnly(Reassembled):
    """ai4j: only Chat-style ``tool_calls`` are examined (DIF-2)."""

    def files(self, items: Sequence[JsonValue], *, reads: bool) -> list[str]:
        chat = [item for item in items if isinstance(item, dict) and "tool_calls" in item]
        return extract_file_operations(chat, reads=reads)


class NoCamelCaseSplit(Reassembled):
    def files(self, items: Sequence[JsonValue], *, reads: bool) -> list[str]:
        flattened = [_lowered(item) for item in items]
        return extract_file_operations(flattened, reads=reads)


def _lowered(item: JsonValue) -> JsonValue:
    if isinstance(item, dict):
        copied = {key: _lowered(value) for key, value in item.items()}
        name = copied.get("name")
        if isinstance(name, str) and tool_name_words(name) != tool_name_words(name.lower()):
            copied["name"] = name.lower()
        return copied
    if isinstance(item, list):
        return [_lowered(value) for value in item]
    return item


class IgnoresInput(Reassembled):
    def files(self, items: Sequence[JsonValue], *, reads: bool) -> list[str]:
        return extract_file_operations([_without_input(item) for item in items], reads=reads)


def _without_input(item: JsonValue) -> JsonValue:
    if isinstance(item, dict):
        return {key: _without_input(value) for key, value in item.items() if key != "input"}
    if isinstance(item, list):
        return [_without_input(value) for value in item]
    return item


class AnyStringIsAPath(Reassembled):
    def files(self, items: Sequence[JsonValue], *, reads: bool) -> list[str]:
        found = super().files(items, reads=reads)
        for item in items:
            arguments = item.get("input") if isinstance(item, dict) else None
            if isinstance(arguments, str) and '"noslash"' in arguments and found:
                found.append("noslash")
        return found


class NoDeduplication(Reassembled):
    def merge(self, previous: Sequence[str], new: Sequence[str]) -> list[str]:
        return [*previous, *new, *new[:1]]


class RaisesOnBadArguments(Reassembled):
    def files(self, items: Sequence[JsonValue], *, reads: bool) -> list[str]:
        for item in items:
            arguments = item.get("arguments") if isinstance(item, dict) else None
            if isinstance(arguments, str):
                json.loads(arguments)
        return super().files(items, reads=reads)


class ForgetsPreviousFiles(Reassembled):
    """ai4j: only the items of this compaction are scanned (DIF-8)."""

    def previous_files(self, summary: str | None) -> tuple[list[str], list[str]]:  # noqa: ARG002 - ai4j
        return [], []


class PreviousFilesLast(Reassembled):
    def merge(self, previous: Sequence[str], new: Sequence[str]) -> list[str]:
        return list(dict.fromkeys([*new, *previous]))


class AccumulatesInThePolicy(Reassembled):
    """Keeps the files in the policy instead of the summary: lost on resume (LLM-15)."""

    def __init__(self, model_client: ModelClient, max_items: int = MAX_ITEMS) -> None:
        super().__init__(model_client, max_items)
        self.seen: tuple[list[str], list[str]] = ([], [])

    def previous_files(self, summary: str | None) -> tuple[list[str], list[str]]:  # noqa: ARG002 - reads itself
        return self.seen

    def render(self, summary: StructuredSummary) -> str:
        self.seen = (list(summary.read_files), list(summary.modified_files))
        return super().render(evolve(summary, read_files=(), modified_files=()))


class Stateful(Reassembled):
    """Remembers the files of every compaction it ran: state between calls (LLM-1)."""

    def __init__(self, model_client: ModelClient, max_items: int = MAX_ITEMS) -> None:
        super().__init__(model_client, max_items)
        self.read: list[str] = []

    def merge(self, previous: Sequence[str], new: Sequence[str]) -> list[str]:
        merged = list(dict.fromkeys([*self.read, *previous, *new]))
        self.read = merged
        return merged


class SwallowsEveryError(Reassembled):
    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        try:
            return super().compact(snapshot)
        except Exception:  # noqa: BLE001 - the wrong policy's whole point
            text = SUMMARY_UNAVAILABLE.format(count=len(snapshot.items))
            return CompactResult(memory=MemorySnapshot(summary=text), summary=text)


class RendersDecisionsHeading(Reassembled):
    def render(self, summary: StructuredSummary) -> str:
        return super().render(summary).replace("## Key Decisions", "## Decisions")


class EscapesMarkdown(Reassembled):
    def render(self, summary: StructuredSummary) -> str:
        return super().render(summary).replace("*", "\\*")


class LowerCaseFileHeadings(Reassembled):
    def render(self, summary: StructuredSummary) -> str:
        text = super().render(summary)
        return text.replace("## Files Read", "## Files read").replace(
            "## Files Modified", "## Files modified"
        )

    def previous_files(self, summary: str | None) -> tuple[list[str], list[str]]:
        fixed = None if summary is None else summary.replace("## Files read", "## Files Read")
        fixed = None if fixed is None else fixed.replace("## Files modified", "## Files Modified")
        return super().previous_files(fixed)


class ReadsOnlyExactHeadings(Reassembled):
    def previous_files(self, summary: str | None) -> tuple[list[str], list[str]]:
        if summary is None:
            return [], []
        lines = summary.split("\n")
        read: list[str] = []
        modified: list[str] = []
        target: list[str] | None = None
        for line in lines:
            if line == "## Files Read":
                target = read
            elif line == "## Files Modified":
                target = modified
            elif line.startswith("## "):
                target = None
            elif target is not None and line.strip(_TRIM).startswith("- "):
                path = line.strip(_TRIM)[2:].strip(_TRIM)
                if path not in target:
                    target.append(path)
        return read, modified


# -- the wrong structured policies ----------------------------------------------------------------


class StructuredOffByOne(StructuredSummaryCompactPolicy):
    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        assert self.budget is not None
        return self.budget.max_items is not None and len(snapshot.items) >= self.budget.max_items


def _with_summary(memory: MemorySnapshot | None, summary: str) -> MemorySnapshot:
    return MemorySnapshot(items=memory.items if memory else (), summary=summary)


class NestsWholeSummary(StructuredSummaryCompactPolicy):
    """ai4j: the whole previous summary is nested, marker and all (DIF-12)."""

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        result = super().compact(MemorySnapshot(items=snapshot.items))
        summary = result.summary or ""
        if snapshot.summary is not None and snapshot.summary.strip(_TRIM):
            lines = summary.split("\n")
            lines[1:1] = ["Existing summary:", snapshot.summary.strip(_TRIM)]
            summary = "\n".join(lines)
        return evolve(result, summary=summary, memory=_with_summary(result.memory, summary))


class NoDroppedCount(StructuredSummaryCompactPolicy):
    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        result = super().compact(snapshot)
        summary = (result.summary or "").replace(
            f", {result.context_report.dropped_item_count if result.context_report else 0}"
            " dropped.",
            ".",
        )
        return evolve(result, summary=summary, memory=_with_summary(result.memory, summary))


class PinsTheSummary(StructuredSummaryCompactPolicy):
    """Counts the summary as the first item, so the pinned prefix holds it."""

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        head: list[JsonValue] = [] if snapshot.summary is None else [snapshot.summary]
        projected = self.projector.project([*head, *snapshot.items], self.budget)
        items = [item for item in projected.items if not (head and item is head[0])]
        inner = super().compact(MemorySnapshot(items=items, summary=snapshot.summary))
        return evolve(inner, context_report=projected.report)


class NoContextReport(StructuredSummaryCompactPolicy):
    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        return evolve(super().compact(snapshot), context_report=None)


class StructuredFillsPending(StructuredSummaryCompactPolicy):
    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        return evolve(super().compact(snapshot), pending=("carry on",))


@frozen
class _NoPinProjector:
    """A projector that ignores the pinned prefix: not the default projector (CMP-9)."""

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        unpinned = None if budget is None else evolve(budget, pinned_prefix_items=0)
        return DefaultContextProjector().project(items, unpinned)


# -- wrong policies of the generic, pair-integrity and wire-valid rules ----------------------------

GENERIC_CLAIMS = frozenset({Claim.GENERIC})
PAIR_CLAIMS = frozenset({Claim.GENERIC, Claim.PAIR_INTEGRITY})
WIRE_CLAIMS = frozenset({Claim.GENERIC, Claim.WIRE_VALID})


class ReordersKeptItems(Reassembled):
    """Keeps the recent items newest first."""

    def kept(self, items: Sequence[JsonValue], cut: int) -> list[JsonValue]:
        return list(items[cut:])[::-1]


class ReformatsKeptItems(Reassembled):
    """Keeps the recent items with their members sorted: equal, not identical."""

    def kept(self, items: Sequence[JsonValue], cut: int) -> list[JsonValue]:
        return [json.loads(json.dumps(item, sort_keys=True)) for item in items[cut:]]


class ReportsAnotherSummary(Reassembled):
    """Reports the model's raw answer as the summary, the rendered one in memory."""

    def result(
        self, kept: Sequence[JsonValue], summary: str, parsed: StructuredSummary
    ) -> CompactResult:
        return evolve(super().result(kept, summary, parsed), summary=parsed.goal or "summary")


class LosesTheSummary(Reassembled):
    """Summarizes items away and keeps no summary at all."""

    def result(
        self,
        kept: Sequence[JsonValue],
        summary: str,  # noqa: ARG002 - the summary it loses
        parsed: StructuredSummary,  # noqa: ARG002
    ) -> CompactResult:
        return CompactResult(memory=MemorySnapshot(items=kept), summary=None)


class AlwaysCompacts(Reassembled):
    """Asks to compact whatever the snapshot, the empty one too."""

    def should_compact(self, snapshot: MemorySnapshot) -> bool:  # noqa: ARG002 - answers without looking
        return True


class ReportLies(StructuredSummaryCompactPolicy):
    """Reports one dropped item fewer than it summarized."""

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        result = super().compact(snapshot)
        report = result.context_report
        if report is None or not report.dropped_item_count:
            return result
        fewer = evolve(
            report,
            dropped_item_count=report.dropped_item_count - 1,
            projected_item_count=report.projected_item_count + 1,
        )
        return evolve(result, context_report=fewer)


class ReportsItsOwnSizes(StructuredSummaryCompactPolicy):
    """Reports the sizes of the items with the summary message counted in."""

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        result = super().compact(snapshot)
        report = result.context_report
        if report is None:
            return result
        extra = len(result.summary or "")
        grown = evolve(report, projected_approx_chars=report.projected_approx_chars + extra)
        return evolve(result, context_report=grown)


class ReportsOtherPositions(StructuredSummaryCompactPolicy):
    """Reports the summarized positions shifted by one."""

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        result = super().compact(snapshot)
        report = result.context_report
        if report is None or not report.dropped_indices:
            return result
        shifted = tuple(p + 1 for p in report.dropped_indices)
        return evolve(result, context_report=evolve(report, dropped_indices=shifted))


def _orphaning(client: ModelClient) -> Any:
    """ai4j (DIF-25): the structured policy with the default projector, which may orphan."""
    del client
    return StructuredSummaryCompactPolicy(BUDGET, projector=DefaultContextProjector())


class CutsBetweenReasoningAndItsCall(Reassembled):
    """Cuts where a reasoning item and its call part, as if they were no unit (PAIR-3 (c))."""

    def cut(self, items: Sequence[JsonValue], naive: int) -> int:
        disguised: list[JsonValue] = [
            {"type": "note"} if isinstance(i, dict) and i.get("type") == "reasoning" else i
            for i in items
        ]
        return find_turn_boundary_cut(disguised, naive)


class RefusesOrphans(Reassembled):
    """Raises on a snapshot that already holds an orphan result."""

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        calls = {
            json.dumps(item.get("call_id"))
            for item in snapshot.items
            if isinstance(item, dict) and item.get("type") == "function_call"
        }
        for item in snapshot.items:
            answer = isinstance(item, dict) and item.get("type") == "function_call_output"
            if answer and json.dumps(item.get("call_id")) not in calls:  # type: ignore[union-attr]
                raise ValueError("refusing a snapshot with an orphan tool result")
        return super().compact(snapshot)


class NumbersItsCompactions:
    """Counts the compactions it ran and lists the count among the completed work (CMP-20)."""

    def __init__(self, budget: ContextBudget) -> None:
        self._policy = StructuredSummaryCompactPolicy(budget)
        self.runs = 0

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        return self._policy.should_compact(snapshot)

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        self.runs += 1
        result = self._policy.compact(snapshot)
        return evolve(result, completed=(*result.completed, f"compaction {self.runs}"))


# -- the zoo --------------------------------------------------------------------------------------


@frozen(kw_only=True)
class Wrong:
    """A wrong policy, the clause it breaks, the check that must say so and a phrase it says."""

    name: str
    breaks: str
    check_id: str
    reason: str
    factory: Callable[[ModelClient], Any] = attrs.field(eq=False, repr=False)
    claims: frozenset[Claim] = LLM_CLAIMS
    #: no other check its claims select may catch it (the member of a generic or pair rule)
    only: bool = False


def _llm(cls: type[Reassembled]) -> Callable[[ModelClient], Any]:
    return cls


def _structured(cls: type[StructuredSummaryCompactPolicy]) -> Callable[[ModelClient], Any]:
    return lambda _: cls(BUDGET)


ZOO = (
    Wrong(
        name="numbers-its-compactions",
        breaks="CMP-20",
        check_id="compaction.stateless",
        reason="compact after earlier calls differs from a fresh policy's",
        factory=lambda _: NumbersItsCompactions(BUDGET),
        claims=GENERIC_CLAIMS,
        only=True,
    ),
    Wrong(
        name="should-compact-mutates",
        breaks="CMP-1",
        check_id="compaction.should-compact-pure",
        reason="should_compact changed the snapshot",
        factory=_llm(ShouldCompactMutates),
    ),
    Wrong(
        name="should-compact-flips",
        breaks="CMP-1",
        check_id="compaction.should-compact-pure",
        reason="and then",
        factory=_llm(ShouldCompactFlips),
    ),
    Wrong(
        name="compact-clears-tool-results-in-the-snapshot",
        breaks="CMP-2",
        check_id="compaction.compact-no-mutation",
        reason="compact changed the snapshot",
        factory=_llm(CompactMutates),
    ),
    Wrong(
        name="compact-mutates",
        breaks="JSON-16",
        check_id="compaction.compact-no-mutation",
        reason="compact changed the snapshot",
        factory=_llm(CompactMutates),
    ),
    Wrong(
        name="returns-none",
        breaks="CMP-1",
        check_id="compaction.result-valid",
        reason="compact returned None",
        factory=_llm(ReturnsNone),
    ),
    Wrong(
        name="not-json-memory",
        breaks="JSON-14",
        check_id="compaction.result-valid",
        reason="does not validate against its schema (JSON-14)",
        factory=_llm(NotJsonMemory),
    ),
    Wrong(
        name="null-list",
        breaks="CMP-3",
        check_id="compaction.result-valid",
        reason="does not validate against its schema (JSON-14)",
        factory=_llm(NullList),
    ),
    Wrong(
        name="sorts-kept-members",
        breaks="JSON-3",
        check_id="compaction.llm.cut",
        reason="not the snapshot's last items, unchanged",
        factory=_llm(SortsKeptMembers),
    ),
    Wrong(
        name="rewrites-number-items",
        breaks="JSON-1",
        check_id="compaction.llm.cut",
        reason="not the snapshot's last items, unchanged",
        factory=_llm(RewritesStringItems),
    ),
    Wrong(
        name="keeps-the-head",
        breaks="CUT-1",
        check_id="compaction.llm.cut",
        reason="not the snapshot's last items",
        factory=_llm(KeepsTheHead),
    ),
    Wrong(
        name="accepts-no-client",
        breaks="LLM-1",
        check_id="compaction.llm.requires-client",
        reason="without a model client",
        factory=lambda client: Reassembled(client or ScriptedModelClient()),
    ),
    Wrong(
        name="stateful",
        breaks="LLM-1",
        check_id="compaction.llm.stateless",
        reason="keeps state between calls",
        factory=_llm(Stateful),
    ),
    Wrong(
        name="should-compact-off-by-one",
        breaks="LLM-2",
        check_id="compaction.llm.should-compact",
        reason="should_compact is True for 4 items",
        factory=_llm(ShouldCompactOffByOne),
    ),
    Wrong(
        name="should-compact-asks-model",
        breaks="LLM-2",
        check_id="compaction.llm.should-compact",
        reason="should_compact called the model",
        factory=_llm(ShouldCompactAsksModel),
    ),
    Wrong(
        name="keeps-one-too-few",
        breaks="LLM-3",
        check_id="compaction.llm.cut",
        reason="fewer than max_items",
        factory=_llm(KeepsOneTooFew),
    ),
    Wrong(
        name="calls-model-at-cut-zero",
        breaks="LLM-4",
        check_id="compaction.llm.cut-zero",
        reason="called the model although the cut is 0",
        factory=_llm(CallsModelAtCutZero),
    ),
    Wrong(
        name="drops-summary-at-cut-zero",
        breaks="LLM-4",
        check_id="compaction.llm.cut-zero",
        reason="at cut 0 the result's summary is None",
        factory=_llm(DropsSummaryAtCutZero),
    ),
    Wrong(
        name="summarizes-within-max-items",
        breaks="CUT-2",
        check_id="compaction.llm.cut-zero",
        reason="called the model although the cut is 0",
        factory=_llm(SummarizesWithinMaxItems),
    ),
    Wrong(
        name="naive-cut",
        breaks="CUT-4",
        check_id="compaction.llm.cut",
        reason="separates the unit of positions",
        factory=_llm(NaiveCut),
    ),
    Wrong(
        name="ai4j-cut",
        breaks="CUT-4",
        check_id="compaction.llm.cut",
        reason="the greatest cut there that separates none is 3",
        factory=_llm(Ai4jCut),
    ),
    Wrong(
        name="falls-back-to-naive",
        breaks="CUT-5",
        check_id="compaction.llm.cut",
        reason="separates the unit of positions",
        factory=_llm(FallsBackToNaive),
    ),
    Wrong(
        name="ai4j-cut-vectors",
        breaks="CUT-4",
        check_id="compaction.llm.cut-vectors",
        reason="turn-boundary-cut.pair-safe-fallback",
        factory=_llm(Ai4jCut),
    ),
    Wrong(
        name="ignores-user-items",
        breaks="CUT-3",
        check_id="compaction.llm.cut",
        reason="holds a user input item",
        factory=_llm(IgnoresUserItems),
    ),
    Wrong(
        name="hyphen-in-system-prompt",
        breaks="LLM-7",
        check_id="compaction.llm.prompt",
        reason="not Listing 1 verbatim",
        factory=_llm(HyphenInSystemPrompt),
    ),
    Wrong(
        name="names-the-model",
        breaks="LLM-6",
        check_id="compaction.llm.prompt",
        reason="the prompt's model is 'gpt-summarizer'",
        factory=_llm(NamesTheModel),
    ),
    Wrong(
        name="sends-two-messages",
        breaks="LLM-6",
        check_id="compaction.llm.prompt",
        reason="exactly one user message",
        factory=_llm(SendsTwoMessages),
    ),
    Wrong(
        name="forgets-previous-summary",
        breaks="LLM-8",
        check_id="compaction.llm.prompt",
        reason="the Previous summary block",
        factory=_llm(ForgetsPreviousSummary),
    ),
    Wrong(
        name="quotes-file-lists",
        breaks="LLM-9",
        check_id="compaction.llm.prompt",
        reason="the Files read/modified block",
        factory=_llm(QuotesFileLists),
    ),
    Wrong(
        name="ascii-dump",
        breaks="JSON-6",
        check_id="compaction.llm.prompt",
        reason="the conversation dump",
        factory=_llm(AsciiDump),
    ),
    Wrong(
        name="dump-omits-nulls",
        breaks="LLM-10",
        check_id="compaction.llm.prompt",
        reason="the conversation dump",
        factory=_llm(DumpOmitsNulls),
    ),
    Wrong(
        name="forgets-the-fallback",
        breaks="LLM-12",
        check_id="compaction.llm.fallback",
        reason="compact let it escape as ScriptedModelError",
        factory=_llm(ForgetsTheFallback),
    ),
    Wrong(
        name="blank-is-an-answer",
        breaks="LLM-11",
        check_id="compaction.llm.fallback",
        reason="the summary is wrong",
        factory=_llm(BlankIsAnAnswer),
    ),
    Wrong(
        name="fallback-without-files",
        breaks="LLM-12",
        check_id="compaction.llm.fallback",
        reason="the summary is wrong",
        factory=_llm(FallbackWithoutFiles),
    ),
    Wrong(
        name="fallback-counts-kept",
        breaks="LLM-12",
        check_id="compaction.llm.fallback",
        reason="items were summarized",
        factory=_llm(FallbackCountsKept),
    ),
    Wrong(
        name="errors-not-failed-commands",
        breaks="LLM-14",
        check_id="compaction.llm.summary",
        reason="failedCommands is []",
        factory=_llm(ErrorsNotFailedCommands),
    ),
    Wrong(
        name="memory-without-summary",
        breaks="LLM-14",
        check_id="compaction.llm.summary",
        reason="differs from result.memory.summary",
        factory=_llm(MemoryWithoutSummary),
    ),
    Wrong(
        name="fills-context-report",
        breaks="CMP-5",
        check_id="compaction.llm.summary",
        reason="fills contextReport",
        factory=_llm(FillsContextReport),
    ),
    Wrong(
        name="files-not-rendered",
        breaks="LLM-13",
        check_id="compaction.llm.summary",
        reason="the summary is wrong",
        factory=_llm(FilesNotRendered),
    ),
    Wrong(
        name="substring-tools",
        breaks="FIL-4",
        check_id="compaction.llm.files",
        reason='from calls of ["tools"]',
        factory=_llm(SubstringTools),
    ),
    Wrong(
        name="chat-tool-calls-only",
        breaks="FIL-2",
        check_id="compaction.llm.files",
        reason="it misses",
        factory=_llm(ChatToolCallsOnly),
    ),
    Wrong(
        name="no-camel-case-split",
        breaks="FIL-3",
        check_id="compaction.llm.files",
        reason='it misses "src/x.py"',
        factory=_llm(NoCamelCaseSplit),
    ),
    Wrong(
        name="ignores-input",
        breaks="FIL-5",
        check_id="compaction.llm.files",
        reason='it misses "src/x.py"',
        factory=_llm(IgnoresInput),
    ),
    Wrong(
        name="any-string-is-a-path",
        breaks="FIL-6",
        check_id="compaction.llm.files",
        reason='it lists "noslash"',
        factory=_llm(AnyStringIsAPath),
    ),
    Wrong(
        name="no-deduplication",
        breaks="FIL-7",
        check_id="compaction.llm.files",
        reason="not each once in first-seen order",
        factory=_llm(NoDeduplication),
    ),
    Wrong(
        name="raises-on-bad-arguments",
        breaks="FIL-1",
        check_id="compaction.llm.files",
        reason="for tool calls with odd names or arguments (FIL-1)",
        factory=_llm(RaisesOnBadArguments),
    ),
    Wrong(
        name="forgets-previous-files",
        breaks="LLM-5",
        check_id="compaction.llm.accumulation",
        reason="are not the start of the second's",
        factory=_llm(ForgetsPreviousFiles),
    ),
    Wrong(
        name="previous-files-last",
        breaks="LLM-5",
        check_id="compaction.llm.accumulation",
        reason="are not the start of the second's",
        factory=_llm(PreviousFilesLast),
    ),
    Wrong(
        name="accumulates-in-the-policy",
        breaks="LLM-15",
        check_id="compaction.llm.accumulation",
        reason="are not the start of the second's",
        factory=_llm(AccumulatesInThePolicy),
    ),
    Wrong(
        name="lower-case-file-headings",
        breaks="PRS-16",
        check_id="compaction.llm.accumulation",
        reason="read back as",
        factory=_llm(LowerCaseFileHeadings),
    ),
    Wrong(
        name="reads-only-exact-headings",
        breaks="PRS-15",
        check_id="compaction.llm.accumulation",
        reason="On the first compaction",
        factory=_llm(ReadsOnlyExactHeadings),
    ),
    Wrong(
        name="swallows-every-error",
        breaks="LLM-16",
        check_id="compaction.llm.errors-propagate",
        reason="turned an error that is not a failed model call",
        factory=_llm(SwallowsEveryError),
    ),
    Wrong(
        name="decisions-heading",
        breaks="PRS-13",
        check_id="compaction.llm.render-vectors",
        reason="render-summary.login-flow",
        factory=_llm(RendersDecisionsHeading),
    ),
    Wrong(
        name="escapes-markdown",
        breaks="PRS-14",
        check_id="compaction.llm.render-vectors",
        reason="render-summary.entries-verbatim",
        factory=_llm(EscapesMarkdown),
    ),
    Wrong(
        name="vectors-fallback-without-files",
        breaks="LLM-12",
        check_id="compaction.llm.vectors",
        reason="compact-llm.model-raises-keeps-files",
        factory=_llm(FallbackWithoutFiles),
    ),
    Wrong(
        name="structured-off-by-one",
        breaks="CMP-10",
        check_id="compaction.structured.should-compact",
        reason="should_compact is True for 4 items",
        factory=_structured(StructuredOffByOne),
        claims=EXACT_CLAIMS,
    ),
    Wrong(
        name="nests-whole-summary",
        breaks="CMP-13",
        check_id="compaction.structured.bounded-nesting",
        reason="holds the marker line 2 times",
        factory=_structured(NestsWholeSummary),
        claims=EXACT_CLAIMS,
    ),
    Wrong(
        name="no-dropped-count",
        breaks="CMP-12",
        check_id="compaction.structured.differential",
        reason="the summary is wrong (CMP-12, CMP-13)",
        factory=_structured(NoDroppedCount),
        claims=EXACT_CLAIMS,
    ),
    Wrong(
        name="pins-the-summary",
        breaks="CMP-11",
        check_id="compaction.structured.differential",
        reason="the summary is wrong",
        factory=_structured(PinsTheSummary),
        claims=EXACT_CLAIMS,
    ),
    Wrong(
        name="no-context-report",
        breaks="CMP-14",
        check_id="compaction.structured.differential",
        reason="$.contextReport",
        factory=_structured(NoContextReport),
        claims=EXACT_CLAIMS,
    ),
    Wrong(
        name="structured-fills-pending",
        breaks="CMP-5",
        check_id="compaction.structured.differential",
        reason="$.pending",
        factory=_structured(StructuredFillsPending),
        claims=EXACT_CLAIMS,
    ),
    Wrong(
        name="not-the-default-projector",
        breaks="CMP-9",
        check_id="compaction.structured.differential",
        reason="$.memory.items",
        claims=EXACT_CLAIMS,
        factory=lambda _: StructuredSummaryCompactPolicy(BUDGET, _NoPinProjector()),
    ),
    Wrong(
        name="vectors-nests-whole-summary",
        breaks="CMP-13",
        check_id="compaction.structured.vectors",
        reason="compact-structured.own-output-again",
        factory=_structured(NestsWholeSummary),
        claims=EXACT_CLAIMS,
    ),
    Wrong(
        name="reorders-kept-items",
        breaks="CMP-15",
        check_id="compaction.kept-verbatim",
        reason="are not in the snapshot's order",
        factory=_llm(ReordersKeptItems),
        claims=GENERIC_CLAIMS,
        only=True,
    ),
    Wrong(
        name="reformats-kept-items",
        breaks="JSON-10",
        check_id="compaction.kept-verbatim",
        reason="changed (member order or number form)",
        factory=_llm(ReformatsKeptItems),
        claims=GENERIC_CLAIMS,
    ),
    Wrong(
        name="reports-another-summary",
        breaks="CMP-16",
        check_id="compaction.summary",
        reason="the summary reported is the one the memory gets",
        factory=_llm(ReportsAnotherSummary),
        claims=GENERIC_CLAIMS,
        only=True,
    ),
    Wrong(
        name="loses-the-summary",
        breaks="CMP-17",
        check_id="compaction.summary",
        reason="lives on only in the summary",
        factory=_llm(LosesTheSummary),
        claims=GENERIC_CLAIMS,
        only=True,
    ),
    Wrong(
        name="report-lies",
        breaks="CMP-18",
        check_id="compaction.context-report",
        reason="droppedItemCount is",
        factory=_structured(ReportLies),
        claims=GENERIC_CLAIMS,
        only=True,
    ),
    Wrong(
        name="reports-its-own-sizes",
        breaks="PRJ-12",
        check_id="compaction.context-report",
        reason="projectedApproxChars is",
        factory=_structured(ReportsItsOwnSizes),
        claims=GENERIC_CLAIMS,
    ),
    Wrong(
        name="reports-other-positions",
        breaks="RPT-7",
        check_id="compaction.context-report",
        reason="are not the summarized positions",
        factory=_structured(ReportsOtherPositions),
        claims=GENERIC_CLAIMS,
    ),
    Wrong(
        name="always-compacts",
        breaks="CMP-19",
        check_id="compaction.should-compact-empty",
        reason="a policy never asks to compact what cannot shrink",
        factory=_llm(AlwaysCompacts),
        claims=GENERIC_CLAIMS,
        only=True,
    ),
    Wrong(
        name="persists-an-orphan",
        breaks="PAIR-8",
        check_id="compaction.pair-integrity",
        reason="the compaction summarized away",
        factory=_orphaning,
        claims=PAIR_CLAIMS,
        only=True,
    ),
    Wrong(
        name="cuts-between-reasoning-and-its-call",
        breaks="PAIR-3",
        check_id="compaction.pair-integrity",
        reason="was kept only in part",
        factory=_llm(CutsBetweenReasoningAndItsCall),
        claims=PAIR_CLAIMS,
    ),
    Wrong(
        name="refuses-orphans",
        breaks="PAIR-9",
        check_id="compaction.pair-integrity",
        reason="orphan",
        factory=_llm(RefusesOrphans),
        claims=PAIR_CLAIMS,
    ),
    Wrong(
        name="persists-what-the-provider-rejects",
        breaks="WIRE-18",
        check_id="compaction.wire-valid",
        reason="accepts the snapshot's items but not the memory's",
        factory=_orphaning,
        claims=WIRE_CLAIMS,
        only=True,
    ),
)

#: Clauses the compaction checks cite that no wrong policy can break, with the reason.
NO_ZOO_MEMBER = {
    "CMP-4": "gives a null memory a meaning for the runtime; any policy's null is valid here",
}


def _options(wrong: Wrong) -> dict[str, object]:
    options: dict[str, object] = {"budget": BUDGET, "max_items": MAX_ITEMS}
    if Claim.WIRE_VALID in wrong.claims:
        options["providers"] = PROVIDERS
    return options


@pytest.mark.parametrize("wrong", [w for w in ZOO if w.only], ids=lambda wrong: wrong.name)
def test_no_other_claimed_check_catches_the_member(wrong: Wrong) -> None:
    failed = [
        check.id
        for check in compaction.CHECKS
        if check.id != wrong.check_id
        and check.claim in wrong.claims
        and run_check(
            check,
            factory=wrong.factory,
            claims=wrong.claims,
            settings=QUICK,
            options=_options(wrong),
        ).outcome
        is not Outcome.PASS
    ]
    assert not failed, failed


def test_every_new_generic_and_pair_check_has_a_member_only_it_catches() -> None:
    wanted = {
        "compaction.kept-verbatim",
        "compaction.summary",
        "compaction.context-report",
        "compaction.should-compact-empty",
        "compaction.stateless",
        "compaction.pair-integrity",
        "compaction.wire-valid",
    }
    assert wanted <= {wrong.check_id for wrong in ZOO if wrong.only}


@pytest.mark.parametrize("wrong", ZOO, ids=lambda wrong: wrong.name)
def test_the_intended_check_fails_the_wrong_policy_for_its_reason(wrong: Wrong) -> None:
    result = run_check(
        CHECKS[wrong.check_id],
        factory=wrong.factory,
        claims=wrong.claims,
        settings=QUICK,
        options=_options(wrong),
    )
    assert result.outcome is Outcome.FAIL, (result.outcome, result.message)
    assert wrong.reason in finding(result.message), result.message


def test_every_zoo_member_names_a_clause_its_check_cites() -> None:
    for wrong in ZOO:
        assert wrong.breaks in CHECKS[wrong.check_id].clauses, wrong.name


def test_every_breakable_clause_has_a_zoo_member() -> None:
    cited = {
        clause
        for check in compaction.CHECKS
        for clause in check.clauses
        if not clause.startswith("DIF-")
    }
    broken = {wrong.breaks for wrong in ZOO}
    assert cited - broken - NO_ZOO_MEMBER.keys() == set()
    assert NO_ZOO_MEMBER.keys() <= cited


@pytest.mark.parametrize(
    ("factory", "claims", "options"),
    [
        (Reassembled, LLM_CLAIMS, {"max_items": MAX_ITEMS}),
        (
            lambda client: LlmCompactPolicy(client, max_items=MAX_ITEMS),
            LLM_CLAIMS,
            {"max_items": MAX_ITEMS},
        ),
    ],
    ids=["reassembled", "reference"],
)
def test_the_unperturbed_policy_passes(
    factory: Callable[[ModelClient], Any], claims: frozenset[Claim], options: dict[str, object]
) -> None:
    for check in compaction.CHECKS:
        result = run_check(check, factory=factory, claims=claims, settings=QUICK, options=options)
        assert result.outcome in {Outcome.PASS, Outcome.SKIP}, (check.id, result.message)


@pytest.mark.parametrize(
    "target",
    [t for t in reference_targets() if t.component is Component.COMPACT_POLICY],
    ids=lambda target: target.name,
)
def test_every_compaction_check_passes_on_the_reference(target: Any) -> None:
    for check in compaction.CHECKS:
        result = run_check(
            check,
            factory=target.factory,
            claims=target.claims,
            settings=QUICK,
            options=target.options,
        )
        if check.claim in target.claims:
            assert result.outcome is Outcome.PASS, (check.id, result.message, result.counterexample)
        else:
            assert result.outcome is Outcome.SKIP


def test_a_claimed_llm_check_without_max_items_is_an_error_not_a_skip() -> None:
    # A claim that cannot be checked must not end the run green.
    result = run_check(
        CHECKS["compaction.llm.cut"],
        factory=LlmCompactPolicy,
        claims=LLM_CLAIMS,
        settings=QUICK,
    )
    assert result.outcome is Outcome.ERROR
    assert "the target claims this check, but" in result.message
    assert "max_items" in result.message


class _Model:
    def __init__(self, output: str | None, fails: bool) -> None:
        self.output, self.fails = output, fails
        self.prompts: list[ModelPrompt] = []

    def create(self, prompt: ModelPrompt) -> ModelResult:
        self.prompts.append(prompt)
        if self.fails:
            raise RuntimeError("the model failed")
        return ModelResult(output_text=self.output)


def _vector_ids(operation: str) -> list[str]:
    return [vector.id for vector in vectors_for(operation)]


@pytest.mark.parametrize("vector", vectors_for("turn_boundary_cut"), ids=lambda v: v.id)
def test_turn_boundary_cut_vectors_hold_for_the_reference(vector: Any) -> None:
    cut = find_turn_boundary_cut(vector.input["items"], vector.input["naiveCut"])
    assert {"cut": cut} == vector.expected


@pytest.mark.parametrize("vector", vectors_for("extract_file_operations"), ids=lambda v: v.id)
def test_file_vectors_hold_for_the_reference(vector: Any) -> None:
    files = extract_file_operations(vector.input["items"], reads=vector.input["reads"])
    assert {"files": files} == vector.expected


@pytest.mark.parametrize("vector", vectors_for("compact_structured"), ids=lambda v: v.id)
def test_structured_vectors_hold_for_the_reference(vector: Any) -> None:
    policy = StructuredSummaryCompactPolicy(from_json(ContextBudget, vector.input["budget"]))
    result = policy.compact(from_json(MemorySnapshot, vector.input["snapshot"]))
    assert compact_json(to_json(result)) == compact_json(
        to_json(from_json(CompactResult, vector.expected))
    )


@pytest.mark.parametrize("vector", vectors_for("compact_llm"), ids=lambda v: v.id)
def test_llm_vectors_hold_for_the_reference(vector: Any) -> None:
    model = _Model(vector.input["modelOutput"], vector.input["modelFails"])
    policy = LlmCompactPolicy(model, max_items=vector.input["maxItems"])
    result = policy.compact(from_json(MemorySnapshot, vector.input["snapshot"]))
    prompt = to_json(model.prompts[0]) if model.prompts else None
    assert compact_json(prompt) == compact_json(vector.expected["prompt"])
    assert compact_json(to_json(result)) == compact_json(
        to_json(from_json(CompactResult, vector.expected["result"]))
    )


def test_the_vectors_carry_the_spec_worked_examples() -> None:
    assert "compact-llm.spec-worked-example" in _vector_ids("compact_llm")
    assert "compact-structured.spec-worked-example" in _vector_ids("compact_structured")
    assert {"turn-boundary-cut.user-item", "turn-boundary-cut.naive-beyond-end"} <= set(
        _vector_ids("turn_boundary_cut")
    )
    marker_vectors = [
        v
        for v in vectors_for("compact_structured")
        if COMPACT_SUMMARY_MARKER in compact_json(v.expected)
    ]
    assert marker_vectors
