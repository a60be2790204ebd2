"""The model-based check of §14.1: a state machine runs the memory beside the reference one."""

from __future__ import annotations

import copy
from collections.abc import Callable

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._stateful_support import (
    EDGE_ITEMS,
    first_difference,
    items,
    run_machine,
    scramble,
    snapshot_difference,
    summaries,
)
from ctxpact.conformance.checks.memory._support import (
    _compact_results,
    _memory_snapshots,
    _user_inputs,
    agree,
    restore_null,
)
from ctxpact.conformance.strategies import texts
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.reference.session import InMemorySessionStore
from ctxpact.spec import (
    AgentMemory,
    AgentSessionSnapshot,
    CompactResult,
    JsonValue,
    MemorySnapshot,
)


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
