"""What the memory checks share.

The tables' names, the capabilities a check detects, the shapes of §14, the strategies, the
operations applied to a memory and to its model, and the comparisons (JSON-10 identity).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck
from ctxpact.conformance.checks._stateful_support import (
    first_difference,
    items,
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
    remote_memory_builder,
    remote_storage,
    storage_of,
)
from ctxpact.conformance.strategies import texts
from ctxpact.spec import (
    AgentMemory,
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
