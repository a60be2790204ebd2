"""Checks for runtimes: the agent loop, compaction, events and hooks, sessions (§15.1-§17).

Every check drives the runtime under test through a
:class:`~ctxpact.conformance.RuntimeConfig` of scripted parts: a model client that answers
from a script and records each prompt, a compact policy whose decisions and results are
scripted (and that raises on demand), a projector that marks what it returns, a memory that
logs its state changes and fails on demand, and observers that record everything in one
trace. What the runtime should have done is computed from SPEC.md §16 by a small model of the
loop (:func:`_expect`), with the reference memory as the model of a memory.
"""

from __future__ import annotations

import contextlib
import enum
import re
import tempfile
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import attrs
from attrs import evolve, field, frozen
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, CheckFailure, SkipCheck, as_json, describe
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._pairing import pairs, tool_calls
from ctxpact.conformance._registry import check
from ctxpact.conformance._runtime import (
    EventListener,
    LifecycleHook,
    RuntimeConfig,
    RuntimeEvent,
    RuntimeLifecycleEvent,
    RuntimeSession,
    Tool,
    observer_name,
)
from ctxpact.conformance.checks._classics import with_examples
from ctxpact.conformance.strategies import session_snapshots, snapshots
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.reference.session import (
    AUTO_COMPACT_MESSAGE,
    COMPACT_FAILED_MESSAGE,
    COMPACTED_MESSAGE,
    CONTEXT_PROJECTION_MESSAGE,
    HOOK_FAILED_MESSAGE,
    LISTENER_FAILED_MESSAGE,
    MANUAL_COMPACT_MESSAGE,
    MAX_STEPS_MESSAGE,
    MODEL_FAILED_MESSAGE,
    FileSessionStore,
    InMemorySessionStore,
    SessionStore,
    SqliteSessionStore,
)
from ctxpact.spec import (
    AgentMemory,
    AgentSessionSnapshot,
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextReport,
    CtxpactError,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    ToolCall,
    compact_json,
    copy_json,
    to_json,
    violations,
)

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
_UPPER_CASE_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_COMPACTION_HELPER = re.compile(r"(pre|before|on)_?compact", re.IGNORECASE)

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


# -- scripted parts ------------------------------------------------------------------------------


def _echo_output(arguments: str) -> str:
    """What the suite's ``echo`` tool returns."""
    return f"echo:{arguments}"


def _compaction(snapshot: MemorySnapshot, keep: int | None, index: int) -> CompactResult:
    """The scripted policy's result: keep the newest *keep* items, or no memory at all."""
    summary = f"compaction {index} of {len(snapshot.items)} items"
    if keep is None:
        return CompactResult(summary=summary, pending=("memory left as it was",))
    kept = snapshot.items[len(snapshot.items) - min(keep, len(snapshot.items)) :]
    # The summary reported differs from the memory's (a policy breaking CMP-16): the memory
    # becomes `memory`, summary included (RUN-11 (e)), and the result is kept as it is.
    return CompactResult(
        memory=MemorySnapshot(items=kept, summary=summary),
        summary=f"{summary}, as reported",
        completed=(f"{len(snapshot.items) - len(kept)} items summarized",),
    )


def _projection(
    items: Sequence[JsonValue], budget: ContextBudget | None, index: int
) -> ContextProjection:
    """The scripted projector's projection: the newest ``max_items`` items and the marker."""
    limit = len(items) if budget is None or budget.max_items is None else budget.max_items
    kept = tuple(items[len(items) - min(limit, len(items)) :])
    report = ContextReport(
        source_item_count=len(items),
        projected_item_count=len(kept) + 1,
        dropped_item_count=len(items) - len(kept),
        source_approx_chars=0,
        projected_approx_chars=0,
        item_limit_applied=len(kept) < len(items),
        character_limit_applied=False,
        notes=(f"projection {index}",),
    )
    return ContextProjection(items=(*kept, copy_json(_PROJECTION_MARKER)), report=report)


class _Memory:
    """A reference memory that logs its state changes and fails on demand.

    Reads (``snapshot``, ``get_items``) are not logged: a runtime may read as often as it
    likes. ``fail_snapshot`` makes the next ``snapshot`` raise; ``fail_restore`` makes the next
    ``restore`` wipe the memory and then raise, like a restore that failed halfway.
    """

    def __init__(self, trace: list[str], initial: MemorySnapshot | None = None) -> None:
        self.inner = InMemoryAgentMemory()
        if initial is not None:
            self.inner.restore(initial)
        self.trace = trace
        self.fail_snapshot: Exception | None = None
        self.fail_restore: Exception | None = None

    @property
    def state(self) -> MemorySnapshot:
        return self.inner.snapshot()

    def add_user_input(self, value: JsonValue) -> None:
        if value is not None:
            self.trace.append("memory.add_user_input")
        self.inner.add_user_input(value)

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        if len(items):
            self.trace.append("memory.add_output_items")
        self.inner.add_output_items(items)

    def add_tool_output(self, call_id: str, output: str | None) -> None:
        self.trace.append(f"memory.add_tool_output {call_id}")
        self.inner.add_tool_output(call_id, output)

    def get_items(self) -> list[JsonValue]:
        return self.inner.get_items()

    def get_summary(self) -> str | None:
        return self.inner.get_summary()

    def set_summary(self, summary: str | None) -> None:
        self.trace.append("memory.set_summary")
        self.inner.set_summary(summary)

    def clear(self) -> None:
        self.trace.append("memory.clear")
        self.inner.clear()

    def snapshot(self) -> MemorySnapshot:
        error, self.fail_snapshot = self.fail_snapshot, None
        if error is not None:
            raise error
        return self.inner.snapshot()

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        self.trace.append("memory.restore")
        error, self.fail_restore = self.fail_restore, None
        if error is not None:
            self.inner.clear()
            raise error
        self.inner.restore(snapshot)


class _Model:
    """Answers from a script (an exception is raised), recording each prompt and memory state."""

    def __init__(
        self,
        trace: list[str],
        answers: Sequence[ModelResult | Exception],
        memory: _Memory | None = None,
    ) -> None:
        self.trace = trace
        self.answers = list(answers)
        self.memory = memory
        self.prompts: list[ModelPrompt] = []
        self.states: list[MemorySnapshot] = []

    @property
    def calls(self) -> int:
        return len(self.prompts)

    def create(self, prompt: ModelPrompt) -> ModelResult:
        self.trace.append("model.create")
        self.prompts.append(
            ModelPrompt(
                model=prompt.model,
                system_prompt=prompt.system_prompt,
                items=tuple(copy_json(item) for item in prompt.items),
            )
        )
        if self.memory is not None:
            self.states.append(self.memory.state)
        index = len(self.prompts) - 1
        if index >= len(self.answers):
            raise CheckFailure(
                f"the model was called {index + 1} times, but the run should have ended "
                f"after answer {len(self.answers)}, which called no tool (RUN-3 (6))"
            )
        answer = self.answers[index]
        if isinstance(answer, Exception):
            raise answer
        return evolve(answer, memory_items=tuple(copy_json(i) for i in answer.memory_items))


class _Raises(enum.Enum):
    RAISES = "raises"


@frozen(kw_only=True)
class _Failure:
    """Where a scripted part fails: ``snapshot``, ``should_compact``, ``compact``, ``restore``.

    ``answer``, when given, is what ``should_compact`` or ``compact`` returns instead of
    raising: something other than a bool or a ``CompactResult``, a failure too (RUN-12).
    """

    where: str
    step: int
    answer: object = _Raises.RAISES


class _Policy:
    """Decides and compacts from a script indexed by step, recording what it was given.

    ``step`` tells the current step (the model's calls so far). A failure, when scripted,
    raises at that step: in ``should_compact``, in ``compact``, or in the ``memory.restore``
    that follows ``compact`` (armed by ``compact``).
    """

    def __init__(  # noqa: PLR0913 - every part of the script is its own argument
        self,
        trace: list[str],
        step: Callable[[], int],
        *,
        decisions: Sequence[bool],
        keeps: Sequence[int | None],
        memory: _Memory | None = None,
        failure: _Failure | None = None,
    ) -> None:
        self.trace = trace
        self.step = step
        self.decisions = decisions
        self.keeps = keeps
        self.memory = memory
        self.failure = failure
        self.error = (
            RuntimeError(f"scripted {failure.where} failure")
            if failure is not None and failure.answer is _Raises.RAISES
            else None
        )
        self.decided: list[MemorySnapshot] = []
        self.asked: list[int] = []
        self.compacted: list[MemorySnapshot] = []
        self.compacted_at: list[int] = []
        self.results: list[CompactResult] = []

    def _fail(self, where: str, step: int) -> None:
        failure = self.failure
        scripted = failure is not None and failure.where == where and failure.step == step
        if scripted and self.error is not None:
            raise self.error

    def _wrong_answer(self, where: str, step: int) -> object:
        """The wrong value scripted for *where* at *step*, or ``_Raises.RAISES`` for none."""
        failure = self.failure
        if failure is not None and failure.where == where and failure.step == step:
            return failure.answer
        return _Raises.RAISES

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        self.trace.append("policy.should_compact")
        self.decided.append(_snapshot_copy(snapshot))
        step = self.step()
        self.asked.append(step)
        self._fail("should_compact", step)
        wrong = self._wrong_answer("should_compact", step)
        if wrong is not _Raises.RAISES:
            return cast("bool", wrong)
        return self.decisions[step] if step < len(self.decisions) else False

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        self.trace.append("policy.compact")
        self.compacted.append(_snapshot_copy(snapshot))
        step = self.step()
        self.compacted_at.append(step)
        self._fail("compact", step)
        wrong = self._wrong_answer("compact", step)
        if wrong is not _Raises.RAISES:
            return cast("CompactResult", wrong)
        failure = self.failure
        if failure is not None and failure.where == "restore" and failure.step == step:
            assert self.memory is not None  # noqa: S101 - a restore failure needs the memory
            self.memory.fail_restore = self.error
        keep = self.keeps[step] if step < len(self.keeps) else 0
        result = _compaction(snapshot, keep, step)
        self.results.append(result)
        return _result_copy(result)


class _Projector:
    """Projects with :func:`_projection`, recording the items and budget it was given."""

    def __init__(self, trace: list[str]) -> None:
        self.trace = trace
        self.given: list[tuple[tuple[JsonValue, ...], ContextBudget | None]] = []

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        self.trace.append("projector.project")
        copied = tuple(copy_json(item) for item in items)
        self.given.append((copied, budget))
        return _projection(copied, budget, len(self.given) - 1)


class _Log:
    """The suite's listener and hook: records every event, and the spec's ones in the trace."""

    def __init__(self, trace: list[str]) -> None:
        self.trace = trace
        self.events: list[RuntimeEvent] = []
        self.lifecycle: list[RuntimeLifecycleEvent] = []

    def listener(self, event: RuntimeEvent) -> None:
        self.events.append(event)
        if event.type in _EVENT_TYPES:
            self.trace.append(_label(event.type, event.message, event.step))

    def hook(self, event: RuntimeLifecycleEvent) -> None:
        self.lifecycle.append(event)
        if event.type in _LIFECYCLE_TYPES:
            self.trace.append(_label(event.type, event.message, event.step))

    def of(self, kind: str, message: str | None = None) -> list[RuntimeEvent]:
        return [
            event
            for event in self.events
            if event.type == kind and (message is None or event.message == message)
        ]

    def hooked(self, kind: str) -> list[RuntimeLifecycleEvent]:
        return [event for event in self.lifecycle if event.type == kind]


# -- scripts and what the spec makes of them -----------------------------------------------------


@frozen(kw_only=True)
class _Script:
    """One run to drive: memory before it, the input, the model's answers, the policy's script.

    ``decisions`` are ``should_compact``'s answers by step (``None``: no policy); ``keeps`` the
    number of items each step's compaction keeps (``None``: a result without memory, RUN-13).
    """

    initial: MemorySnapshot = field(factory=MemorySnapshot)
    user_input: JsonValue = "go"
    answers: tuple[ModelResult, ...]
    decisions: tuple[bool, ...] | None = None
    keeps: tuple[int | None, ...] = ()
    projector: bool = False
    budget: ContextBudget | None = None
    failure: _Failure | None = None


@frozen(kw_only=True)
class _Expected:
    trace: tuple[str, ...]
    prompts: tuple[tuple[JsonValue, ...], ...]
    visible: tuple[tuple[JsonValue, ...], ...]
    states: tuple[MemorySnapshot, ...]
    decided: tuple[MemorySnapshot, ...]
    compacted: tuple[MemorySnapshot, ...]
    results: tuple[tuple[int, CompactResult], ...]
    reports: tuple[ContextReport, ...]
    final: MemorySnapshot
    output: str | None
    last_compact_result: CompactResult | None


#: RUN-7: the call id a tool call with a blank id gets (step number, index in the result).
GENERATED_CALL_ID = "tool_step_{step}_{index}"
_TRIMMED = "".join(chr(code) for code in range(0x21))


def _blank(value: object) -> bool:
    """§1.4: a blank id is null, not a string, or empty after trimming."""
    return not isinstance(value, str) or not value.strip(_TRIMMED)


def named_calls(calls: Sequence[ToolCall], step: int) -> list[ToolCall]:
    """RUN-7: the calls of a result, each blank id replaced by ``tool_step_<step>_<index>``."""
    return [
        evolve(call, call_id=GENERATED_CALL_ID.format(step=step, index=index))
        if _blank(call.call_id)
        else call
        for index, call in enumerate(calls)
    ]


def _fill_ids(value: JsonValue, ids: list[str]) -> JsonValue:
    """A copy of *value* whose tool calls (§1.4, in order) without an id take the next of *ids*."""
    if not isinstance(value, dict) or not ids:
        return value
    copied = dict(value)
    key = {"function_call": "call_id", "tool_use": "id"}.get(str(copied.get("type")))
    if key is not None and _blank(copied.get(key)):
        copied[key] = ids.pop(0)
    entries = copied.get("tool_calls")
    if isinstance(entries, list):
        filled: list[JsonValue] = []
        for entry in entries:
            if isinstance(entry, dict) and ids and _blank(entry.get("id")):
                entry = {**entry, "id": ids.pop(0)}  # noqa: PLW2901 - the copy replaces it
            filled.append(entry)
        copied["tool_calls"] = filled
    content = copied.get("content")
    if isinstance(content, list):
        copied["content"] = [_fill_ids(part, ids) for part in content]
    return copied


def declared_items(
    memory_items: Sequence[JsonValue], calls: Sequence[ToolCall], step: int
) -> list[JsonValue]:
    """RUN-7 (a) and (b): the memory items of a result with every one of its calls declared.

    The tool calls the items declare without an id (or with a blank one) get, in order, the
    generated ids of the blank calls; each call whose id no item then declares gets a
    ``function_call`` item after them, in the order of the calls.
    """
    generated = [
        named.call_id
        for call, named in zip(calls, named_calls(calls, step), strict=True)
        if _blank(call.call_id)
    ]
    items = [_fill_ids(copy_json(item), generated) for item in memory_items]
    declared = {call_id for item in items for call_id, _ in tool_calls(item)}
    for call in named_calls(calls, step):
        if call.call_id in declared:
            continue
        declared.add(call.call_id)
        items.append(
            {
                "type": "function_call",
                "call_id": call.call_id,
                "name": call.name,
                "arguments": call.arguments,
            }
        )
    return items


def _expect(script: _Script) -> _Expected:  # noqa: PLR0915 - one step of RUN-3 per block
    """What RUN-2 .. RUN-13 make of *script*, step by step.

    A scripted failure of the auto-compaction attempt (RUN-12) leaves that attempt without
    effect; the trace of that step is then not exact (``BEFORE_COMPACT`` may or may not
    come), so checks with failures compare states, not traces.
    """
    memory = InMemoryAgentMemory()
    memory.restore(script.initial)
    trace: list[str] = []
    prompts: list[tuple[JsonValue, ...]] = []
    visible: list[tuple[JsonValue, ...]] = []
    states: list[MemorySnapshot] = []
    decided: list[MemorySnapshot] = []
    compacted: list[MemorySnapshot] = []
    results: list[tuple[int, CompactResult]] = []
    reports: list[ContextReport] = []
    output: str | None = None
    last: CompactResult | None = None
    failure = script.failure
    if script.user_input is not None:
        memory.add_user_input(script.user_input)
        trace.append("memory.add_user_input")
    for step, answer in enumerate(script.answers):
        failing = failure is not None and failure.step == step
        if script.decisions is not None and not failing:
            before = memory.snapshot()
            trace.append("policy.should_compact")
            decided.append(before)
            if step < len(script.decisions) and script.decisions[step]:
                keep = script.keeps[step] if step < len(script.keeps) else 0
                trace.extend(
                    (_label("BEFORE_COMPACT", AUTO_COMPACT_MESSAGE, step), "policy.compact")
                )
                compacted.append(before)
                result = _compaction(before, keep, step)
                if result.memory is not None:
                    memory.restore(result.memory)
                    trace.append("memory.restore")
                last = result
                results.append((step, result))
                trace.append(_label("MEMORY_COMPRESS", COMPACTED_MESSAGE, step))
                trace.append(_label("ON_COMPACT", AUTO_COMPACT_MESSAGE, step))
        trace.append(_label("STEP_START", None, step))
        items = tuple(memory.get_items())
        visible.append(items)
        prompt = items
        if script.projector:
            projected = _projection(items, script.budget, step)
            trace.extend(
                ("projector.project", _label("MEMORY_COMPRESS", CONTEXT_PROJECTION_MESSAGE, step))
            )
            reports.append(projected.report)
            prompt = projected.items
        prompts.append(prompt)
        states.append(memory.snapshot())
        trace.append("model.create")
        appended = declared_items(answer.memory_items, answer.tool_calls, step)
        if appended:
            memory.add_output_items(appended)
            trace.append("memory.add_output_items")
        if not answer.tool_calls:
            trace.extend((_label("FINAL_OUTPUT", None, step), _label("STEP_END", None, step)))
            output = answer.output_text
            break
        for call in named_calls(answer.tool_calls, step):
            memory.add_tool_output(call.call_id, _echo_output(call.arguments))
            trace.append(f"memory.add_tool_output {call.call_id}")
        trace.append(_label("STEP_END", None, step))
    return _Expected(
        trace=tuple(trace),
        prompts=tuple(prompts),
        visible=tuple(visible),
        states=tuple(states),
        decided=tuple(decided),
        compacted=tuple(compacted),
        results=tuple(results),
        reports=tuple(reports),
        final=memory.snapshot(),
        output=output,
        last_compact_result=last,
    )


class _Session:
    """A session of the runtime under test, built from a script with fresh scripted parts.

    Listeners are registered as ``(*listeners_before, log.listener, *listeners_after)``, hooks
    likewise.
    """

    def __init__(  # noqa: PLR0913 - each part can be varied by a check
        self,
        context: CheckContext,
        script: _Script,
        *,
        answers: Sequence[ModelResult | Exception] | None = None,
        tools: Mapping[str, Tool] | None = None,
        listeners: tuple[Sequence[EventListener], Sequence[EventListener]] = ((), ()),
        hooks: tuple[Sequence[LifecycleHook], Sequence[LifecycleHook]] = ((), ()),
        max_steps: int | None = None,
    ) -> None:
        self.trace: list[str] = []
        self.memory = _Memory(self.trace, script.initial)
        self.model = _Model(self.trace, script.answers if answers is None else answers, self.memory)
        self.log = _Log(self.trace)
        failure = script.failure
        self.policy = (
            None
            if script.decisions is None
            else _Policy(
                self.trace,
                lambda: self.model.calls,
                decisions=script.decisions,
                keeps=script.keeps,
                memory=self.memory,
                failure=failure if failure is not None and failure.where != "snapshot" else None,
            )
        )
        self.projector = _Projector(self.trace) if script.projector else None
        event_listeners: tuple[EventListener, ...] = (
            *listeners[0],
            self.log.listener,
            *listeners[1],
        )
        lifecycle_hooks: tuple[LifecycleHook, ...] = (*hooks[0], self.log.hook, *hooks[1])
        self.config = RuntimeConfig(
            model_client=self.model,
            memory_factory=lambda _: self.memory,
            model_name=_MODEL_NAME,
            system_prompt=_SYSTEM_PROMPT,
            projector=self.projector,
            budget=script.budget,
            compact_policy=self.policy,
            tools={"echo": _echo_output} if tools is None else tools,
            event_listeners=event_listeners,
            lifecycle_hooks=lifecycle_hooks,
            max_steps=max_steps,
        )
        self.session: RuntimeSession = context.subject(self.config)
        self.snapshot_error: Exception | None = None
        if failure is not None and failure.where == "snapshot":
            self.snapshot_error = OSError("scripted memory.snapshot failure")
            self.memory.fail_snapshot = self.snapshot_error

    @property
    def error(self) -> Exception | None:
        """The error a scripted failure raises."""
        if self.snapshot_error is not None:
            return self.snapshot_error
        return None if self.policy is None else self.policy.error


# -- strategies ----------------------------------------------------------------------------------

_ANSWER_ITEMS: st.SearchStrategy[JsonValue] = st.one_of(
    st.sampled_from(["note", "", 7, None, 1.5]),
    st.builds(
        lambda n: {"type": "message", "role": "assistant", "content": [f"answer {n}"]},
        st.integers(0, 9),
    ),
)
_INPUTS: st.SearchStrategy[JsonValue] = st.one_of(
    st.none(),
    st.text(max_size=6),
    st.just({"role": "user", "content": [{"type": "input_text", "text": "as an object"}]}),
)
_SUMMARIES = st.none() | st.sampled_from(["", " ", "earlier work", "🙂 summary\nline two"])


def _final(text: str | None = "done", *items: JsonValue) -> ModelResult:
    return ModelResult(output_text=text, memory_items=items or ({"role": "assistant"},))


def _calling(step: int, *arguments: str, name: str = "echo") -> ModelResult:
    calls = tuple(
        ToolCall(call_id=f"call-{step}-{index}", name=name, arguments=argument)
        for index, argument in enumerate(arguments)
    )
    return ModelResult(memory_items=({"role": "assistant", "step": step},), tool_calls=calls)


@st.composite
def _answers(draw: st.DrawFn, *, max_steps: int = 4) -> tuple[ModelResult, ...]:
    steps = draw(st.integers(1, max_steps))
    answers = []
    for step in range(steps):
        items = tuple(draw(st.lists(_ANSWER_ITEMS, max_size=2)))
        if step == steps - 1:
            text = draw(st.none() | st.text(max_size=6))
            answers.append(ModelResult(output_text=text, memory_items=items))
            continue
        arguments = draw(st.lists(st.text(max_size=6), min_size=1, max_size=2))
        calls = tuple(
            ToolCall(call_id=f"call-{step}-{index}", name="echo", arguments=argument)
            for index, argument in enumerate(arguments)
        )
        text = draw(st.none() | st.just("thinking"))
        answers.append(ModelResult(output_text=text, memory_items=items, tool_calls=calls))
    return tuple(answers)


@st.composite
def _scripts(
    draw: st.DrawFn, *, policy: bool | None = None, projector: bool | None = None
) -> _Script:
    """Runs of one to four steps; with or without a policy and a projector unless fixed."""
    answers = draw(_answers())
    steps = len(answers)
    with_policy = draw(st.booleans()) if policy is None else policy
    with_projector = draw(st.booleans()) if projector is None else projector
    return _Script(
        initial=MemorySnapshot(
            items=tuple(draw(st.lists(_ANSWER_ITEMS, max_size=3))), summary=draw(_SUMMARIES)
        ),
        user_input=draw(_INPUTS),
        answers=answers,
        decisions=(
            tuple(draw(st.lists(st.booleans(), min_size=steps, max_size=steps)))
            if with_policy
            else None
        ),
        keeps=tuple(draw(st.lists(st.none() | st.integers(0, 3), min_size=steps, max_size=steps))),
        projector=with_projector,
        budget=draw(st.none() | st.builds(ContextBudget, max_items=st.integers(0, 4))),
    )


@st.composite
def _failing_scripts(draw: st.DrawFn) -> _Script:
    script = draw(_scripts(policy=True, projector=False))
    where = draw(st.sampled_from(["snapshot", "should_compact", "compact", "restore"]))
    step = 0 if where == "snapshot" else draw(st.integers(0, len(script.answers) - 1))
    decisions = list(script.decisions or ())
    keeps = list(script.keeps)
    if where in {"compact", "restore"}:
        decisions[step] = True
    if where == "restore" and keeps[step] is None:
        keeps[step] = 0
    return evolve(
        script,
        decisions=tuple(decisions),
        keeps=tuple(keeps),
        failure=_Failure(where=where, step=step),
    )


#: A run of three steps with tools, a projector and a policy that compacts at step 1.
_FULL_SCRIPT = _Script(
    initial=MemorySnapshot(items=({"role": "user", "content": ["old"]}, "older"), summary="s"),
    user_input="go",
    answers=(_calling(0, "a", "b"), _calling(1, "c"), _final("done")),
    decisions=(False, True, False),
    keeps=(None, 2, None),
    projector=True,
    budget=ContextBudget(max_items=3),
)
#: The same run, compacting at step 0 without memory (RUN-13) and keeping nothing at step 2.
_NULL_MEMORY_SCRIPT = evolve(
    _FULL_SCRIPT, decisions=(True, False, True), keeps=(None, None, 0), projector=False
)
#: One step, no policy, no projector.
_PLAIN_SCRIPT = _Script(answers=(_final("done"),), budget=ContextBudget(max_items=0))


# -- the loop ------------------------------------------------------------------------------------


@_runtime_check("runtime.loop-order", "RUN-2", "RUN-3", "RUN-11", "EVT-6", "EVT-13")
def loop_order(context: CheckContext) -> Callable[[], None]:
    """A run adds the input, then each step compacts, starts, projects, calls, appends, ends."""

    @given(script=_scripts())
    @example(script=_FULL_SCRIPT)
    @example(script=_NULL_MEMORY_SCRIPT)
    @example(script=_PLAIN_SCRIPT)
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        run.session.run(script.user_input)
        problem = _divergence(_expect(script).trace, run.trace)
        context.expect(
            problem is None, f"the run's actions are out of the order of RUN-2/RUN-3: {problem}"
        )

    return test


@_runtime_check("runtime.prompt", "RUN-1", "RUN-3", "RUN-4", "RUN-5", "EVT-4", "EVT-5")
def prompt(context: CheckContext) -> Callable[[], None]:
    """Each prompt is the projection of memory.get_items() (or get_items() itself)."""

    @given(script=_scripts())
    @example(script=_FULL_SCRIPT)
    @example(script=evolve(_FULL_SCRIPT, projector=False))
    @example(script=_PLAIN_SCRIPT)
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        run.session.run(script.user_input)
        expected = _expect(script)
        prompts = run.model.prompts
        context.expect(
            len(prompts) == len(expected.prompts),
            f"the model was called {len(prompts)} times in a run of {len(expected.prompts)} "
            "steps (RUN-3: once per step)",
        )
        for step, (sent, items) in enumerate(zip(prompts, expected.prompts, strict=True)):
            context.expect(
                sent.model == _MODEL_NAME and sent.system_prompt == _SYSTEM_PROMPT,
                f"step {step}: the prompt carries model {sent.model!r} and system prompt "
                f"{sent.system_prompt!r}, not the agent's {_MODEL_NAME!r} and {_SYSTEM_PROMPT!r} "
                "(RUN-3 (4))",
            )
            if run.projector is not None:
                _expect_projection(context, run, expected, step)
            source = "the projection's items" if script.projector else "memory.get_items()"
            context.expect(
                _same(sent.items, items),
                f"step {step}: the prompt's items are {describe(sent.items)}, not {source} "
                f"{describe(items)} (RUN-4, RUN-5)",
            )
        if run.projector is None:
            projected = run.log.of("MEMORY_COMPRESS", CONTEXT_PROJECTION_MESSAGE)
            context.expect(
                not projected,
                f"{len(projected)} MEMORY_COMPRESS 'context projection' events without a "
                "projector (RUN-5)",
            )

    return test


def _expect_projection(
    context: CheckContext, run: _Session, expected: _Expected, step: int
) -> None:
    assert run.projector is not None  # noqa: S101 - called only with a projector
    given_ = run.projector.given
    context.expect(step < len(given_), f"step {step}: the projector was not called (RUN-4)")
    items, budget = given_[step]
    context.expect(
        _same(items, expected.visible[step]),
        f"step {step}: the projector was given {describe(items)}, but memory.get_items() was "
        f"{describe(expected.visible[step])} (RUN-4)",
    )
    context.expect(
        budget == run.config.budget,
        f"step {step}: the projector was given the budget {describe(budget)}, not the "
        f"agent's {describe(run.config.budget)} (RUN-4)",
    )
    events = [
        event
        for event in run.log.of("MEMORY_COMPRESS", CONTEXT_PROJECTION_MESSAGE)
        if event.step == step
    ]
    context.expect(
        len(events) == 1,
        f"step {step}: {len(events)} MEMORY_COMPRESS 'context projection' events, expected "
        "exactly one (RUN-4, EVT-4)",
    )
    context.expect(
        _same(events[0].payload, expected.reports[step]),
        f"step {step}: the 'context projection' payload is {describe(events[0].payload)}, not "
        f"the projection's report {describe(expected.reports[step])} (RUN-4, EVT-5)",
    )


@_runtime_check("runtime.memory-writes", "RUN-2", "RUN-3", "RUN-6")
def memory_writes(context: CheckContext) -> Callable[[], None]:
    """Memory gets the input, the answers and tool outputs, never the projection."""

    @given(script=_scripts())
    @example(script=_FULL_SCRIPT)
    @example(script=evolve(_FULL_SCRIPT, decisions=None))
    @example(script=evolve(_PLAIN_SCRIPT, user_input=None))
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        output = run.session.run(script.user_input)
        expected = _expect(script)
        state = run.memory.state
        context.expect(
            not any(_same(item, _PROJECTION_MARKER) for item in state.items),
            "an item only the projection had was written into memory (RUN-6)",
        )
        context.expect(
            _same(state, expected.final),
            f"memory after the run is {describe(state)}, expected {describe(expected.final)} "
            "(RUN-2, RUN-3, RUN-6)",
        )
        context.expect(
            output == expected.output,
            f"run returned {output!r}, not the final answer's outputText {expected.output!r} "
            "(RUN-3 (6))",
        )

    return test


_TOOL_KINDS = ("echo", "fail", "missing")


@st.composite
def _tool_answers(draw: st.DrawFn) -> tuple[ModelResult, ...]:
    answers = []
    for step in range(draw(st.integers(1, 2))):
        calls = tuple(
            ToolCall(
                call_id=f"call-{step}-{index}",
                name=draw(st.sampled_from(_TOOL_KINDS)),
                arguments=draw(st.text(max_size=6)),
            )
            for index in range(draw(st.integers(1, 3)))
        )
        answers.append(ModelResult(memory_items=({"step": step},), tool_calls=calls))
    return (*answers, _final("after tools"))


@_runtime_check("runtime.tools", "RUN-1", "RUN-7")
def tools(context: CheckContext) -> Callable[[], None]:
    """Every tool call gets one output, in order, before the next step; failures go on."""

    @given(answers=_tool_answers())
    @example(
        answers=(
            ModelResult(
                tool_calls=(
                    ToolCall(call_id="c1", name="missing", arguments="{}"),
                    ToolCall(call_id="c2", name="fail", arguments="[1]"),
                    ToolCall(call_id="c3", name="echo", arguments='{"x":1}'),
                )
            ),
            _final("after tools"),
        )
    )
    def test(answers: tuple[ModelResult, ...]) -> None:
        context.record(answers=answers)
        called: list[tuple[str, str]] = []

        def echo(arguments: str) -> str:
            called.append(("echo", arguments))
            return _echo_output(arguments)

        def fail(arguments: str) -> str:
            called.append(("fail", arguments))
            raise ValueError(f"the fail tool failed on {arguments!r}")

        run = _Session(context, _Script(answers=answers), tools={"echo": echo, "fail": fail})
        output = _run_on(run, "use the tools", "a failing or unknown tool")
        context.expect(
            output == "after tools",
            f"run returned {output!r} instead of going on after the tools (RUN-7)",
        )
        wanted = [
            (call.name, call.arguments)
            for answer in answers
            for call in answer.tool_calls
            if call.name != "missing"
        ]
        context.expect(
            called == wanted,
            f"the tools were called with {called}, expected {wanted} (RUN-1, RUN-7)",
        )
        _expect_tool_outputs(context, run, answers)

    return test


def _declaring(shape: str, calls: Sequence[ToolCall], ids: Sequence[str | int | None]) -> JsonValue:
    """A memory item that declares *calls* in *shape*, with *ids* (``None``: no id member)."""

    def with_id(entry: dict[str, JsonValue], key: str, call_id: str | int | None) -> JsonValue:
        return entry if call_id is None else {key: call_id, **entry}

    if shape == "chat":
        entries = [
            with_id(
                {"type": "function", "function": {"name": c.name, "arguments": c.arguments}},
                "id",
                i,
            )
            for c, i in zip(calls, ids, strict=True)
        ]
        return {"role": "assistant", "content": None, "tool_calls": entries}
    if shape == "anthropic":
        parts: list[JsonValue] = [{"type": "text", "text": "calling"}]
        parts.extend(
            with_id({"type": "tool_use", "name": c.name, "input": {}}, "id", i)
            for c, i in zip(calls, ids, strict=True)
        )
        return {"role": "assistant", "content": parts}
    return [
        with_id({"type": "function_call", "name": c.name, "arguments": c.arguments}, "call_id", i)
        for c, i in zip(calls, ids, strict=True)
    ]


def _declared_result(
    step: int,
    shape: str,
    ids: Sequence[str],
    declared: Sequence[str | int | None],
    *,
    listed: int,
) -> ModelResult:
    """A step's result: calls with *ids*, the first *listed* declared in memory items of *shape*."""
    calls = [ToolCall(call_id=i, name="echo", arguments=f"s{step}c{n}") for n, i in enumerate(ids)]
    item = _declaring(shape, calls[:listed], declared[:listed])
    items = tuple(item) if isinstance(item, list) else (item,)
    return ModelResult(memory_items=items, tool_calls=tuple(calls))


_SHAPES = st.sampled_from(["responses", "chat", "anthropic"])
#: Blank (§1.4: Java's trim leaves nothing, so NUL is blank) and not blank (an ideographic
#: space, which Python's ``str.strip`` would remove; a non-ASCII id).
_CALL_IDS = st.sampled_from(["", " ", "\t", "\x00", "\u3000", "呼-1", "id"])
#: In memory items a number is no id either (§1.4: an id is a string).
_MEMORY_IDS = st.sampled_from([None, "", " ", "\x00", 7, "same"])


@st.composite
def _declaring_answers(draw: st.DrawFn) -> tuple[ModelResult, ...]:
    """One or two tool steps whose memory items declare some calls, some ids blank or missing."""
    answers = []
    for step in range(draw(st.integers(1, 2))):
        count = draw(st.integers(1, 3))
        ids = [draw(_CALL_IDS) for _ in range(count)]
        ids = [f"c{step}-{n}" if i == "id" else i for n, i in enumerate(ids)]
        listed = draw(st.integers(0, count))
        declared: list[str | int | None] = [
            call_id if not _blank(call_id) and draw(st.booleans()) else draw(_MEMORY_IDS)
            for call_id in ids
        ]
        declared = [None if d == "same" else d for d in declared]
        answers.append(_declared_result(step, draw(_SHAPES), ids, declared, listed=listed))
    return (*answers, _final("after tools"))


def _declaring_examples() -> list[tuple[ModelResult, ...]]:
    """RUN-7 in every shape: blank ids in the calls and in the items, and undeclared calls."""
    after = _final("after tools")
    return [
        (_declared_result(0, "responses", ["", "c1"], ["", "c1"], listed=2), after),
        (_declared_result(0, "chat", [" ", "c1"], [None, "c1"], listed=2), after),
        (_declared_result(0, "anthropic", ["", ""], [None, " "], listed=2), after),
        (_declared_result(0, "chat", ["c1", "c2"], ["c1", "c2"], listed=1), after),
        (_declared_result(0, "anthropic", ["", ""], [None, None], listed=1), after),
        (_declared_result(0, "responses", ["c1"], [], listed=0), after),
        # §1.4's edges: NUL is blank, an ideographic space and a non-ASCII id are ids, and a
        # number in a memory item is no id.
        (_declared_result(0, "responses", ["\x00", "c1"], [7, "c1"], listed=2), after),
        (_declared_result(0, "chat", ["\u3000", "\x00"], ["\u3000", None], listed=2), after),
        (_declared_result(0, "anthropic", ["呼-1", "\x00"], ["呼-1", 7], listed=2), after),
    ]


@_runtime_check("runtime.tool-call-ids", "RUN-7", "RUN-3", "PAIR-1")
def tool_call_ids(context: CheckContext) -> Callable[[], None]:
    """Every tool output in memory has its call: generated ids reach the call, none is missing.

    A tool call with a blank id gets ``tool_step_<step>_<index>``; the memory items that
    declare calls without an id (or with a blank one) get those ids in order, in copies; a
    call that no item declares is declared by a ``function_call`` item appended after the
    items (RUN-7). In all three shapes of §1.4: a Responses ``function_call``, a Chat
    ``tool_calls`` entry, an Anthropic ``tool_use`` part.
    """

    @given(answers=_declaring_answers())
    def test(answers: tuple[ModelResult, ...]) -> None:
        context.record(answers=answers)
        run = _Session(context, _Script(answers=answers))
        _run_on(run, "use the tools", "a call without an id")
        items = run.memory.state.items
        for orphan in pairs(items).orphans()[:1]:
            context.expect(
                condition=False,
                message=f"memory item {orphan.position} ({describe(items[orphan.position])}) is "
                f"a tool output whose call {describe(orphan.call_id)} no earlier item declares: "
                "a provider rejects every later turn (RUN-7, PAIR-1)",
            )
        _expect_tool_outputs(context, run, answers)

    return with_examples(test, "answers", _declaring_examples())


def _expect_tool_outputs(
    context: CheckContext, run: _Session, answers: Sequence[ModelResult]
) -> None:
    items = run.memory.state.items
    position = 1  # after the user's input
    for step, answer in enumerate(answers):
        declared = declared_items(answer.memory_items, answer.tool_calls, step)
        context.expect(
            _same(items[position : position + len(declared)], declared),
            f"step {step}: memory holds {describe(items[position : position + len(declared)])} "
            f"where the result's memory items with its calls declared, {describe(declared)}, "
            "belong (RUN-3 (5), RUN-7)",
        )
        position += len(declared)
        for call in named_calls(answer.tool_calls, step):
            item = items[position] if position < len(items) else None
            context.expect(
                isinstance(item, dict)
                and item.get("type") == "function_call_output"
                and item.get("call_id") == call.call_id,
                f"step {step}: expected the output of call {call.call_id} ({call.name}) at "
                f"memory item {position} but found {describe(item)} (RUN-7)",
            )
            assert isinstance(item, dict)  # noqa: S101 - checked just above
            output = item.get("output")
            if call.name == "echo":
                context.expect(
                    output == _echo_output(call.arguments),
                    f"call {call.call_id}: the tool output is {output!r}, not what the tool "
                    f"returned {_echo_output(call.arguments)!r} (RUN-7)",
                )
            else:
                context.expect(
                    isinstance(output, str) and output.strip() != "",
                    f"call {call.call_id} ({call.name}): the output is {output!r}, not a text "
                    "describing the failure (RUN-7)",
                )
            position += 1
        if answer.tool_calls and step + 1 < len(run.model.prompts):
            count = len(answer.tool_calls)
            tail = run.model.prompts[step + 1].items[-count:]
            context.expect(
                _same(tail, items[position - count : position]),
                f"the prompt of step {step + 1} does not end with the outputs of step {step}'s "
                "tool calls (RUN-7: appended before the next step)",
            )


def _run_on(run: _Session, user_input: JsonValue, cause: str) -> str | None:
    """Run, failing the check when *cause*, which must never end a run, did."""
    try:
        return run.session.run(user_input)
    except CheckFailure:
        raise
    except Exception as error:
        message = f"{cause} ended the run with {type(error).__name__}: {error} (RUN-7, RUN-12)"
        raise CheckFailure(message) from error


# -- auto-compaction -----------------------------------------------------------------------------


@_runtime_check(
    "runtime.auto-compaction",
    "RUN-10",
    "RUN-11",
    "RUN-13",
    "CMP-4",
    "SES-5",
    "EVT-3",
    "EVT-4",
    "EVT-5",
    "DIF-13",
)
def auto_compaction(context: CheckContext) -> Callable[[], None]:
    """The policy decides at the top of each step; a compaction is restored, kept, announced."""

    @given(script=_scripts(projector=False))
    @example(script=evolve(_FULL_SCRIPT, projector=False))
    @example(script=_NULL_MEMORY_SCRIPT)
    @example(script=evolve(_FULL_SCRIPT, decisions=None, projector=False))
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        run.session.run(script.user_input)
        expected = _expect(script)
        compacted = run.log.of("MEMORY_COMPRESS", COMPACTED_MESSAGE)
        if run.policy is None:
            context.expect(
                not compacted and not run.log.hooked("BEFORE_COMPACT"),
                "the runtime compacted without a policy (RUN-10)",
            )
        for step, want in enumerate(expected.states):
            if run.policy is not None:
                _expect_decision(context, run.policy, expected, step)
            state = run.model.states[step] if step < len(run.model.states) else None
            context.expect(
                _same(state, want),
                f"step {step}: memory at the model call is {describe(state)}, expected "
                f"{describe(want)} (RUN-11 (e), RUN-13)",
            )
        if run.policy is not None:
            for kind, events in (
                ("BEFORE_COMPACT", run.log.hooked("BEFORE_COMPACT")),
                ("MEMORY_COMPRESS 'compacted'", compacted),
                ("ON_COMPACT", run.log.hooked("ON_COMPACT")),
            ):
                _expect_compaction_events(context, kind, events, expected)
        last = run.session.last_compact_result
        context.expect(
            _same(last, expected.last_compact_result),
            f"last_compact_result after the run is {describe(last)}, expected the last "
            f"auto-compaction's result {describe(expected.last_compact_result)} (RUN-11 (f), "
            "SES-5)",
        )

    return test


def _expect_decision(
    context: CheckContext, policy: _Policy, expected: _Expected, step: int
) -> None:
    asked = [index for index in policy.asked if index == step]
    context.expect(
        len(asked) == 1,
        f"step {step}: should_compact was asked {len(asked)} times; RUN-11 asks once at the "
        "top of every step",
    )
    seen = policy.decided[policy.asked.index(step)]
    want = expected.decided[step]
    context.expect(
        _same(seen, want),
        f"step {step}: should_compact was given {describe(seen)}, but memory held "
        f"{describe(want)} (RUN-11 (a))",
    )
    compacted = [index for index in policy.compacted_at if index == step]
    wanted = [index for index, _ in expected.results if index == step]
    context.expect(
        len(compacted) == len(wanted),
        f"step {step}: compact was called {len(compacted)} times, but should_compact said "
        f"{'yes' if wanted else 'no'} (RUN-10, RUN-11)",
    )
    if compacted:
        seen = policy.compacted[policy.compacted_at.index(step)]
        context.expect(
            _same(seen, want),
            f"step {step}: compact was given {describe(seen)}, not the snapshot "
            f"{describe(want)} (RUN-11 (d))",
        )


def _expect_compaction_events(
    context: CheckContext,
    kind: str,
    events: Sequence[RuntimeEvent | RuntimeLifecycleEvent],
    expected: _Expected,
) -> None:
    context.expect(
        len(events) == len(expected.results),
        f"{len(events)} {kind} events for {len(expected.results)} auto-compactions "
        "(RUN-11, RUN-13)",
    )
    before = kind == "BEFORE_COMPACT"
    for index, (event, (step, result)) in enumerate(zip(events, expected.results, strict=True)):
        payload = expected.compacted[index] if before else result
        if kind != "MEMORY_COMPRESS 'compacted'":
            context.expect(
                event.message == AUTO_COMPACT_MESSAGE,
                f"step {step}: {kind} has message {event.message!r}, not 'auto' (EVT-4)",
            )
        context.expect(
            event.step == step,
            f"{kind} of the compaction at step {step} carries step {event.step} (RUN-11)",
        )
        what = "a copy of the snapshot" if before else "the compact result"
        context.expect(
            _same(event.payload, payload),
            f"step {step}: the {kind} payload is {describe(event.payload)}, not {what} "
            f"{describe(payload)} (EVT-5)",
        )


@_runtime_check("runtime.auto-compaction-fail-safe", "RUN-12", "SES-5", "EVT-4", "EVT-5", "DIF-13")
def auto_compaction_fail_safe(context: CheckContext) -> Callable[[], None]:
    """A failing compaction attempt changes nothing, is published, and the run goes on."""

    @given(script=_failing_scripts())
    @example(
        script=evolve(_FULL_SCRIPT, projector=False, failure=_Failure(where="snapshot", step=0))
    )
    @example(
        script=evolve(
            _FULL_SCRIPT, projector=False, failure=_Failure(where="should_compact", step=2)
        )
    )
    @example(
        script=evolve(_FULL_SCRIPT, projector=False, failure=_Failure(where="compact", step=1))
    )
    @example(
        script=evolve(_FULL_SCRIPT, projector=False, failure=_Failure(where="restore", step=1))
    )
    def test(script: _Script) -> None:
        context.record(script=script)
        assert script.failure is not None  # noqa: S101 - the strategy always sets one
        step, where = script.failure.step, script.failure.where
        run = _Session(context, script)
        error = run.error
        assert error is not None  # noqa: S101 - every failure has its error
        output = _run_on(run, script.user_input, f"the failing {where} at step {step}")
        expected = _expect(script)
        failed = run.log.of("COMPACT_FAILED")
        context.expect(
            len(failed) == 1,
            f"{len(failed)} COMPACT_FAILED events for one failing {where} at step {step} (RUN-12)",
        )
        event = failed[0]
        context.expect(
            event.message == COMPACT_FAILED_MESSAGE and event.step == step,
            f"COMPACT_FAILED carries message {event.message!r} and step {event.step}, not "
            f"'compaction failed' and {step} (EVT-4)",
        )
        context.expect(
            _caused_by(event.payload, error),
            f"the COMPACT_FAILED payload is {event.payload!r}, not the error {error!r} (EVT-5)",
        )
        done: list[_Event] = [*run.log.of("MEMORY_COMPRESS", COMPACTED_MESSAGE)]
        done += run.log.hooked("ON_COMPACT")
        finished = [event for event in done if event.step == step]
        context.expect(
            not finished,
            f"the failed compaction at step {step} was announced as done (RUN-12)",
        )
        states = run.model.states
        context.expect(
            step < len(states) and _same(states[step], expected.states[step]),
            f"step {step}: memory after the failed {where} is "
            f"{describe(states[step]) if step < len(states) else 'unknown'}, expected it as "
            f"it was: {describe(expected.states[step])} (RUN-12)",
        )
        context.expect(
            output == expected.output and _same(run.memory.state, expected.final),
            f"the run did not go on as if the failed compaction had not been tried (RUN-12): "
            f"returned {output!r}, memory {describe(run.memory.state)}",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, expected.last_compact_result),
            f"last_compact_result is {describe(last)}, expected "
            f"{describe(expected.last_compact_result)}: a failed compaction leaves it (SES-5)",
        )

    return test


# -- manual compaction ---------------------------------------------------------------------------


def _manual_policy(run: _Session, keep: int | None, failure: _Failure | None = None) -> _Policy:
    return _Policy(
        run.trace, lambda: 0, decisions=(False,), keeps=(keep,), memory=run.memory, failure=failure
    )


@_runtime_check("runtime.manual-compaction", "RUN-14", "SES-5", "EVT-2", "EVT-4", "EVT-5", "DIF-14")
def manual_compaction(context: CheckContext) -> Callable[[], None]:
    """compact(policy) compacts without asking, restores, keeps the result, announces it."""

    @given(initial=snapshots, keep=st.none() | st.integers(0, 3))
    @example(initial=MemorySnapshot(items=("a", {"b": [1]}, "c"), summary="s"), keep=1)
    @example(initial=MemorySnapshot(items=("a",)), keep=None)
    def test(initial: MemorySnapshot, keep: int | None) -> None:
        context.record(initial=initial, keep=keep)
        run = _Session(context, _Script(initial=initial, answers=()))
        policy = _manual_policy(run, keep)
        mark = len(run.trace)
        result = run.session.compact(policy)
        context.expect(
            not policy.decided, "compact consulted should_compact (RUN-14: unconditional)"
        )
        context.expect(
            len(policy.compacted) == 1 and _same(policy.compacted[0], initial),
            f"policy.compact was given {describe(policy.compacted)}, not once the memory's "
            f"snapshot {describe(initial)} (RUN-14)",
        )
        produced = policy.results[0]
        wanted = [_label("BEFORE_COMPACT", MANUAL_COMPACT_MESSAGE, None), "policy.compact"]
        wanted += [] if produced.memory is None else ["memory.restore"]
        wanted += [_label("MEMORY_COMPRESS", COMPACTED_MESSAGE, None)]
        wanted += [_label("ON_COMPACT", MANUAL_COMPACT_MESSAGE, None)]
        problem = _divergence(wanted, run.trace[mark:])
        context.expect(problem is None, f"the manual compaction's events: {problem} (RUN-14)")
        for kind, events, payload in (
            ("BEFORE_COMPACT", run.log.hooked("BEFORE_COMPACT"), initial),
            ("MEMORY_COMPRESS", run.log.of("MEMORY_COMPRESS"), produced),
            ("ON_COMPACT", run.log.hooked("ON_COMPACT"), produced),
        ):
            context.expect(
                _same(events[0].payload, payload),
                f"the {kind} payload is {describe(events[0].payload)}, not "
                f"{describe(payload)} (EVT-5)",
            )
        context.expect(
            _same(result, produced),
            f"compact returned {describe(result)}, not the policy's result {describe(produced)}",
        )
        state = run.memory.state
        wanted_state = initial if produced.memory is None else produced.memory
        context.expect(
            _same(state, wanted_state),
            f"memory after compact is {describe(state)}, expected {describe(wanted_state)} "
            "(RUN-14)",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, produced),
            f"last_compact_result is {describe(last)}, not the manual compaction's result "
            "(RUN-14, SES-5)",
        )

    return test


@_runtime_check("runtime.manual-compaction-needs-policy", "RUN-14", "DIF-14")
def manual_compaction_needs_policy(context: CheckContext) -> Callable[[], None]:
    """A manual compaction without a policy is an error that changes and publishes nothing."""

    def test() -> None:
        initial = MemorySnapshot(items=("a", "b"), summary="kept")
        context.record(initial=initial, policy=None)
        run = _Session(context, _Script(initial=initial, answers=()))
        try:
            run.session.compact(None)  # type: ignore[arg-type]  # on purpose
        except Exception:  # noqa: BLE001 - any error will do
            raised = True
        else:
            raised = False
        context.expect(raised, "compact(None) returned instead of raising (RUN-14)")
        context.expect(
            _same(run.memory.state, initial) and not run.log.events and not run.log.lifecycle,
            "compact(None) changed the memory or published events (RUN-14)",
        )

    return test


@_runtime_check(
    "runtime.manual-compaction-failure", "RUN-15", "SES-5", "EVT-2", "EVT-4", "EVT-5", "DIF-14"
)
def manual_compaction_failure(context: CheckContext) -> Callable[[], None]:
    """A failing manual compaction leaves everything as it was, is published, and propagates."""

    @given(
        initial=snapshots,
        where=st.sampled_from(["snapshot", "compact", "restore"]),
        earlier=st.booleans(),
    )
    @example(
        initial=MemorySnapshot(items=("a", "b"), summary="kept"), where="restore", earlier=True
    )
    @example(initial=MemorySnapshot(items=("a",)), where="compact", earlier=False)
    @example(initial=MemorySnapshot(), where="snapshot", earlier=True)
    def test(initial: MemorySnapshot, where: str, earlier: bool) -> None:
        context.record(initial=initial, where=where, earlier=earlier)
        run = _Session(context, _Script(initial=initial, answers=()))
        if earlier:
            run.session.compact(_manual_policy(run, None))
        last_before = run.session.last_compact_result
        before = run.memory.state
        failure = _Failure(where=where, step=0)
        policy = _manual_policy(run, 1, None if where == "snapshot" else failure)
        error = policy.error or OSError("scripted memory.snapshot failure")
        if where == "snapshot":
            run.memory.fail_snapshot = error
        mark = len(run.log.events)
        hooks_mark = len(run.log.lifecycle)
        try:
            run.session.compact(policy)
        except Exception as raised:  # noqa: BLE001 - checked below
            caught: Exception | None = raised
        else:
            caught = None
        context.expect(
            caught is not None, f"the failing {where} did not propagate out of compact (RUN-15)"
        )
        context.expect(
            _caused_by(caught, error),
            f"compact raised {caught!r}, not the {where} error {error!r} (RUN-15)",
        )
        state = run.memory.state
        context.expect(
            _same(state, before),
            f"memory after the failed {where} is {describe(state)}, not as it was: "
            f"{describe(before)} (RUN-15)",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, last_before),
            f"last_compact_result became {describe(last)} after a failed compaction (RUN-15, "
            "SES-5)",
        )
        events = run.log.events[mark:]
        failed = [e for e in events if e.type == "COMPACT_FAILED"]
        context.expect(
            len(failed) == 1,
            f"{len(failed)} COMPACT_FAILED events for a failed manual compaction (RUN-15)",
        )
        context.expect(
            failed[0].message == COMPACT_FAILED_MESSAGE and failed[0].step is None,
            f"COMPACT_FAILED carries {failed[0].message!r} and step {failed[0].step}, not "
            "'compaction failed' and null (EVT-4, EVT-2)",
        )
        context.expect(
            _caused_by(failed[0].payload, error),
            f"the COMPACT_FAILED payload is {failed[0].payload!r}, not the error (EVT-5)",
        )
        done = sum(e.type == "MEMORY_COMPRESS" for e in events)
        done += sum(e.type == "ON_COMPACT" for e in run.log.lifecycle[hooks_mark:])
        context.expect(not done, "a failed manual compaction was announced as done (RUN-15)")

    return test


# -- errors and limits ---------------------------------------------------------------------------


@st.composite
def _model_failures(draw: st.DrawFn) -> tuple[_Script, int]:
    script = draw(_scripts(projector=False))
    return script, draw(st.integers(0, len(script.answers) - 1))


@_runtime_check("runtime.model-error", "RUN-8", "EVT-4", "EVT-5")
def model_error(context: CheckContext) -> Callable[[], None]:
    """A model error is published as ERROR, then propagates; memory keeps what came before."""

    @given(case=_model_failures())
    @example(case=(_FULL_SCRIPT, 2))
    @example(case=(_PLAIN_SCRIPT, 0))
    def test(case: tuple[_Script, int]) -> None:
        script, failing = case
        context.record(script=script, failing_step=failing)
        error = ConnectionError(f"scripted model failure at step {failing}")
        answers: list[ModelResult | Exception] = list(script.answers)
        answers[failing] = error
        run = _Session(context, script, answers=answers)
        try:
            run.session.run(script.user_input)
        except Exception as raised:  # noqa: BLE001 - checked below
            caught: Exception | None = raised
        else:
            caught = None
        context.expect(
            caught is not None and _caused_by(caught, error),
            f"run ended with {caught!r}, not the model's error {error!r} (RUN-8)",
        )
        errors = [e for e in run.log.of("ERROR") if e.message == MODEL_FAILED_MESSAGE]
        context.expect(
            len(errors) == 1 and errors[0].step == failing,
            f"{len(errors)} ERROR 'model request failed' events at steps "
            f"{[e.step for e in errors]}, expected one at step {failing} (RUN-8, EVT-4)",
        )
        context.expect(
            _caused_by(errors[0].payload, error),
            f"the ERROR payload is {errors[0].payload!r}, not the model's error (EVT-5)",
        )
        expected = _expect(script).states[failing]
        context.expect(
            _same(run.memory.state, expected),
            f"memory after the model error is {describe(run.memory.state)}, expected what was "
            f"appended before: {describe(expected)} (RUN-8)",
        )

    return test


@_runtime_check("runtime.max-steps", "RUN-9", "EVT-4", "EVT-5")
def max_steps(context: CheckContext) -> Callable[[], None]:
    """A bounded run that reaches its bound publishes ERROR 'max steps exceeded' and raises."""

    def test() -> None:
        if context.options.get("max_steps") is False:
            raise SkipCheck("the runtime declares no step bound (RUN-9 is a MAY)")
        for bound in (1, 3):
            context.record(max_steps=bound)
            answers = [_calling(step, "again") for step in range(bound + 2)]
            run = _Session(context, _Script(answers=tuple(answers)), max_steps=bound)
            try:
                run.session.run("never stop")
            except Exception as raised:  # noqa: BLE001 - checked below
                caught: Exception | None = raised
            else:
                caught = None
            context.expect(
                caught is not None and not isinstance(caught, CheckFailure),
                f"max_steps={bound}: run ended with {caught!r} instead of stopping at the "
                "bound with an error (RUN-9)",
            )
            context.expect(
                run.model.calls == bound,
                f"max_steps={bound}: the model was called {run.model.calls} times (RUN-9)",
            )
            errors = run.log.of("ERROR", MAX_STEPS_MESSAGE)
            context.expect(
                len(errors) == 1,
                f"max_steps={bound}: {len(errors)} ERROR 'max steps exceeded' events "
                "(RUN-9, EVT-4)",
            )
            assert caught is not None  # noqa: S101 - checked above
            payload = errors[0].payload
            context.expect(
                _caused_by(payload, caught)
                or (isinstance(payload, BaseException) and _caused_by(caught, payload)),
                f"the ERROR payload is {errors[0].payload!r}, not the raised error (EVT-5)",
            )

    return test


# -- observers -----------------------------------------------------------------------------------


def _expect_like_oracle(context: CheckContext, run: _Session, script: _Script, what: str) -> None:
    expected = _expect(script)
    assert run.policy is not None  # noqa: S101 - these scenarios have a policy
    for seen, want in zip(run.policy.compacted, expected.compacted, strict=False):
        context.expect(
            _same(seen, want),
            f"compact was given {describe(seen)}, not the memory's snapshot {describe(want)}: "
            f"{what} changed what is compacted",
        )
    for step, (sent, want_items) in enumerate(
        zip(run.model.prompts, expected.prompts, strict=False)
    ):
        context.expect(
            _same(sent.items, want_items),
            f"step {step}: the prompt is {describe(sent.items)}, not {describe(want_items)}: "
            f"{what} changed the prompt",
        )
    context.expect(
        _same(run.memory.state, expected.final),
        f"memory after the run is {describe(run.memory.state)}, not "
        f"{describe(expected.final)}: {what} changed the memory",
    )
    context.expect(
        _same(run.session.last_compact_result, expected.last_compact_result),
        f"last_compact_result is {describe(run.session.last_compact_result)}: {what} changed "
        "the compaction",
    )


@_runtime_check("runtime.observers-only-observe", "EVT-6", "EVT-7", "EVT-8", "DIF-18")
def observers_only_observe(context: CheckContext) -> Callable[[], None]:
    """Observers run in registration order, and nothing they do or return changes the run."""

    @given(script=_scripts(policy=True, projector=True))
    @example(script=_FULL_SCRIPT)
    @example(script=evolve(_FULL_SCRIPT, decisions=(True, True, True), keeps=(3, None, 3)))
    def test(script: _Script) -> None:
        context.record(script=script)
        calls: list[tuple[int, str]] = []

        def vandal(event: RuntimeEvent | RuntimeLifecycleEvent) -> object:
            calls.append((1, _label(event.type, event.message, event.step)))
            _vandalize(event.payload)
            return False

        def follower(event: RuntimeEvent | RuntimeLifecycleEvent) -> object:
            calls.append((2, _label(event.type, event.message, event.step)))
            return "veto"

        run = _Session(
            context, script, listeners=((vandal,), (follower,)), hooks=((vandal,), (follower,))
        )
        run.session.run(script.user_input)
        firsts = [label for index, label in calls if index == 1]
        in_order = [call for label in firsts for call in ((1, label), (2, label))]
        context.expect(
            calls == in_order,
            "observers were not each called in the order they were registered, one event "
            f"after the other: {calls[:8]} (EVT-6)",
        )
        problem = _divergence(_expect(script).trace, run.trace)
        context.expect(
            problem is None, f"observers that change payloads changed the run: {problem} (EVT-7)"
        )
        _expect_like_oracle(context, run, script, "an observer (EVT-7, EVT-8)")

    return test


class _FailingObserver:
    """A callable object that raises on every call: its name is its type's (EVT-11)."""

    def __init__(self) -> None:
        self.raised: list[tuple[str, Exception]] = []

    def __call__(self, event: RuntimeEvent | RuntimeLifecycleEvent) -> None:
        error = RuntimeError(f"{type(self).__name__} failed on {event.type}")
        self.raised.append((event.message or "", error))
        raise error


@_runtime_check("runtime.failing-hook", "EVT-9", "EVT-11", "EVT-4", "EVT-5")
def failing_hook(context: CheckContext) -> Callable[[], None]:
    """A failing hook is reported as ERROR 'lifecycle hook failed: <name>'; all else goes on."""

    def test() -> None:
        script = _FULL_SCRIPT
        context.record(script=script)
        raised: list[Exception] = []

        def broken_hook(event: RuntimeLifecycleEvent) -> None:
            error = RuntimeError(f"broken_hook failed on {event.type}")
            raised.append(error)
            raise error

        failing = _FailingObserver()
        seen_last: list[str] = []
        run = _Session(
            context,
            script,
            hooks=((broken_hook,), (failing, lambda event: seen_last.append(event.type))),
        )
        output = run.session.run(script.user_input)
        dispatched = len(run.log.lifecycle)
        context.expect(
            dispatched > 0 and len(raised) == dispatched == len(failing.raised) == len(seen_last),
            f"after a hook raised, dispatch did not go on with the next hooks: the hooks got "
            f"{len(raised)}, {dispatched}, {len(failing.raised)} and {len(seen_last)} "
            "lifecycle events (EVT-9)",
        )
        for hook, errors in (
            (broken_hook, raised),
            (failing, [error for _, error in failing.raised]),
        ):
            message = HOOK_FAILED_MESSAGE.format(name=observer_name(hook))
            reports = run.log.of("ERROR", message)
            context.expect(
                len(reports) == len(errors),
                f"{len(reports)} ERROR {message!r} events for {len(errors)} failures "
                f"(EVT-9, EVT-11); ERROR messages seen: "
                f"{sorted({str(e.message) for e in run.log.of('ERROR')})}",
            )
            context.expect(
                all(_caused_by(r.payload, e) for r, e in zip(reports, errors, strict=True)),
                f"the ERROR {message!r} payloads are not the hook's errors (EVT-5)",
            )
        context.expect(output == "done", f"run returned {output!r} after hooks failed (EVT-9)")
        _expect_like_oracle(context, run, script, "a failing hook (EVT-9)")

    return test


@_runtime_check("runtime.failing-listener", "EVT-10", "EVT-11", "EVT-4", "EVT-5", "DIF-20")
def failing_listener(context: CheckContext) -> Callable[[], None]:
    """A failing listener is reported to the others, once, without recursion; the run goes on."""

    def test() -> None:
        script = _FULL_SCRIPT
        context.record(script=script)
        received: list[RuntimeEvent] = []
        raised: list[Exception] = []

        def broken_listener(event: RuntimeEvent) -> None:
            received.append(event)
            error = RuntimeError(f"broken_listener failed on {event.type}")
            raised.append(error)
            raise error

        failing = _FailingObserver()
        run = _Session(context, script, listeners=((broken_listener,), (failing,)))
        output = run.session.run(script.user_input)
        context.expect(output == "done", f"run returned {output!r} after listeners failed (EVT-10)")
        names = {
            "broken_listener": LISTENER_FAILED_MESSAGE.format(name=observer_name(broken_listener)),
            "failing": LISTENER_FAILED_MESSAGE.format(name=observer_name(failing)),
        }
        reported = set(names.values())
        originals = [e for e in run.log.events if e.message not in reported]
        own = [e for e in received if e.message == names["broken_listener"]]
        context.expect(
            not own,
            "a failing listener was sent the report of its own failure (EVT-10: to the others)",
        )
        first = [
            error
            for event, error in zip(received, raised, strict=True)
            if event.message not in reported
        ]
        second = [error for message, error in failing.raised if message not in reported]
        for key, errors in (("broken_listener", first), ("failing", second)):
            reports = run.log.of("ERROR", names[key])
            context.expect(
                len(reports) == len(errors) == len(originals),
                f"{len(reports)} ERROR {names[key]!r} events reached the other listeners for "
                f"{len(errors)} failures on {len(originals)} events; each failure is reported "
                "once, and a failure on a report is not reported again (EVT-10, EVT-11)",
            )
            context.expect(
                all(_caused_by(r.payload, e) for r, e in zip(reports, errors, strict=True)),
                f"the ERROR {names[key]!r} payloads are not the listener's errors (EVT-5)",
            )
        filtered = [
            entry for entry in run.trace if not entry.startswith("ERROR 'event listener failed")
        ]
        problem = _divergence(_expect(script).trace, filtered)
        context.expect(problem is None, f"failing listeners changed the run: {problem} (EVT-10)")

    return test


@_runtime_check("runtime.event-records", "EVT-1", "EVT-2", "EVT-3", "EVT-5")
def event_records(context: CheckContext) -> Callable[[], None]:
    """Events carry their upper-case type, message, payload, session id and step number."""

    def test() -> None:
        context.record(script=_FULL_SCRIPT)
        full = _Session(context, _FULL_SCRIPT)
        full.session.run(_FULL_SCRIPT.user_input)
        mark = (len(full.log.events), len(full.log.lifecycle))
        full.session.compact(_manual_policy(full, 1))
        failing = evolve(_NULL_MEMORY_SCRIPT, failure=_Failure(where="should_compact", step=0))
        broken = _Session(
            context, failing, answers=[failing.answers[0], ConnectionError("model down")]
        )
        with contextlib.suppress(Exception):
            broken.session.run("go")
        for run in (full, broken):
            _expect_records(context, run)
        seen = {e.type for run in (full, broken) for e in run.log.events}
        for kind in _EVENT_TYPES:
            context.expect(kind in seen, f"no {kind} event was published (EVT-1)")
        hooked = {e.type for e in full.log.lifecycle}
        for kind in _LIFECYCLE_TYPES:
            context.expect(kind in hooked, f"no {kind} lifecycle event was dispatched (EVT-3)")
        finals = [(e.step, e.payload) for e in full.log.of("FINAL_OUTPUT")]
        context.expect(
            finals == [(2, "done")],
            f"FINAL_OUTPUT events (step, payload) are {finals}, not [(2, 'done')]: one at the "
            "last step, the output text as payload (EVT-5)",
        )
        manual: list[_Event] = [*full.log.events[mark[0] :], *full.log.lifecycle[mark[1] :]]
        context.expect(
            bool(manual) and all(e.step is None for e in manual),
            "the events of a manual compaction carry steps "
            f"{[e.step for e in manual]}, not null (EVT-2)",
        )

    return test


def _expect_records(context: CheckContext, run: _Session) -> None:
    session_id = run.session.session_id
    events: list[_Event] = [*run.log.events, *run.log.lifecycle]
    for event in events:
        context.expect(
            isinstance(event.type, str) and _UPPER_CASE_NAME.fullmatch(event.type) is not None,
            f"the event type {event.type!r} is not written as its upper-case name (EVT-1, EVT-3)",
        )
        context.expect(
            event.message is None or isinstance(event.message, str),
            f"the {event.type} event's message is {event.message!r} (EVT-2)",
        )
        context.expect(
            event.session_id == session_id,
            f"a {event.type} event carries session id {event.session_id!r}, not the "
            f"session's {session_id!r} (EVT-2, EVT-3)",
        )
    starts = [e.step for e in run.log.of("STEP_START")]
    context.expect(
        starts == list(range(len(starts))),
        f"STEP_START events carry steps {starts}, not 0, 1, 2, ... (EVT-2)",
    )


@_runtime_check("runtime.compaction-hook-helpers", "EVT-12", "DIF-19")
def compaction_hook_helpers(context: CheckContext) -> Callable[[], None]:
    """A helper named for the time before compaction registers a hook that runs before it."""

    def test() -> None:
        run = _Session(context, _Script(initial=MemorySnapshot(items=("a", "b")), answers=()))
        helpers = sorted(name for name in dir(run.session) if _COMPACTION_HELPER.fullmatch(name))
        context.record(helpers=helpers)
        for name in helpers:
            helper = getattr(run.session, name)
            if callable(helper):
                helper(lambda *_, label=name: run.trace.append(f"helper {label}"))
        if not helpers:
            return
        run.session.compact(_manual_policy(run, 1))
        position = run.trace.index("policy.compact")
        for name in helpers:
            label = f"helper {name}"
            context.expect(label in run.trace, f"a hook registered with {name} never ran (EVT-12)")
            before = run.trace.index(label) < position
            wanted = not name.lower().startswith("on")
            context.expect(
                before == wanted,
                f"a hook registered with {name} ran {'before' if before else 'after'} the "
                f"compaction (EVT-12: {'BEFORE_COMPACT' if wanted else 'ON_COMPACT'})",
            )

    return test


# -- sessions ------------------------------------------------------------------------------------


@_runtime_check("runtime.session-ids", "SES-2")
def session_ids(context: CheckContext) -> Callable[[], None]:
    """New sessions get fresh non-empty ids and fresh memories from the memory factory."""

    def test() -> None:
        trace: list[str] = []
        built: list[_Memory] = []

        def memory_factory(_: str) -> AgentMemory:
            built.append(_Memory(trace))
            return built[-1]

        answers = [_final(f"answer {index}") for index in range(3)]
        config = RuntimeConfig(model_client=_Model(trace, answers), memory_factory=memory_factory)
        sessions: list[RuntimeSession] = [context.subject(config) for _ in range(3)]
        ids = [session.session_id for session in sessions]
        context.record(session_ids=ids)
        context.expect(
            all(isinstance(i, str) and i for i in ids) and len(set(ids)) == len(ids),
            f"three sessions of one agent got the ids {ids}: each needs a fresh, non-empty "
            "id (SES-2)",
        )
        for index, session in enumerate(sessions):
            session.run(f"for session {index}")
        for index in range(len(sessions)):
            text = f"for session {index}"
            holding = [m for m in built if text in _text(m.state)]
            context.expect(
                len(holding) == 1,
                f"session {index}'s input went into {len(holding)} of the memories the memory "
                "factory built, not exactly one (SES-2)",
            )
            others = [t for t in range(len(sessions)) if t != index]
            context.expect(
                not any(f"for session {t}" in _text(holding[0].state) for t in others),
                f"session {index} shares its memory with another session (SES-2: a fresh "
                "memory each)",
            )

    return test


@_runtime_check("runtime.session-snapshot", "SES-1", "SES-3")
def session_snapshot(context: CheckContext) -> Callable[[], None]:
    """snapshot() holds the id, the memory's snapshot and the last result, as a copy."""

    @given(script=_scripts(projector=False))
    @example(script=evolve(_FULL_SCRIPT, projector=False))
    @example(script=_PLAIN_SCRIPT)
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        run.session.run(script.user_input)
        taken = run.session.snapshot()
        context.expect(
            isinstance(taken, AgentSessionSnapshot),
            f"snapshot() returned a {type(taken).__name__}, not an AgentSessionSnapshot (SES-1)",
        )
        found = violations(to_json(taken), "session-snapshot")
        context.expect(
            not found, f"the snapshot breaks session-snapshot.schema.json: {found} (SES-1)"
        )
        context.expect(
            taken.session_id == run.session.session_id,
            f"the snapshot's session id {taken.session_id!r} is not the session's "
            f"{run.session.session_id!r} (SES-3)",
        )
        context.expect(
            _same(taken.memory, run.memory.state),
            f"the snapshot's memory {describe(taken.memory)} is not the memory's snapshot "
            f"{describe(run.memory.state)} (SES-3)",
        )
        expected = _expect(script).last_compact_result
        context.expect(
            _same(taken.compact_result, expected),
            f"the snapshot's compactResult is {describe(taken.compact_result)}, not the last "
            f"compact result {describe(expected)} (SES-3)",
        )
        text = _text(taken)
        memory_before = run.memory.state
        _vandalize(taken)
        context.expect(
            _text(run.session.snapshot()) == text and _same(run.memory.state, memory_before),
            "changing a snapshot changed the session (SES-3: it shares nothing mutable)",
        )

    return test


@_runtime_check("runtime.session-restore", "SES-4", "SES-5", "EVT-2")
def session_restore(context: CheckContext) -> Callable[[], None]:
    """restore(snapshot) takes the memory, the last result and the id of the snapshot."""

    @given(snapshot=session_snapshots)
    @example(
        snapshot=AgentSessionSnapshot(
            session_id="restored",
            memory=MemorySnapshot(items=("recent", {"k": [1]}), summary="earlier"),
        )
    )
    @example(
        snapshot=AgentSessionSnapshot(
            session_id="r", compact_result=CompactResult(summary="s", pending=("p",))
        )
    )
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        script = evolve(_FULL_SCRIPT, projector=False)
        run = _Session(context, script, answers=(*script.answers, _final("after restore")))
        run.session.run(script.user_input)
        run.session.restore(snapshot)
        context.expect(
            run.session.session_id == snapshot.session_id,
            f"after restore the session id is {run.session.session_id!r}, not the snapshot's "
            f"{snapshot.session_id!r} (SES-4)",
        )
        context.expect(
            _same(run.memory.state, snapshot.memory),
            f"after restore the memory is {describe(run.memory.state)}, not the snapshot's "
            f"{describe(snapshot.memory)} (SES-4)",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, snapshot.compact_result),
            f"after restore last_compact_result is {describe(last)}, not the snapshot's "
            f"{describe(snapshot.compact_result)} (SES-4, SES-5)",
        )
        context.expect(
            _same(run.session.snapshot(), snapshot),
            f"after restore snapshot() is {describe(run.session.snapshot())}, not the snapshot "
            "restored (SES-4)",
        )
        mark = len(run.log.events)
        run.session.run("after restore")
        ids = {event.session_id for event in run.log.events[mark:]}
        context.expect(
            ids == {snapshot.session_id},
            f"after restore the run's events carry the session ids {sorted(ids)}, not "
            f"{snapshot.session_id!r} (SES-4, EVT-2)",
        )

    return test


_OPERATIONS = st.one_of(
    st.tuples(st.just("run"), st.booleans(), st.none() | st.integers(0, 3)),
    st.tuples(st.just("compact"), st.none() | st.integers(0, 3)),
    st.tuples(st.just("fail-compact")),
    st.tuples(st.just("snapshot")),
    st.tuples(st.just("restore"), st.integers(0, 3)),
    st.tuples(st.just("resume")),
)
_RESTORED = AgentSessionSnapshot(
    session_id="restored-session",
    memory=MemorySnapshot(items=("restored",), summary="from a snapshot"),
    compact_result=CompactResult(summary="from a snapshot"),
)


class _Answers:
    """A model that answers every call with a final answer of its own number."""

    def __init__(self) -> None:
        self.calls = 0

    def create(self, prompt: ModelPrompt) -> ModelResult:
        del prompt
        self.calls += 1
        return _final(f"answer {self.calls}", {"role": "assistant", "n": self.calls})


class _SessionMachine:
    """Drives sessions of the runtime through operations, next to a model of their state."""

    def __init__(self, context: CheckContext) -> None:
        self.context = context
        self.trace: list[str] = []
        self.memories: list[_Memory] = []
        self.model = _Answers()
        self.policy = _Policy(self.trace, lambda: 0, decisions=(False,), keeps=(None,))
        self.store: SessionStore = InMemorySessionStore()
        self.mirror = InMemoryAgentMemory()
        self.last: CompactResult | None = None
        self.taken: list[AgentSessionSnapshot] = []
        self.session = self._open(None)
        self.session_id = self.session.session_id

    def _memory(self, _: str) -> AgentMemory:
        self.memories.append(_Memory(self.trace))
        return self.memories[-1]

    def _open(self, resume: str | None) -> RuntimeSession:
        config = RuntimeConfig(
            model_client=self.model,
            memory_factory=self._memory,
            compact_policy=self.policy,
            session_store=self.store,
            resume_session_id=resume,
        )
        session: RuntimeSession = self.context.subject(config)
        return session

    def _compaction(self, keep: int | None) -> CompactResult:
        result = _compaction(self.mirror.snapshot(), keep, 0)
        if result.memory is not None:
            self.mirror.restore(result.memory)
        self.last = result
        return result

    def apply(self, operation: tuple[Any, ...]) -> None:
        kind = operation[0]
        if kind == "run":
            _, decide, keep = operation
            self.policy.decisions, self.policy.keeps = (decide,), (keep,)
            text = f"turn {self.model.calls}"
            self.mirror.add_user_input(text)
            if decide:
                self._compaction(keep)
            self.mirror.add_output_items([{"role": "assistant", "n": self.model.calls + 1}])
            self.session.run(text)
        elif kind == "compact":
            self.policy.keeps = (operation[1],)
            self._compaction(operation[1])
            self.session.compact(self.policy)
        elif kind == "fail-compact":
            failing = _Policy(
                self.trace,
                lambda: 0,
                decisions=(),
                keeps=(),
                failure=_Failure(where="compact", step=0),
            )
            with contextlib.suppress(Exception):
                self.session.compact(failing)
        elif kind == "snapshot":
            self.taken.append(self.session.snapshot())
        elif kind == "restore":
            chosen = self.taken[operation[1] % len(self.taken)] if self.taken else _RESTORED
            self.session.restore(chosen)
            self.mirror.restore(chosen.memory)
            self.last = chosen.compact_result
            self.session_id = chosen.session_id
        else:
            self.session.save()
            self.session = self._open(self.session.session_id)

    def expect_model(self, operation: tuple[Any, ...]) -> None:
        expected = AgentSessionSnapshot(
            session_id=self.session_id, memory=self.mirror.snapshot(), compact_result=self.last
        )
        actual = self.session.snapshot()
        self.context.expect(
            _same(actual, expected),
            f"after {operation}: the session's snapshot is {describe(actual)}, expected "
            f"{describe(expected)} (SES-3, SES-4, SES-5, SES-7, SES-8)",
        )
        memory = self.memories[-1].state
        self.context.expect(
            _same(memory, expected.memory),
            f"after {operation}: the session's memory is {describe(memory)}, expected "
            f"{describe(expected.memory)} (SES-3, SES-4, SES-7)",
        )


@_runtime_check("runtime.session-lifecycle", "SES-3", "SES-4", "SES-5", "SES-7", "SES-8")
def session_lifecycle(context: CheckContext) -> Callable[[], None]:
    """Runs, compactions, snapshots, restores and resumes in any order keep the session exact."""

    @given(operations=st.lists(_OPERATIONS, max_size=8))
    @example(
        operations=[
            ("run", True, 1),
            ("snapshot",),
            ("run", False, None),
            ("compact", None),
            ("fail-compact",),
            ("resume",),
            ("restore", 0),
            ("resume",),
            ("run", True, 0),
        ]
    )
    @example(operations=[("restore", 0), ("resume",), ("compact", 2)])
    def test(operations: list[tuple[Any, ...]]) -> None:
        context.record(operations=operations)
        machine = _SessionMachine(context)
        for operation in operations:
            context.step(str(operation[0]), operation=list(operation))
            machine.apply(operation)
            machine.expect_model(operation)

    return test


def _stores(directory: Path) -> list[tuple[str, SessionStore]]:
    return [
        ("InMemorySessionStore", InMemorySessionStore()),
        ("FileSessionStore", FileSessionStore(directory)),
        ("SqliteSessionStore", SqliteSessionStore(":memory:")),
    ]


@_runtime_check("runtime.session-save-resume", "SES-6", "SES-7", "SES-8")
def session_save_resume(context: CheckContext) -> Callable[[], None]:
    """A saved session resumes identical from every store; without a store both are errors."""

    def test() -> None:
        script = evolve(_FULL_SCRIPT, projector=False)
        context.record(script=script)
        with tempfile.TemporaryDirectory(prefix="ctxpact-runtime-") as directory:
            for name, kept in _stores(Path(directory)):
                _expect_resumed(context, script, name, kept)
                close = getattr(kept, "close", None)
                if callable(close):
                    close()
        run = _Session(context, script)
        run.session.run(script.user_input)
        before = _text(run.session.snapshot())
        try:
            run.session.save()
        except Exception as error:  # noqa: BLE001 - checked below
            caught: Exception | None = error
        else:
            caught = None
        context.expect(
            isinstance(caught, CtxpactError) and isinstance(caught, RuntimeError),
            f"save() without a session store raised {caught!r}, not a CtxpactError that is a "
            "RuntimeError (SES-6)",
        )
        context.expect(
            _text(run.session.snapshot()) == before,
            "a failed save() changed the session (SES-6)",
        )
        cases: tuple[tuple[SessionStore | None, tuple[type[Exception], ...], str], ...] = (
            (None, (CtxpactError, RuntimeError), "without a session store"),
            (InMemorySessionStore(), (CtxpactError, LookupError), "of an unknown id"),
        )
        for store, kinds, what in cases:
            config = evolve(run.config, session_store=store, resume_session_id="nobody-here")
            try:
                context.factory(config)
            except Exception as error:  # noqa: BLE001 - checked below
                caught = error
            else:
                caught = None
            context.expect(
                all(isinstance(caught, kind) for kind in kinds),
                f"resuming a session {what} raised {caught!r}, not a "
                f"{' that is a '.join(kind.__name__ for kind in kinds)} (SES-6, SES-7)",
            )
            if store is not None:
                context.expect(
                    "nobody-here" in str(caught),
                    f"the error for an unknown session does not name its id: {caught} (SES-7)",
                )

    return test


def _expect_resumed(context: CheckContext, script: _Script, name: str, store: SessionStore) -> None:
    run = _Session(context, script)
    config = evolve(run.config, session_store=store)
    session: RuntimeSession = context.subject(config)
    session.run(script.user_input)
    session.compact(_manual_policy(run, 1))
    taken = session.snapshot()
    session.save()
    fresh: list[_Memory] = []

    def memory_factory(_: str) -> AgentMemory:
        fresh.append(_Memory([]))
        return fresh[-1]

    resumed: RuntimeSession = context.subject(
        evolve(
            config,
            memory_factory=memory_factory,
            resume_session_id=taken.session_id,
        )
    )
    context.expect(
        _text(resumed.snapshot()) == _text(taken),
        f"{name}: the resumed session's snapshot {describe(resumed.snapshot())} is not the "
        f"one saved {describe(taken)} (SES-7, SES-8)",
    )
    context.expect(
        bool(fresh) and _same(fresh[-1].state, taken.memory),
        f"{name}: the resumed session does not hold its state in a fresh memory from the "
        "memory factory (SES-7)",
    )
    context.expect(
        _same(resumed.last_compact_result, taken.compact_result),
        f"{name}: the resumed session's last_compact_result is "
        f"{describe(resumed.last_compact_result)}, not the saved one (SES-7, SES-8)",
    )


# -- wrong answers from a policy (RUN-12) ------------------------------------------------

#: What a policy's ``should_compact`` may wrongly answer: truthy and falsy non-bools.
_WRONG_DECISIONS: tuple[object, ...] = (1, 0, "yes", "false", None, [])
#: A compact result's look-alike: every attribute of a ``CompactResult``, not one.
_LOOK_ALIKE = types.SimpleNamespace(
    **{
        name.name: getattr(
            CompactResult(memory=MemorySnapshot(items=("look-alike",)), summary="s"), name.name
        )
        for name in attrs.fields(CompactResult)
    }
)
#: What a policy's ``compact`` may wrongly return: nothing, a document, a look-alike.
_WRONG_RESULTS: tuple[object, ...] = (
    None,
    to_json(CompactResult(memory=MemorySnapshot(items=("document",)), summary="s")),
    _LOOK_ALIKE,
    MemorySnapshot(items=("snapshot",)),
)


@st.composite
def _wrong_answer_scripts(draw: st.DrawFn) -> _Script:
    """A run whose policy answers one step with something other than a bool or a result."""
    script = draw(_scripts(policy=True, projector=False))
    where = draw(st.sampled_from(["should_compact", "compact"]))
    step = draw(st.integers(0, len(script.answers) - 1))
    answers = _WRONG_DECISIONS if where == "should_compact" else _WRONG_RESULTS
    decisions = list(script.decisions or ())
    if where == "compact":
        decisions[step] = True
    return evolve(
        script,
        decisions=tuple(decisions),
        failure=_Failure(where=where, step=step, answer=draw(st.sampled_from(answers))),
    )


def _wrong_answer_examples() -> list[_Script]:
    """Each wrong answer once, at the step where the full script compacts."""
    base = evolve(_FULL_SCRIPT, projector=False)
    return [
        *(
            evolve(base, failure=_Failure(where="should_compact", step=1, answer=answer))
            for answer in _WRONG_DECISIONS
        ),
        *(
            evolve(base, failure=_Failure(where="compact", step=1, answer=answer))
            for answer in _WRONG_RESULTS
        ),
    ]


@_runtime_check("runtime.compaction-wrong-answers", "RUN-12")
def compaction_wrong_answers(context: CheckContext) -> Callable[[], None]:
    """A non-bool should_compact or a non-CompactResult compact is a failed attempt (RUN-12).

    Truthy answers (``1``, ``"yes"``) compact nothing and falsy ones (``0``, ``None``) are no
    quiet "no": each is published as ``COMPACT_FAILED``, memory stays, and the run goes on.
    """

    @given(script=_wrong_answer_scripts())
    def test(script: _Script) -> None:
        context.record(script=script)
        assert script.failure is not None  # noqa: S101 - the strategy always sets one
        step, where = script.failure.step, script.failure.where
        answer = describe(script.failure.answer, 80)
        run = _Session(context, script)
        output = _run_on(run, script.user_input, f"{where} answering {answer} at step {step}")
        expected = _expect(script)
        failed = [event for event in run.log.of("COMPACT_FAILED") if event.step == step]
        context.expect(
            len(failed) == 1 and isinstance(failed[0].payload, Exception),
            f"{where} answered {answer} at step {step} and {len(failed)} COMPACT_FAILED events "
            "carrying an error followed (RUN-12: an answer that is not a bool, or a result "
            "that is not a CompactResult, is a failed attempt)",
            clause="RUN-12",
        )
        done: list[_Event] = [*run.log.of("MEMORY_COMPRESS", COMPACTED_MESSAGE)]
        done += run.log.hooked("ON_COMPACT")
        context.expect(
            not [event for event in done if event.step == step],
            f"{where} answered {answer} at step {step} and a compaction was announced as "
            "done (RUN-12)",
            clause="RUN-12",
        )
        states = run.model.states
        context.expect(
            step < len(states) and _same(states[step], expected.states[step]),
            f"step {step}: memory after {where} answered {answer} is "
            f"{describe(states[step]) if step < len(states) else 'unknown'}, expected it as "
            f"it was: {describe(expected.states[step])} (RUN-12)",
            clause="RUN-12",
        )
        context.expect(
            output == expected.output and _same(run.memory.state, expected.final),
            f"the run did not go on as if the attempt had not been made after {where} answered "
            f"{answer} (RUN-12): returned {output!r}, memory {describe(run.memory.state)}",
            clause="RUN-12",
        )
        last = run.session.last_compact_result
        context.expect(
            _same(last, expected.last_compact_result),
            f"last_compact_result is {describe(last)} after {where} answered {answer}, "
            f"expected {describe(expected.last_compact_result)} (RUN-12)",
            clause="RUN-12",
        )

    return with_examples(test, "script", _wrong_answer_examples())


#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    loop_order,
    prompt,
    memory_writes,
    tools,
    tool_call_ids,
    auto_compaction,
    auto_compaction_fail_safe,
    compaction_wrong_answers,
    manual_compaction,
    manual_compaction_needs_policy,
    manual_compaction_failure,
    model_error,
    max_steps,
    observers_only_observe,
    failing_hook,
    failing_listener,
    event_records,
    compaction_hook_helpers,
    session_ids,
    session_snapshot,
    session_restore,
    session_lifecycle,
    session_save_resume,
)
