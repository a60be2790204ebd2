"""The spec's functions as one component: what a port of them is checked through."""

from __future__ import annotations

from collections.abc import Sequence

from ctxpact.reference.compaction import (
    extract_file_operations,
    find_turn_boundary_cut,
    render_structured_summary,
)
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import JsonValue, StructuredSummary


class SpecFunctions:
    """The reference's functions of the spec, each a method, for the ``functions`` component.

    A port in another language has these functions as free functions, or not at all; the
    conformance suite reaches them through one object (in process) or one harness target,
    and checks each method the object has (a missing one is skipped). Implements SIZE-1 ..
    SIZE-6 (:meth:`approx_chars`), CUT-1 .. CUT-6 (:meth:`turn_boundary_cut`), FIL-1 .. FIL-7
    (:meth:`extract_file_operations`) and PRS-13, PRS-14 (:meth:`render_summary`).
    """

    def approx_chars(self, item: JsonValue) -> int:
        """The approximate size of *item* (SIZE-1 .. SIZE-6)."""
        return approx_chars(item)

    def turn_boundary_cut(self, items: Sequence[JsonValue], naive_cut: int) -> int:
        """Where a compaction of *items* that would cut at *naive_cut* cuts (CUT-1 .. CUT-6)."""
        return find_turn_boundary_cut(items, naive_cut)

    def extract_file_operations(self, items: Sequence[JsonValue], reads: bool) -> list[str]:
        """The files the tool calls of *items* read (*reads*) or modify (FIL-1 .. FIL-7)."""
        return extract_file_operations(items, reads=reads)

    def render_summary(self, summary: StructuredSummary) -> str:
        """The Markdown text of *summary* (PRS-13, PRS-14)."""
        return render_structured_summary(summary)

    def __repr__(self) -> str:
        return "SpecFunctions()"
