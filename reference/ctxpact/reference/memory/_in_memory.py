"""The memory that lives in the process: a list of items and a summary."""

from __future__ import annotations

from ctxpact.reference.memory._state import (
    MemoryWrites,
    checked_compressor,
    checked_summary,
    compressed,
    copied_items,
    detached,
    prompt_items,
)
from ctxpact.spec import JsonValue, MemoryCompressor, MemorySnapshot


class InMemoryAgentMemory(MemoryWrites):
    """An agent memory held in the process: ordered items plus an optional summary.

    Every item that goes in or comes out is a deep copy, so no caller ever shares a mutable
    object with the memory. With a *compressor*, every add that appends at least one item is
    followed by ``compressor.compress(snapshot)`` and the result replaces items and summary;
    the add and its compression are atomic (a raising compressor leaves the memory as it was).
    ``set_summary``, ``restore`` and ``clear`` never run the compressor.

    Implements MEM-1 .. MEM-14; behaves call for call like
    :class:`~ctxpact.reference.memory.SqliteAgentMemory`.
    """

    def __init__(self, compressor: MemoryCompressor | None = None) -> None:
        self._compressor = checked_compressor(type(self).__name__, compressor)
        self._items: list[JsonValue] = []
        self._summary: str | None = None

    @property
    def compressor(self) -> MemoryCompressor | None:
        """The compressor run after every add, or ``None``."""
        return self._compressor

    def get_items(self) -> list[JsonValue]:
        """A new list: the summary as a system message first (unless blank), then the items."""
        return prompt_items(self._items, self._summary)

    def get_summary(self) -> str | None:
        """The current summary, or ``None``."""
        return self._summary

    def set_summary(self, summary: str | None) -> None:
        """Replace the summary (``None`` removes it); the compressor does not run."""
        self._summary = checked_summary(type(self).__name__, summary)

    def clear(self) -> None:
        """Remove every item and the summary."""
        self._items = []
        self._summary = None

    def snapshot(self) -> MemorySnapshot:
        """The raw items (no summary message) and the summary, as an independent copy."""
        return MemorySnapshot(items=tuple(copied_items(self._items)), summary=self._summary)

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        """Replace items and summary with the snapshot's (restore keeps the summary).

        The snapshot is copied, not shared; ``None`` restores the empty state; the compressor
        does not run (MEM-10, MEM-12).
        """
        state = detached(snapshot)
        self._items = list(state.items)
        self._summary = state.summary

    def _append(self, new_items: list[JsonValue]) -> None:
        if not new_items:
            return
        if self._compressor is None:
            self._items.extend(new_items)
            return
        result = compressed(self._compressor, [*self._items, *new_items], self._summary)
        self._items = list(result.items)
        self._summary = result.summary
