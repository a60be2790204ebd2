"""Checks for session stores: the contract of §15.2, against a dict of documents as the model.

A state machine saves generated session snapshots under a small pool of ids (so that saves
overwrite), loads known and unknown ids, and deletes and lists when the store can (optional
capabilities, detected with the protocols below); after every step each stored session must
load back identical (JSON-10). Other checks cover copies, refused snapshots, and the
property that matters to users: a session's summary survives a save and a resume.

Where a store keeps its documents matters only for the stores of SES-13 .. SES-16. A store
with a ``directory`` is checked as a ``FileSessionStore`` (file names, atomic writes,
corrupt files); a store with a ``table`` as a store kept in a table, rebuilt as
``type(store)(database)`` on a fresh database of whichever kind its class takes (SQLite or
PostgreSQL, found by offering each, MEM-26) so that the check can read and damage its rows.
Other stores skip those checks.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, cast, runtime_checkable

import attrs
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule

from ctxpact.conformance._context import CheckContext, CheckFailure, SkipCheck
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._faults import FAULTS, injected
from ctxpact.conformance.checks._stateful_support import (
    DEEP_FRAMES,
    EDGE_ITEMS,
    beyond_limits,
    first_difference,
    from_deep,
    nested,
    nesting_depth,
    run_machine,
    scramble,
    summaries,
    text,
)
from ctxpact.conformance.checks._storage import (
    POSTGRES_DSN_VARIABLE,
    Database,
    Remote,
    Storage,
    declared_storage,
    offered,
    raised_message,
    remote_storage,
    remote_store_builder,
    storage_of,
)
from ctxpact.conformance.strategies import session_snapshots, texts
from ctxpact.reference.session import Agent
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    ContextReport,
    JsonObject,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    SchemaValidationError,
    from_json,
    to_json,
    violations,
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


class StoreMachine(RuleBasedStateMachine):
    """A store and a dict of the documents saved last, driven side by side (SES-9)."""

    def __init__(self, context: CheckContext) -> None:
        super().__init__()
        context.record()
        self.context = context
        self.store: SessionStore = context.subject()
        self.model: dict[str, JsonObject] = {}

    @rule(snapshot=sessions, session_id=_ids)
    def save(self, snapshot: AgentSessionSnapshot, session_id: str) -> None:
        """Save (and so replace) a session; it loads back at once."""
        chosen = attrs.evolve(snapshot, session_id=session_id)
        self.context.step("save", snapshot=chosen)
        self.model[session_id] = _document(chosen)
        self.store.save(chosen)
        _expect_loads(self.context, self.store, session_id, self.model[session_id])

    @rule(session_id=_ids)
    def load(self, session_id: str) -> None:
        """Load a session, saved or not (null for an unknown id)."""
        self.context.step("load", session_id=session_id)
        _expect_loads(self.context, self.store, session_id, self.model.get(session_id))

    @precondition(lambda self: isinstance(self.store, DeletingStore))
    @rule(session_id=_ids)
    def delete(self, session_id: str) -> None:
        """Delete a session, when the store can."""
        self.context.step("delete", session_id=session_id)
        cast("DeletingStore", self.store).delete(session_id)
        self.model.pop(session_id, None)
        _expect_loads(self.context, self.store, session_id, None)

    @rule()
    def load_all(self) -> None:
        """Every session loads as saved last; a listing names exactly the saved sessions."""
        self.context.step("load_all")
        for session_id, document in self.model.items():
            _expect_loads(self.context, self.store, session_id, document)
        if isinstance(self.store, ListingStore):
            listed = list(self.store.session_ids())
            self.context.expect(
                sorted(listed) == sorted(self.model),
                f"session_ids() is {listed} but the saved sessions are {sorted(self.model)}",
            )


def _scripted_run(machine: StoreMachine) -> None:
    first = AgentSessionSnapshot(
        session_id="x", memory=MemorySnapshot(items=("one", {"b": 1, "a": 1.0}), summary="s")
    )
    second = AgentSessionSnapshot(
        session_id="x",
        memory=MemorySnapshot(items=(), summary=""),
        compact_result=CompactResult(summary="compacted", pending=("next",)),
    )
    steps: list[Callable[[], object]] = [
        lambda: machine.load("s-1"),
        lambda: machine.save(first, "s-1"),
        lambda: machine.save(second, "S-1"),
        lambda: machine.load("s-1"),
        lambda: machine.load("S-1"),
        lambda: machine.save(second, "s-1"),
        lambda: machine.load("s-10"),
        lambda: machine.save(first, "Run/1"),
        lambda: machine.load("%52un%2F1"),
    ]
    if isinstance(machine.store, DeletingStore):
        steps += [lambda: machine.delete("S-1"), lambda: machine.load("S-1")]
    for step in steps:
        step()
        machine.load_all()


@check(
    "store.model-based",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-9", "SES-12", "JSON-10"),
)
def model_based(context: CheckContext) -> Callable[[], None]:
    """The store keeps the snapshot saved last under each id, and nothing under others."""

    def test() -> None:
        _scripted_run(StoreMachine(context))
        run_machine(context, lambda: StoreMachine(context), step_share=0.5)

    return test


# -- round trips and copies --------------------------------------------------------------------

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


@check(
    "store.round-trip",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-9", "SES-1", "JSON-3", "JSON-5", "JSON-8", "JSON-10"),
)
def round_trip(context: CheckContext) -> Callable[[], None]:
    """A saved snapshot loads back identical, compact result, member order and numbers kept."""

    @given(snapshot=sessions | session_snapshots)
    @example(snapshot=FULL_SESSION)
    @example(snapshot=AgentSessionSnapshot(session_id=" a\tb ", memory=MemorySnapshot(summary=" ")))
    @example(snapshot=AgentSessionSnapshot(session_id="s", memory=MemorySnapshot(summary="")))
    @example(
        snapshot=AgentSessionSnapshot(session_id="d", memory=MemorySnapshot(items=(nested(),)))
    )
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        store: SessionStore = context.subject()
        expected = _document(snapshot)
        depth = max(map(nesting_depth, snapshot.memory.items), default=0)
        note = f" (it holds an item nested {depth} levels deep; JSON-8)" if depth > 64 else ""
        try:
            store.save(snapshot)
            _expect_loads(context, store, snapshot.session_id, expected)
        except CheckFailure:
            raise
        except Exception as error:  # noqa: BLE001 - a valid snapshot must be kept
            message = f"{type(error).__name__}: {error}"[:300]
            context.expect(
                condition=False,
                message=f"saving and loading a valid snapshot{note} raised {message}",
            )

    return test


@check(
    "store.copies",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-11", "JSON-16"),
)
def copies(context: CheckContext) -> Callable[[], None]:
    """Saving changes nothing given; changing a saved or loaded snapshot changes nothing stored."""

    @given(snapshot=sessions)
    @example(snapshot=FULL_SESSION)
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        store: SessionStore = context.subject()
        expected = _document(snapshot)
        store.save(snapshot)
        found = first_difference(expected, _document(snapshot))
        context.expect(found is None, f"save() changed the snapshot it was given: {found}")
        _scramble_snapshot(snapshot)
        _expect_loads(context, store, snapshot.session_id, expected)
        loaded = store.load(snapshot.session_id)
        if loaded is not None:
            _scramble_snapshot(loaded)
        _expect_loads(context, store, snapshot.session_id, expected)

    return test


def _scramble_snapshot(snapshot: AgentSessionSnapshot) -> None:
    scramble(list(snapshot.memory.items))
    result = snapshot.compact_result
    if result is not None and result.memory is not None:
        scramble(list(result.memory.items))


# -- refused snapshots -------------------------------------------------------------------------

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


@check(
    "store.invalid-snapshot",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-10", "SES-9", "JSON-9", "JSON-11", "JSON-14"),
)
def invalid_snapshot(context: CheckContext) -> Callable[[], None]:
    """A snapshot that is not a valid document is refused with its JSON path; nothing written."""

    def test() -> None:
        store: SessionStore = context.subject()
        kept = AgentSessionSnapshot(
            session_id="kept", memory=MemorySnapshot(items=("old",), summary="old")
        )
        store.save(kept)
        for session_id, before in (("kept", _document(kept)), ("fresh", None)):
            for what, snapshot, path in _invalid_snapshots(session_id):
                context.record(session_id=session_id, snapshot=what, path=path)
                try:
                    store.save(snapshot)
                except Exception as error:  # noqa: BLE001 - any error refuses; message checked
                    message = str(error)
                else:
                    context.expect(
                        condition=False, message=f"save() accepted a snapshot with {what}"
                    )
                    continue
                context.expect(
                    path in message,
                    f"save() refused a snapshot with {what} without naming the JSON path "
                    f"{path}: {message!r}",
                )
                _expect_loads(context, store, session_id, before)

    return test


# -- resuming a session through the store ------------------------------------------------------


class _SilentModel:
    """A model client for sessions that never run."""

    def create(self, prompt: ModelPrompt) -> ModelResult:
        raise AssertionError(f"the model was called with {prompt.model!r}")


@check(
    "store.resume-keeps-summary",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-8", "SES-9", "MEM-10"),
)
def resume_keeps_summary(context: CheckContext) -> Callable[[], None]:
    """A session saved and resumed through the store has the same snapshot, summary included."""

    @given(snapshot=sessions)
    @example(snapshot=FULL_SESSION)
    @example(snapshot=AgentSessionSnapshot(session_id="s", memory=MemorySnapshot(summary=" ")))
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        store: Any = context.subject()
        agent = Agent(model_client=_SilentModel(), session_store=store)
        session = agent.new_session(snapshot.session_id)
        session.restore(snapshot)
        taken = _document(session.snapshot())
        session.save()
        resumed = agent.resume_session(snapshot.session_id)
        summary = resumed.memory.get_summary()
        context.expect(
            summary == snapshot.memory.summary,
            f"the resumed session's memory has the summary {summary!r}, not "
            f"{snapshot.memory.summary!r}: restore through the store lost the summary",
        )
        found = first_difference(taken, _document(resumed.snapshot()))
        context.expect(
            found is None, f"the resumed session's snapshot differs from the saved one: {found}"
        )

    return test


# -- stored documents: files and rows ------------------------------------------------------------


class Documents(Protocol):
    """Where a store's documents can be read and damaged by a check."""

    def read(self, session_id: str) -> str | None:
        """The stored text of the session, or ``None``."""
        ...

    def write(self, session_id: str, content: str) -> None:
        """Replace the stored text of the session (it must have been saved before)."""
        ...

    def names(self, session_id: str) -> tuple[str, ...]:
        """What an error about this document must name (SES-10)."""
        ...


@attrs.frozen(kw_only=True)
class FileDocuments:
    """The files of a file store (SES-13)."""

    directory: Path

    def path(self, session_id: str) -> Path:
        """The file of *session_id*."""
        return self.directory / f"{safe_form(session_id)}.json"

    def read(self, session_id: str) -> str | None:
        """The file's text, or ``None``."""
        path = self.path(session_id)
        return path.read_text(encoding="utf-8") if path.exists() else None

    def write(self, session_id: str, content: str) -> None:
        """Overwrite the file."""
        self.path(session_id).write_bytes(content.encode())

    def names(self, session_id: str) -> tuple[str, ...]:
        """The file's name."""
        return (self.path(session_id).name,)


@attrs.frozen(kw_only=True)
class TableDocuments:
    """The rows of a store kept in a table; the column layout is found, not assumed."""

    database: Database
    table: str

    def _row(self, session_id: str) -> tuple[str, object, str, str] | None:
        for readable, raw in self.database.rows(self.table):
            keys = [column for column, value in readable.items() if value == session_id]
            for column, value in readable.items():
                if keys and column not in keys and isinstance(value, str) and value[:1] == "{":
                    return keys[0], raw[keys[0]], column, value
        return None

    def read(self, session_id: str) -> str | None:
        """The document cell of the session's row, or ``None``."""
        found = self._row(session_id)
        return None if found is None else found[3]

    def write(self, session_id: str, content: str) -> None:
        """Overwrite the document cell of the session's row."""
        found = self._row(session_id)
        if found is None:
            raise SkipCheck(f"no row holding a document for {session_id!r} in {self.table!r}")
        key, stored_key, column, _ = found
        self.database.rowcount(
            f'UPDATE "{self.table}" SET "{column}" = ? WHERE "{key}" = ?',  # noqa: S608
            (content, stored_key),
        )

    def names(self, session_id: str) -> tuple[str, ...]:
        """The table and the session id."""
        return (self.table, session_id)


def _close(store: object) -> None:
    close = getattr(store, "close", None)
    if callable(close):
        close()


def _table_store_class(context: CheckContext) -> tuple[Any, Storage]:
    """The class of a store kept in a table, and the kind of database it takes (MEM-26).

    For a harness's store, a constructor that opens one in the harness on the database the
    suite made, of the kind the target declares (HRN-29).
    """
    subject = context.subject()
    if isinstance(subject, Remote):
        kind = declared_storage(context.options, "store")
        if kind == "directory":
            raise SkipCheck("the harness's store keeps its sessions in files, not in a table")
        return remote_store_builder(subject), remote_storage(kind)
    if not isinstance(subject, TableStore):
        raise SkipCheck(f"{type(subject).__name__} is not a store kept in a table (no table)")
    _close(subject)
    cls: Any = type(subject)
    wanted = context.options.get("storage")
    storage = storage_of(cls, wanted)
    if storage is None:
        raise SkipCheck(
            f"{cls.__name__}(database) takes none of the databases the suite can make here "
            f"({offered(wanted)}); set {POSTGRES_DSN_VARIABLE} to check a PostgreSQL store"
        )
    return cls, storage


@contextlib.contextmanager
def _table_store(
    cls: Any,  # noqa: ANN401 - the implementation's class
    database: Database,
    **options: object,
) -> Iterator[SessionStore]:
    try:
        store = cls(database.handle, **options)
    except TypeError as error:
        raise SkipCheck(f"{cls.__name__}(database) cannot be built: {error}") from error
    try:
        yield store
    finally:
        _close(store)


@contextlib.contextmanager
def _stored_documents(context: CheckContext) -> Iterator[tuple[SessionStore, Documents]]:
    subject = context.subject()
    if isinstance(subject, DirectoryStore) or (
        isinstance(subject, Remote) and context.options.get("storage") == "directory"
    ):
        with _file_store(context) as (store, directory):
            yield store, FileDocuments(directory=directory)
        return
    if isinstance(subject, Remote):
        cls, storage = _table_store_class(context)
        # The table is named, as SES-16's default: the suite cannot ask a harness's store.
        with storage.database() as database, _table_store(cls, database) as store:
            yield store, TableDocuments(database=database, table=DEFAULT_SESSION_TABLE)
        return
    if not isinstance(subject, TableStore):
        raise SkipCheck(
            f"{type(subject).__name__} keeps its documents where the suite cannot read them "
            "(neither a directory nor a table)"
        )
    cls, storage = _table_store_class(context)
    with storage.database() as database, _table_store(cls, database) as store:
        yield (
            store,
            TableDocuments(database=database, table=cast("TableStore", store).table),
        )


@contextlib.contextmanager
def _file_store(context: CheckContext) -> Iterator[tuple[SessionStore, Path]]:
    """A fresh file store and its directory (for a harness's, one the suite made: HRN-29)."""
    subject = context.subject()
    if isinstance(subject, Remote):
        if declared_storage(context.options, "store") != "directory":
            raise SkipCheck("the harness's store does not keep its sessions in files")
        with tempfile.TemporaryDirectory(prefix="ctxpact-check-") as root:
            directory = Path(root) / "sessions"
            store = subject.new_instance({"address": str(directory)})
            try:
                yield store, directory
            finally:
                _close(store)
        return
    if not isinstance(subject, DirectoryStore):
        raise SkipCheck(f"{type(subject).__name__} is not a file store (no directory)")
    yield cast("SessionStore", subject), Path(subject.directory)


@check(
    "store.documents-valid",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("JSON-14", "JSON-15", "SES-10"),
)
def documents_valid(context: CheckContext) -> Callable[[], None]:
    """Every stored document validates against the schema and holds the snapshot saved."""

    @given(snapshot=sessions)
    @example(snapshot=FULL_SESSION)
    @example(
        snapshot=AgentSessionSnapshot(
            session_id="s",
            compact_result=CompactResult(
                context_report=attrs.evolve(_REPORT, dropped_indices=None)
            ),
        )
    )
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        with _stored_documents(context) as (store, stored):
            store.save(snapshot)
            content = stored.read(snapshot.session_id)
            context.expect(content is not None, "save() wrote no document the suite can find")
            document = json.loads(str(content))
            found = violations(document, _SESSION_SCHEMA)
            context.expect(
                not found,
                f"the stored document breaks the schema: {'; '.join(map(str, found))}",
            )
            _expect_no_empty_indices(context, snapshot, document)
            read_back = _document(from_json(AgentSessionSnapshot, document))
            difference = first_difference(_document(snapshot), read_back)
            context.expect(
                difference is None, f"the stored document holds another snapshot: {difference}"
            )

    return test


@check(
    "store.documents-defaults",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("JSON-15",),
)
def documents_defaults(context: CheckContext) -> Callable[[], None]:
    """A stored document without its optional members loads with their schema defaults."""

    def test() -> None:
        session_id = "minimal"
        with _stored_documents(context) as (store, stored):
            store.save(AgentSessionSnapshot(session_id=session_id))
            for written, expected in _minimal_documents(session_id):
                context.record(stored=written)
                stored.write(session_id, json.dumps(written))
                _expect_loads(context, store, session_id, _document(expected))

    return test


def _expect_no_empty_indices(
    context: CheckContext, snapshot: AgentSessionSnapshot, document: JsonObject
) -> None:
    result = snapshot.compact_result
    if result is None or result.context_report is None:
        return
    stored_result = document.get("compactResult")
    report = stored_result.get("contextReport") if isinstance(stored_result, dict) else None
    if not isinstance(report, dict):
        return
    for field, name in (
        ("dropped_indices", "droppedIndices"),
        ("cleared_indices", "clearedIndices"),
    ):
        if getattr(result.context_report, field) is None:
            context.expect(
                report.get(name) is None,
                f"a report without {name} was stored with {name}: {report.get(name)!r} (it "
                "must be absent or null, never an empty array)",
            )


def _minimal_documents(session_id: str) -> list[tuple[JsonObject, AgentSessionSnapshot]]:
    """Documents that leave optional members out, and the snapshots they stand for."""
    report: JsonObject = {
        "sourceItemCount": 1,
        "projectedItemCount": 1,
        "droppedItemCount": 0,
        "sourceApproxChars": 3,
        "projectedApproxChars": 3,
        "itemLimitApplied": False,
        "characterLimitApplied": False,
    }
    return [
        ({"sessionId": session_id}, AgentSessionSnapshot(session_id=session_id)),
        (
            {"sessionId": session_id, "memory": {}, "compactResult": {"contextReport": report}},
            AgentSessionSnapshot(
                session_id=session_id,
                compact_result=CompactResult(
                    context_report=ContextReport(
                        source_item_count=1,
                        projected_item_count=1,
                        dropped_item_count=0,
                        source_approx_chars=3,
                        projected_approx_chars=3,
                        item_limit_applied=False,
                        character_limit_applied=False,
                    )
                ),
            ),
        ),
    ]


def _corruptions(victim: str, other: JsonObject) -> list[tuple[str, str, tuple[str, ...]]]:
    """What to store instead of the victim's document, and the JSON paths the error must name."""
    invalid = {
        "sessionId": victim,
        "memory": {"items": [], "summary": 5},
        "compactResult": {"pending": [1]},
    }
    return [
        ("text that is not JSON", "{not json", ("$",)),
        (
            "a document that breaks the schema",
            json.dumps(invalid),
            ("$.memory.summary", "$.compactResult.pending[0]"),
        ),
        ("another session's document", json.dumps(other), ()),
    ]


@check(
    "store.corrupt-document",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-10", "SES-15", "JSON-14"),
)
def corrupt_document(context: CheckContext) -> Callable[[], None]:
    """A stored document that is not valid is an error naming where and what; never repaired."""

    def test() -> None:
        victim, bystander = "victim/1", "bystander"
        with _stored_documents(context) as (store, stored):
            kept = AgentSessionSnapshot(session_id=bystander, memory=MemorySnapshot(items=("b",)))
            store.save(kept)
            cases = _corruptions(victim, _document(kept))
            if isinstance(stored, FileDocuments):
                cases.append(("an empty file", "", ("$",)))
            valid = AgentSessionSnapshot(session_id=victim)
            store.save(valid)
            for what, content, paths in cases:
                context.record(session_id=victim, stored=content)
                stored.write(victim, json.dumps(_document(valid)))
                _expect_loads(context, store, victim, _document(valid))
                stored.write(victim, content)
                _expect_corrupt(
                    context, store=store, stored=stored, session_id=victim, what=what, paths=paths
                )
                context.expect(
                    stored.read(victim) == content,
                    f"after loading {what}, the store repaired or removed it",
                )
                _expect_loads(context, store, bystander, _document(kept))

    return test


def _expect_corrupt(  # noqa: PLR0913 - everything the message must name
    context: CheckContext,
    *,
    store: SessionStore,
    stored: Documents,
    session_id: str,
    what: str,
    paths: tuple[str, ...],
) -> None:
    try:
        loaded = store.load(session_id)
    except Exception as error:  # noqa: BLE001 - the error expected; its message is checked
        message = raised_message(error)
        if paths:
            # Across a harness only the error's kind is seen: a bad value (HRN-27).
            expected = ValueError if isinstance(store, Remote) else SchemaValidationError
            context.expect(
                isinstance(error, expected),
                f"loading {what} raised {type(error).__name__}, not a {expected.__name__}",
            )
        for name in (*stored.names(session_id), *paths):
            context.expect(
                name in message,
                f"loading {what} raised an error that does not name {name!r}: {message!r}",
            )
        return
    context.expect(
        condition=False,
        message=f"loading {what} returned {text(_safe_json(loaded), 80)} instead of raising",
    )


# -- file stores -----------------------------------------------------------------------


@check(
    "store.file-names",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-13",),
)
def file_names(context: CheckContext) -> Callable[[], None]:
    """Each session is the file <safe form>.json; unencodable or too long ids are refused."""

    @given(session_id=st.text(min_size=1, max_size=30))
    @example(session_id="Run/1")
    @example(session_id="%52un%2F1")
    @example(session_id="x" * 250)
    @example(session_id="x" * 251)
    @example(session_id="é" * 42)
    @example(session_id="a\ud800")
    @example(session_id=" \n")
    def test(session_id: str) -> None:
        context.record(session_id=session_id)
        with _file_store(context) as (store, directory):
            ids = list(dict.fromkeys([session_id, session_id.swapcase()]))
            saved: list[str] = []
            for chosen in ids:
                # The record refuses what SES-17 refuses; a broken caller can still hand it over.
                snapshot = _bypassing(
                    AgentSessionSnapshot(session_id="s", memory=MemorySnapshot(items=(chosen,))),
                    session_id=chosen,
                )
                try:
                    name = f"{safe_form(chosen)}.json"
                except UnicodeEncodeError:
                    name = ""
                refused = (
                    not name or len(name) > MAX_FILE_NAME_BYTES or not chosen.strip(_JAVA_SPACE)
                )
                try:
                    store.save(snapshot)
                except Exception as error:  # noqa: BLE001 - a refusal is checked against the rule
                    context.expect(refused, f"save() refused the id {chosen!r}: {error!r}")
                    continue
                context.expect(
                    not refused,
                    f"save() accepted the id {chosen!r}, which "
                    + (
                        "cannot be encoded in UTF-8"
                        if not name
                        else f"needs the {len(name)}-byte file name {name[:40]}…"
                    ),
                )
                saved.append(name)
                context.expect(
                    (directory / name).is_file(),
                    f"the session {chosen!r} is not in the file {name!r}; the directory holds "
                    f"{sorted(p.name for p in directory.iterdir())}",
                )
            if directory.is_dir():
                found = sorted(p.name for p in directory.iterdir() if not p.name.startswith("."))
                context.expect(
                    found == sorted(saved),
                    f"the directory holds {found} but the sessions {ids} belong in {sorted(saved)}",
                )

    return test


@check(
    "store.file-atomic",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-14", "SES-15"),
)
def file_atomic(context: CheckContext) -> Callable[[], None]:
    """Saves replace the file by renaming a complete new one; strays and failures leave no trace."""

    def test() -> None:
        with _file_store(context) as (store, directory):
            stored = FileDocuments(directory=directory)
            first = AgentSessionSnapshot(session_id="s-1", memory=MemorySnapshot(items=("first",)))
            second = AgentSessionSnapshot(
                session_id="s-1", memory=MemorySnapshot(items=("second",))
            )
            context.record(session_id="s-1")
            existed = directory.exists()
            context.expect(
                store.load("s-1") is None, "load() of a missing file did not return None"
            )
            store.save(first)
            if not existed:
                context.expect(directory.is_dir(), "the first save did not create the directory")
            old_text = stored.read("s-1")
            link = directory / ".ctxpact-conformance-link"
            try:
                os.link(stored.path("s-1"), link)
            except OSError:  # a file system without hard links: the rename cannot be observed
                store.save(second)
            else:
                store.save(second)
                context.expect(
                    link.read_text(encoding="utf-8") == old_text,
                    "save() rewrote the session's file in place instead of renaming a new "
                    "file over it",
                )
            _expect_loads(context, store, "s-1", _document(second))
            strays = {
                ".s-1.conformance.tmp": "{not json",
                "s-1.json.tmp": "{not json",
                ".s-2.json.tmp": "",
            }
            for name, content in strays.items():
                (directory / name).write_text(content, encoding="utf-8")
            _expect_loads(context, store, "s-1", _document(second))
            _expect_loads(context, store, "s-2", None)
            if isinstance(store, ListingStore):
                listed = list(store.session_ids())
                context.expect(listed == ["s-1"], f"session_ids() read stray files: {listed}")
            before = sorted(p.name for p in directory.iterdir())
            text_before = stored.read("s-1")
            bad = _invalid_snapshots("s-1")[0][1]
            with contextlib.suppress(Exception):
                store.save(bad)
            after = sorted(p.name for p in directory.iterdir())
            context.expect(
                after == before,
                f"a failed save left files behind: {sorted(set(after) - set(before))}",
            )
            context.expect(
                stored.read("s-1") == text_before, "a failed save changed the session's file"
            )
            if existed:
                _expect_creates_directory(context, store)
            for path in directory.iterdir():
                context.expect(
                    not path.name.endswith(".json") or path.name == "s-1.json",
                    f"a file the store left behind ends in .json: {path.name}",
                )

    return test


def _expect_creates_directory(context: CheckContext, store: object) -> None:
    with tempfile.TemporaryDirectory(prefix="ctxpact-") as root:
        missing = Path(root) / "missing" / "deeper"
        try:
            fresh: Any = (
                store.new_instance({"address": str(missing)})
                if isinstance(store, Remote)
                else cast("Any", type(store))(missing)
            )
        except TypeError:
            return
        fresh.save(AgentSessionSnapshot(session_id="s-1"))
        context.expect(missing.is_dir(), f"the first save did not create {missing}")


# -- stores kept in a table ------------------------------------------------------------------


@check(
    "store.table-rows",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-16",),
)
def table_rows(context: CheckContext) -> Callable[[], None]:
    """One row per session in ctxpact_agent_session (or the table named); plain names only."""

    def test() -> None:
        cls, storage = _table_store_class(context)
        with storage.database() as database:
            with _table_store(cls, database) as store:
                for session_id in ("a", "b", "a", "A", "b"):
                    context.record(session_id=session_id)
                    store.save(AgentSessionSnapshot(session_id=session_id))
                    context.expect(
                        database.idle(), "save() returned with its transaction still open"
                    )
                rows = database.count_rows(DEFAULT_SESSION_TABLE)
                context.expect(
                    rows == 3,
                    f"{DEFAULT_SESSION_TABLE!r} holds {rows} rows for the 3 sessions saved",
                )
            with _table_store(cls, database, table="custom_sessions") as store:
                store.save(AgentSessionSnapshot(session_id="c"))
                rows = database.count_rows("custom_sessions")
                context.expect(rows == 1, "the store did not use the table it was given")
        _expect_bad_tables_refused(context, cls, storage)

    return test


def _expect_bad_tables_refused(
    context: CheckContext,
    cls: Any,  # noqa: ANN401 - the implementation's class
    storage: Storage,
) -> None:
    for table in _BAD_TABLES:
        context.record(table=table)
        with storage.untouched() as (address, touched):
            try:
                store = cls(address, table=table)
            except Exception:  # noqa: BLE001 - the refusal expected
                context.expect(
                    not touched(),
                    f"the table name {table!r} was refused only after the database was touched",
                )
                continue
            _close(store)
            context.expect(condition=False, message=f"the table name {table!r} was accepted")


# -- limits, ids and a clean directory ---------------------------------------------------------


@check(
    "store.beyond-limits",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("JSON-17",),
)
def beyond_limits_stored(context: CheckContext) -> Callable[[], None]:
    """An item beyond the limits is refused, or it loads, saves over and deletes from deep."""

    def test() -> None:
        for what, value in beyond_limits():
            context.record(item=what)
            store: SessionStore = context.subject()
            snapshot = AgentSessionSnapshot(session_id="s-1", memory=MemorySnapshot(items=(value,)))
            try:
                store.save(snapshot)
            except Exception:  # noqa: BLE001 - a refusal is allowed; then nothing was written
                try:
                    loaded = store.load("s-1")
                except Exception as error:  # noqa: BLE001 - the finding
                    context.expect(
                        condition=False,
                        message=f"save() refused an item {what}, and load() then raised "
                        f"{type(error).__name__}: {str(error)[:200]}",
                    )
                    continue
                context.expect(
                    loaded is None,
                    f"save() refused an item {what} but load() found a session afterwards",
                )
                continue
            try:
                loaded = from_deep(functools.partial(store.load, "s-1"))
                from_deep(functools.partial(store.save, snapshot))
                if isinstance(store, DeletingStore):
                    from_deep(functools.partial(store.delete, "s-1"))
            except Exception as error:  # noqa: BLE001 - the finding
                context.expect(
                    condition=False,
                    message=f"save() accepted an item {what}, but loading, saving over or "
                    f"deleting it {DEEP_FRAMES} frames deep in the stack raised "
                    f"{type(error).__name__}: "
                    f"{str(error)[:200]}",
                )
                continue
            context.expect(
                loaded is not None and loaded.memory.items == snapshot.memory.items,
                f"save() accepted an item {what}, but load() {DEEP_FRAMES} frames deep in the "
                "stack did "
                "not give it back",
            )

    return test


#: Session ids no store may take (SES-17): blank ones.
_BLANK_IDS = (" ", "\x00", "\n", "\t\r ")


@check(
    "store.session-id-rule",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-17",),
)
def session_id_rule(context: CheckContext) -> Callable[[], None]:
    """Blank session ids are refused by save, load and delete, and nothing is written."""

    def test() -> None:
        for session_id in _BLANK_IDS:
            context.record(session_id=session_id)
            store: SessionStore = context.subject()
            blank = _bypassing(AgentSessionSnapshot(session_id="s"), session_id=session_id)
            calls: list[tuple[str, Callable[[], object]]] = [
                ("load", functools.partial(store.load, session_id)),
                ("save", functools.partial(store.save, blank)),
            ]
            if isinstance(store, DeletingStore):
                calls.append(("delete", functools.partial(store.delete, session_id)))
            for name, call in calls:
                try:
                    returned = call()
                except Exception:  # noqa: BLE001, S112 - the refusal expected
                    continue
                context.expect(
                    condition=False,
                    message=f"{name}() took the blank session id {session_id!r} and returned "
                    f"{text(returned, 80)} instead of refusing it",
                )
            if isinstance(store, ListingStore):
                listed = list(store.session_ids())
                context.expect(listed == [], f"a refused save left the sessions {listed}")

    return test


_AGED_SECONDS = 2 * 3600


@check(
    "store.file-hygiene",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-18",),
)
def file_hygiene(context: CheckContext) -> Callable[[], None]:
    """Old temporary files of crashed saves go; session_ids() reads names, skips foreign files."""

    def test() -> None:
        with _file_store(context) as (store, directory):
            context.record(directory="stale and fresh temporary files, foreign files")
            directory.mkdir(parents=True, exist_ok=True)
            aged = time.time() - _AGED_SECONDS
            own_stale = [directory / ".s-1.abcdefgh.tmp", directory / ".run%2F1.a1b2c3d4.tmp"]
            kept = [
                directory / ".s-1.zzzzzzzz.tmp",  # fresh: a save in progress, maybe
                directory / ".s-1.conformance.tmp",  # not the temporary form
                directory / "notes.tmp",
            ]
            for path in [*own_stale, *kept]:
                path.write_text("{", encoding="utf-8")
            for path in [*own_stale, *kept[1:]]:
                os.utime(path, (aged, aged))
            (directory / "README.json").write_text("{}", encoding="utf-8")
            (directory / "broken.json").write_text("{not json", encoding="utf-8")
            store.save(AgentSessionSnapshot(session_id="s-1"))
            left = sorted(path.name for path in own_stale if path.exists())
            context.expect(not left, f"the first save left the stale temporary files {left}")
            gone = sorted(path.name for path in kept if not path.exists())
            context.expect(
                not gone, f"the first save removed files that are not stale leftovers: {gone}"
            )
            if isinstance(store, ListingStore):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    try:
                        listed = list(store.session_ids())
                    except Exception as error:  # noqa: BLE001 - the finding
                        context.expect(
                            condition=False,
                            message="session_ids() raised over a corrupt session file or a "
                            f"foreign file: {type(error).__name__}: {str(error)[:200]}",
                        )
                        return
                context.expect(
                    listed == ["broken", "s-1"],
                    f"session_ids() is {listed}: expected the names of the session files "
                    "('broken' too, its document unread) and not the foreign README.json",
                )
                # A warning is the Python binding's; a harness's store warns in its process.
                context.expect(
                    isinstance(store, Remote)
                    or any("README.json" in str(warning.message) for warning in caught),
                    "session_ids() ignored the foreign README.json without a warning",
                )

    return test


# -- interrupted saves (SES-14) ---------------------------------------------------------


@check(
    "store.interrupted-save",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-14",),
)
def interrupted_save(context: CheckContext) -> Callable[[], None]:
    """A save whose write, fsync or rename fails raises and leaves the previous file alone.

    The fault is injected through the file-system calls (``open``/``os.write``, ``os.fsync``,
    ``os.replace``/``os.rename``); afterwards the directory holds what it held before the
    save, byte for byte, and no temporary file.
    """

    def test() -> None:
        if isinstance(context.subject(), Remote):
            raise SkipCheck(
                "the faults are injected into this process's file-system calls, and a "
                "harness's store saves in its own process"
            )
        with _file_store(context) as (store, directory):
            session = FileDocuments(directory=directory).path("s-1").name
            first = AgentSessionSnapshot(session_id="s-1", memory=MemorySnapshot(items=("first",)))
            second = AgentSessionSnapshot(
                session_id="s-1", memory=MemorySnapshot(items=("second", "x" * 10_000))
            )
            store.save(first)
            before = {path.name: path.read_bytes() for path in directory.iterdir()}
            for fault in FAULTS:
                context.record(session_id="s-1", failing=fault)
                raised: Exception | None = None
                with injected(fault, directory):
                    try:
                        store.save(second)
                    except Exception as error:  # noqa: BLE001 - the failure is what is asked for
                        raised = error
                context.expect(
                    raised is not None,
                    f"save() returned normally although its {fault} failed (SES-14: the document "
                    "is forced to stable storage, then renamed over the target, or the save fails)",
                    clause="SES-14",
                )
                after = {path.name: path.read_bytes() for path in directory.iterdir()}
                left = sorted(after.keys() - before.keys())
                context.expect(
                    not left,
                    f"a save whose {fault} failed left {left} behind (SES-14: a failed save "
                    "removes its temporary file when it can)",
                    clause="SES-14",
                    returned=sorted(after),
                    expected=sorted(before),
                )
                context.expect(
                    after.get(session) == before[session],
                    f"a save whose {fault} failed changed the session's file (SES-14: the "
                    "previous file stays untouched)",
                    clause="SES-14",
                )
                _expect_loads(context, store, "s-1", _document(first))

    return test


#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    model_based,
    round_trip,
    copies,
    invalid_snapshot,
    resume_keeps_summary,
    documents_valid,
    documents_defaults,
    corrupt_document,
    file_names,
    file_atomic,
    table_rows,
    beyond_limits_stored,
    session_id_rule,
    file_hygiene,
    interrupted_save,
)
