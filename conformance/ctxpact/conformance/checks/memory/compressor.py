"""Memories built with a compressor (``exact``: MEM-6, MEM-14, MEM-15).

The compressor runs after every add that appends, atomically, and never otherwise. Through a
harness the memory gets the suite's compressor by name (HARNESS.md HRN-30).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._storage import (
    Remote,
)
from ctxpact.conformance.checks.memory._support import (
    CompressingMemory,
    CompressorError,
    Operation,
    ScriptedCompressor,
    TableMemory,
    _apply,
    _operations,
    _table_class,
    agree,
)
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.spec import (
    AgentMemory,
    MemoryCompressor,
    MemorySnapshot,
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
