"""Session stores that lose nothing: round trips, atomic writes, corrupt documents (SES)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Self

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import ctxpact.reference.session._file_store as file_store_module
from ctxpact.reference.session import (
    DEFAULT_SESSION_TABLE,
    CorruptSessionError,
    FileSessionStore,
    InMemorySessionStore,
    ListingSessionStore,
    SessionIdMismatchError,
    SessionStore,
    SqliteSessionStore,
    session_file_stem,
)
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    ContextReport,
    InvalidValueError,
    JsonValue,
    MemorySnapshot,
    SchemaValidationError,
    to_json,
)

#: What Java's String.trim removes: an id of only these is blank (§1.4, SES-17).
JAVA_SPACE = "".join(chr(code) for code in range(0x21))
REPORT = ContextReport(
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
SNAPSHOT = AgentSessionSnapshot(
    session_id="s-1",
    memory=MemorySnapshot(
        items=("recent", {"type": "function_call_output", "call_id": "c", "output": "é漢"}),
        summary="## Goal\nShip it",
    ),
    compact_result=CompactResult(
        memory=MemorySnapshot(items=("recent",), summary="## Goal\nShip it"),
        summary="## Goal\nShip it",
        completed=("parsed",),
        read_files=("/a.py",),
        context_report=REPORT,
    ),
)

StoreFactory = Callable[[], ListingSessionStore]


@pytest.fixture(params=["memory", "file", "sqlite-path", "sqlite-connection"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreFactory]:
    closers: list[Callable[[], None]] = []

    def factory() -> ListingSessionStore:
        if request.param == "memory":
            return InMemorySessionStore()
        if request.param == "file":
            return FileSessionStore(tmp_path / "sessions")
        if request.param == "sqlite-path":
            store = SqliteSessionStore(tmp_path / "sessions.db")
            closers.append(store.close)
            return store
        connection = sqlite3.connect(tmp_path / "borrowed.db", isolation_level=None)
        closers.append(connection.close)
        return SqliteSessionStore(connection)

    yield factory
    for close in reversed(closers):
        close()


# -- every store -----------------------------------------------------------------------------


def test_stores_satisfy_the_protocol(make_store: StoreFactory) -> None:
    assert isinstance(make_store(), SessionStore)


def test_save_then_load_gives_the_snapshot_back(make_store: StoreFactory) -> None:
    store = make_store()
    assert store.load("s-1") is None
    store.save(SNAPSHOT)
    assert store.load("s-1") == SNAPSHOT
    loaded = store.load("s-1")
    assert loaded is not None
    assert loaded.memory.summary == "## Goal\nShip it"


def test_save_replaces_and_delete_removes(make_store: StoreFactory) -> None:
    store = make_store()
    store.save(SNAPSHOT)
    replacement = AgentSessionSnapshot(session_id="s-1", memory=MemorySnapshot(items=("new",)))
    store.save(replacement)
    store.save(AgentSessionSnapshot(session_id="s-0"))
    assert store.load("s-1") == replacement
    assert store.session_ids() == ["s-0", "s-1"]
    assert store.delete("s-1") is True
    assert store.delete("s-1") is False
    assert store.load("s-1") is None
    assert store.session_ids() == ["s-0"]


def test_stored_snapshots_share_nothing_with_the_caller(make_store: StoreFactory) -> None:
    store = make_store()
    item: JsonValue = {"k": [1]}
    snapshot = AgentSessionSnapshot(session_id="s", memory=MemorySnapshot(items=(item,)))
    store.save(snapshot)
    assert isinstance(item, dict)
    item["k"] = "changed after save"
    loaded = store.load("s")
    assert loaded is not None
    assert loaded.memory.items == ({"k": [1]},)
    first: JsonValue = loaded.memory.items[0]
    assert isinstance(first, dict)
    first["k"] = "changed after load"
    again = store.load("s")
    assert again is not None
    assert again.memory.items == ({"k": [1]},)


def test_a_snapshot_json_cannot_carry_is_refused_and_nothing_is_written(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    store.save(SNAPSHOT)
    not_json: Any = {"x": {1, 2}}
    bad = AgentSessionSnapshot(session_id="s-1", memory=MemorySnapshot(items=(not_json,)))
    with pytest.raises(SchemaValidationError):
        store.save(bad)
    assert store.load("s-1") == SNAPSHOT


def test_an_empty_id_is_refused(make_store: StoreFactory) -> None:
    store = make_store()
    with pytest.raises(InvalidValueError, match="non-blank"):
        store.save(AgentSessionSnapshot(session_id=""))
    with pytest.raises(InvalidValueError, match="non-blank"):
        store.load("")
    assert store.session_ids() == []


def test_an_id_with_a_lone_surrogate_is_refused(make_store: StoreFactory) -> None:
    store = make_store()
    with pytest.raises(InvalidValueError, match="without lone surrogates"):
        store.save(AgentSessionSnapshot(session_id="a\udc00"))
    with pytest.raises(InvalidValueError, match="without lone surrogates"):
        store.load("a\udc00")
    with pytest.raises(InvalidValueError, match="without lone surrogates"):
        store.delete("\ud800")
    assert store.session_ids() == []


# Hypothesis leaves lone surrogates out of text(); a session id is not blank (SES-17).
session_ids = st.text(min_size=1, max_size=12).filter(lambda text: text.strip(JAVA_SPACE) != "")
json_values: st.SearchStrategy[JsonValue] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=6,
)
memories = st.builds(
    MemorySnapshot,
    items=st.lists(json_values, max_size=4).map(tuple),
    summary=st.none() | st.text(max_size=10),
)
results = st.none() | st.builds(
    CompactResult,
    memory=st.none() | memories,
    summary=st.none() | st.text(max_size=10),
    pending=st.lists(st.text(max_size=5), max_size=2).map(tuple),
    modified_files=st.lists(st.text(max_size=5), max_size=2).map(tuple),
    context_report=st.none() | st.just(REPORT),
)
snapshots = st.builds(
    AgentSessionSnapshot, session_id=session_ids, memory=memories, compact_result=results
)


def round_trip_everywhere(snapshot: AgentSessionSnapshot) -> None:
    with tempfile.TemporaryDirectory() as directory:
        memory_store = InMemorySessionStore()
        file_store = FileSessionStore(directory)
        with SqliteSessionStore(Path(directory) / "s.db") as sqlite_store:
            for store in (memory_store, file_store, sqlite_store):
                store.save(snapshot)
                assert store.load(snapshot.session_id) == snapshot
                assert store.session_ids() == [snapshot.session_id]


@given(snapshot=snapshots)
@example(snapshot=SNAPSHOT)
@example(snapshot=AgentSessionSnapshot(session_id="Run/1"))
@example(snapshot=AgentSessionSnapshot(session_id="../x", memory=MemorySnapshot(summary="")))
@example(
    snapshot=AgentSessionSnapshot(
        session_id="中文 id", memory=MemorySnapshot(items=("\ud800", 10**30, -0.0))
    )
)
def test_every_store_round_trips_every_snapshot(snapshot: AgentSessionSnapshot) -> None:
    round_trip_everywhere(snapshot)


# -- FileSessionStore ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("session_id", "stem"),
    [
        ("s-1", "s-1"),
        ("Run/1", "%52un%2F1"),
        ("a_b", "a_b"),
        ("a.b", "a%2Eb"),
        ("%41", "%2541"),
        (".", "%2E"),
        ("é", "%C3%A9"),
        ("中", "%E4%B8%AD"),
        ("\U0001f600", "%F0%9F%98%80"),
        ("a b", "a%20b"),
    ],
)
def test_the_file_name_is_the_safe_form_of_the_id(
    tmp_path: Path, session_id: str, stem: str
) -> None:
    assert session_file_stem(session_id) == stem
    assert FileSessionStore(tmp_path).path_for(session_id) == tmp_path / f"{stem}.json"


@given(first=st.text(min_size=1), second=st.text(min_size=1))
@example(first="A", second="a")
@example(first="a/b", second="a_b")
@example(first="%2F", second="/")
def test_distinct_ids_never_share_a_file(first: str, second: str) -> None:
    if first != second:
        assert session_file_stem(first).lower() != session_file_stem(second).lower()


def test_ids_that_differ_only_in_case_or_punctuation_get_their_own_files(tmp_path: Path) -> None:
    store = FileSessionStore(tmp_path)
    ids = ["a_b", "a/b", "A_b", "a b", "a\\b"]
    for session_id in ids:
        summary = MemorySnapshot(summary=session_id)
        store.save(AgentSessionSnapshot(session_id=session_id, memory=summary))
    assert len({path.name.lower() for path in tmp_path.iterdir()}) == 5
    for session_id in ids:
        loaded = store.load(session_id)
        assert loaded is not None
        assert loaded.memory.summary == session_id
    assert store.session_ids() == sorted(ids)


def test_an_id_whose_file_name_is_too_long_is_refused(tmp_path: Path) -> None:
    store = FileSessionStore(tmp_path)
    longest = "x" * 250
    store.save(AgentSessionSnapshot(session_id=longest))
    assert store.load(longest) == AgentSessionSnapshot(session_id=longest)
    with pytest.raises(InvalidValueError, match="at most 255 bytes"):
        store.save(AgentSessionSnapshot(session_id="x" * 251))
    with pytest.raises(InvalidValueError, match="at most 255 bytes"):
        store.load("é" * 42)


def test_the_file_is_the_pretty_json_of_the_snapshot(tmp_path: Path) -> None:
    store = FileSessionStore(tmp_path)
    store.save(SNAPSHOT)
    text = (tmp_path / "s-1.json").read_text(encoding="utf-8")
    assert text == json.dumps(to_json(SNAPSHOT), indent=2, ensure_ascii=True) + "\n"
    assert json.loads(text)["sessionId"] == "s-1"
    assert [path.name for path in tmp_path.iterdir()] == ["s-1.json"]


def only_session_files(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


@pytest.mark.parametrize("failing", ["replace", "fsync", "write"])
def test_a_failed_save_keeps_the_old_file_and_removes_its_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    store = FileSessionStore(tmp_path)
    store.save(SNAPSHOT)
    before = (tmp_path / "s-1.json").read_bytes()

    def crash(*_: object, **__: object) -> Any:
        raise OSError(f"{failing} failed")

    if failing == "replace":
        monkeypatch.setattr(os, "replace", crash)
    elif failing == "fsync":
        monkeypatch.setattr(os, "fsync", crash)
    else:
        real_open = open

        class HalfWriter:
            """Writes half of the text, then fails: a full disk, say."""

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                self.file = real_open(*args, **kwargs)

            def __enter__(self) -> Self:
                return self

            def __exit__(self, *exc_info: object) -> None:
                self.file.close()

            def write(self, text: str) -> int:
                self.file.write(text[: len(text) // 2])
                self.file.flush()
                raise OSError(f"{failing} failed")

        monkeypatch.setattr(file_store_module, "open", HalfWriter, raising=False)
    with pytest.raises(OSError, match=f"{failing} failed"):
        store.save(AgentSessionSnapshot(session_id="s-1"))
    monkeypatch.undo()
    assert (tmp_path / "s-1.json").read_bytes() == before
    assert only_session_files(tmp_path) == ["s-1.json"]
    assert store.load("s-1") == SNAPSHOT


def test_a_killed_writer_leaves_the_old_file_and_a_temporary_the_store_ignores(
    tmp_path: Path,
) -> None:
    store = FileSessionStore(tmp_path)
    store.save(SNAPSHOT)
    before = (tmp_path / "s-1.json").read_bytes()
    script = textwrap.dedent(
        f"""
        import os
        from ctxpact.reference.session import FileSessionStore
        from ctxpact.spec import AgentSessionSnapshot

        os.fsync = lambda descriptor: os._exit(3)  # die after writing, before the rename
        FileSessionStore({str(tmp_path)!r}).save(AgentSessionSnapshot(session_id="s-1"))
        """
    )
    finished = subprocess.run([sys.executable, "-c", script], check=False)
    assert finished.returncode == 3
    leftovers = [name for name in only_session_files(tmp_path) if name != "s-1.json"]
    assert len(leftovers) == 1
    assert leftovers[0].startswith(".s-1.json.") or leftovers[0].startswith(".s-1.")
    assert leftovers[0].endswith(".tmp")
    assert (tmp_path / "s-1.json").read_bytes() == before
    assert store.load("s-1") == SNAPSHOT
    assert store.session_ids() == ["s-1"]


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nesting too deep"),
        (b"{not json", "invalid JSON"),
        (b"", "invalid JSON"),
        (b'{"sessionId": "s-1", "memory": {"items": [NaN]}}', "Expected JSON text"),
        (b"\xff\xfe", "Expected UTF-8 text"),
    ],
)
def test_a_corrupt_file_is_named_with_the_path(
    tmp_path: Path, content: bytes, fragment: str
) -> None:
    store = FileSessionStore(tmp_path)
    target = tmp_path / "s-1.json"
    target.write_bytes(content)
    with pytest.raises(CorruptSessionError) as raised:
        store.load("s-1")
    message = str(raised.value)
    assert str(target) in message
    assert fragment in message
    assert raised.value.violations[0].path == "$"
    assert raised.value.location == f"file {str(target)!r}"


@pytest.mark.parametrize(
    ("document", "path"),
    [
        ({"sessionId": "s-1", "memory": {"items": "not a list"}}, "$.memory.items"),
        ({"sessionId": "s-1", "memory": {"summary": 3}}, "$.memory.summary"),
        ({"sessionId": "s-1", "compactResult": {"readFiles": [1]}}, "$.compactResult.readFiles[0]"),
        ({"sessionId": ""}, "$.sessionId"),
        ({"sessionId": "s-1", "extra": True}, "$"),
        ({"memory": {}}, "$"),
        ([], "$"),
    ],
)
def test_a_schema_invalid_file_is_named_with_the_json_path(
    tmp_path: Path, document: object, path: str
) -> None:
    store = FileSessionStore(tmp_path)
    target = tmp_path / "s-1.json"
    target.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CorruptSessionError) as raised:
        store.load("s-1")
    assert str(target) in str(raised.value)
    assert path in [violation.path for violation in raised.value.violations]
    assert f"  {path}: " in str(raised.value)


def test_a_corrupt_file_is_never_overwritten_nor_deleted(tmp_path: Path) -> None:
    store = FileSessionStore(tmp_path)
    target = tmp_path / "s-1.json"
    target.write_bytes(b"{half a docu")
    with pytest.raises(CorruptSessionError):
        store.save(SNAPSHOT)
    with pytest.raises(CorruptSessionError):
        store.delete("s-1")
    # Listing reads names, not documents (SES-18): the session is there, and unreadable.
    assert store.session_ids() == ["s-1"]
    assert target.read_bytes() == b"{half a docu"
    assert only_session_files(tmp_path) == ["s-1.json"]


def test_a_file_holding_another_session_is_refused(tmp_path: Path) -> None:
    store = FileSessionStore(tmp_path)
    store.save(SNAPSHOT)
    (tmp_path / "s-2.json").write_bytes((tmp_path / "s-1.json").read_bytes())
    with pytest.raises(
        SessionIdMismatchError, match=r"Expected session 's-2' .* got session 's-1'"
    ):
        store.load("s-2")
    with pytest.raises(SessionIdMismatchError):
        store.save(AgentSessionSnapshot(session_id="s-2"))
    with pytest.raises(SessionIdMismatchError):
        store.delete("s-2")
    assert store.session_ids() == ["s-1", "s-2"]  # by name; loading s-2 is what fails
    assert store.load("s-1") == SNAPSHOT


def test_the_directory_is_created_on_the_first_save(tmp_path: Path) -> None:
    store = FileSessionStore(tmp_path / "a" / "b")
    assert store.load("s-1") is None
    assert store.session_ids() == []
    assert not (tmp_path / "a").exists()
    store.save(SNAPSHOT)
    assert store.directory == tmp_path / "a" / "b"
    assert (tmp_path / "a" / "b" / "s-1.json").is_file()


# -- SqliteSessionStore ----------------------------------------------------------------------


@pytest.mark.parametrize("table", ["", "9x", "a.b", "x;y", "sqlite_sessions"])
def test_bad_store_table_names_are_refused(tmp_path: Path, table: str) -> None:
    with pytest.raises(InvalidValueError, match=r"SqliteSessionStore\.table"):
        SqliteSessionStore(tmp_path / "s.db", table=table)


def test_one_row_per_session_in_the_default_table(tmp_path: Path) -> None:
    with SqliteSessionStore(tmp_path / "s.db") as store:
        store.save(SNAPSHOT)
        store.save(SNAPSHOT)
        assert store.table == DEFAULT_SESSION_TABLE == "ctxpact_agent_session"
    connection = sqlite3.connect(tmp_path / "s.db")
    rows = connection.execute(
        "SELECT session_id, snapshot_json, typeof(updated_at) FROM ctxpact_agent_session"
    ).fetchall()
    connection.close()
    assert len(rows) == 1
    assert rows[0][0] == "s-1"
    assert json.loads(rows[0][1]) == to_json(SNAPSHOT)
    assert rows[0][2] == "integer"


def test_two_tables_in_one_database_are_independent(tmp_path: Path) -> None:
    with (
        SqliteSessionStore(tmp_path / "s.db", table="one") as one,
        SqliteSessionStore(tmp_path / "s.db", table="two") as two,
    ):
        one.save(SNAPSHOT)
        assert two.load("s-1") is None
        assert two.session_ids() == []


def write_row(database: Path, session_id: str, text: str) -> None:
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute(
        "UPDATE ctxpact_agent_session SET snapshot_json = ? WHERE session_id = ?",
        (text, session_id),
    )
    connection.close()


def test_a_corrupt_row_is_named_by_table_and_session(tmp_path: Path) -> None:
    database = tmp_path / "s.db"
    with SqliteSessionStore(database) as store:
        store.save(SNAPSHOT)
        write_row(database, "s-1", "{oops")
        with pytest.raises(CorruptSessionError) as raised:
            store.load("s-1")
        assert "table 'ctxpact_agent_session', session 's-1'" in str(raised.value)
        write_row(database, "s-1", json.dumps({"sessionId": "s-1", "memory": {"items": {}}}))
        with pytest.raises(CorruptSessionError) as raised:
            store.load("s-1")
        assert raised.value.violations[0].path == "$.memory.items"
        write_row(database, "s-1", json.dumps({"sessionId": "other"}))
        with pytest.raises(SessionIdMismatchError):
            store.load("s-1")


class FailingInsert(sqlite3.Connection):
    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if sql.startswith("INSERT") and getattr(self, "armed", False):
            cursor = super().execute(sql, parameters)
            raise OSError(f"crashed after {cursor.rowcount} row(s)")
        return super().execute(sql, parameters)


def test_a_failed_save_keeps_the_previous_row(tmp_path: Path) -> None:
    database = tmp_path / "s.db"
    connection = sqlite3.connect(database, isolation_level=None, factory=FailingInsert)
    store = SqliteSessionStore(connection)
    store.save(SNAPSHOT)
    connection.armed = True  # type: ignore[attr-defined]  # the test's own switch
    with pytest.raises(OSError, match="crashed after 1 row"):
        store.save(AgentSessionSnapshot(session_id="s-1"))
    assert not connection.in_transaction
    connection.close()
    with SqliteSessionStore(database) as fresh:
        assert fresh.load("s-1") == SNAPSHOT


def test_a_borrowed_connection_stays_open(tmp_path: Path) -> None:
    connection = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
    with SqliteSessionStore(connection) as store:
        store.save(SNAPSHOT)
    assert connection.execute("SELECT count(*) FROM ctxpact_agent_session").fetchone() == (1,)
    connection.close()


@pytest.mark.parametrize("operation", ["save", "delete"])
def test_sqlite_store_never_overwrites_a_corrupt_row(operation: str) -> None:
    # SES-10: like a corrupt file, a corrupt row is refused and kept for recovery by hand.
    with SqliteSessionStore(":memory:") as store:
        store.save(AgentSessionSnapshot(session_id="s-1"))
        store._connection.execute(  # the test plays a damaged database
            'UPDATE "ctxpact_agent_session" SET snapshot_json = ? WHERE session_id = ?',
            ("{not json", "s-1"),
        )
        act: Callable[[], object] = (
            (lambda: store.save(AgentSessionSnapshot(session_id="s-1")))
            if operation == "save"
            else (lambda: store.delete("s-1"))
        )
        with pytest.raises(CorruptSessionError, match="session 's-1'"):
            act()
        row = store._connection.execute(
            'SELECT snapshot_json FROM "ctxpact_agent_session" WHERE session_id = ?', ("s-1",)
        ).fetchone()
        assert row == ("{not json",)


def test_a_store_with_only_save_and_load_is_a_session_store() -> None:
    # SES-9 makes delete and listing optional: the protocol asks for save and load only.
    class Minimal:
        def save(self, snapshot: AgentSessionSnapshot) -> None:
            del snapshot

        def load(self, session_id: str) -> AgentSessionSnapshot | None:
            del session_id
            return None

    assert isinstance(Minimal(), SessionStore)
    assert not isinstance(Minimal(), ListingSessionStore)
    assert isinstance(InMemorySessionStore(), ListingSessionStore)
