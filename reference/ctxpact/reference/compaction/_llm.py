"""The LLM compact policy: summarize the old turns with a model, keep the recent ones (§10)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from attrs import Attribute, evolve, field, frozen

from ctxpact.reference._arguments import checked_snapshot
from ctxpact.reference._items import is_blank, java_trim, user_message
from ctxpact.reference.compaction._cut import find_turn_boundary_cut
from ctxpact.reference.compaction._files import (
    extract_file_operations,
    merge_files,
    read_file_sections,
)
from ctxpact.reference.compaction._policy import CompactPolicy
from ctxpact.reference.compaction._summary import (
    parse_structured_summary,
    render_structured_summary,
)
from ctxpact.spec import (
    CompactResult,
    InvalidValueError,
    JsonValue,
    MemorySnapshot,
    ModelClient,
    ModelPrompt,
    ModelResult,
    StructuredSummary,
    compact_json,
)

_LOGGER = logging.getLogger(__name__)

#: The system prompt of the summary request, verbatim from ai4j (note the em dashes).
SUMMARIZER_SYSTEM_PROMPT = (
    "You are a conversation summarizer for a coding agent. Return ONLY a JSON object"
    " \u2014 no prose, no code fences \u2014 with exactly these keys:\n"
    '{"goal": string, "completed": [string], "pending": [string], "decisions": [string],'
    ' "errors": [string], "testResults": [string], "openQuestions": [string]}\n'
    "Use an empty array for a key with nothing to report. Keep each entry to one short line.\n"
    "Carry forward any still-unresolved entries from the previous summary's pending and"
    " decisions.\n"
    "Preserve file paths, error messages, and command names verbatim."
)
#: The first block of the user content, when the memory has a non-blank summary.
PREVIOUS_SUMMARY_BLOCK = "Previous summary:\n{summary}\n\n"
#: The second block, when any file was read or modified (both lines are written).
FILES_BLOCK = "Files read: {read}\nFiles modified: {modified}\n\n"
#: A file list in the files block, Java style: ``[a, b]``, ``[]``.
FILE_LIST = "[{files}]"
#: The separator of the paths in a file list.
FILE_LIST_SEPARATOR = ", "
#: The last block: the summarized items as one compact JSON array.
CONVERSATION_BLOCK = "Conversation to summarize:\n{conversation}"
#: The summary when the model call fails or answers nothing.
SUMMARY_UNAVAILABLE = (
    "Compaction summary unavailable (LLM summarization failed). {count} items were summarized."
)
#: The default of ``max_items``: the trigger threshold and the number of recent items kept.
DEFAULT_MAX_ITEMS = 20


def _file_list(paths: Sequence[str]) -> str:
    return FILE_LIST.format(files=FILE_LIST_SEPARATOR.join(paths))


def summary_request_content(
    previous_summary: str | None,
    read_files: Sequence[str],
    modified_files: Sequence[str],
    to_summarize: Sequence[JsonValue],
) -> str:
    """The user content of the summary request, in this order (LLM-8 to LLM-10).

    :data:`PREVIOUS_SUMMARY_BLOCK` with the trimmed previous summary when it is not blank;
    :data:`FILES_BLOCK` when either file list is not empty; :data:`CONVERSATION_BLOCK` with
    the compact JSON array of the summarized items.
    """
    content = ""
    if previous_summary is not None and not is_blank(previous_summary):
        content += PREVIOUS_SUMMARY_BLOCK.format(summary=java_trim(previous_summary))
    if read_files or modified_files:
        content += FILES_BLOCK.format(
            read=_file_list(read_files), modified=_file_list(modified_files)
        )
    return content + CONVERSATION_BLOCK.format(conversation=compact_json(list(to_summarize)))


def _model_client(instance: object, attribute: Attribute[Any], value: object) -> None:
    if not isinstance(value, ModelClient):
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected="a ModelClient (with create)",
            actual=value,
        )


def _name(name: str | None) -> str:
    return "" if name is None else name


def _text(instance: object, attribute: Attribute[Any], value: object) -> None:
    if not isinstance(value, str):
        raise InvalidValueError(
            record=type(instance).__name__, field=attribute.name, expected="a str", actual=value
        )


def _non_negative(instance: object, attribute: Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected="a non-negative integer",
            actual=value,
        )


@frozen
class LlmCompactPolicy(CompactPolicy):
    """Summarizes all but the recent items with a model; the summary replaces the old one.

    Implements CMP-5 and LLM-1 to LLM-16. ``should_compact`` is ``len(items) >
    max_items``. ``compact`` cuts at :func:`find_turn_boundary_cut` of ``len - min(max_items,
    len)``. A cut of 0 summarizes nothing: no model call, and the result is the memory
    unchanged with its summary as ``summary`` and every other field empty. Otherwise one
    request (:data:`SUMMARIZER_SYSTEM_PROMPT`, one user message of
    :func:`summary_request_content`) goes to the model; an exception, no result, or a blank
    answer gives :data:`SUMMARY_UNAVAILABLE`, else the answer is parsed
    (:func:`parse_structured_summary`). The files read and modified are those of the
    previous summary's file sections followed by those of the summarized items; they are
    rendered into the new summary (:func:`render_structured_summary`) in both cases, so they
    survive a failed summarization too. The result fills ``memory`` (the kept items with the
    new summary), ``summary``, the six lists (``errors`` as ``failed_commands``) and the two
    file lists; ``context_report`` stays ``None``.
    """

    model_client: ModelClient = field(validator=_model_client)
    model_name: str = field(default="", converter=_name, validator=_text)
    max_items: int = field(default=DEFAULT_MAX_ITEMS, validator=_non_negative)

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        """Whether *snapshot* has more than ``max_items`` items."""
        snapshot = checked_snapshot(f"{type(self).__name__}.should_compact", snapshot)
        return len(snapshot.items) > self.max_items

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """Summarize the head of *snapshot* up to a turn boundary and keep the tail."""
        snapshot = checked_snapshot(f"{type(self).__name__}.compact", snapshot)
        items = snapshot.items
        cut = find_turn_boundary_cut(items, len(items) - min(self.max_items, len(items)))
        if cut == 0:
            return CompactResult(memory=snapshot, summary=snapshot.summary)
        to_summarize, to_keep = items[:cut], items[cut:]
        previous_read, previous_modified = read_file_sections(snapshot.summary)
        read_files = merge_files(previous_read, extract_file_operations(to_summarize, reads=True))
        modified_files = merge_files(
            previous_modified, extract_file_operations(to_summarize, reads=False)
        )
        content = summary_request_content(
            snapshot.summary, read_files, modified_files, to_summarize
        )
        answer = self._ask(
            ModelPrompt(
                model=self.model_name,
                system_prompt=SUMMARIZER_SYSTEM_PROMPT,
                items=(user_message(content),),
            )
        )
        if answer is None:
            parsed = StructuredSummary(
                parsed=False, text=SUMMARY_UNAVAILABLE.format(count=len(to_summarize))
            )
        else:
            parsed = parse_structured_summary(answer)
        parsed = evolve(parsed, read_files=read_files, modified_files=modified_files)
        summary = render_structured_summary(parsed)
        return CompactResult(
            memory=MemorySnapshot(items=to_keep, summary=summary),
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

    def _ask(self, prompt: ModelPrompt) -> str | None:
        """The model's answer, or ``None`` when the call failed or answered nothing (LLM-11)."""
        try:
            result: ModelResult | None = self.model_client.create(prompt)
        except Exception:
            # The contract turns any failure of the summary call into the fallback summary;
            # the error is logged, not lost.
            _LOGGER.warning("LLM summarization failed", exc_info=True)
            return None
        if result is None or result.output_text is None or is_blank(result.output_text):
            return None
        return result.output_text
