"""What the store checks share.

The default table, the store capabilities a check detects (protocols), the safe form of an
id (SES-13), the strategies of session snapshots, a fully filled session, and the snapshots
a store must refuse.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import attrs
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance.checks._stateful_support import (
    EDGE_ITEMS,
    first_difference,
    summaries,
    text,
)
from ctxpact.conformance.strategies import texts
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    ContextReport,
    JsonObject,
    JsonValue,
    MemorySnapshot,
    to_json,
)

#: The table a SQLite session store uses unless told otherwise (SES-16).
DEFAULT_SESSION_TABLE = "ctxpact_agent_session"
#: The longest file name a file store may write, in bytes (SES-13).
MAX_FILE_NAME_BYTES = 255
_SESSION_SCHEMA = "session-snapshot"
_KEPT_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_-")
#: Ids that collide under careless encodings: case, punctuation, an encoded form itself.
_ID_POOL = ("s-1", "S-1", "Run/1", "%52un%2F1", "日本語", "a b", ".hidden", "x.json", "s-10")
_BAD_TABLES = ("", "1abc", "a-b", "a b", 'x"; DROP TABLE y; --', "main.t")


@runtime_checkable
class SessionStore(Protocol):
    """What every session store has (SES-9)."""

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Store *snapshot* under its session id, replacing what was there."""
        ...

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None``."""
        ...


@runtime_checkable
class DeletingStore(Protocol):
    """A store that can delete a session (optional, SES-9)."""

    def delete(self, session_id: str) -> object:
        """Remove the session."""
        ...


@runtime_checkable
class ListingStore(Protocol):
    """A store that can list its sessions (optional, SES-9)."""

    def session_ids(self) -> Sequence[str]:
        """The ids of every stored session."""
        ...


@runtime_checkable
class DirectoryStore(Protocol):
    """A store keeping one file per session in a directory (SES-13 .. SES-15)."""

    @property
    def directory(self) -> os.PathLike[str] | str:
        """The directory holding the session files."""
        ...


@runtime_checkable
class TableStore(Protocol):
    """A store keeping one row per session in a database table (SES-16)."""

    @property
    def table(self) -> str:
        """The table's name."""
        ...


def safe_form(session_id: str) -> str:
    """The file stem of a session id (SES-13): kept ASCII, ``%XX`` for every other byte."""
    return "".join(
        chr(byte) if byte in _KEPT_BYTES else f"%{byte:02X}" for byte in session_id.encode()
    )


def _document(snapshot: AgentSessionSnapshot) -> JsonObject:
    return to_json(snapshot)


def _expect_loads(
    context: CheckContext, store: SessionStore, session_id: str, expected: JsonObject | None
) -> None:
    loaded = store.load(session_id)
    if expected is None:
        context.expect(
            loaded is None,
            f"load({session_id!r}) returned {text(_safe_json(loaded), 120)} but nothing was "
            "saved under that id",
            clause="SES-9",
            returned=_safe_json(loaded),
            expected=None,
        )
        return
    context.expect(
        isinstance(loaded, AgentSessionSnapshot),
        f"load({session_id!r}) returned {loaded!r} instead of the saved snapshot",
        clause="SES-9",
        returned=_safe_json(loaded),
        expected=expected,
    )
    found = first_difference(expected, _safe_json(loaded))
    context.expect(
        found is None,
        f"load({session_id!r}) differs from the snapshot saved last: {found}",
        returned=_safe_json(loaded),
        expected=expected,
    )


def _safe_json(value: object) -> object:
    try:
        return to_json(value)
    except (TypeError, ValueError):
        return repr(value)


_REPORT = ContextReport(
    source_item_count=5,
    projected_item_count=2,
    dropped_item_count=3,
    source_approx_chars=500,
    projected_approx_chars=120,
    item_limit_applied=True,
    character_limit_applied=False,
    notes=("maxItems applied: 2",),
    dropped_indices=(1, 2, 3),
)

# -- the model-based state machine -----------------------------------------------------------

#: Code points a session id may not consist of alone (SES-17: non-blank, §1.4 trim).
_BLANK = "".join(chr(code) for code in range(0x21))
#: Mostly the pool, so that saves overwrite and loads find; sometimes any other valid id
#: (SES-17: non-blank, no lone surrogate; store.session-id-rule checks the others).
_ids = st.one_of(
    st.sampled_from(_ID_POOL),
    st.sampled_from(_ID_POOL),
    st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=8).filter(
        lambda text: bool(text.strip(_BLANK))
    ),
)
_keys = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=5)
#: Items for stores, which keep them opaque: the edge cases, and cheap values around them.
_store_items: st.SearchStrategy[JsonValue] = (
    st.sampled_from(EDGE_ITEMS)
    | texts(max_size=10)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.dictionaries(_keys, texts(max_size=5) | st.integers(), max_size=3)
)
_memories = st.builds(
    MemorySnapshot,
    items=st.lists(_store_items, max_size=3).map(tuple),
    summary=summaries(),
)
_short_texts = st.lists(texts(max_size=10), max_size=2).map(tuple)
_results = st.builds(
    CompactResult,
    memory=st.none() | _memories,
    summary=st.none() | texts(max_size=20),
    pending=_short_texts,
    read_files=_short_texts,
    context_report=st.sampled_from([None, _REPORT, attrs.evolve(_REPORT, dropped_indices=None)]),
)
#: Session snapshots for stores, cheap to draw; ``store.round-trip`` also draws from the
#: public strategy, which fills every member of every record.
sessions = st.builds(
    AgentSessionSnapshot,
    session_id=_ids,
    memory=_memories,
    compact_result=st.none() | _results,
)


#: A session with every part filled, and the values that are easy to lose on the way.
FULL_SESSION = AgentSessionSnapshot(
    session_id="Run/1",
    memory=MemorySnapshot(
        items=(
            "recent",
            {"z": 1, "a": 1.0, "m": [-0.0, 2**70, 1e16, 5e-324]},
            {"type": "function_call_output", "call_id": "c", "output": "é漢\U0001f600\ud800"},
            None,
        ),
        summary="## Goal\nShip it",
    ),
    compact_result=CompactResult(
        memory=MemorySnapshot(items=("recent",), summary="## Goal\nShip it"),
        summary="## Goal\nShip it",
        completed=("parsed",),
        read_files=("/a.py",),
        context_report=_REPORT,
    ),
)


#: What Java's ``String.trim`` removes: an id of only these is blank (§1.4, SES-17).
_JAVA_SPACE = "".join(chr(code) for code in range(0x21))


def _bypassing(record: Any, **changes: object) -> Any:  # noqa: ANN401 - any record
    """A copy of *record* with *changes* that its validators would refuse (a broken caller)."""
    copied = attrs.evolve(record)
    for name, value in changes.items():
        object.__setattr__(copied, name, value)
    return copied


def _invalid_snapshots(session_id: str) -> list[tuple[str, AgentSessionSnapshot, str]]:
    """Snapshots no store may write: what is wrong, the snapshot, and the JSON path of it."""
    memory = MemorySnapshot(items=("ok", {"k": {1, 2}}))  # type: ignore[dict-item]
    return [
        (
            "a set inside an item",
            AgentSessionSnapshot(session_id=session_id, memory=memory),
            "$.memory.items[1].k",
        ),
        (
            "NaN as an item",
            AgentSessionSnapshot(
                session_id=session_id, memory=MemorySnapshot(items=("ok", float("nan")))
            ),
            "$.memory.items[1]",
        ),
        (
            "bytes in the compact result's memory",
            AgentSessionSnapshot(
                session_id=session_id,
                compact_result=CompactResult(memory=MemorySnapshot(items=(b"x",))),  # type: ignore[arg-type]
            ),
            "$.compactResult.memory.items[0]",
        ),
        (
            "a summary that is a number",
            AgentSessionSnapshot(
                session_id=session_id, memory=_bypassing(MemorySnapshot(), summary=5)
            ),
            "$.memory.summary",
        ),
        (
            "a negative count in the report",
            AgentSessionSnapshot(
                session_id=session_id,
                compact_result=CompactResult(
                    context_report=_bypassing(_REPORT, dropped_item_count=-1)
                ),
            ),
            "$.compactResult.contextReport.droppedItemCount",
        ),
    ]
