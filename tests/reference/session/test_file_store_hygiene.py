"""FileSessionStore: leftovers of crashed saves, listing by name, foreign files (SES-18).

Also how it reports a directory in a session file's place, and failures of the file system.
"""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference.session import (
    STALE_TEMPORARY_SECONDS,
    CorruptSessionError,
    FileSessionStore,
    ForeignSessionFileWarning,
    SessionFileError,
    session_file_stem,
    session_id_of_stem,
)
from ctxpact.spec import AgentSessionSnapshot, InvalidValueError

SNAPSHOT = AgentSessionSnapshot(session_id="s-1")
_AN_HOUR_AGO = time.time() - 2 * STALE_TEMPORARY_SECONDS


def _aged(path: Path, text: str = "{half") -> Path:
    path.write_text(text, encoding="utf-8")
    os.utime(path, (_AN_HOUR_AGO, _AN_HOUR_AGO))
    return path


def test_the_first_save_removes_old_temporary_files_of_the_store_only(tmp_path: Path) -> None:
    # 300 killed saves used to leave 105 files, 16.9 MB, that no store ever removed.
    stale = [_aged(tmp_path / f".s-{n}.abcdefg{n}.tmp") for n in range(3)]
    fresh = tmp_path / ".s-9.zzzzzzzz.tmp"  # a save in progress elsewhere, maybe
    fresh.write_text("{", encoding="utf-8")
    foreign = [
        _aged(tmp_path / ".editor.swp"),
        _aged(tmp_path / "notes.tmp"),
        _aged(tmp_path / ".s-1.conformance.tmp"),  # not tempfile's 8 random characters
        _aged(tmp_path / ".S-1.abcdefgh.tmp"),  # not a safe form: upper-case letters
    ]
    (tmp_path / ".dir.abcdefgh.tmp").mkdir()
    store = FileSessionStore(tmp_path)
    store.save(SNAPSHOT)
    assert not any(path.exists() for path in stale)
    assert fresh.exists()
    assert all(path.exists() for path in foreign)
    assert (tmp_path / ".dir.abcdefgh.tmp").is_dir()
    # Once per store object: a later stale file waits for the next store.
    late = _aged(tmp_path / ".s-2.abcdefgh.tmp")
    store.save(SNAPSHOT)
    assert late.exists()
    assert FileSessionStore(tmp_path).remove_stale_temporary_files() == [late]


def test_a_temporary_file_younger_than_stale_after_is_kept(tmp_path: Path) -> None:
    young = tmp_path / ".s-1.abcdefgh.tmp"
    young.write_text("{", encoding="utf-8")
    os.utime(young, (time.time() - 30, time.time() - 30))
    assert FileSessionStore(tmp_path, stale_after=60).remove_stale_temporary_files() == []
    assert FileSessionStore(tmp_path, stale_after=10).remove_stale_temporary_files() == [young]
    with pytest.raises(InvalidValueError, match="stale_after"):
        FileSessionStore(tmp_path, stale_after=-1)


def test_session_ids_come_from_the_names_without_reading_the_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It used to read and validate every document: 1.6 s for 1,000 sessions.
    store = FileSessionStore(tmp_path)
    for session_id in ("b", "Run/1", "é 漢"):
        store.save(AgentSessionSnapshot(session_id=session_id))

    def unreadable(*_: object, **__: object) -> bytes:
        raise AssertionError("session_ids() read a document")

    monkeypatch.setattr(Path, "read_bytes", unreadable)
    assert store.session_ids() == sorted(["b", "Run/1", "é 漢"])


def test_a_foreign_json_file_is_ignored_with_a_warning(tmp_path: Path) -> None:
    # One foreign .json file used to make session_ids() fail for every session.
    store = FileSessionStore(tmp_path)
    store.save(SNAPSHOT)
    for name in ("README.json", "%61.json", "%2f.json", "%20.json", "%ZZ.json", ".hidden.json"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    (tmp_path / "folder.json").mkdir()
    (tmp_path / "notes.txt").write_text("not a session", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.session_ids() == ["s-1"]
    foreign = sorted(
        Path(w.message.path).name
        for w in caught
        if isinstance(w.message, ForeignSessionFileWarning)
    )
    assert foreign == sorted(
        [
            "README.json",
            "%61.json",
            "%2f.json",
            "%20.json",
            "%ZZ.json",
            ".hidden.json",
            "folder.json",
        ]
    )
    assert (tmp_path / "README.json").read_text(encoding="utf-8") == "{}"  # left alone


@given(
    session_id=st.text(min_size=1, max_size=20).filter(
        lambda t: t.strip("".join(map(chr, range(33))))
    )
)
@example(session_id="Run/1")
@example(session_id="%52un%2F1")
@example(session_id="a b\x00c")
def test_the_safe_form_reads_back_as_its_id(session_id: str) -> None:
    assert session_id_of_stem(session_file_stem(session_id)) == session_id


def test_a_directory_in_place_of_a_session_file_is_a_corrupt_session(tmp_path: Path) -> None:
    # It used to reach the caller as a bare IsADirectoryError.
    (tmp_path / "s-1.json").mkdir()
    store = FileSessionStore(tmp_path)
    for call in (
        lambda: store.load("s-1"),
        lambda: store.save(SNAPSHOT),
        lambda: store.delete("s-1"),
    ):
        with pytest.raises(CorruptSessionError, match="got a directory") as raised:
            call()
        assert str(tmp_path / "s-1.json") in str(raised.value)
    assert (tmp_path / "s-1.json").is_dir()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_directory_is_a_session_file_error_naming_it(tmp_path: Path) -> None:
    store = FileSessionStore(tmp_path)
    store.save(SNAPSHOT)
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(SessionFileError) as raised:
            store.save(AgentSessionSnapshot(session_id="s-2"))
    finally:
        tmp_path.chmod(0o700)
    assert str(tmp_path) in str(raised.value)
    assert isinstance(raised.value, PermissionError | OSError)
    assert store.load("s-1") == SNAPSHOT


def test_a_failing_file_system_is_a_session_file_error_with_its_errno(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSessionStore(tmp_path)
    store.save(SNAPSHOT)

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(SessionFileError) as raised:
        store.save(AgentSessionSnapshot(session_id="s-1", memory=SNAPSHOT.memory))
    monkeypatch.undo()
    assert raised.value.errno == 28
    assert "No space left on device" in str(raised.value)
    assert str(tmp_path / "s-1.json") in str(raised.value)
    assert store.load("s-1") == SNAPSHOT
    assert sorted(path.name for path in tmp_path.iterdir()) == ["s-1.json"]
