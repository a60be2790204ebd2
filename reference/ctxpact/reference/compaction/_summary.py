"""The forgiving summary parser and the Markdown rendering of a structured summary (§13).

The parser reads whatever a summarizer model answered: a bare JSON object, one in a code
fence, one between sentences, or none at all. It never raises, and its time is linear in the
length of the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ctxpact.reference._arguments import checked_summary, checked_text
from ctxpact.reference._items import is_blank, java_trim
from ctxpact.reference.compaction._json import Parsed, load_object, render_json
from ctxpact.spec import StructuredSummary

#: The JSON key of the goal.
GOAL_KEY = "goal"
#: The JSON keys of the six lists, in the order they are read and rendered.
SUMMARY_LIST_KEYS = (
    "completed",
    "pending",
    "decisions",
    "errors",
    "testResults",
    "openQuestions",
)
#: The heading of every rendered section; ``title`` is one of the titles below.
SECTION_HEADING = "## {title}"
#: One entry of a rendered list section.
SECTION_ENTRY = "- {entry}"
#: The title of the goal section.
GOAL_TITLE = "Goal"
#: The section titles of the six lists, in ``SUMMARY_LIST_KEYS`` order.
SUMMARY_LIST_TITLES = (
    "Progress",
    "Pending",
    "Key Decisions",
    "Errors",
    "Test Results",
    "Open Questions",
)
#: The title of the section listing the files read so far (PRS-13, PRS-15).
FILES_READ_TITLE = "Files Read"
#: The title of the section listing the files modified so far (PRS-13, PRS-15).
FILES_MODIFIED_TITLE = "Files Modified"

# Only these characters can change the brace depth or start a string.
_SIGNIFICANT = re.compile(r'[{}"]')
# The rest of a JSON string after its opening quote, up to and including the closing quote;
# possessive, so an unterminated string costs linear time too.
_STRING_TAIL = re.compile(r'[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
# A JSON object opens with "{", optional JSON whitespace, then a key or the closing "}"; a span
# that does not is prose in braces and is skipped without asking the decoder.
_OBJECT_OPENING = re.compile(r'\{[ \t\n\r]*["}]')


def _balanced_spans(text: str, begin: int) -> Iterator[tuple[int, int]]:
    """The maximal balanced ``{…}`` spans of *text* from *begin*, in order, as (start, end).

    One pass. Inside braces, JSON strings are skipped whole (a brace in a string does not
    count, a backslash escapes the next character); outside any brace, quotes are prose and
    ignored. A span is maximal when no balanced span encloses it, so an unclosed stray ``{``
    in the prose does not hide the object that follows it. Maximal spans are disjoint, so
    parsing each of them costs linear time in total.
    """
    openers: list[int] = []
    # (start, end, enclosing opener or -1) of every balanced span, in closing order.
    closed: list[tuple[int, int, int]] = []
    position = begin
    while (match := _SIGNIFICANT.search(text, position)) is not None:
        index = position = match.start()
        position += 1
        char = match.group()
        if char == "{":
            openers.append(index)
        elif not openers:
            continue
        elif char == "}":
            start = openers.pop()
            closed.append((start, index, openers[-1] if openers else -1))
        else:
            tail = _STRING_TAIL.match(text, position)
            if tail is None:
                break
            position = tail.end()
    never_closed = set(openers)
    for start, end, parent in closed:
        if parent == -1 or parent in never_closed:
            yield start, end


def _find_object(text: str) -> dict[str, Parsed] | None:
    first = text.find("{")
    last = text.rfind("}")
    if first < 0 or last <= first:
        return None
    found = load_object(text[first : last + 1])
    if found is not None:
        return found
    for start, end in _balanced_spans(text, first):
        if (start, end) == (first, last) or not _OBJECT_OPENING.match(text, start):
            continue
        found = load_object(text[start : end + 1])
        if found is not None:
            return found
    return None


def _entry_text(value: Parsed) -> str:
    return value if isinstance(value, str) else render_json(value)


def _entries(value: Parsed) -> tuple[str, ...]:
    if value is None:
        return ()
    members = value if isinstance(value, list) else [value]
    entries: list[str] = []
    for member in members:
        if member is None:
            continue
        entry = java_trim(_entry_text(member))
        if entry:
            entries.append(entry)
    return tuple(entries)


def parse_structured_summary(text: str) -> StructuredSummary:
    """Read a summarizer model's answer into a :class:`~ctxpact.spec.StructuredSummary`.

    Implements PRS-1 to PRS-12 and JSON-7. The answer is trimmed; the span from its first
    ``{`` to its last ``}`` is parsed as strict JSON; when that is not an object, each maximal
    balanced ``{…}`` span is tried in order and the first object wins. Without an object the
    result has ``parsed=False`` and ``text`` = the trimmed answer.

    With an object: ``goal`` is its text form trimmed (``None`` when blank or missing); each of
    the six lists takes an array's non-null members, or one non-null non-array value, in text
    form (a string as is, anything else as compact JSON text with numbers exactly as
    written), trimmed, and kept when not empty. Other keys, including
    ``readFiles``/``modifiedFiles``, are ignored: files come from tracking (§12), not from the
    model. ``text`` holds the object's compact JSON text, which
    :func:`render_structured_summary` falls back to when there is nothing to render.

    Never raises for a string, and runs in time linear in the length of *text*.

    Raises:
        ArgumentTypeError: if *text* is not a string (JSON-18).

    """
    trimmed = java_trim(checked_text("parse_structured_summary", "text", text))
    found = _find_object(trimmed)
    if found is None:
        return StructuredSummary(parsed=False, text=trimmed)
    goal_value = found.get(GOAL_KEY)
    goal = None if goal_value is None else java_trim(_entry_text(goal_value)) or None
    completed, pending, decisions, errors, test_results, open_questions = (
        _entries(found.get(key)) for key in SUMMARY_LIST_KEYS
    )
    return StructuredSummary(
        goal=goal,
        completed=completed,
        pending=pending,
        decisions=decisions,
        errors=errors,
        test_results=test_results,
        open_questions=open_questions,
        parsed=True,
        text=render_json(found),
    )


def _section(title: str, entries: Sequence[str]) -> str:
    lines = "".join(SECTION_ENTRY.format(entry=entry) + "\n" for entry in entries)
    return "\n" + SECTION_HEADING.format(title=title) + "\n" + lines


def render_structured_summary(summary: StructuredSummary) -> str:
    """The Markdown text of *summary*, the form stored as a memory's summary.

    Implements PRS-13 and PRS-14. For a parsed summary: ``## Goal`` with the goal when it is not
    blank, then one ``## <Title>`` section of ``- <entry>`` lines per non-empty list (Progress,
    Pending, Key Decisions, Errors, Test Results, Open Questions); when none of these is
    written, ``summary.text`` (the object's JSON text) instead. An unparsed summary renders
    its ``text``. Either way ``## Files Read`` and ``## Files Modified`` sections follow when
    their lists are not empty, so file tracking survives in the summary itself. The whole is
    trimmed.

    Raises:
        ArgumentTypeError: if *summary* is not a ``StructuredSummary`` (JSON-18).

    """
    summary = checked_summary("render_structured_summary", summary)
    parts: list[str] = []
    if summary.parsed:
        if summary.goal is not None and not is_blank(summary.goal):
            parts.append(
                SECTION_HEADING.format(title=GOAL_TITLE) + "\n" + java_trim(summary.goal) + "\n"
            )
        lists = (
            summary.completed,
            summary.pending,
            summary.decisions,
            summary.errors,
            summary.test_results,
            summary.open_questions,
        )
        parts.extend(
            _section(title, entries)
            for title, entries in zip(SUMMARY_LIST_TITLES, lists, strict=True)
            if entries
        )
    if not parts:
        parts.append(summary.text + "\n")
    if summary.read_files:
        parts.append(_section(FILES_READ_TITLE, summary.read_files))
    if summary.modified_files:
        parts.append(_section(FILES_MODIFIED_TITLE, summary.modified_files))
    return java_trim("".join(parts))
