"""The deterministic compact policy: project the memory and note what was kept (§9.3)."""

from __future__ import annotations

import re
import string
from typing import Any

from attrs import Attribute, field, frozen

from ctxpact.reference._arguments import checked_snapshot
from ctxpact.reference._items import is_blank, java_trim
from ctxpact.reference.compaction._policy import CompactPolicy
from ctxpact.reference.projection import PairSafeContextProjector
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    ContextProjector,
    ContextReport,
    InvalidValueError,
    MemorySnapshot,
)

#: The first line of every summary this policy writes.
COMPACT_SUMMARY_MARKER = "AI4J_COMPACT_SUMMARY"
#: The line before the carried-forward previous summary.
EXISTING_SUMMARY_LINE = "Existing summary:"
#: The projection line when the projection dropped nothing.
PROJECTION_LINE = "Context projection: {projected}/{source} items retained."
#: The projection line when the projection dropped items.
PROJECTION_LINE_WITH_DROPS = (
    "Context projection: {projected}/{source} items retained, {dropped} dropped."
)
#: The last line of every summary this policy writes.
AUTHORITATIVE_CONTEXT_LINE = (
    "Preserved recent items should be treated as the authoritative working context."
)


def _line_pattern(*templates: str) -> re.Pattern[str]:
    """A pattern matching any of *templates* with each field a decimal count."""
    alternatives = []
    for template in templates:
        pieces = []
        for literal, name, _, _ in string.Formatter().parse(template):
            pieces.append(re.escape(literal))
            if name is not None:
                pieces.append("[0-9]+")
        alternatives.append("".join(pieces))
    return re.compile("|".join(alternatives))


_PROJECTION_PATTERN = _line_pattern(PROJECTION_LINE, PROJECTION_LINE_WITH_DROPS)


def carried_summary(previous: str | None) -> str | None:
    """What of the previous summary a new structured summary carries after ``Existing summary:``.

    Implements CMP-13, bounded form. A blank summary carries nothing. A summary of another
    kind is carried trimmed, whole. One of this policy's own summaries (its first line is exactly
    :data:`COMPACT_SUMMARY_MARKER`) carries only what it carried itself: the marker line, the
    :data:`AUTHORITATIVE_CONTEXT_LINE` at its end, the projection line before that and the
    :data:`EXISTING_SUMMARY_LINE` after the marker are left out, since the new summary writes
    its own. So the summary's size stays bounded however often the policy runs, and running
    it again on its own output with the same projection changes nothing.
    """
    if previous is None or is_blank(previous):
        return None
    trimmed = java_trim(previous)
    lines = trimmed.split("\n")
    if lines[0] != COMPACT_SUMMARY_MARKER:
        return trimmed
    body = lines[1:]
    if body and body[-1] == AUTHORITATIVE_CONTEXT_LINE:
        body.pop()
    if body and _PROJECTION_PATTERN.fullmatch(body[-1]):
        body.pop()
    if body and body[0] == EXISTING_SUMMARY_LINE:
        body.pop(0)
    return java_trim("\n".join(body)) or None


def _projection_line(report: ContextReport) -> str:
    if report.dropped_item_count > 0:
        return PROJECTION_LINE_WITH_DROPS.format(
            projected=report.projected_item_count,
            source=report.source_item_count,
            dropped=report.dropped_item_count,
        )
    return PROJECTION_LINE.format(
        projected=report.projected_item_count, source=report.source_item_count
    )


def _default_projector(projector: ContextProjector | None) -> ContextProjector:
    # Pair-safe, so the compacted memory never keeps a tool result without its call; without
    # tiers, so memory keeps whole items and never a placeholder (CMP-9).
    return PairSafeContextProjector(tiers=False) if projector is None else projector


def _budget(instance: object, attribute: Attribute[Any], value: object) -> None:
    if value is not None and not isinstance(value, ContextBudget):
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected="a ContextBudget or None",
            actual=value,
        )


def _projector(instance: object, attribute: Attribute[Any], value: object) -> None:
    if not isinstance(value, ContextProjector):
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected="a ContextProjector (with project) or None",
            actual=value,
        )


@frozen
class StructuredSummaryCompactPolicy(CompactPolicy):
    """Compacts a memory to its projection under *budget*, with a deterministic summary.

    Implements CMP-5 and CMP-9 to CMP-14. *projector* defaults to a
    :class:`~ctxpact.reference.projection.PairSafeContextProjector` without tiers, so a tool
    call and its results are retained or summarized together. The summary's lines are
    :data:`COMPACT_SUMMARY_MARKER`; when something is carried from the previous summary
    (:func:`carried_summary`), :data:`EXISTING_SUMMARY_LINE` and that text; the projection
    line (:data:`PROJECTION_LINE`, or :data:`PROJECTION_LINE_WITH_DROPS` when items were
    dropped); and :data:`AUTHORITATIVE_CONTEXT_LINE`. The result fills ``memory`` (the
    projected items with the new summary), ``summary`` and ``context_report``.
    """

    budget: ContextBudget | None = field(validator=_budget)
    projector: ContextProjector = field(
        default=None, converter=_default_projector, validator=_projector
    )

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        """Whether *snapshot* has more items than ``budget.max_items`` (never without one)."""
        snapshot = checked_snapshot(f"{type(self).__name__}.should_compact", snapshot)
        if self.budget is None or self.budget.max_items is None:
            return False
        return len(snapshot.items) > self.budget.max_items

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """Project *snapshot*'s items and summarize what the projection kept."""
        snapshot = checked_snapshot(f"{type(self).__name__}.compact", snapshot)
        projection = self.projector.project(snapshot.items, self.budget)
        lines = [COMPACT_SUMMARY_MARKER]
        carried = carried_summary(snapshot.summary)
        if carried is not None:
            lines += [EXISTING_SUMMARY_LINE, carried]
        lines += [_projection_line(projection.report), AUTHORITATIVE_CONTEXT_LINE]
        summary = "\n".join(lines)
        return CompactResult(
            memory=MemorySnapshot(items=projection.items, summary=summary),
            summary=summary,
            context_report=projection.report,
        )
