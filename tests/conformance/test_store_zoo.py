"""A zoo of wrong session stores: the store checks fail each one, for the intended reason.

Each member is a reference store with one thing perturbed. It names the clause it breaks,
the check that must catch it and a fragment of the failure message that shows the check
failed for that reason and not another. The reference stores pass every check.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import re
import sqlite3
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import attrs
import pytest

from ctxpact.conformance import (
    CheckResult,
    Claim,
    Component,
    Outcome,
    Target,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance.checks import store
from ctxpact.conformance.checks._stateful_support import nesting_depth
from ctxpact.reference.memory._sqlite_support import Database
from ctxpact.reference.session import (
    DEFAULT_SESSION_TABLE,
    CorruptSessionError,
    FileSessionStore,
    InMemorySessionStore,
    SessionIdMismatchError,
    SqliteSessionStore,
)
from ctxpact.spec import (
    AgentSessionSnapshot,
    JsonObject,
    SchemaValidationError,
    converter,
    from_json,
    to_json,
)

if TYPE_CHECKING:
    from _typeshed import HasFileno

QUICK = profile_settings("quick")
CLAIMS = frozenset({Claim.GENERIC})
CHECKS = {check.id: check for check in store.CHECKS}

#: Clauses the store checks cite that no single wrong store breaks on its own, and why.
EXEMPT = {
    "JSON-10": "defines identity, the yardstick of every comparison; stores that break it "
    "break JSON-3 or JSON-5, which have members",
    "SES-12": "says only where the in-process store keeps its documents; what can go wrong "
    "there is SES-9 or SES-11, which have members",
}


# -- in-process stores with one thing wrong -------------------------------------------------


class LastSavedForAnyId(InMemorySessionStore):
    def __init__(self) -> None:
        super().__init__()
        self._last: AgentSessionSnapshot | None = None

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        super().save(snapshot)
        self._last = snapshot

    def load(self, session_id: str) -> AgentSessionSnapshot | None:  # noqa: ARG002 - the bug
        return self._last


class UnknownIdRaises(InMemorySessionStore):
    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        loaded = super().load(session_id)
        if loaded is None:
            raise KeyError(session_id)
        return loaded


class UnknownIdIsEmpty(InMemorySessionStore):
    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        return super().load(session_id) or AgentSessionSnapshot(session_id=session_id)


class KeepsFirstSave(InMemorySessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        if super().load(snapshot.session_id) is None:
            super().save(snapshot)


class LosesCompactResult(InMemorySessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        super().save(attrs.evolve(snapshot, compact_result=None))


class LosesSummary(InMemorySessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        memory = attrs.evolve(snapshot.memory, summary=None)
        super().save(attrs.evolve(snapshot, memory=memory))


class SharesObjects(InMemorySessionStore):
    """Keeps the caller's snapshot itself."""

    def __init__(self) -> None:
        super().__init__()
        self._kept: dict[str, AgentSessionSnapshot] = {}

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        super().save(snapshot)
        self._kept[snapshot.session_id] = snapshot

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        return self._kept.get(session_id)


class NormalisesItemsInPlace(InMemorySessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        for item in snapshot.memory.items:
            if isinstance(item, dict):
                item.setdefault("type", "message")
        super().save(snapshot)


class SavesWithoutValidating(InMemorySessionStore):
    """Keeps whatever it is given, JSON or not."""

    def __init__(self) -> None:
        super().__init__()
        self._kept: dict[str, AgentSessionSnapshot] = {}

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        self._kept[snapshot.session_id] = snapshot

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        return self._kept.get(session_id)


class PathlessRefusals(InMemorySessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        try:
            super().save(snapshot)
        except ValueError:
            raise ValueError("invalid snapshot") from None


class ConvertsWithoutTheSchema(InMemorySessionStore):
    """Turns the snapshot into JSON but never validates the document against the schema."""

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        self._documents[snapshot.session_id] = to_json(snapshot)


class RemovesBeforeSaving(InMemorySessionStore):
    """Drops the old document first, so a refused save loses it."""

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        self._documents.pop(snapshot.session_id, None)
        super().save(snapshot)


class RefusesDeepItems(InMemorySessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        if any(nesting_depth(item) > 100 for item in snapshot.memory.items):
            raise ValueError("items may be nested 100 levels deep at most")
        super().save(snapshot)


class SortsMembers(InMemorySessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        super().save(snapshot)
        document = self._documents[snapshot.session_id]
        self._documents[snapshot.session_id] = json.loads(json.dumps(document, sort_keys=True))


def _int_if_integral(text: str) -> float | int:
    number = float(text)
    return int(number) if number.is_integer() else number


class IntegralFloatsBecomeInts(InMemorySessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        super().save(snapshot)
        document = self._documents[snapshot.session_id]
        self._documents[snapshot.session_id] = json.loads(
            json.dumps(document), parse_float=_int_if_integral
        )


# -- file stores with one thing wrong ---------------------------------------------------------


class SkipsCorruptFiles(FileSessionStore):
    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        try:
            return super().load(session_id)
        except CorruptSessionError:
            return None


class NoSessionIdCheck(FileSessionStore):
    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        try:
            return super().load(session_id)
        except SessionIdMismatchError:
            text = self.path_for(session_id).read_text(encoding="utf-8")
            return from_json(AgentSessionSnapshot, json.loads(text))


class EmptyFileIsNone(FileSessionStore):
    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        path = self.path_for(session_id)
        if path.exists() and not path.read_bytes():
            return None
        return super().load(session_id)


class NamelessErrors(FileSessionStore):
    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        try:
            return super().load(session_id)
        except CorruptSessionError as error:
            raise SchemaValidationError(error.violations) from None


class PlainValueErrors(FileSessionStore):
    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        try:
            return super().load(session_id)
        except CorruptSessionError as error:
            raise ValueError(str(error)) from None


class ReadsWithoutTheSchema(FileSessionStore):
    """Builds the record straight from the JSON: its own validators speak, not the schema."""

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        path = self.path_for(session_id)
        try:
            document = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        except ValueError:
            return super().load(session_id)
        if document is None:
            return None
        return converter.structure(document, AgentSessionSnapshot)


class WritesExtraMembers(FileSessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        super().save(snapshot)
        path = self.path_for(snapshot.session_id)
        document = json.loads(path.read_text(encoding="utf-8"))
        document["savedAt"] = 1
        path.write_text(json.dumps(document), encoding="utf-8")


class WritesEmptyIndices(FileSessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        super().save(snapshot)
        path = self.path_for(snapshot.session_id)
        document = json.loads(path.read_text(encoding="utf-8"))
        report = (document.get("compactResult") or {}).get("contextReport")
        if isinstance(report, dict):
            for name in ("droppedIndices", "clearedIndices"):
                if report.get(name) is None:
                    report[name] = []
        path.write_text(json.dumps(document), encoding="utf-8")


class RequiresEveryMember(FileSessionStore):
    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        path = self.path_for(session_id)
        if path.exists():
            document: JsonObject = json.loads(path.read_text(encoding="utf-8"))
            for name in ("memory", "compactResult"):
                if name not in document:
                    raise KeyError(name)
        return super().load(session_id)


class KeepsCaseInNames(FileSessionStore):
    def path_for(self, session_id: str) -> Path:
        super().path_for(session_id)  # the same refusals
        return self.directory / f"{urllib.parse.quote(session_id, safe='')}.json"


class WritesInPlace(FileSessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        path = self.path_for(snapshot.session_id)
        if path.exists():
            path.write_text(json.dumps(to_json(snapshot)), encoding="utf-8")
        else:
            super().save(snapshot)


class NeedsTheDirectory(FileSessionStore):
    def save(self, snapshot: AgentSessionSnapshot) -> None:
        if not self.directory.is_dir():
            raise FileNotFoundError(f"no directory {self.directory}")
        super().save(snapshot)


class IgnoresAFailingFsync(FileSessionStore):
    """Renames the temporary file over the session's even when forcing it to disk failed."""

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        real = os.fsync

        def tolerant(fd: int | HasFileno) -> None:
            with contextlib.suppress(OSError):
                real(fd)

        os.fsync = tolerant
        try:
            super().save(snapshot)
        finally:
            os.fsync = real


class LeavesItsTemporaryFile(FileSessionStore):
    """Saves as the reference does, but never removes the temporary file of a failed save."""

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        if self.directory.is_dir():
            self.remove_stale_temporary_files()  # the sweep of SES-18 still works
        real = Path.unlink

        def keeping(path: Path, *, missing_ok: bool = False) -> None:
            if not path.name.endswith(".tmp"):
                real(path, missing_ok=missing_ok)

        Path.unlink = keeping  # type: ignore[method-assign,assignment]  # the bug, for one save
        try:
            super().save(snapshot)
        finally:
            Path.unlink = real  # type: ignore[method-assign]  # put back


# -- SQLite stores with one thing wrong ------------------------------------------------------


class AcceptsAnyTable(SqliteSessionStore):
    def __init__(self, database: Database, *, table: str = DEFAULT_SESSION_TABLE) -> None:
        super().__init__(database, table=re.sub(r"\W", "_", table) or "fallback")


class LeavesItsTransactionOpen(SqliteSessionStore):
    """Saves inside a transaction it never commits (on a borrowed connection)."""

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        super().save(snapshot)
        connection: sqlite3.Connection = self._connection
        if not self._owns_connection:
            connection.execute("BEGIN")


class ReadsBackRecursively:
    """Keeps each document as the recursive json module writes it, and reads it back so.

    A deep item is saved fine, but a caller deep in the stack cannot load it (JSON-17).
    """

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        self._texts[snapshot.session_id] = json.dumps(converter.unstructure(snapshot))

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        text = self._texts.get(session_id)
        if text is None:
            return None
        return converter.structure(json.loads(text), AgentSessionSnapshot)

    def delete(self, session_id: str) -> bool:
        return self._texts.pop(session_id, None) is not None

    def session_ids(self) -> list[str]:
        return sorted(self._texts)


class TakesBlankIds(InMemorySessionStore):
    """Looks blank ids up instead of refusing them (SES-17)."""

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        if session_id.strip():
            return super().load(session_id)
        return None


class NeverSweeps(FileSessionStore):
    """Leaves the temporary files of crashed saves for ever (SES-18)."""

    def remove_stale_temporary_files(self) -> list[Path]:
        return []


class ListsByReading(FileSessionStore):
    """Lists sessions by reading every document, as the store once did (SES-18)."""

    def session_ids(self) -> list[str]:
        ids = super().session_ids()
        return sorted(session_id for session_id in ids if self.load(session_id) is not None)


def _in_memory(cls: type[InMemorySessionStore]) -> Callable[[Path], object]:
    return lambda _: cls()


def _sqlite(cls: type[SqliteSessionStore]) -> Callable[[Path], object]:
    return lambda _: cls(":memory:")


@attrs.frozen
class WrongStore:
    """One member of the zoo: what it is, what it breaks, and what must say so."""

    name: str
    build: Callable[[Path], object]
    breaks: str
    caught_by: str
    reason: str


ZOO = (
    WrongStore(
        "reads-back-recursively",
        lambda _: ReadsBackRecursively(),
        "JSON-17",
        "store.beyond-limits",
        "frames deep in the stack raised RecursionError",
    ),
    WrongStore(
        "takes-blank-ids",
        _in_memory(TakesBlankIds),
        "SES-17",
        "store.session-id-rule",
        "took the blank session id",
    ),
    WrongStore(
        "never-sweeps",
        NeverSweeps,
        "SES-18",
        "store.file-hygiene",
        "left the stale temporary files",
    ),
    WrongStore(
        "lists-by-reading",
        ListsByReading,
        "SES-18",
        "store.file-hygiene",
        "raised over a corrupt session file",
    ),
    WrongStore(
        "last-saved-for-any-id",
        _in_memory(LastSavedForAnyId),
        "SES-9",
        "store.model-based",
        "differs from the snapshot saved last: at $.sessionId",
    ),
    WrongStore(
        "unknown-id-raises", _in_memory(UnknownIdRaises), "SES-9", "store.model-based", "KeyError"
    ),
    WrongStore(
        "keeps-first-save",
        _in_memory(KeepsFirstSave),
        "SES-9",
        "store.model-based",
        "differs from the snapshot saved last",
    ),
    WrongStore(
        "loses-compact-result",
        _in_memory(LosesCompactResult),
        "SES-1",
        "store.round-trip",
        "$.compactResult",
    ),
    WrongStore(
        "resume-loses-compact-result",
        _in_memory(LosesCompactResult),
        "SES-8",
        "store.resume-keeps-summary",
        "the resumed session's snapshot differs",
    ),
    WrongStore(
        "loses-summary",
        _in_memory(LosesSummary),
        "MEM-10",
        "store.resume-keeps-summary",
        "restore through the store lost the summary",
    ),
    WrongStore(
        "refuses-deep-items",
        _in_memory(RefusesDeepItems),
        "JSON-8",
        "store.round-trip",
        "it holds an item nested 256 levels deep; JSON-8",
    ),
    WrongStore(
        "sorts-members",
        _in_memory(SortsMembers),
        "JSON-3",
        "store.round-trip",
        "JSON-3: member order is kept",
    ),
    WrongStore(
        "integral-floats-become-ints",
        _in_memory(IntegralFloatsBecomeInts),
        "JSON-5",
        "store.round-trip",
        "JSON-5: 1 and 1.0 are different items",
    ),
    WrongStore(
        "shares-objects",
        _in_memory(SharesObjects),
        "SES-11",
        "store.copies",
        "differs from the snapshot saved last",
    ),
    WrongStore(
        "normalises-items-in-place",
        _in_memory(NormalisesItemsInPlace),
        "JSON-16",
        "store.copies",
        "save() changed the snapshot it was given",
    ),
    WrongStore(
        "saves-without-validating",
        _in_memory(SavesWithoutValidating),
        "JSON-9",
        "store.invalid-snapshot",
        "save() accepted a snapshot with a set inside an item",
    ),
    WrongStore(
        "pathless-refusals",
        _in_memory(PathlessRefusals),
        "JSON-11",
        "store.invalid-snapshot",
        "without naming the JSON path",
    ),
    WrongStore(
        "converts-without-the-schema",
        _in_memory(ConvertsWithoutTheSchema),
        "JSON-14",
        "store.invalid-snapshot",
        "save() accepted a snapshot with a summary that is a number",
    ),
    WrongStore(
        "removes-before-saving",
        _in_memory(RemovesBeforeSaving),
        "SES-10",
        "store.invalid-snapshot",
        "load('kept') returned None instead of the saved snapshot",
    ),
    WrongStore(
        "skips-corrupt-files",
        SkipsCorruptFiles,
        "SES-10",
        "store.corrupt-document",
        "instead of raising",
    ),
    WrongStore(
        "no-session-id-check",
        NoSessionIdCheck,
        "SES-10",
        "store.corrupt-document",
        "loading another session's document returned",
    ),
    WrongStore(
        "nameless-errors", NamelessErrors, "SES-10", "store.corrupt-document", "does not name"
    ),
    WrongStore(
        "reads-without-the-schema",
        ReadsWithoutTheSchema,
        "JSON-14",
        "store.corrupt-document",
        "loading a document that breaks the schema returned",
    ),
    WrongStore(
        "empty-file-is-none",
        EmptyFileIsNone,
        "SES-15",
        "store.corrupt-document",
        "loading an empty file returned",
    ),
    WrongStore(
        "writes-extra-members",
        WritesExtraMembers,
        "JSON-14",
        "store.documents-valid",
        "the stored document breaks the schema",
    ),
    WrongStore(
        "writes-empty-indices",
        WritesEmptyIndices,
        "JSON-15",
        "store.documents-valid",
        "never an empty array",
    ),
    WrongStore(
        "requires-every-member",
        RequiresEveryMember,
        "JSON-15",
        "store.documents-defaults",
        "KeyError",
    ),
    WrongStore(
        "keeps-case-in-names", KeepsCaseInNames, "SES-13", "store.file-names", "is not in the file"
    ),
    WrongStore(
        "writes-in-place",
        WritesInPlace,
        "SES-14",
        "store.file-atomic",
        "rewrote the session's file in place",
    ),
    WrongStore(
        "needs-the-directory", NeedsTheDirectory, "SES-14", "store.file-atomic", "FileNotFoundError"
    ),
    WrongStore(
        "ignores-a-failing-fsync",
        IgnoresAFailingFsync,
        "SES-14",
        "store.interrupted-save",
        "save() returned normally although its fsync failed",
    ),
    WrongStore(
        "leaves-its-temporary-file",
        LeavesItsTemporaryFile,
        "SES-14",
        "store.interrupted-save",
        "a save whose write failed left ['.s-1.",
    ),
    WrongStore(
        "accepts-any-table",
        _sqlite(AcceptsAnyTable),
        "SES-16",
        "store.table-rows",
        "the table name '' was accepted",
    ),
    WrongStore(
        "leaves-its-transaction-open",
        _sqlite(LeavesItsTransactionOpen),
        "SES-16",
        "store.table-rows",
        "transaction still open",
    ),
)


#: Members of checks added for the suite's power (issue 12) that no other check may catch.
ONLY_ITS_CHECK = frozenset({"ignores-a-failing-fsync", "leaves-its-temporary-file"})


@pytest.mark.parametrize(
    "wrong", [w for w in ZOO if w.name in ONLY_ITS_CHECK], ids=lambda wrong: wrong.name
)
def test_no_other_check_catches_the_member(wrong: WrongStore, tmp_path: Path) -> None:
    counter = itertools.count()
    failed = [
        check.id
        for check in store.CHECKS
        if check.id != wrong.caught_by
        and run_check(
            check,
            factory=lambda: wrong.build(tmp_path / str(next(counter))),
            claims=CLAIMS,
            settings=QUICK,
        ).outcome
        not in {Outcome.PASS, Outcome.SKIP}
    ]
    assert not failed, failed


def test_every_clause_the_store_checks_cite_has_a_wrong_store() -> None:
    cited = {clause for check in store.CHECKS for clause in check.clauses}
    broken = {wrong.breaks for wrong in ZOO}
    assert cited - broken - EXEMPT.keys() == set()
    assert EXEMPT.keys() <= cited, "an exemption names a clause no store check cites"


def test_each_wrong_store_breaks_a_clause_its_check_cites() -> None:
    names = [wrong.name for wrong in ZOO]
    assert len(names) == len(set(names))
    for wrong in ZOO:
        assert wrong.breaks in CHECKS[wrong.caught_by].clauses, wrong.name


@pytest.mark.parametrize("wrong", ZOO, ids=lambda wrong: wrong.name)
def test_the_intended_check_fails_for_the_intended_reason(
    wrong: WrongStore, tmp_path: Path
) -> None:
    counter = itertools.count()
    result = run_check(
        CHECKS[wrong.caught_by],
        factory=lambda: wrong.build(tmp_path / str(next(counter))),
        claims=CLAIMS,
        settings=QUICK,
    )
    assert result.outcome is Outcome.FAIL, result.message
    assert wrong.reason in result.message, result.message
    assert result.counterexample is not None


def _store_targets() -> dict[str, Target]:
    # The PostgreSQL targets (present when CTXPACT_POSTGRES_DSN is set) run in
    # tests/conformance/test_postgres_conformance.py, against the tests' own server.
    return {
        t.name: t
        for t in reference_targets()
        if t.component is Component.SESSION_STORE and "Postgres" not in t.name
    }


@functools.cache
def _reference_result(target_name: str, check_id: str) -> CheckResult:
    target = _store_targets()[target_name]
    return run_check(CHECKS[check_id], factory=target.factory, claims=target.claims, settings=QUICK)


@pytest.mark.parametrize("target_name", sorted(_store_targets()))
@pytest.mark.parametrize("check_id", sorted(CHECKS))
def test_the_reference_stores_pass(target_name: str, check_id: str) -> None:
    result = _reference_result(target_name, check_id)
    if result.outcome is Outcome.SKIP:
        assert re.search(
            r"not a file store|not a store kept in a table|cannot read them", result.message
        )
        return
    assert result.outcome is Outcome.PASS, result.message


@pytest.mark.parametrize("check_id", sorted(CHECKS))
def test_every_store_check_runs_on_some_reference_store(check_id: str) -> None:
    outcomes = {_reference_result(name, check_id).outcome for name in _store_targets()}
    assert Outcome.PASS in outcomes


# -- the same members through a harness (HRN-29) -----------------------------------------------

#: The checks that read what a store stored: through a harness they open the target on a
#: database or a directory the suite names. (store.interrupted-save injects its faults into
#: this process's file-system calls, so it checks in-process stores only.)
STORAGE_CHECKS = frozenset(
    {
        "store.documents-valid",
        "store.documents-defaults",
        "store.corrupt-document",
        "store.file-names",
        "store.file-atomic",
        "store.file-hygiene",
        "store.table-rows",
    }
)
#: Members whose wrong step cannot be reached through the protocol, and why.
UNREACHABLE_THROUGH_A_HARNESS = {
    "leaves-its-transaction-open": "it leaves a transaction open on a borrowed connection, "
    "and a harness's store is opened by address: it borrows nothing from the suite",
}


def test_the_storage_checks_are_those_that_skip_a_store_kept_in_memory(
    zoo_harness: dict[str, Target],
) -> None:
    target = zoo_harness["store-takes-blank-ids"]  # an InMemorySessionStore underneath
    skipped = {
        check.id
        for check in store.CHECKS
        if run_check(check, factory=target.factory, claims=CLAIMS, settings=QUICK).outcome
        is Outcome.SKIP
    }
    assert skipped == STORAGE_CHECKS | {"store.interrupted-save"}


@pytest.mark.parametrize(
    "wrong", [w for w in ZOO if w.caught_by in STORAGE_CHECKS], ids=lambda wrong: wrong.name
)
def test_the_member_is_caught_through_a_harness(
    wrong: WrongStore, zoo_harness: dict[str, Target]
) -> None:
    target = zoo_harness[f"store-{wrong.name}"]
    result = run_check(
        CHECKS[wrong.caught_by],
        factory=target.factory,
        claims=target.claims,
        options=target.options,
        settings=QUICK,
    )
    if wrong.name in UNREACHABLE_THROUGH_A_HARNESS:
        assert result.outcome is Outcome.PASS, result.message
        return
    if wrong.reason.endswith("Error"):
        # It raises where the check expects a result. In process that fails the check; an
        # error a harness reports is the check's error, naming the implementation's own.
        assert result.outcome is Outcome.ERROR, result.message
        assert "the harness answered errored" in result.message
    else:
        assert result.outcome is Outcome.FAIL, result.message
    assert wrong.reason in result.message, result.message
