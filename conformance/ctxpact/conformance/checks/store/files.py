"""File stores (SES-13, SES-14, SES-18): file names, atomic saves, a clean directory.

Including saves whose write, fsync or rename fails (faults injected into this process's
file-system calls, so checked in process only).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._faults import FAULTS, injected
from ctxpact.conformance.checks._storage import (
    Remote,
)
from ctxpact.conformance.checks.store._places import FileDocuments, _file_store
from ctxpact.conformance.checks.store._support import (
    _JAVA_SPACE,
    MAX_FILE_NAME_BYTES,
    ListingStore,
    _bypassing,
    _document,
    _expect_loads,
    _invalid_snapshots,
    safe_form,
)
from ctxpact.spec import (
    AgentSessionSnapshot,
    MemorySnapshot,
)


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
