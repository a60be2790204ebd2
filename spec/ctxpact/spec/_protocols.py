"""The interfaces third-party implementations satisfy, as runtime-checkable protocols.

``isinstance`` against a protocol only checks that the methods exist; the conformance
suite checks what they do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ctxpact.spec._json import JsonValue
from ctxpact.spec._records import (
    CompactResult,
    ContextBudget,
    ContextProjection,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    StructuredSummary,
)


@runtime_checkable
class ContextProjector(Protocol):
    """Chooses what this turn's prompt carries, without touching memory (PRJ-1 .. PRJ-12)."""

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        """Project *items* under *budget* (``None``: no limits and no tiers)."""
        ...


@runtime_checkable
class CompactPolicy(Protocol):
    """Decides when to compact a memory, and replaces old memory with a summary (CMP-1 .. CMP-4)."""

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        """Whether the runtime should compact a memory in this state now."""
        ...

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """Compact *snapshot* and report what was kept and what was summarized."""
        ...


@runtime_checkable
class MemoryCompressor(Protocol):
    """Rewrites a memory snapshot on the memory's write path."""

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        """Return the compressed form of *snapshot*."""
        ...


@runtime_checkable
class AgentMemory(Protocol):
    """The agent loop's state: ordered items plus an optional summary (MEM-1 .. MEM-13)."""

    def add_user_input(self, value: JsonValue) -> None:
        """Append the user's input; a string becomes a user message."""
        ...

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        """Append the model's output items."""
        ...

    def add_tool_output(self, call_id: str, output: str | None) -> None:
        """Append a tool result for the call *call_id*."""
        ...

    def get_items(self) -> list[JsonValue]:
        """The items a prompt is built from: the summary message first, when there is one."""
        ...

    def get_summary(self) -> str | None:
        """The current summary, or ``None``."""
        ...

    def set_summary(self, summary: str | None) -> None:
        """Replace the summary."""
        ...

    def clear(self) -> None:
        """Remove every item and the summary."""
        ...

    def snapshot(self) -> MemorySnapshot:
        """The raw items and the summary, as an independent copy."""
        ...

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        """Replace the items and the summary with the snapshot's; ``None`` empties (MEM-10)."""
        ...


@runtime_checkable
class ModelClient(Protocol):
    """A language model behind one call."""

    def create(self, prompt: ModelPrompt) -> ModelResult:
        """Answer *prompt*."""
        ...


@runtime_checkable
class SummaryParser(Protocol):
    """Reads a summarizer model's output into a structured summary, never raising (PRS-1)."""

    def __call__(self, text: str) -> StructuredSummary:
        """Parse *text*."""
        ...
