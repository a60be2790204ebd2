"""The operations of §14.1, one clause at a time.

User input, output items, tool output, the summary message, ``set_summary`` and ``restore``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._stateful_support import (
    EDGE_SUMMARIES,
    first_difference,
    items,
    summaries,
    text,
)
from ctxpact.conformance.checks.memory._support import (
    _bad_call_ids,
    _bad_outputs,
    _bad_summaries,
    _blank,
    _expect_rejected,
    _expect_state,
    _memory_snapshots,
    _message,
    _not_lists,
    _prompt,
    _tool_output,
    _user_inputs,
    restore_null,
)
from ctxpact.conformance.strategies import texts
from ctxpact.spec import (
    AgentMemory,
    JsonValue,
    MemorySnapshot,
)


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
