"""What every runtime check shares: the agents' settings, the spec's event types, comparing.

The suite's agents are configured with one model name and one system prompt, which RUN-3 (4)
puts into every prompt; the scripted projector marks each projection with an item that must
never reach memory (RUN-6). The event types are those of EVT-1 and EVT-3. Two values are the
same when they are identical as JSON (JSON-10); a trace of a run is a list of labels, and
:func:`_divergence` says in words where two traces part.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import attrs
from attrs import evolve

from ctxpact.conformance._context import as_json
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance._runtime import RuntimeEvent, RuntimeLifecycleEvent
from ctxpact.spec import CompactResult, JsonValue, MemorySnapshot, compact_json, copy_json

#: The agent event types of EVT-1 and the lifecycle event types of EVT-3.
_EVENT_TYPES = (
    "STEP_START",
    "STEP_END",
    "MEMORY_COMPRESS",
    "COMPACT_FAILED",
    "FINAL_OUTPUT",
    "ERROR",
)
_LIFECYCLE_TYPES = ("BEFORE_COMPACT", "ON_COMPACT")
_WITH_MESSAGE = frozenset({"MEMORY_COMPRESS", "COMPACT_FAILED", "ERROR", *_LIFECYCLE_TYPES})

#: What the suite's agents are configured with; RUN-3 (4) puts both into every prompt.
_MODEL_NAME = "conformance-model"
_SYSTEM_PROMPT = "You are being checked."
#: The item the scripted projector adds to every projection; it must never reach memory.
_PROJECTION_MARKER: JsonValue = {"type": "ctxpact-conformance", "projected": True}


_Event = RuntimeEvent | RuntimeLifecycleEvent


def _runtime_check(check_id: str, *clauses: str) -> Callable[[Any], Check]:
    return check(check_id, component=Component.RUNTIME, claim=Claim.GENERIC, clauses=clauses)


# -- comparing -----------------------------------------------------------------------------------


def _text(value: object) -> str:
    return compact_json(as_json(value))


def _same(first: object, second: object) -> bool:
    """Identical as JSON (JSON-10): member order and number forms count."""
    return _text(first) == _text(second)


def _caused_by(error: object, cause: BaseException) -> bool:
    """Whether *error* is *cause* or wraps it (through ``__cause__`` or ``__context__``)."""
    seen: set[int] = set()
    current: object = error
    while isinstance(current, BaseException) and id(current) not in seen:
        if current is cause:
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _label(kind: str, message: str | None, step: int | None) -> str:
    if kind in _WITH_MESSAGE:
        return f"{kind} {message!r} @{step}"
    return f"{kind} @{step}"


def _divergence(expected: Sequence[str], actual: Sequence[str]) -> str | None:
    """Where two traces part, in words, or ``None`` when they are equal."""
    for index in range(max(len(expected), len(actual))):
        want = expected[index] if index < len(expected) else "the end of the run"
        got = actual[index] if index < len(actual) else "the end of the run"
        if want != got:
            before = ", ".join(expected[max(0, index - 3) : index]) or "the start"
            return f"after {before}: expected {want} but got {got}"
    return None


def _snapshot_copy(snapshot: MemorySnapshot) -> MemorySnapshot:
    return MemorySnapshot(
        items=tuple(copy_json(item) for item in snapshot.items), summary=snapshot.summary
    )


def _result_copy(result: CompactResult) -> CompactResult:
    if result.memory is None:
        return result
    return evolve(result, memory=_snapshot_copy(result.memory))


def _vandalize(value: object) -> None:
    """Change every mutable object reachable from *value*, as a careless observer would."""
    if isinstance(value, BaseException | str):
        return
    if attrs.has(type(value)):
        for member in attrs.fields(cast("type[attrs.AttrsInstance]", type(value))):
            _vandalize(getattr(value, member.name))
    elif isinstance(value, dict):
        for member in list(value.values()):
            _vandalize(member)
        value["vandalized"] = True
    elif isinstance(value, list):
        for member in value:
            _vandalize(member)
        value.append("vandalized")
    elif isinstance(value, tuple):
        for member in value:
            _vandalize(member)
