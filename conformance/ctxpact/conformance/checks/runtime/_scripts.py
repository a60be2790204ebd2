"""Scripts of runs, what SPEC.md §16 makes of them, and the sessions that play them.

A :class:`_Script` is one run to drive; :func:`_expect` is a small model of the loop
(RUN-2 .. RUN-13, with the reference memory as the model of a memory) that says what the
runtime should do with it, and :func:`named_calls` and :func:`declared_items` restate how
RUN-7 names and declares tool calls. A :class:`_Session` is a session of the runtime under
test built from a script with fresh scripted parts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attrs import evolve, field, frozen

from ctxpact.conformance._context import CheckContext, CheckFailure
from ctxpact.conformance._pairing import tool_calls
from ctxpact.conformance._runtime import (
    EventListener,
    LifecycleHook,
    RuntimeConfig,
    RuntimeSession,
    Tool,
)
from ctxpact.conformance.checks.runtime._parts import (
    _compaction,
    _echo_output,
    _Failure,
    _Log,
    _Memory,
    _Model,
    _Policy,
    _projection,
    _Projector,
)
from ctxpact.conformance.checks.runtime._support import _MODEL_NAME, _SYSTEM_PROMPT, _label
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.reference.session import (
    AUTO_COMPACT_MESSAGE,
    COMPACTED_MESSAGE,
    CONTEXT_PROJECTION_MESSAGE,
)
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    ContextReport,
    JsonValue,
    MemorySnapshot,
    ModelResult,
    ToolCall,
    copy_json,
)


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


def _run_on(run: _Session, user_input: JsonValue, cause: str) -> str | None:
    """Run, failing the check when *cause*, which must never end a run, did."""
    try:
        return run.session.run(user_input)
    except CheckFailure:
        raise
    except Exception as error:
        message = f"{cause} ended the run with {type(error).__name__}: {error} (RUN-7, RUN-12)"
        raise CheckFailure(message) from error


def _manual_policy(run: _Session, keep: int | None, failure: _Failure | None = None) -> _Policy:
    return _Policy(
        run.trace, lambda: 0, decisions=(False,), keeps=(keep,), memory=run.memory, failure=failure
    )
