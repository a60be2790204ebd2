"""The memory that lives in the process: a list of items and a summary."""

from __future__ import annotations

from ctxpact.reference.memory._state import (
    MemoryWrites,
    PromptList,
    checked_compressor,
    checked_summary,
    compressed,
    copied_items,
    detached,
    prompt_items,
)
from ctxpact.reference.projection import SizedItemsView
from ctxpact.spec import JsonValue, MemoryCompressor, MemorySnapshot


class InMemoryAgentMemory(MemoryWrites):
    """An agent memory held in the process: ordered items plus an optional summary.

    Every item that goes in or comes out is a deep copy, so no caller ever shares a mutable
    object with the memory. With a *compressor*, every add that appends at least one item is
    followed by ``compressor.compress(snapshot)`` and the result replaces items and summary;
    the add and its compression are atomic (a raising compressor leaves the memory as it was).
    ``set_summary``, ``restore`` and ``clear`` never run the compressor.

    For the runtime, :meth:`prompt_view` and :meth:`snapshot_view` share the memory's own
    items, read-only and uncopied, and the prompt view keeps each item's size from the add
    that brought it in, so a step costs what it adds.

    Implements MEM-1 .. MEM-14 and MEM-22 .. MEM-24; behaves call for call like
    :class:`~ctxpact.reference.memory.SqliteAgentMemory`.
    """

    def __init__(self, compressor: MemoryCompressor | None = None) -> None:
        self._compressor = checked_compressor(type(self).__name__, compressor)
        self._items: list[JsonValue] = []
        self._summary: str | None = None
        self._prompt = PromptList()

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
        summary = checked_summary(type(self).__name__, summary)
        if summary != self._summary:
            self._summary = summary
            self._prompt = PromptList()

    def clear(self) -> None:
        """Remove every item and the summary."""
        self._items = []
        self._summary = None
        self._prompt = PromptList()

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
        self._prompt = PromptList()

    def prompt_view(self) -> SizedItemsView:
        """What :meth:`get_items` returns, as a read-only sized view shared with the memory.

        Nothing is copied: the view holds the memory's own items and their sizes, and keeps
        the state it was taken in whatever the memory does next (MEM-22, MEM-24).
        """
        return self._prompt.view(self._items, self._summary)

    def snapshot_view(self) -> MemorySnapshot:
        """What :meth:`snapshot` returns, its items the memory's own, shared read-only (MEM-23)."""
        return MemorySnapshot(items=tuple(self._items), summary=self._summary)

    def _append(self, new_items: list[JsonValue]) -> None:
        if not new_items:
            return
        if self._compressor is None:
            self._items.extend(new_items)
            self._prompt.appended(new_items)
            return
        result = compressed(self._compressor, [*self._items, *new_items], self._summary)
        self._items = list(result.items)
        self._summary = result.summary
        self._prompt = PromptList()
