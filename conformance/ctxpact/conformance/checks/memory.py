"""Checks for agent memories: the contract of §14, against the reference memory as the model.

Every memory is checked side by side with a fresh
:class:`~ctxpact.reference.memory.InMemoryAgentMemory`, the spec's model of §14.1: a state
machine adds items, sets summaries, takes snapshots, restores them, compacts and resumes in
random order and compares ``get_items``, ``get_summary`` and ``snapshot`` after every step
(JSON-10 identity: member order and number forms count). The named properties have checks of
their own, so a failure says which clause broke.

Claims: the §14.1 contract is ``generic`` (any memory). The checks that build more memories
with the reference constructors (a compressor, MEM-14 and MEM-15; storage in a table,
MEM-15 .. MEM-21) are ``exact``: they apply to ports of the reference classes and are skipped
for a memory that does not have the capability (no ``compressor`` attribute; no
``session_id`` and ``table``). A memory kept in a table is checked on whichever database its
class takes, SQLite or PostgreSQL (:mod:`~ctxpact.conformance.checks._storage`): the same
checks, by what the memory does.
"""

from __future__ import annotations

import contextlib
import copy
import math
from collections.abc import Callable, Iterator
from typing import Any, Protocol, runtime_checkable

from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from ctxpact.conformance._context import CheckContext, SkipCheck
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._stateful_support import (
    DEEP_FRAMES,
    EDGE_ITEMS,
    EDGE_SUMMARIES,
    MAX_DEPTH,
    beyond_limits,
    first_difference,
    from_deep,
    identical_text,
    items,
    nested,
    run_machine,
    scramble,
    snapshot_difference,
    summaries,
    text,
)
from ctxpact.conformance.checks._storage import (
    POSTGRES_DSN_VARIABLE,
    Remote,
    Storage,
    declared_storage,
    offered,
    raised_message,
    remote_memory_builder,
    remote_storage,
    storage_of,
)
from ctxpact.conformance.strategies import json_values, texts
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.reference.session import InMemorySessionStore
from ctxpact.spec import (
    AgentMemory,
    AgentSessionSnapshot,
    CompactResult,
    JsonObject,
    JsonValue,
    MemoryCompressor,
    MemorySnapshot,
)

#: The table a SQLite memory uses unless told otherwise (MEM-15).
DEFAULT_MEMORY_TABLE = "ctxpact_agent_memory"
#: The code points Java's ``String.trim`` removes: what makes a summary blank (§1.4).
_JAVA_SPACE = "".join(chr(code) for code in range(0x21))
#: Table names MEM-16 refuses, and names it allows.
_BAD_TABLES = ("", "1abc", "a-b", "a b", 'x"; DROP TABLE y; --', "t\n", "main.t", "t\u00e9")
_GOOD_TABLES = ("t", "_x9", "Memory_Table")


@runtime_checkable
class CompressingMemory(Protocol):
    """A memory built with ``type(memory)(compressor=...)`` (MEM-14), detected by its attribute."""

    @property
    def compressor(self) -> MemoryCompressor | None:
        """The compressor run after every add, or ``None``."""
        ...


@runtime_checkable
class TableMemory(Protocol):
    """A memory kept in a database table and built as MEM-15 says, detected by its attributes.

    ``type(memory)(database, session_id, *, table=..., compressor=...)``, where *database* is
    whatever the class takes (SQLite's connection or path, PostgreSQL's connection or
    conninfo string, ...): the suite finds out which by offering each (MEM-26).
    """

    @property
    def session_id(self) -> str:
        """The session whose state the memory holds."""
        ...

    @property
    def table(self) -> str:
        """The table holding the state."""
        ...


# -- the shapes of §14 -------------------------------------------------------------------


def _message(role: str, content: str) -> JsonObject:
    return {"type": "message", "role": role, "content": [{"type": "input_text", "text": content}]}


def _tool_output(call_id: str, output: str | None) -> JsonObject:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def _blank(summary: str | None) -> bool:
    return summary is None or not summary.strip(_JAVA_SPACE)


def _prompt(snapshot: MemorySnapshot) -> list[JsonValue]:
    """What ``get_items`` returns for a memory in the state *snapshot* (MEM-7)."""
    head = [] if _blank(snapshot.summary) else [_message("system", str(snapshot.summary))]
    return [*head, *snapshot.items]


# -- strategies ----------------------------------------------------------------------------

_memory_snapshots = st.builds(
    MemorySnapshot,
    items=st.lists(items(), max_size=4).map(tuple),
    summary=summaries(),
)
_compact_results = st.builds(
    CompactResult, memory=st.none() | _memory_snapshots, summary=st.none() | texts()
)
_user_inputs: st.SearchStrategy[JsonValue] = st.none() | texts() | items()
_not_lists = st.sampled_from(["abc", "", {"type": "message"}, 7, None, True])
_bad_call_ids = st.sampled_from([None, 7, 1.5, True, ["c"], {"id": "c"}, b"c"])
_bad_outputs = st.sampled_from([7, 1.5, False, ["out"], {"text": "out"}, b"out"])
_bad_summaries = st.sampled_from([7, 1.5, True, ["s"], {"text": "s"}, b"s"])
_keys = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=6)
#: Values that are not JSON (JSON-9).
_NOT_JSON: tuple[object, ...] = (
    {1, 2},
    frozenset({"a"}),
    b"bytes",
    float("nan"),
    float("inf"),
    -math.inf,
    complex(1, 2),
    {1: "integer key"},
    {("a",): "tuple key"},
)
_fidelity_values: st.SearchStrategy[JsonValue] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1.0, -0.0, 0.0, 1e16, 1e-05, 2.0**60, 5e-324])
    | texts(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_keys, children, max_size=4),
    max_leaves=10,
)

Operation = tuple[str, tuple[Any, ...]]


def _operations() -> st.SearchStrategy[Operation]:
    return st.one_of(
        st.tuples(st.just("add_user_input"), st.tuples(_user_inputs)),
        st.tuples(st.just("add_output_items"), st.tuples(st.lists(items(), max_size=3))),
        st.tuples(st.just("add_tool_output"), st.tuples(texts(), st.none() | texts())),
        st.tuples(st.just("set_summary"), st.tuples(summaries())),
        st.tuples(st.just("restore"), st.tuples(st.none() | _memory_snapshots)),
        st.just(("clear", ())),
    )


def _apply(memory: AgentMemory, operation: Operation) -> None:
    name, arguments = operation
    getattr(memory, name)(*copy.deepcopy(arguments))


# -- comparisons ---------------------------------------------------------------------------


def agree(context: CheckContext, memory: AgentMemory, model: AgentMemory, when: str) -> None:
    """Expect *memory* to be in the same state as the reference *model* (JSON-10 identity)."""
    wanted, got = model.get_items(), memory.get_items()
    found = first_difference(wanted, got)
    context.expect(
        found is None,
        f"get_items() {when} differs from the reference memory: {found}",
        returned=got,
        expected=wanted,
    )
    expected_summary, summary = model.get_summary(), memory.get_summary()
    context.expect(
        summary == expected_summary and type(summary) is type(expected_summary),
        f"get_summary() {when} is {summary!r} but the reference memory has {expected_summary!r}",
        returned=summary,
        expected=expected_summary,
    )
    wanted_snapshot, taken = model.snapshot(), memory.snapshot()
    found = snapshot_difference(wanted_snapshot, taken)
    context.expect(
        found is None,
        f"snapshot() {when} differs from the reference memory: {found}",
        returned=taken,
        expected=wanted_snapshot,
    )


def _expect_state(
    context: CheckContext, memory: AgentMemory, expected: MemorySnapshot, when: str
) -> None:
    taken = memory.snapshot()
    found = snapshot_difference(expected, taken)
    context.expect(found is None, f"snapshot() {when}: {found}", returned=taken, expected=expected)
    got = memory.get_items()
    found = first_difference(_prompt(expected), got)
    context.expect(
        found is None, f"get_items() {when}: {found}", returned=got, expected=_prompt(expected)
    )


def _expect_rejected(
    context: CheckContext,
    memory: AgentMemory,
    call: Callable[[], object],
    what: str,
    path: str | None = None,
) -> None:
    """Expect *call* to raise, naming *path* when given, and to leave *memory* unchanged."""
    before = memory.snapshot()
    try:
        call()
    except Exception as error:  # noqa: BLE001 - any error rejects; its message is checked
        message = str(error)
    else:
        context.expect(condition=False, message=f"{what} was accepted instead of rejected")
        return
    if path is not None:
        context.expect(
            "$" in message and path in message,
            f"{what} was rejected, but the error does not name the JSON path (…{path}): "
            f"{message!r}",
        )
    _expect_state(context, memory, before, f"after the rejected {what} (it must have no effect)")


def restore_null(context: CheckContext, memory: AgentMemory) -> None:
    """``restore(None)``, which MEM-10 says restores the empty state and never raises."""
    try:
        memory.restore(None)
    except Exception as error:  # noqa: BLE001 - any error breaks the clause; it is shown
        context.expect(
            condition=False,
            message=f"restore(None) raised {type(error).__name__}: {error}; MEM-10: a null "
            "snapshot restores the empty state (no items, no summary), as clear() does",
            clause="MEM-10",
        )


# -- the model-based state machine -----------------------------------------------------------


class MemoryMachine(RuleBasedStateMachine):
    """A memory and the reference model, driven side by side (MEM-1 .. MEM-13).

    After every step ``get_items``, ``get_summary`` and ``snapshot`` must be identical to the
    model's. Snapshots go to a bundle together with the model's, so a later restore of a
    snapshot that changed since it was taken is noticed (MEM-12).
    """

    taken = Bundle("taken")

    def __init__(self, context: CheckContext) -> None:
        super().__init__()
        context.record()
        self.context = context
        self.memory: AgentMemory = context.subject()
        self.model = InMemoryAgentMemory()

    def _both(self, name: str, *arguments: object) -> None:
        getattr(self.model, name)(*copy.deepcopy(arguments))
        getattr(self.memory, name)(*arguments)

    @rule(value=_user_inputs)
    def add_user_input(self, value: JsonValue) -> None:
        """MEM-3."""
        self.context.step("add_user_input", value=value)
        self._both("add_user_input", value)

    @rule(new_items=st.lists(items(), max_size=4))
    def add_output_items(self, new_items: list[JsonValue]) -> None:
        """MEM-4."""
        self.context.step("add_output_items", items=new_items)
        self._both("add_output_items", new_items)

    @rule(call_id=texts(), output=st.none() | texts())
    def add_tool_output(self, call_id: str, output: str | None) -> None:
        """MEM-5."""
        self.context.step("add_tool_output", call_id=call_id, output=output)
        self._both("add_tool_output", call_id, output)

    @rule(summary=summaries())
    def set_summary(self, summary: str | None) -> None:
        """MEM-8."""
        self.context.step("set_summary", summary=summary)
        self._both("set_summary", summary)

    @rule()
    def get_items(self) -> None:
        """MEM-7; the caller then scribbles over the list it got (MEM-12)."""
        self.context.step("get_items")
        got = self.memory.get_items()
        found = first_difference(self.model.get_items(), got)
        self.context.expect(found is None, f"get_items() differs from the reference: {found}")
        scramble(got)

    @rule(target=taken)
    def snapshot(self) -> tuple[MemorySnapshot, MemorySnapshot]:
        """MEM-9."""
        self.context.step("snapshot")
        pair = (self.memory.snapshot(), self.model.snapshot())
        found = snapshot_difference(pair[1], pair[0])
        self.context.expect(found is None, f"snapshot() differs from the reference: {found}")
        return pair

    @rule(pair=taken)
    def restore_taken(self, pair: tuple[MemorySnapshot, MemorySnapshot]) -> None:
        """MEM-10, MEM-13: restoring a snapshot taken earlier (each side its own)."""
        self.context.step("restore", snapshot=pair[1], taken_earlier=True)
        self.model.restore(pair[1])
        self.memory.restore(pair[0])

    @rule(snapshot=st.none() | _memory_snapshots)
    def restore(self, snapshot: MemorySnapshot | None) -> None:
        """MEM-10: a null snapshot is an empty one."""
        self.context.step("restore", snapshot=snapshot)
        if snapshot is None:
            self.model.restore(None)
            restore_null(self.context, self.memory)
        else:
            self._both("restore", snapshot)

    @rule()
    def clear(self) -> None:
        """MEM-11."""
        self.context.step("clear")
        self._both("clear")

    @rule(result=_compact_results)
    def compact(self, result: CompactResult) -> None:
        """A compaction as the runtime applies it: restore from the result's memory (CMP-4)."""
        self.context.step("compact", result=result)
        if result.memory is not None:
            self._both("restore", result.memory)

    @rule()
    def resume(self) -> None:
        """Snapshot, save, load and restore into a fresh memory: nothing changes (MEM-13)."""
        self.context.step("resume")
        taken = self.memory.snapshot()
        store = InMemorySessionStore()
        store.save(AgentSessionSnapshot(session_id="resumed", memory=taken))
        loaded = store.load("resumed")
        assert loaded is not None  # noqa: S101 - the reference store keeps what it saved
        fresh: AgentMemory = self.context.subject()
        fresh.restore(loaded.memory)
        found = snapshot_difference(taken, fresh.snapshot())
        self.context.expect(
            found is None,
            f"a snapshot taken, saved, loaded and restored into a fresh memory differs: {found}",
        )
        self.memory = fresh

    @invariant()
    def agrees_with_the_model(self) -> None:
        """MEM-1: reading never changes state, and the state is the model's."""
        agree(self.context, self.memory, self.model, "after the steps")


def _scripted_session(machine: MemoryMachine) -> None:
    """A fixed run through every rule that exercises the contract's main clauses."""
    steps: list[Callable[[], object]] = [
        lambda: machine.add_user_input("hello"),
        lambda: machine.add_user_input(None),
        lambda: machine.add_user_input({"b": 1, "a": 1.0}),
        lambda: machine.add_output_items([EDGE_ITEMS[3], None, 1.0, [1, 2]]),
        lambda: machine.add_output_items([]),
        lambda: machine.add_tool_output("call-1", None),
        lambda: machine.set_summary(" keep me "),
    ]
    for step in steps:
        step()
        machine.agrees_with_the_model()
    pair = machine.snapshot()
    later: list[Callable[[], object]] = [
        machine.get_items,
        lambda: machine.add_user_input("later"),
        lambda: machine.set_summary("\u00a0"),
        machine.resume,
        lambda: machine.restore_taken(pair),
        lambda: machine.set_summary(""),
        machine.clear,
        lambda: machine.restore(MemorySnapshot(items=("x",), summary="## Goal\nShip it")),
        lambda: machine.compact(CompactResult(memory=None, summary="ignored")),
        lambda: machine.compact(CompactResult(memory=MemorySnapshot(items=(0,), summary=" "))),
        lambda: machine.restore(None),
    ]
    for step in later:
        step()
        machine.agrees_with_the_model()


@check(
    "memory.model-based",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=(
        "MEM-1",
        "MEM-2",
        "MEM-3",
        "MEM-4",
        "MEM-5",
        "MEM-7",
        "MEM-8",
        "MEM-9",
        "MEM-10",
        "MEM-11",
        "MEM-12",
        "MEM-13",
        "JSON-10",
    ),
)
def model_based(context: CheckContext) -> Callable[[], None]:
    """The memory behaves like the reference memory in any sequence of operations."""

    def test() -> None:
        _scripted_session(MemoryMachine(context))
        run_machine(context, lambda: MemoryMachine(context))

    return test


# -- the operations, one clause at a time ------------------------------------------------------


@check(
    "memory.user-input", component=Component.AGENT_MEMORY, claim=Claim.GENERIC, clauses=("MEM-3",)
)
def user_input(context: CheckContext) -> Callable[[], None]:
    """add_user_input ignores null, wraps a string in a user message, appends other values."""

    @given(value=_user_inputs)
    @example(value="")
    @example(value="hello \U0001f600")
    @example(value=None)
    @example(value=[1, "two"])
    @example(value={"role": "user", "content": "as it is"})
    def test(value: JsonValue) -> None:
        context.record(value=value)
        memory: AgentMemory = context.subject()
        memory.add_user_input("first")
        memory.add_user_input(copy.deepcopy(value))
        added: list[JsonValue] = []
        if isinstance(value, str):
            added = [_message("user", value)]
        elif value is not None:
            added = [value]
        expected = MemorySnapshot(items=(_message("user", "first"), *added))
        _expect_state(context, memory, expected, f"after add_user_input({text(value, 60)})")

    return test


@check(
    "memory.output-items",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("MEM-4",),
)
def output_items(context: CheckContext) -> Callable[[], None]:
    """add_output_items appends each item in order, nulls included; a non-list is refused."""

    @given(new_items=st.lists(items(), max_size=5), not_a_list=_not_lists)
    @example(new_items=[None, "b", None], not_a_list="abc")
    @example(new_items=[], not_a_list={"type": "message"})
    def test(new_items: list[JsonValue], not_a_list: object) -> None:
        context.record(items=new_items, not_a_list=not_a_list)
        memory: AgentMemory = context.subject()
        memory.add_output_items(["first"])
        memory.add_output_items(copy.deepcopy(new_items))
        expected = MemorySnapshot(items=("first", *new_items))
        _expect_state(context, memory, expected, f"after add_output_items({text(new_items, 80)})")
        _expect_rejected(
            context,
            memory,
            lambda: memory.add_output_items(not_a_list),  # type: ignore[arg-type]
            f"add_output_items({text(not_a_list)}) (not a list)",
        )

    return test


@check(
    "memory.tool-output",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("MEM-5", "JSON-3"),
)
def tool_output(context: CheckContext) -> Callable[[], None]:
    """add_tool_output appends {type, call_id, output} in that order; other types are refused."""

    @given(
        call_id=texts(),
        output=st.none() | texts(),
        bad_call_id=_bad_call_ids,
        bad_output=_bad_outputs,
    )
    @example(call_id="call-1", output=None, bad_call_id=None, bad_output=7)
    @example(call_id="", output="", bad_call_id=7, bad_output=["out"])
    def test(call_id: str, output: str | None, bad_call_id: object, bad_output: object) -> None:
        context.record(
            call_id=call_id, output=output, bad_call_id=bad_call_id, bad_output=bad_output
        )
        memory: AgentMemory = context.subject()
        memory.add_tool_output(call_id, output)
        expected = MemorySnapshot(items=(_tool_output(call_id, output),))
        _expect_state(context, memory, expected, f"after add_tool_output({call_id!r}, {output!r})")
        _expect_rejected(
            context,
            memory,
            lambda: memory.add_tool_output(bad_call_id, output),  # type: ignore[arg-type]
            f"add_tool_output with the call id {bad_call_id!r}",
        )
        _expect_rejected(
            context,
            memory,
            lambda: memory.add_tool_output(call_id, bad_output),  # type: ignore[arg-type]
            f"add_tool_output with the output {bad_output!r}",
        )

    return test


@check(
    "memory.summary-message",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("MEM-7",),
)
def summary_message(context: CheckContext) -> Callable[[], None]:
    """get_items puts the summary first, untrimmed, exactly when it is not blank."""

    @given(summary=summaries(), raw=st.lists(items(), max_size=3))
    @example(summary=" padded ", raw=["x"])
    @example(summary="\u00a0", raw=[])
    @example(summary=" \t\n", raw=["x"])
    @example(summary="", raw=["x"])
    @example(summary="\x00", raw=[])
    def test(summary: str | None, raw: list[JsonValue]) -> None:
        context.record(summary=summary, items=raw)
        memory: AgentMemory = context.subject()
        memory.add_output_items(copy.deepcopy(raw))
        memory.set_summary(summary)
        got = memory.get_items()
        expected = _prompt(MemorySnapshot(items=tuple(raw), summary=summary))
        state = "blank" if _blank(summary) else "not blank"
        found = first_difference(expected, got)
        context.expect(
            found is None,
            f"get_items() with the summary {summary!r} ({state}) and items {text(raw, 80)}: "
            f"{found}",
        )
        again = memory.get_items()
        context.expect(
            again is not got and first_difference(expected, again) is None,
            "get_items() must return a new list each time",
        )

    return test


@check(
    "memory.set-summary",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("MEM-8", "DIF-21"),
)
def set_summary(context: CheckContext) -> Callable[[], None]:
    """set_summary stores the string exactly, null removes it, other values are refused."""

    @given(summary=st.sampled_from(EDGE_SUMMARIES) | texts(), bad=_bad_summaries)
    @example(summary="", bad=7)
    @example(summary=" padded ", bad=["s"])
    @example(summary="## Goal\nShip it", bad=b"s")
    def test(summary: str, bad: object) -> None:
        context.record(summary=summary, bad=bad)
        memory: AgentMemory = context.subject()
        memory.add_user_input("hi")
        memory.set_summary(summary)
        got = memory.get_summary()
        context.expect(
            got == summary and isinstance(got, str),
            f"get_summary() returned {got!r} after set_summary({summary!r})",
        )
        _expect_state(
            context,
            memory,
            MemorySnapshot(items=(_message("user", "hi"),), summary=summary),
            f"after set_summary({summary!r})",
        )
        _expect_rejected(
            context,
            memory,
            lambda: memory.set_summary(bad),  # type: ignore[arg-type]
            f"set_summary({bad!r})",
        )
        memory.set_summary(None)
        context.expect(
            memory.get_summary() is None,
            f"get_summary() returned {memory.get_summary()!r} after set_summary(None)",
        )

    return test


@check(
    "memory.restore-keeps-summary",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("MEM-10", "MEM-13", "DIF-21"),
)
def restore_keeps_summary(context: CheckContext) -> Callable[[], None]:
    """Restore replaces items and summary in one step; restore then snapshot is the identity."""

    @given(before=_memory_snapshots, snapshot=_memory_snapshots)
    @example(
        before=MemorySnapshot(items=("old",), summary="old summary"),
        snapshot=MemorySnapshot(items=("recent", None), summary="## Goal\nShip it"),
    )
    @example(
        before=MemorySnapshot(items=("old",), summary="old summary"),
        snapshot=MemorySnapshot(items=(None,), summary=None),
    )
    @example(before=MemorySnapshot(), snapshot=MemorySnapshot(items=(), summary=""))
    def test(before: MemorySnapshot, snapshot: MemorySnapshot) -> None:
        context.record(before=before, snapshot=snapshot)
        memory: AgentMemory = context.subject()
        memory.restore(copy.deepcopy(before))
        memory.restore(copy.deepcopy(snapshot))
        got = memory.get_summary()
        context.expect(
            got == snapshot.summary,
            f"restore() lost the summary: get_summary() is {got!r} but the snapshot's summary "
            f"is {snapshot.summary!r}",
        )
        _expect_state(context, memory, snapshot, "after restore(snapshot)")
        restore_null(context, memory)
        _expect_state(context, memory, MemorySnapshot(), "after restore(None)")

    return test


# -- sharing, mutation and values ------------------------------------------------------------


@check(
    "memory.independent-copies",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("MEM-12", "DIF-21"),
)
def independent_copies(context: CheckContext) -> Callable[[], None]:
    """Memories share nothing mutable with callers, in either direction."""

    @given(containers=st.lists(st.sampled_from(EDGE_ITEMS) | json_values, max_size=4))
    @example(containers=[{"a": [1]}, [{"b": {}}]])
    def test(containers: list[JsonValue]) -> None:
        context.record(items=containers)
        memory: AgentMemory = context.subject()
        model = InMemoryAgentMemory()

        def same(when: str) -> None:
            agree(context, memory, model, when)

        passed = copy.deepcopy(containers)
        memory.add_output_items(passed)
        model.add_output_items(copy.deepcopy(containers))
        scramble(passed)
        same("after the caller changed the list it passed to add_output_items")
        value: JsonValue = {"nested": [{"deep": "value"}]}
        memory.add_user_input(value)
        model.add_user_input(copy.deepcopy(value))
        scramble(value)
        same("after the caller changed the value it passed to add_user_input")
        memory.set_summary("s")
        model.set_summary("s")
        taken = memory.snapshot()
        got = memory.get_items()
        scramble(list(taken.items))
        same("after the caller changed the items of a snapshot it received")
        scramble(got)
        same("after the caller changed the list get_items() returned")
        later = memory.snapshot()
        later_text = text(list(later.items), limit=10**9)
        listed = memory.get_items()
        listed_text = text(listed, limit=10**9)
        memory.add_output_items([{"later": [1]}])
        memory.add_user_input("later")
        memory.set_summary("changed")
        memory.restore(MemorySnapshot(items=({"other": []},), summary="other"))
        memory.clear()
        context.expect(
            text(list(later.items), limit=10**9) == later_text,
            "a snapshot changed after later operations on the memory",
        )
        context.expect(
            text(listed, limit=10**9) == listed_text,
            "a list returned by get_items() changed after later operations on the memory",
        )
        restored = MemorySnapshot(items=tuple(copy.deepcopy(containers)), summary="r")
        memory.restore(restored)
        model.restore(copy.deepcopy(restored))
        scramble(list(restored.items))
        same("after the caller changed the items of the snapshot it restored")

    return test


@check(
    "memory.arguments-unchanged",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("JSON-16",),
)
def arguments_unchanged(context: CheckContext) -> Callable[[], None]:
    """No operation changes a list or item it receives, at any depth."""

    @given(values=st.lists(st.sampled_from(EDGE_ITEMS) | json_values, min_size=1, max_size=4))
    @example(values=[{"content": "no type"}, [{"a": 1}]])
    def test(values: list[JsonValue]) -> None:
        context.record(values=values)
        memory: AgentMemory = context.subject()
        before = text(values, limit=10**9)
        passed = copy.deepcopy(values)
        memory.add_output_items(passed)
        context.expect(
            text(passed, limit=10**9) == before,
            f"add_output_items changed its argument: {first_difference(values, passed)}",
        )
        for value in values:
            passed_value = copy.deepcopy(value)
            memory.add_user_input(passed_value)
            context.expect(
                text(passed_value, limit=10**9) == text(value, limit=10**9),
                f"add_user_input changed its argument: {first_difference(value, passed_value)}",
            )
        snapshot = MemorySnapshot(items=tuple(copy.deepcopy(values)), summary="s")
        memory.restore(snapshot)
        context.expect(
            text(list(snapshot.items), limit=10**9) == before,
            "restore changed the items of the snapshot it was given",
        )

    return test


@st.composite
def _embedded(draw: st.DrawFn) -> tuple[object, str]:
    """A value with something that is not JSON inside it, and the path to that thing."""
    value: object = draw(st.sampled_from(_NOT_JSON))
    path = ""
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            siblings = draw(st.lists(json_values, max_size=2))
            index = draw(st.integers(0, len(siblings)))
            value = [*siblings[:index], value, *siblings[index:]]
            path = f"[{index}]{path}"
        else:
            key = draw(_keys)
            others: dict[str, object] = dict(draw(st.dictionaries(_keys, json_values, max_size=2)))
            others.pop(key, None)
            value = {**others, key: value}
            path = f".{key}{path}"
    return value, path


@check(
    "memory.non-json-rejected",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("JSON-9", "JSON-11", "JSON-5"),
)
def non_json_rejected(context: CheckContext) -> Callable[[], None]:
    """Values that are not JSON are refused with their JSON path, and change nothing."""

    @given(case=_embedded(), position=st.integers(0, 2))
    @example(case=({1, 2}, ""), position=0)
    @example(case=({"a": [1, float("nan")]}, ".a[1]"), position=1)
    @example(case=([{"k": b"x"}], "[0].k"), position=0)
    def test(case: tuple[object, str], position: int) -> None:
        bad, path = case
        context.record(value=repr(bad), path=path, position=position)
        memory: AgentMemory = context.subject()
        memory.add_user_input("kept")
        memory.set_summary("kept")
        _expect_rejected(
            context,
            memory,
            lambda: memory.add_user_input(bad),  # type: ignore[arg-type]
            f"add_user_input({bad!r:.60})",
            path,
        )
        batch: list[object] = ["ok", {"ok": 1}]
        batch.insert(min(position, len(batch)), bad)
        where = f"[{min(position, 2)}]{path}"
        _expect_rejected(
            context,
            memory,
            lambda: memory.add_output_items(batch),  # type: ignore[arg-type]
            f"add_output_items with {bad!r:.60} at {where}",
            where,
        )
        snapshot = MemorySnapshot(items=tuple(batch))  # type: ignore[arg-type]
        _expect_rejected(
            context,
            memory,
            lambda: memory.restore(snapshot),
            f"restore of a snapshot with {bad!r:.60} at items{where}",
            where,
        )

    return test


@check(
    "memory.json-fidelity",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("JSON-3", "JSON-5", "JSON-10"),
)
def json_fidelity(context: CheckContext) -> Callable[[], None]:
    """Items come back identical: member order and integer or non-integer kept."""

    @given(values=st.lists(_fidelity_values, min_size=1, max_size=4))
    @example(values=[{"z": 1, "a": 1.0, "m": [-0.0, 2**70, 1e16]}, 1, 1.0])
    @example(values=[{"b": {"d": 2, "c": 1}}, [1.0, 1]])
    @example(values=[{"é": "日本", "😀": ["e\u0301", "\u00e9"]}, "🙂"])
    def test(values: list[JsonValue]) -> None:
        context.record(values=values)
        memory: AgentMemory = context.subject()
        memory.add_output_items(copy.deepcopy(values))
        _expect_state(context, memory, MemorySnapshot(items=tuple(values)), "after an add")
        restored: AgentMemory = context.subject()
        restored.restore(MemorySnapshot(items=tuple(copy.deepcopy(values)), summary="s"))
        _expect_state(
            context,
            restored,
            MemorySnapshot(items=tuple(values), summary="s"),
            "after a restore",
        )
        direct: AgentMemory = context.subject()
        inputs = [value for value in values if value is not None and not isinstance(value, str)]
        for value in inputs:
            direct.add_user_input(copy.deepcopy(value))
        _expect_state(context, direct, MemorySnapshot(items=tuple(inputs)), "after add_user_input")

    return test


@check(
    "memory.deep-items",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("JSON-8",),
)
def deep_items(context: CheckContext) -> Callable[[], None]:
    """Items nested 256 levels deep are accepted and come back identical."""

    def test() -> None:
        deep = nested(MAX_DEPTH)
        operations: list[tuple[str, Callable[[AgentMemory], object]]] = [
            ("add_output_items", lambda memory: memory.add_output_items([copy.deepcopy(deep)])),
            ("add_user_input", lambda memory: memory.add_user_input(copy.deepcopy(deep))),
            (
                "restore",
                lambda memory: memory.restore(MemorySnapshot(items=(copy.deepcopy(deep),))),
            ),
        ]
        for name, operation in operations:
            context.record(operation=name, depth=MAX_DEPTH)
            memory: AgentMemory = context.subject()
            try:
                operation(memory)
            except Exception as error:  # noqa: BLE001 - a refusal is the finding
                context.expect(
                    condition=False,
                    message=f"{name} refused an item nested {MAX_DEPTH} levels deep (JSON-8 "
                    f"requires accepting it): {type(error).__name__}: {error}"[:400],
                )
            _expect_state(
                context, memory, MemorySnapshot(items=(deep,)), f"after {name} of a deep item"
            )

    return test


def _same_items(expected: tuple[JsonValue, ...], found: tuple[JsonValue, ...]) -> bool:
    wanted, got = identical_text(list(expected)), identical_text(list(found))
    if wanted.startswith("<not JSON"):  # beyond the writer's digit limit: compare values
        return list(expected) == list(found)
    return wanted == got


@check(
    "memory.beyond-limits",
    component=Component.AGENT_MEMORY,
    claim=Claim.GENERIC,
    clauses=("JSON-17",),
)
def beyond_limits_refused_or_kept(context: CheckContext) -> Callable[[], None]:
    """Items beyond the limits are refused without effect, or read back from deep in the stack."""

    def test() -> None:
        for what, _ in beyond_limits():
            for name in ("add_output_items", "add_user_input", "restore"):
                context.record(operation=name, item=what)
                value = dict(beyond_limits())[what]  # a fresh value for every attempt
                memory: AgentMemory = context.subject()
                memory.add_user_input("before")
                before = memory.snapshot()
                try:
                    if name == "add_output_items":
                        memory.add_output_items([value])
                    elif name == "add_user_input":
                        memory.add_user_input(value)
                    else:
                        memory.restore(MemorySnapshot(items=(value,), summary="r"))
                except Exception:  # noqa: BLE001 - a refusal is allowed; then nothing changed
                    after = memory.snapshot()
                    context.expect(
                        _same_items(before.items, after.items) and before.summary == after.summary,
                        f"{name} refused an item {what} but changed the memory",
                    )
                    continue
                expected = (value,) if name == "restore" else (*before.items, value)
                try:
                    found = from_deep(memory.snapshot)
                except Exception as error:  # noqa: BLE001 - the finding
                    context.expect(
                        condition=False,
                        message=f"{name} accepted an item {what}, but snapshot() called "
                        f"{DEEP_FRAMES} frames deep in the stack raised {type(error).__name__}: "
                        f"{str(error)[:200]}",
                    )
                    continue
                context.expect(
                    _same_items(expected, found.items),
                    f"{name} accepted an item {what}, but snapshot() called {DEEP_FRAMES} "
                    "frames deep did not give it back identical",
                )

    return test


# -- compressors (exact: the reference constructors) -------------------------------------------


class CompressorError(Exception):
    """Raised by the scripted compressor when told to; it must reach the caller (MEM-6)."""


class ScriptedCompressor:
    """Keeps the newest two items and writes a summary saying what it saw; fails on demand.

    It records the JSON text of every snapshot it is given, so two memories can be compared
    call for call.
    """

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.failing = False

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        """Compress *snapshot*, or raise :class:`CompressorError` when failing."""
        self.calls.append(text([list(snapshot.items), snapshot.summary], limit=10**9))
        if self.failing:
            raise CompressorError("the scripted compressor failed")
        return MemorySnapshot(
            items=tuple(snapshot.items[-2:]),
            summary=f"compressed {len(snapshot.items)} after {snapshot.summary!r}",
        )


@contextlib.contextmanager
def _memory_with(
    context: CheckContext, compressor: MemoryCompressor | None = None
) -> Iterator[AgentMemory]:
    """A new memory of the subject's class with *compressor*, built by MEM-14 or MEM-15."""
    subject = context.subject()
    cls: Any = type(subject)
    if isinstance(subject, TableMemory) or (
        isinstance(subject, Remote) and context.options.get("storage") is not None
    ):
        cls, storage = _table_class(context)
        with storage.database() as database:
            yield cls(database.handle, "conformance", compressor=compressor)
        return
    if isinstance(subject, Remote):
        # A harness's memory gets the suite's compressor by name and calls it back (HRN-30).
        yield subject.new_instance(compressor=compressor)
        return
    if not isinstance(subject, CompressingMemory):
        raise SkipCheck(
            f"{cls.__name__} has no compressor attribute: not built as InMemoryAgentMemory"
            "(compressor=...) or SqliteAgentMemory(..., compressor=...)"
        )
    try:
        memory = cls(compressor=compressor)
    except TypeError as error:
        raise SkipCheck(f"{cls.__name__}(compressor=...) cannot be built: {error}") from error
    yield memory


_compressor_operations = st.lists(
    _operations() | st.just(("fail-next", ())), min_size=1, max_size=8
)


@check(
    "memory.compressor",
    component=Component.AGENT_MEMORY,
    claim=Claim.EXACT,
    clauses=("MEM-6", "MEM-14", "MEM-15", "DIF-21"),
)
def compressor(context: CheckContext) -> Callable[[], None]:
    """The compressor runs after every add that appends, atomically, and never otherwise."""

    @given(operations=_compressor_operations)
    @example(
        operations=[
            ("add_user_input", ("a",)),
            ("add_user_input", (None,)),
            ("add_output_items", ([],)),
            ("add_output_items", (["b", "c"],)),
            ("set_summary", ("manual",)),
            ("restore", (MemorySnapshot(items=("x", "y", "z"), summary="r"),)),
            ("fail-next", ()),
            ("add_tool_output", ("call-1", "out")),
            ("clear", ()),
            ("add_user_input", ("d",)),
            ("fail-next", ()),
            ("add_user_input", ("e",)),
        ]
    )
    def test(operations: list[Operation]) -> None:
        context.record(operations=operations)
        scripted = ScriptedCompressor()
        reference_compressor = ScriptedCompressor()
        model = InMemoryAgentMemory(compressor=reference_compressor)
        with _memory_with(context, scripted) as memory:
            for step, operation in enumerate(operations):
                if operation[0] == "fail-next":
                    scripted.failing = reference_compressor.failing = True
                    continue
                expected_error = _outcome(model, operation)
                error = _outcome(memory, operation)
                scripted.failing = reference_compressor.failing = False
                call = f"{operation[0]} at step {step}"
                if expected_error is None:
                    context.expect(error is None, f"{call} raised {error!r}")
                else:
                    context.expect(
                        isinstance(error, CompressorError),
                        f"{call}: the compressor raised, but the memory raised {error!r} "
                        "instead of letting the compressor's error through",
                    )
                found = _calls_difference(scripted.calls, reference_compressor.calls)
                context.expect(found is None, f"{call}: {found}")
                agree(context, memory, model, f"after {call}")

    return test


def _calls_difference(calls: list[str], expected: list[str]) -> str | None:
    for number, (got, wanted) in enumerate(zip(calls, expected, strict=False), start=1):
        if got != wanted:
            return (
                f"compressor call {number} got the snapshot {got[:160]} but the reference "
                f"memory passes {wanted[:160]}"
            )
    if len(calls) != len(expected):
        return (
            f"the compressor was called {len(calls)} time(s) but the reference memory calls "
            f"it {len(expected)} time(s)"
        )
    return None


def _outcome(memory: AgentMemory, operation: Operation) -> Exception | None:
    try:
        _apply(memory, operation)
    except Exception as error:  # noqa: BLE001 - the caller compares outcomes
        return error
    return None


# -- memories kept in a table (exact: MEM-15 .. MEM-21, any database, MEM-26) -----------------


def _table_class(context: CheckContext) -> tuple[Any, Storage]:
    """The class of a memory kept in a table, and the kind of database it takes.

    For a harness's memory, a constructor that opens one in the harness on the database the
    suite made, of the kind the target declares (HRN-29), which it can only name by address.
    """
    subject = context.subject()
    if isinstance(subject, Remote):
        kind = declared_storage(context.options, "memory")
        return remote_memory_builder(subject), remote_storage(kind)
    if not isinstance(subject, TableMemory):
        raise SkipCheck(
            f"{type(subject).__name__} is not a memory kept in a table (no session_id and table)"
        )
    _close(subject)
    cls: Any = type(subject)
    wanted = context.options.get("storage")
    storage = storage_of(lambda handle: cls(handle, "probe"), wanted)
    if storage is None:
        raise SkipCheck(
            f"{cls.__name__} takes none of the databases the suite can make here "
            f"({offered(wanted)}); "
            f"set {POSTGRES_DSN_VARIABLE} to check a PostgreSQL memory"
        )
    return cls, storage


def _close(memory: object) -> None:
    close = getattr(memory, "close", None)
    if callable(close):
        close()


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


#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    model_based,
    user_input,
    output_items,
    tool_output,
    summary_message,
    set_summary,
    restore_keeps_summary,
    independent_copies,
    arguments_unchanged,
    non_json_rejected,
    json_fidelity,
    deep_items,
    beyond_limits_refused_or_kept,
    compressor,
    table_construction,
    table_isolation,
    table_reopen,
    table_atomic,
    table_corrupt_row,
    table_errors,
)
