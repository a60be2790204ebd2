"""A zoo of wrong agent memories: the memory checks fail each one, for the intended reason.

Each member is the reference memory with one thing perturbed. It names the clause it breaks,
the check that must catch it and a fragment of the failure message that shows the check
failed for that reason and not another. The reference memories pass every check.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from attrs import frozen

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
from ctxpact.conformance.checks import memory
from ctxpact.conformance.checks._stateful_support import nesting_depth
from ctxpact.reference.memory import InMemoryAgentMemory, SqliteAgentMemory
from ctxpact.reference.memory._sqlite_support import Database
from ctxpact.reference.memory._state import user_input_items
from ctxpact.spec import JsonValue, MemoryCompressor, MemorySnapshot

QUICK = profile_settings("quick")
CLAIMS = frozenset({Claim.GENERIC, Claim.EXACT})
CHECKS = {check.id: check for check in memory.CHECKS}

#: Clauses the memory checks cite that no single wrong memory breaks on its own, and why.
EXEMPT = {
    "JSON-10": "defines identity, the yardstick of every comparison; memories that break it "
    "break JSON-3 or JSON-5, which have members",
    "DIF-21": "records a departure from ai4j; its rules are MEM-6, MEM-8, MEM-10, MEM-12 and "
    "MEM-13, which have members",
}


# -- in-process memories with one thing wrong ---------------------------------------------------


class LosesSummaryOnRestore(InMemoryAgentMemory):
    def restore(self, snapshot: MemorySnapshot | None) -> None:
        super().restore(snapshot)
        self._summary = None


class RefusesNullRestore(InMemoryAgentMemory):
    """Reads the snapshot's items without asking whether there is a snapshot."""

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        assert snapshot is not None
        super().restore(MemorySnapshot(items=snapshot.items, summary=snapshot.summary))


class NoSummaryMessage(InMemoryAgentMemory):
    def get_items(self) -> list[JsonValue]:
        return list(self.snapshot().items)


class PrependsBlankSummary(InMemoryAgentMemory):
    def get_items(self) -> list[JsonValue]:
        items = list(self.snapshot().items)
        if self._summary is None:
            return items
        text = self._summary
        return [
            {
                "type": "message",
                "role": "system",
                "content": [{"type": "input_text", "text": text}],
            },
            *items,
        ]


_JAVA_SPACE = "".join(chr(code) for code in range(0x21))


class PythonBlank(InMemoryAgentMemory):
    """Uses Python's idea of white space, so a summary of U+00A0 counts as blank."""

    def get_items(self) -> list[JsonValue]:
        items = super().get_items()
        summary = self._summary
        if summary is not None and not summary.strip() and summary.strip(_JAVA_SPACE):
            return items[1:]
        return items


class TrimsSummaryMessage(InMemoryAgentMemory):
    def get_items(self) -> list[JsonValue]:
        items = super().get_items()
        if (
            items
            and self._summary
            and self._summary.strip() != self._summary
            and self._summary.strip()
        ):
            items[0] = {
                "type": "message",
                "role": "system",
                "content": [{"type": "input_text", "text": self._summary.strip()}],
            }
        return items


class SharesLiveItems(InMemoryAgentMemory):
    def snapshot(self) -> MemorySnapshot:
        return MemorySnapshot(items=tuple(self._items), summary=self._summary)


class StoresRawString(InMemoryAgentMemory):
    def add_user_input(self, value: JsonValue) -> None:
        if isinstance(value, str):
            self.add_output_items([value])
        else:
            super().add_user_input(value)


class SwapsToolOutputKeys(InMemoryAgentMemory):
    def add_tool_output(self, call_id: str, output: str | None) -> None:
        checked = InMemoryAgentMemory()
        checked.add_tool_output(call_id, output)  # the same refusals
        self.add_output_items(
            [{"type": "function_call_output", "output": output, "call_id": call_id}]
        )


class AcceptsNumericCallId(InMemoryAgentMemory):
    def add_tool_output(self, call_id: str, output: str | None) -> None:
        super().add_tool_output(str(call_id), output)


class SplitsStrings(InMemoryAgentMemory):
    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        super().add_output_items(list(items))


class IgnoresSetSummary(InMemoryAgentMemory):
    def set_summary(self, summary: str | None) -> None:
        """ai4j's default: does nothing."""


class AcceptsNumericSummary(InMemoryAgentMemory):
    def set_summary(self, summary: str | None) -> None:
        super().set_summary(None if summary is None else str(summary))


class ClearKeepsSummary(InMemoryAgentMemory):
    def clear(self) -> None:
        self._items = []


class SnapshotHasSummaryMessage(InMemoryAgentMemory):
    def snapshot(self) -> MemorySnapshot:
        return MemorySnapshot(items=tuple(self.get_items()), summary=self._summary)


class SummaryStoredAsItem(InMemoryAgentMemory):
    def set_summary(self, summary: str | None) -> None:
        super().set_summary(summary)
        if summary:
            self._items.append({"type": "message", "role": "system", "content": summary})


class ReadingForgets(InMemoryAgentMemory):
    """get_summary hands the summary over and forgets it."""

    def get_summary(self) -> str | None:
        summary = self._summary
        self._summary = None
        return summary


class RestoreDropsNulls(InMemoryAgentMemory):
    def restore(self, snapshot: MemorySnapshot | None) -> None:
        if snapshot is not None:
            snapshot = MemorySnapshot(
                items=tuple(item for item in snapshot.items if item is not None),
                summary=snapshot.summary,
            )
        super().restore(snapshot)


class AcceptsNonJson(InMemoryAgentMemory):
    def add_user_input(self, value: JsonValue) -> None:
        try:
            super().add_user_input(value)
        except ValueError:
            super().add_user_input(repr(value))


class AddsUntilTheBadItem(InMemoryAgentMemory):
    """Reports the right error, but keeps the items before the bad one."""

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        try:
            super().add_output_items(items)
        except ValueError:
            for item in items:
                try:
                    super().add_output_items([item])
                except ValueError:
                    break
            raise


class PathlessErrors(InMemoryAgentMemory):
    def add_user_input(self, value: JsonValue) -> None:
        try:
            super().add_user_input(value)
        except ValueError:
            raise ValueError("not a JSON value") from None


class SortsMembers(InMemoryAgentMemory):
    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        super().add_output_items([json.loads(json.dumps(item, sort_keys=True)) for item in items])


def _int_if_integral(text: str) -> float | int:
    number = float(text)
    return int(number) if number.is_integer() else number


class IntegralFloatsBecomeInts(InMemoryAgentMemory):
    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        super().add_output_items(
            [json.loads(json.dumps(item), parse_float=_int_if_integral) for item in items]
        )


class RefusesDeepItems(InMemoryAgentMemory):
    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        if any(nesting_depth(item) > 100 for item in items):
            raise ValueError("items may be nested 100 levels deep at most")
        super().add_output_items(items)


class MutatesArguments(InMemoryAgentMemory):
    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        for item in items:
            if isinstance(item, dict):
                item.setdefault("type", "message")
        super().add_output_items(items)


class RestoreRunsCompressor(InMemoryAgentMemory):
    def restore(self, snapshot: MemorySnapshot | None) -> None:
        super().restore(snapshot)
        if self.compressor is not None:
            result = self.compressor.compress(self.snapshot())
            self._items, self._summary = list(result.items), result.summary


class CompressesNonAtomically(InMemoryAgentMemory):
    """Appends first and compresses after: a raising compressor leaves the append behind."""

    def add_user_input(self, value: JsonValue) -> None:
        if self.compressor is None or value is None:
            super().add_user_input(value)
            return
        self._items.extend(user_input_items(value))
        result = self.compressor.compress(self.snapshot())
        self._items, self._summary = list(result.items), result.summary


class IgnoresCompressor(InMemoryAgentMemory):
    def __init__(self, compressor: MemoryCompressor | None = None) -> None:
        super().__init__()
        self._declared = compressor

    @property
    def compressor(self) -> MemoryCompressor | None:
        return self._declared


# -- SQLite memories with one thing wrong ------------------------------------------------------


class AcceptsAnyTable(SqliteAgentMemory):
    def __init__(
        self,
        database: Database,
        session_id: str,
        *,
        table: str = "ctxpact_agent_memory",
        compressor: MemoryCompressor | None = None,
    ) -> None:
        cleaned = re.sub(r"\W", "_", table) or "fallback"
        super().__init__(database, session_id, table=cleaned, compressor=compressor)


class AcceptsEmptySessionId(SqliteAgentMemory):
    def __init__(
        self,
        database: Database,
        session_id: str,
        *,
        table: str = "ctxpact_agent_memory",
        compressor: MemoryCompressor | None = None,
    ) -> None:
        super().__init__(database, session_id or "default", table=table, compressor=compressor)


class SharedSessions(SqliteAgentMemory):
    def __init__(
        self,
        database: Database,
        session_id: str,
        *,
        table: str = "ctxpact_agent_memory",
        compressor: MemoryCompressor | None = None,
    ) -> None:
        super().__init__(database, session_id, table=table, compressor=compressor)
        self._session_id = "shared"


class NotPersisted(SqliteAgentMemory):
    """Creates its table but keeps the state in the process."""

    def __init__(
        self,
        database: Database,
        session_id: str,
        *,
        table: str = "ctxpact_agent_memory",
        compressor: MemoryCompressor | None = None,
    ) -> None:
        super().__init__(database, session_id, table=table, compressor=compressor)
        self._inner = InMemoryAgentMemory(compressor)

    def add_user_input(self, value: JsonValue) -> None:
        self._inner.add_user_input(value)

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        self._inner.add_output_items(items)

    def add_tool_output(self, call_id: str, output: str | None) -> None:
        self._inner.add_tool_output(call_id, output)

    def get_items(self) -> list[JsonValue]:
        return self._inner.get_items()

    def get_summary(self) -> str | None:
        return self._inner.get_summary()

    def set_summary(self, summary: str | None) -> None:
        self._inner.set_summary(summary)

    def clear(self) -> None:
        self._inner.clear()

    def snapshot(self) -> MemorySnapshot:
        return self._inner.snapshot()

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        self._inner.restore(snapshot)


class ClearsBeforeRestore(SqliteAgentMemory):
    """Two transactions where MEM-17 wants one: the clear survives a failed restore."""

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        self.clear()
        super().restore(snapshot)


class ReadsBackRecursively(InMemoryAgentMemory):
    """Takes any item, and copies it back with the recursive json module (JSON-17).

    A deep item goes in fine, but a caller deep in the stack cannot read it back.
    """

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        self._items.extend(json.loads(json.dumps(list(items))))

    def snapshot(self) -> MemorySnapshot:
        items = json.loads(json.dumps(self._items))
        return MemorySnapshot(items=tuple(items), summary=self._summary)


class RawSqliteErrors(SqliteAgentMemory):
    """Lets sqlite3's errors through as they are: no operation, no database named (MEM-21)."""

    def _sqlite(self, operation: str) -> contextlib.AbstractContextManager[None]:  # noqa: ARG002 - what it leaves out
        return contextlib.nullcontext()


class SkipsCorruptRows(SqliteAgentMemory):
    def _parse(self, stored: Any) -> MemorySnapshot:
        try:
            return super()._parse(stored)
        except ValueError:
            return MemorySnapshot()


def _sqlite(cls: type[SqliteAgentMemory]) -> Callable[[], object]:
    return lambda: cls(":memory:", "conformance")


@frozen
class WrongMemory:
    """One member of the zoo: what it is, what it breaks, and what must say so."""

    name: str
    factory: Callable[[], object]
    breaks: str
    caught_by: str
    reason: str


ZOO = (
    WrongMemory(
        "refuses-null-restore",
        RefusesNullRestore,
        "MEM-10",
        "memory.restore-keeps-summary",
        "restore(None) raised AssertionError",
    ),
    WrongMemory(
        "loses-summary-on-restore",
        LosesSummaryOnRestore,
        "MEM-10",
        "memory.restore-keeps-summary",
        "restore() lost the summary",
    ),
    WrongMemory(
        "restore-drops-nulls",
        RestoreDropsNulls,
        "MEM-13",
        "memory.restore-keeps-summary",
        "after restore(snapshot)",
    ),
    WrongMemory(
        "no-summary-message", NoSummaryMessage, "MEM-7", "memory.summary-message", "(not blank)"
    ),
    WrongMemory(
        "prepends-blank-summary", PrependsBlankSummary, "MEM-7", "memory.summary-message", "(blank)"
    ),
    WrongMemory(
        "python-blank", PythonBlank, "MEM-7", "memory.summary-message", "'\\xa0' (not blank)"
    ),
    WrongMemory(
        "trims-summary-message",
        TrimsSummaryMessage,
        "MEM-7",
        "memory.summary-message",
        "' padded ' (not blank)",
    ),
    WrongMemory(
        "snapshot-shares-live-items",
        SharesLiveItems,
        "MEM-12",
        "memory.independent-copies",
        "after the caller changed the items of a snapshot",
    ),
    WrongMemory(
        "stores-raw-string", StoresRawString, "MEM-3", "memory.user-input", "after add_user_input"
    ),
    WrongMemory(
        "swaps-tool-output-keys",
        SwapsToolOutputKeys,
        "MEM-5",
        "memory.tool-output",
        "JSON-3: member order is kept",
    ),
    WrongMemory(
        "accepts-numeric-call-id",
        AcceptsNumericCallId,
        "MEM-5",
        "memory.tool-output",
        "was accepted instead of rejected",
    ),
    WrongMemory(
        "splits-strings", SplitsStrings, "MEM-4", "memory.output-items", "(not a list) was accepted"
    ),
    WrongMemory(
        "ignores-set-summary",
        IgnoresSetSummary,
        "MEM-8",
        "memory.set-summary",
        "get_summary() returned None after set_summary",
    ),
    WrongMemory(
        "accepts-numeric-summary",
        AcceptsNumericSummary,
        "MEM-8",
        "memory.set-summary",
        "was accepted instead of rejected",
    ),
    WrongMemory(
        "clear-keeps-summary",
        ClearKeepsSummary,
        "MEM-11",
        "memory.model-based",
        "get_summary() after the steps",
    ),
    WrongMemory(
        "snapshot-has-summary-message",
        SnapshotHasSummaryMessage,
        "MEM-9",
        "memory.model-based",
        "snapshot() after the steps differs",
    ),
    WrongMemory(
        "summary-stored-as-item",
        SummaryStoredAsItem,
        "MEM-2",
        "memory.model-based",
        "get_items() after the steps",
    ),
    WrongMemory(
        "reading-forgets",
        ReadingForgets,
        "MEM-1",
        "memory.model-based",
        "snapshot() after the steps",
    ),
    WrongMemory(
        "accepts-non-json",
        AcceptsNonJson,
        "JSON-9",
        "memory.non-json-rejected",
        "was accepted instead of rejected",
    ),
    WrongMemory(
        "adds-until-the-bad-item",
        AddsUntilTheBadItem,
        "JSON-9",
        "memory.non-json-rejected",
        "(it must have no effect)",
    ),
    WrongMemory(
        "pathless-errors",
        PathlessErrors,
        "JSON-11",
        "memory.non-json-rejected",
        "does not name the JSON path",
    ),
    WrongMemory(
        "sorts-members",
        SortsMembers,
        "JSON-3",
        "memory.json-fidelity",
        "JSON-3: member order is kept",
    ),
    WrongMemory(
        "integral-floats-become-ints",
        IntegralFloatsBecomeInts,
        "JSON-5",
        "memory.json-fidelity",
        "JSON-5: 1 and 1.0 are different items",
    ),
    WrongMemory(
        "refuses-deep-items",
        RefusesDeepItems,
        "JSON-8",
        "memory.deep-items",
        "add_output_items refused an item nested 256 levels deep",
    ),
    WrongMemory(
        "mutates-arguments",
        MutatesArguments,
        "JSON-16",
        "memory.arguments-unchanged",
        "add_output_items changed its argument",
    ),
    WrongMemory(
        "restore-runs-compressor",
        RestoreRunsCompressor,
        "MEM-6",
        "memory.compressor",
        "the compressor was called",
    ),
    WrongMemory(
        "compresses-non-atomically",
        CompressesNonAtomically,
        "MEM-6",
        "memory.compressor",
        "differs from the reference memory",
    ),
    WrongMemory(
        "ignores-compressor",
        IgnoresCompressor,
        "MEM-14",
        "memory.compressor",
        "the compressor was called 0 time(s)",
    ),
    WrongMemory(
        "accepts-any-table",
        _sqlite(AcceptsAnyTable),
        "MEM-16",
        "memory.table-construction",
        "the table name '' was accepted",
    ),
    WrongMemory(
        "accepts-empty-session-id",
        _sqlite(AcceptsEmptySessionId),
        "MEM-15",
        "memory.table-construction",
        "the empty session id was accepted",
    ),
    WrongMemory(
        "shared-sessions",
        _sqlite(SharedSessions),
        "MEM-18",
        "memory.table-isolation",
        "of session",
    ),
    WrongMemory(
        "not-persisted",
        _sqlite(NotPersisted),
        "MEM-19",
        "memory.table-reopen",
        "a memory reopened on the same",
    ),
    WrongMemory(
        "clears-before-restore",
        _sqlite(ClearsBeforeRestore),
        "MEM-17",
        "memory.table-atomic",
        "the stored state changed",
    ),
    WrongMemory(
        "reads-back-recursively",
        ReadsBackRecursively,
        "JSON-17",
        "memory.beyond-limits",
        "frames deep in the stack raised RecursionError",
    ),
    WrongMemory(
        "raw-sqlite-errors",
        _sqlite(RawSqliteErrors),
        "MEM-21",
        "memory.table-errors",
        "without a TimeoutError naming it",
    ),
    WrongMemory(
        "skips-corrupt-rows",
        _sqlite(SkipsCorruptRows),
        "MEM-20",
        "memory.table-corrupt-row",
        "instead of raising",
    ),
)


def test_every_clause_the_memory_checks_cite_has_a_wrong_memory() -> None:
    cited = {clause for check in memory.CHECKS for clause in check.clauses}
    broken = {wrong.breaks for wrong in ZOO}
    assert cited - broken - EXEMPT.keys() == set()
    assert EXEMPT.keys() <= cited, "an exemption names a clause no memory check cites"


def test_each_wrong_memory_breaks_a_clause_its_check_cites() -> None:
    names = [wrong.name for wrong in ZOO]
    assert len(names) == len(set(names))
    for wrong in ZOO:
        assert wrong.breaks in CHECKS[wrong.caught_by].clauses, wrong.name


@pytest.mark.parametrize("wrong", ZOO, ids=lambda wrong: wrong.name)
def test_the_intended_check_fails_for_the_intended_reason(wrong: WrongMemory) -> None:
    result = run_check(
        CHECKS[wrong.caught_by], factory=wrong.factory, claims=CLAIMS, settings=QUICK
    )
    assert result.outcome is Outcome.FAIL, result.message
    assert wrong.reason in result.message, result.message
    assert result.counterexample is not None


def _memory_targets() -> dict[str, Target]:
    # The PostgreSQL targets (present when CTXPACT_POSTGRES_DSN is set) run in
    # tests/conformance/test_postgres_conformance.py, against the tests' own server.
    return {
        t.name: t
        for t in reference_targets()
        if t.component is Component.AGENT_MEMORY and "Postgres" not in t.name
    }


@functools.cache
def _reference_result(target_name: str, check_id: str) -> CheckResult:
    target = _memory_targets()[target_name]
    return run_check(CHECKS[check_id], factory=target.factory, claims=target.claims, settings=QUICK)


@pytest.mark.parametrize("target_name", sorted(_memory_targets()))
@pytest.mark.parametrize("check_id", sorted(CHECKS))
def test_the_reference_memories_pass(target_name: str, check_id: str) -> None:
    result = _reference_result(target_name, check_id)
    if result.outcome is Outcome.SKIP:
        assert check_id.startswith("memory.table-"), result.message
        assert "is not a memory kept in a table" in result.message
        return
    assert result.outcome is Outcome.PASS, result.message


@pytest.mark.parametrize("check_id", sorted(CHECKS))
def test_every_memory_check_runs_on_some_reference_memory(check_id: str) -> None:
    outcomes = {_reference_result(name, check_id).outcome for name in _memory_targets()}
    assert Outcome.PASS in outcomes


def test_a_memory_that_refuses_a_null_snapshot_is_told_the_clause_in_words() -> None:
    for check_id in ("memory.restore-keeps-summary", "memory.model-based"):
        result = run_check(
            CHECKS[check_id], factory=RefusesNullRestore, claims=CLAIMS, settings=QUICK
        )
        assert result.outcome is Outcome.FAIL, result.message
        assert result.clause == "MEM-10"
        assert "MEM-10: a null snapshot restores the empty state" in result.message
        assert result.location.endswith("assert snapshot is not None")


# -- the same members through a harness (HRN-29, HRN-30) ---------------------------------------

#: The checks that read stored state or give a memory a compressor: through a harness they
#: open the target on storage the suite names, or build it with the suite's compressor.
STORAGE_CHECKS = frozenset(
    {"memory.compressor"}
    | {check_id for check_id in CHECKS if check_id.startswith("memory.table-")}
)
#: Members whose wrong step cannot be reached through the protocol, and why.
UNREACHABLE_THROUGH_A_HARNESS = {
    "clears-before-restore": "the only restore that fails is of a snapshot holding a set, "
    "which the protocol cannot carry: the proxy refuses it before the harness sees it",
}


@pytest.mark.parametrize(
    "wrong", [w for w in ZOO if w.caught_by in STORAGE_CHECKS], ids=lambda wrong: wrong.name
)
def test_the_member_is_caught_through_a_harness(
    wrong: WrongMemory, zoo_harness: dict[str, Target]
) -> None:
    target = zoo_harness[f"memory-{wrong.name}"]
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
    assert result.outcome is Outcome.FAIL, result.message
    assert wrong.reason in result.message, result.message


def test_the_storage_option_names_the_only_database_offered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CTXPACT_POSTGRES_DSN", raising=False)
    target = _memory_targets()["ctxpact.reference:SqliteAgentMemory"]
    outcomes = {
        kind: run_check(
            CHECKS["memory.table-reopen"],
            factory=target.factory,
            claims=target.claims,
            options={"storage": kind},
            settings=QUICK,
        )
        for kind in ("sqlite", "postgresql")
    }
    assert outcomes["sqlite"].outcome is Outcome.PASS, outcomes["sqlite"].message
    assert outcomes["postgresql"].outcome is Outcome.SKIP
    assert "takes none of the databases" in outcomes["postgresql"].message
