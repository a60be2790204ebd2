"""Memories kept in a table (``exact``: MEM-15 .. MEM-21, on any database, MEM-26).

Each is built on a fresh database of the kind its class takes, or, for a harness's memory,
opened there by address (HARNESS.md HRN-29), and checked by what it stores.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._stateful_support import (
    snapshot_difference,
    text,
)
from ctxpact.conformance.checks._storage import (
    raised_message,
)
from ctxpact.conformance.checks.memory._support import (
    _BAD_TABLES,
    _GOOD_TABLES,
    DEFAULT_MEMORY_TABLE,
    CompressorError,
    Operation,
    ScriptedCompressor,
    _apply,
    _close,
    _memory_snapshots,
    _operations,
    _table_class,
    agree,
)
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.spec import (
    AgentMemory,
    MemorySnapshot,
)


@check(
    "memory.table-construction",
    component=Component.AGENT_MEMORY,
    claim=Claim.EXACT,
    clauses=("MEM-15", "MEM-16"),
)
def table_construction(context: CheckContext) -> Callable[[], None]:
    """Memories kept in a table need a session id and a plain table name, checked before I/O."""

    def test() -> None:
        cls, storage = _table_class(context)
        for table in _BAD_TABLES:
            context.record(table=table)
            with storage.untouched() as (address, touched):
                try:
                    memory = cls(address, "s-1", table=table)
                except Exception:  # noqa: BLE001 - the refusal expected
                    context.expect(
                        not touched(),
                        f"the table name {table!r} was refused only after the database was touched",
                    )
                    continue
                _close(memory)
                context.expect(condition=False, message=f"the table name {table!r} was accepted")
        with storage.database() as database:
            context.record(session_id="")
            try:
                cls(database.handle, "")
            except Exception:  # noqa: BLE001, S110 - the refusal expected
                pass
            else:
                context.expect(condition=False, message="the empty session id was accepted")
            for table in _GOOD_TABLES:
                context.record(table=table)
                memory = cls(database.handle, "s-1", table=table)
                memory.add_user_input("x")
                _close(memory)
            context.record(table=None)
            memory = cls(database.handle, "s-1")
            memory.add_user_input("x")
            _close(memory)
            names = database.tables()
            context.expect(
                DEFAULT_MEMORY_TABLE in names,
                f"without a table name the memory did not use {DEFAULT_MEMORY_TABLE!r}; "
                f"the database has {sorted(names)}",
            )
            context.expect(database.alive(), "closing the memory closed a connection passed in")
            context.expect(
                database.idle(), "the memory left a transaction open on a connection passed in"
            )

    return test


_two_ids = st.sampled_from(
    [("a", "A"), ("a", "a%"), ("a_", "ab"), ("s-1", "s-10"), ("x", " x"), ("日本", "日")]
)


@check(
    "memory.table-isolation",
    component=Component.AGENT_MEMORY,
    claim=Claim.EXACT,
    clauses=("MEM-18",),
)
def table_isolation(context: CheckContext) -> Callable[[], None]:
    """Memories of different sessions in one table never see or change each other."""

    @given(ids=_two_ids, operations=st.lists(st.tuples(st.booleans(), _operations()), max_size=8))
    @example(
        ids=("a", "a%"),
        operations=[
            (True, ("add_user_input", ("mine",))),
            (False, ("set_summary", ("theirs",))),
            (False, ("add_output_items", ([1, 2],))),
            (True, ("clear", ())),
            (True, ("add_tool_output", ("c", None))),
        ],
    )
    def test(ids: tuple[str, str], operations: list[tuple[bool, Operation]]) -> None:
        context.record(ids=ids, operations=operations)
        cls, storage = _table_class(context)
        with storage.database() as database:
            memories = [cls(database.handle, session, table="shared") for session in ids]
            models = [InMemoryAgentMemory(), InMemoryAgentMemory()]
            for first, operation in operations:
                which = 0 if first else 1
                _apply(models[which], operation)
                _apply(memories[which], operation)
            for session, memory, model in zip(ids, memories, models, strict=True):
                agree(context, memory, model, f"of session {session!r} (ids {list(ids)})")

    return test


@check(
    "memory.table-reopen",
    component=Component.AGENT_MEMORY,
    claim=Claim.EXACT,
    clauses=("MEM-19", "MEM-15", "JSON-3", "JSON-5"),
)
def table_reopen(context: CheckContext) -> Callable[[], None]:
    """A new memory on the same database, table and session sees exactly the last state."""

    # Addresses (a file, a conninfo string) only in the explicit example: each memory opens
    # a connection of its own there, which costs a journal and fsyncs, or a server login.
    @given(operations=st.lists(_operations(), max_size=6), address=st.just(False))  # noqa: FBT003
    @example(
        operations=[
            ("add_output_items", ([{"z": 1, "a": 1.0}, 2**70, -0.0, "\ud800"],)),
            ("set_summary", ("",)),
        ],
        address=True,
    )
    @example(operations=[("set_summary", (None,)), ("add_user_input", ("x",))], address=False)
    def test(operations: list[Operation], address: bool) -> None:
        context.record(operations=operations, address=address)
        cls, storage = _table_class(context)
        model = InMemoryAgentMemory()
        with contextlib.ExitStack() as stack:
            database = stack.enter_context(storage.database(address=address))
            memory = cls(database.handle, "s-1", table="reopened")
            stack.callback(_close, memory)
            for operation in operations:
                _apply(model, operation)
                _apply(memory, operation)
            reopened = cls(database.handle, "s-1", table="reopened")
            stack.callback(_close, reopened)
            found = snapshot_difference(model.snapshot(), reopened.snapshot())
            where = "address" if address else "connection"
            context.expect(
                found is None,
                f"a memory reopened on the same {where}, table and session sees another "
                f"state: {found}",
            )

    return test


@check(
    "memory.table-atomic",
    component=Component.AGENT_MEMORY,
    claim=Claim.EXACT,
    clauses=("MEM-17", "MEM-6"),
)
def table_atomic(context: CheckContext) -> Callable[[], None]:
    """An operation that fails leaves the stored state exactly as it was before it."""

    @given(state=_memory_snapshots)
    @example(state=MemorySnapshot(items=("a", {"b": 1}), summary="kept"))
    def test(state: MemorySnapshot) -> None:
        context.record(state=state)
        cls, storage = _table_class(context)
        scripted = ScriptedCompressor()
        with storage.database() as database:
            handle = database.handle
            memory = cls(handle, "s-1", table="atomic", compressor=scripted)
            memory.restore(copy.deepcopy(state))
            failures: list[tuple[str, Callable[[], object]]] = [
                (
                    "restore of a snapshot holding a set",
                    lambda: memory.restore(MemorySnapshot(items=("new", {1}))),  # type: ignore[arg-type]
                ),
                (
                    "add_output_items with a set after a valid item",
                    lambda: memory.add_output_items(["new", {1}]),
                ),
                ("set_summary with a number", lambda: memory.set_summary(7)),
            ]
            for what, call in failures:
                with contextlib.suppress(Exception):
                    call()
                found = snapshot_difference(state, cls(handle, "s-1", table="atomic").snapshot())
                context.expect(
                    found is None, f"after the failed {what} the stored state changed: {found}"
                )
            scripted.failing = True
            with contextlib.suppress(CompressorError):
                memory.add_user_input("compressed away")
            found = snapshot_difference(state, cls(handle, "s-1", table="atomic").snapshot())
            context.expect(
                found is None,
                f"after an add whose compressor raised, the stored state changed: {found}",
            )

    return test


_MARKER = "ctxpact-conformance-marker-7f3a"


@check(
    "memory.table-corrupt-row",
    component=Component.AGENT_MEMORY,
    claim=Claim.EXACT,
    clauses=("MEM-20",),
)
def table_corrupt_row(context: CheckContext) -> Callable[[], None]:
    """A row that cannot be read back raises an error naming the table and session; kept."""

    def test() -> None:
        cls, storage = _table_class(context)
        for corruption, damaged, replacement in (
            ("an item that is not JSON", "add_user_input", "{not json"),
            ("a summary that is not a string", "set_summary", "42"),
        ):
            with storage.database() as database:
                table, session = "corrupt_rows", "session-q7"
                context.record(corruption=corruption, replacement=replacement)
                memory = cls(database.handle, session, table=table)
                memory.add_user_input("before")
                getattr(memory, damaged)(_MARKER)
                changed = database.replace_cells(table, _MARKER, replacement)
                context.expect(changed > 0, f"the memory did not store {_MARKER!r} in {table!r}")
                _expect_corrupt(context, cls(database.handle, session, table=table), corruption)
                context.expect(
                    database.count_cells(table, replacement) == changed
                    and not database.cells_containing(table, _MARKER),
                    f"the memory repaired or overwrote {corruption} on its own",
                )

    return test


def _expect_corrupt(context: CheckContext, memory: AgentMemory, corruption: str) -> None:
    readers = ["snapshot", "get_items"]
    if corruption.startswith("a summary"):
        readers.append("get_summary")
    for name in readers:
        try:
            value = getattr(memory, name)()
        except Exception as error:  # noqa: BLE001 - the error expected; its message is checked
            message = raised_message(error)
            context.expect(
                "corrupt_rows" in message and "session-q7" in message,
                f"{name}() raised for {corruption} without naming the table 'corrupt_rows' "
                f"and the session 'session-q7': {message!r}",
            )
        else:
            context.expect(
                condition=False,
                message=f"{name}() returned {text(value, 80)} over {corruption} instead of raising",
            )


@check(
    "memory.table-errors",
    component=Component.AGENT_MEMORY,
    claim=Claim.EXACT,
    clauses=("MEM-21",),
)
def table_errors(context: CheckContext) -> Callable[[], None]:
    """The database's failures name it; a locked one fails after the chosen busy timeout."""

    def test() -> None:
        cls, storage = _table_class(context)
        unopenable, name = storage.unopenable()
        driver = storage.driver_error
        context.record(database="an address no connection can be opened to")
        try:
            _close(cls(unopenable, "s-1"))
        except Exception as error:  # noqa: BLE001 - the refusal is checked
            context.expect(
                isinstance(error, driver) and name in raised_message(error),
                f"opening {name} failed without naming it as a {driver.__module__} "
                f"{driver.__name__}: {type(error).__name__}: {error}",
            )
        else:
            context.expect(condition=False, message=f"{name} was opened")
        with storage.database(address=True) as database:
            context.record(database="locked by another connection", busy_timeout=0.05)
            _close(cls(database.handle, "s-1"))
            with storage.held(database, DEFAULT_MEMORY_TABLE):
                try:
                    memory = cls(database.handle, "s-1", busy_timeout=0.05)
                except TypeError as error:
                    context.expect(condition=False, message=f"no busy_timeout: {error}")
                    return
                try:
                    memory.add_user_input("while locked")
                except Exception as error:  # noqa: BLE001 - the failure is checked
                    context.expect(
                        isinstance(error, driver)
                        and isinstance(error, TimeoutError)
                        and database.label in raised_message(error),
                        "a locked database failed without a TimeoutError naming it: "
                        f"{type(error).__name__}: {error}",
                    )
                else:
                    context.expect(condition=False, message="a locked database was written")
                finally:
                    _close(memory)

    return test
