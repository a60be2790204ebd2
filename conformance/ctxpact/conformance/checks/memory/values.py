"""Sharing, mutation and values: what a memory gives out, takes, refuses and keeps.

Copies given out (MEM-12), arguments left alone (JSON-16), non-JSON values refused, and
items kept exactly, however deep (JSON-3 .. JSON-17).
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
    DEEP_FRAMES,
    EDGE_ITEMS,
    MAX_DEPTH,
    beyond_limits,
    first_difference,
    from_deep,
    identical_text,
    nested,
    scramble,
    text,
)
from ctxpact.conformance.checks.memory._support import (
    _NOT_JSON,
    _expect_rejected,
    _expect_state,
    _fidelity_values,
    _keys,
    agree,
)
from ctxpact.conformance.strategies import json_values
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.spec import (
    AgentMemory,
    JsonValue,
    MemorySnapshot,
)


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
