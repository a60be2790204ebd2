"""The rules both reference memories share: what an add appends, what a prompt sees.

Keeping them in one place is what makes :class:`InMemoryAgentMemory` and
:class:`SqliteAgentMemory` behave identically, call for call.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Protocol, cast, runtime_checkable

from ctxpact.reference._items import function_call_output, is_blank, system_message, user_message
from ctxpact.reference.memory._errors import CompressorResultError
from ctxpact.reference.projection import SizedItems, SizedItemsView
from ctxpact.reference.projection._sized import extend_with_copies, sized_copies
from ctxpact.spec import (
    ArgumentTypeError,
    InvalidValueError,
    JsonValue,
    MemoryCompressor,
    MemorySnapshot,
    SchemaValidationError,
    copy_json,
)


def user_input_items(value: JsonValue) -> list[JsonValue]:
    """The items ``add_user_input(value)`` appends: none for ``None``, a user message for text.

    Any other JSON value is appended as it is (a deep copy). Implements MEM-3.
    """
    if value is None:
        return []
    if isinstance(value, str):
        return [user_message(value)]
    return [copy_json(value)]


def output_items(items: Sequence[JsonValue]) -> list[JsonValue]:
    """Deep copies of the items ``add_output_items(items)`` appends (MEM-4).

    Raises:
        SchemaValidationError: if *items* is not a list of JSON values (a lone string or
            object is refused rather than split into characters or keys).

    """
    if isinstance(items, str | bytes | dict) or not isinstance(items, Sequence):
        raise SchemaValidationError.single(
            "$", f"Expected a list of items but got {type(items).__name__}"
        )
    return [copy_json(item, f"$[{index}]") for index, item in enumerate(items)]


def tool_output_items(owner: str, call_id: str, output: str | None) -> list[JsonValue]:
    """The one ``function_call_output`` item ``add_tool_output`` appends (MEM-5)."""
    if not isinstance(call_id, str):
        raise InvalidValueError(record=owner, field="call_id", expected="a str", actual=call_id)
    if output is not None and not isinstance(output, str):
        raise InvalidValueError(
            record=owner, field="output", expected="a str or None", actual=output
        )
    return [function_call_output(call_id, output)]


#: What a session id must be, everywhere (SES-17).
SESSION_ID_EXPECTED = "a non-blank str without lone surrogates"


def checked_session_id(owner: str, session_id: object) -> str:
    """*session_id*, checked against the one rule every store and memory keeps (SES-17).

    A session id is a non-blank string (§1.4: not only code points up to U+0020) of Unicode
    scalar values: storage keys must be text every store and every language can hold, and
    SQLite's TEXT is UTF-8, which cannot carry a lone surrogate.

    Raises:
        InvalidValueError: naming *owner* and the id otherwise.

    """
    if (
        not isinstance(session_id, str)
        or is_blank(session_id)
        or any("\ud800" <= character <= "\udfff" for character in session_id)
    ):
        raise InvalidValueError(
            record=owner, field="session_id", expected=SESSION_ID_EXPECTED, actual=session_id
        )
    return session_id


def checked_compressor(owner: str, compressor: object) -> MemoryCompressor | None:
    """*compressor*, checked to be ``None`` or a memory compressor (JSON-18).

    Raises:
        ArgumentTypeError: for anything without a ``compress`` method.

    """
    if compressor is not None and not callable(getattr(compressor, "compress", None)):
        raise ArgumentTypeError(
            operation=owner,
            argument="compressor",
            expected="a MemoryCompressor (with compress) or None",
            actual=compressor,
        )
    return cast("MemoryCompressor | None", compressor)


def checked_summary(owner: str, summary: str | None) -> str | None:
    """*summary*, checked to be a string or ``None``."""
    if summary is not None and not isinstance(summary, str):
        raise InvalidValueError(
            record=owner, field="summary", expected="a str or None", actual=summary
        )
    return summary


def copied_items(items: Sequence[JsonValue]) -> list[JsonValue]:
    """Deep copies of *items*, so that no caller shares an object with a memory (MEM-12)."""
    return [copy_json(item, f"$.items[{index}]") for index, item in enumerate(items)]


def prompt_items(items: Sequence[JsonValue], summary: str | None) -> list[JsonValue]:
    """What ``get_items`` returns: ``[system_message(summary)] + items`` unless blank (MEM-7).

    "Blank" is Java's ``trim().isEmpty()``: only code points up to U+0020 count as space.
    """
    copies = copied_items(items)
    if is_blank(summary):
        return copies
    return [system_message(summary), *copies]


def compressed(
    compressor: MemoryCompressor, items: Sequence[JsonValue], summary: str | None
) -> MemorySnapshot:
    """Run *compressor* on the state after an add, returning an independent result (MEM-6).

    Raises:
        CompressorResultError: if the compressor returns anything but a ``MemorySnapshot``.

    """
    result = compressor.compress(MemorySnapshot(items=tuple(copied_items(items)), summary=summary))
    if not isinstance(result, MemorySnapshot):
        raise CompressorResultError(result)
    return MemorySnapshot(
        items=tuple(copied_items(result.items)),
        summary=checked_summary("MemorySnapshot", result.summary),
    )


def detached(snapshot: MemorySnapshot | None) -> MemorySnapshot:
    """A copy of *snapshot* that shares no mutable object with it; ``None`` is the empty one."""
    if snapshot is None:
        return MemorySnapshot()
    if not isinstance(snapshot, MemorySnapshot):
        raise SchemaValidationError.single(
            "$", f"Expected a MemorySnapshot but got {type(snapshot).__name__}"
        )
    return MemorySnapshot(
        items=tuple(copied_items(snapshot.items)),
        summary=checked_summary("MemorySnapshot", snapshot.summary),
    )


class MemoryWrites(abc.ABC):
    """The three add operations, the same for every memory (MEM-3 .. MEM-6).

    Each builds its items and hands them to ``_append``, which stores them (and runs the
    compressor) in one step.
    """

    def add_user_input(self, value: JsonValue) -> None:
        """Append the user's input: ``None`` is ignored, a string becomes a user message."""
        self._append(user_input_items(value))

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        """Append the model's output items (an empty list is ignored)."""
        self._append(output_items(items))

    def add_tool_output(self, call_id: str, output: str | None) -> None:
        """Append ``{type: "function_call_output", call_id, output}``."""
        self._append(tool_output_items(type(self).__name__, call_id, output))

    @abc.abstractmethod
    def _append(self, new_items: list[JsonValue]) -> None:
        """Store *new_items* after the current items, with the compression, atomically."""


@runtime_checkable
class MemoryViews(Protocol):
    """A memory that shares read-only views of its state instead of copies (MEM-22 .. MEM-25).

    The reference memories have both operations; a runtime that finds them uses them at every
    step in place of ``get_items()`` and ``snapshot()`` (RUN-16). A third-party memory may
    offer them too.
    """

    def prompt_view(self) -> Sequence[JsonValue]:
        """What ``get_items()`` returns, shared and read-only, not copied (MEM-22)."""
        ...

    def snapshot_view(self) -> MemorySnapshot:
        """What ``snapshot()`` returns, its items shared and read-only (MEM-23)."""
        ...


class PromptList:
    """The prompt list of a memory (MEM-7) as a ``SizedItems``: built once, then only extended.

    It holds the memory's own items (checked copies, MEM-12, JSON-17), so nothing is checked,
    copied or measured twice: it is built when a view is first asked for and extended with
    every append, so a view costs nothing and a projection of it reads the sizes it keeps
    (MEM-22, PRJ-36). Anything but an append replaces it with a new one: a view handed out
    earlier keeps what it saw (MEM-24).
    """

    __slots__ = ("_sized",)

    def __init__(self) -> None:
        self._sized: SizedItems | None = None

    def appended(self, new_items: list[JsonValue]) -> None:
        """The memory appended *new_items* (its own checked copies) to its raw items."""
        if self._sized is not None:
            extend_with_copies(self._sized, new_items)

    def view(self, items: Sequence[JsonValue], summary: str | None) -> SizedItemsView:
        """The prompt list of raw *items* and *summary*, as a read-only view."""
        if self._sized is None:
            head = [] if is_blank(summary) else [system_message(summary)]
            self._sized = sized_copies([*head, *items])
        return self._sized.view()
