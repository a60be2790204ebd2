"""What the memories and stores kept in a database table share, whatever the database.

The SQLite and PostgreSQL memories keep one row per item and one for the summary, each with
``(session_id, kind, position, entry_json)``. Reading the rows back, refusing a corrupt one
(MEM-20), choosing the fewest rows to rewrite after a compression, the reads of the memory
contract and closing a connection the object owns are the same whatever the database; only
the SQL differs.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import Self, cast

from attrs import frozen

from ctxpact.reference.memory._state import prompt_items
from ctxpact.spec import (
    InvalidJsonError,
    JsonValue,
    MemoryCompressor,
    MemorySnapshot,
    SchemaValidationError,
    decode_json,
)

#: The ``kind`` of an item row; its ``position`` orders the items.
ITEM_KIND = "item"
#: The ``kind`` of the summary row (position 0; absent when the summary is ``None``).
SUMMARY_KIND = "summary"

#: Builds the error for a row that cannot be read: ``(kind, position, expected, actual)``.
Corrupt = Callable[[str, object, str, object], Exception]


@frozen(kw_only=True)
class Row:
    """One stored row of a session: its position and its JSON text."""

    position: int
    text: str


@frozen(kw_only=True)
class Stored:
    """The rows of one session, items in position order, and the summary row if any."""

    items: tuple[Row, ...]
    summary: Row | None


def stored_rows(rows: Iterable[Sequence[object]], corrupt: Corrupt) -> Stored:
    """The rows ``(kind, position, entry_json)`` of one session, ordered by kind and position.

    Raises:
        Exception: *corrupt*'s, for a row of an unknown kind or a second summary row.

    """
    items: list[Row] = []
    summary: Row | None = None
    for kind, position, text in rows:
        row = Row(position=cast("int", position), text=cast("str", text))
        if kind == ITEM_KIND:
            items.append(row)
        elif kind == SUMMARY_KIND and summary is None:
            summary = row
        else:
            raise corrupt(str(kind), position, "a row of kind 'item' or 'summary'", kind)
    return Stored(items=tuple(items), summary=summary)


def parsed_rows(stored: Stored, corrupt: Corrupt) -> MemorySnapshot:
    """The snapshot the rows hold (MEM-19); a row that is not what it should be is refused.

    Raises:
        Exception: *corrupt*'s, naming the row (MEM-20): nothing is repaired or skipped.

    """
    items = [_parsed(ITEM_KIND, row, corrupt) for row in stored.items]
    summary: str | None = None
    if stored.summary is not None:
        value = _parsed(SUMMARY_KIND, stored.summary, corrupt)
        if not isinstance(value, str):
            raise corrupt(
                SUMMARY_KIND, stored.summary.position, "a JSON string", stored.summary.text
            )
        summary = value
    return MemorySnapshot(items=tuple(items), summary=summary)


def _parsed(kind: str, row: Row, corrupt: Corrupt) -> JsonValue:
    if not isinstance(row.text, str):
        raise corrupt(kind, row.position, "JSON text", row.text)
    try:
        # What a memory writes it can read back from any call depth (JSON-17).
        value = decode_json(row.text)
    except (InvalidJsonError, SchemaValidationError) as error:
        raise corrupt(kind, row.position, "JSON text", row.text) from error
    return cast("JsonValue", value)


@frozen(kw_only=True)
class Rewrite:
    """The rows to change after a compression: delete some item rows, insert new ones.

    Delete the item rows at positions ``>= delete_from`` (when not ``None``) or ``<
    delete_before`` (when not ``None``), then insert *texts* at ``start``, ``start + 1``, ….
    """

    delete_from: int | None
    delete_before: int | None
    start: int
    texts: tuple[str, ...]


def rewrite(stored: Stored, texts: Sequence[str], appended: int) -> Rewrite:
    """The fewest row changes that turn the stored items into *texts* (after *appended* adds).

    The rows a compressor left alone (the common prefix) stay. A compressor that drops the
    oldest items (a sliding window) leaves the old rows after a head as the start of the new
    list: the head is deleted and only the new tail inserted.
    """
    old = [row.text for row in stored.items]
    kept = 0
    for row, text in zip(old, texts, strict=False):
        if row != text:
            break
        kept += 1
    head = len(old) + appended - len(texts)
    prefix_writes = len(old) - kept + len(texts) - kept
    if 0 < head < len(old) and head + appended < prefix_writes:
        survivors = len(old) - head
        if old[head:] == list(texts[:survivors]):
            return Rewrite(
                delete_from=None,
                delete_before=stored.items[head].position,
                start=stored.items[-1].position + 1,
                texts=tuple(texts[survivors:]),
            )
    return Rewrite(
        delete_from=stored.items[kept].position if kept < len(stored.items) else None,
        delete_before=None,
        start=stored.items[kept - 1].position + 1 if kept else 0,
        texts=tuple(texts[kept:]),
    )


class StoredMemoryReads(abc.ABC):
    """The reads of a memory kept in a table: each one reads the session's rows again.

    The table is the only state, so two memories on one session see the same items (MEM-19).
    """

    _session_id: str
    _compressor: MemoryCompressor | None

    @property
    def session_id(self) -> str:
        """The session whose rows this memory reads and writes."""
        return self._session_id

    @property
    def compressor(self) -> MemoryCompressor | None:
        """The compressor run after every add, or ``None``."""
        return self._compressor

    def get_items(self) -> list[JsonValue]:
        """A new list: the summary as a system message first (unless blank), then the items."""
        state = self._load("read the items")
        return prompt_items(state.items, state.summary)

    def get_summary(self) -> str | None:
        """The current summary, or ``None``."""
        return self._load("read the summary").summary

    def snapshot(self) -> MemorySnapshot:
        """The raw items (no summary message) and the summary, as an independent copy."""
        return self._load("take a snapshot")

    @abc.abstractmethod
    def _load(self, operation: str) -> MemorySnapshot:
        """The session's state, read from its rows for *operation*."""


class ClosingContext(abc.ABC):
    """``close`` and the context manager of an object that may own its connection."""

    def close(self) -> None:
        """Close the connection if this object opened it; a borrowed one stays open."""
        self._close_owned()

    @abc.abstractmethod
    def _close_owned(self) -> None:
        """Close the connection if this object owns it."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
