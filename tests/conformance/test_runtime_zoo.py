"""The runtime checks against a zoo of deliberately wrong runtimes, and against the reference.

Each member wraps the reference adapter and breaks one rule: auto-compaction after the model
call, a swallowed manual-compaction error, no last result for auto-compactions, events out of
order, a hook error that escapes, a half-restored memory, ai4j's behaviours that §18 names.
Each declares the clauses it breaks and the check that must catch it, with a piece of the
failure message that shows the check failed for the right reason.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any
from unittest import mock

import pytest
from attrs import evolve, frozen

from ctxpact.conformance import (
    Check,
    Claim,
    Component,
    Outcome,
    RuntimeConfig,
    RuntimeEvent,
    RuntimeLifecycleEvent,
    RuntimeSession,
    checks_for,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance._runtime import (
    EventListener,
    LifecycleHook,
    RuntimeFactory,
    observer_name,
    reference_agent,
    reference_runtime,
)
from ctxpact.reference.projection import DefaultContextProjector
from ctxpact.reference.session import (
    AUTO_COMPACT_MESSAGE,
    COMPACT_FAILED_MESSAGE,
    CONTEXT_PROJECTION_MESSAGE,
    MAX_STEPS_MESSAGE,
    AgentEvent,
    AgentEventType,
    AgentSession,
    LifecycleEvent,
    LifecycleEventType,
    MemoryRollbackError,
    NoSessionStoreError,
    SessionNotFoundError,
    in_memory_factory,
)
from ctxpact.reference.session import _tool_calls as tool_call_rules
from ctxpact.reference.session._copies import detached
from ctxpact.reference.session._events import Observers
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactPolicy,
    CompactResult,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    ToolCall,
    from_json,
)

QUICK = profile_settings("quick")


class NoModel:
    def create(self, prompt: ModelPrompt) -> ModelResult:
        raise AssertionError(f"not asked: {prompt}")


RUNTIME_CHECKS = checks_for(Component.RUNTIME)
BY_ID = {check.id: check for check in RUNTIME_CHECKS}
Factory = Callable[[RuntimeConfig], Any]

#: Clauses the runtime checks cite that no wrong runtime can break, with the reason. None so
#: far: every clause a runtime check cites has a member of the zoo below that breaks it.
EXEMPT: dict[str, str] = {}


# -- building wrong runtimes --------------------------------------------------------------


def with_session_class(cls: type[AgentSession]) -> Factory:
    """The reference adapter, building sessions of *cls* (a subclass breaking one rule)."""

    def build(config: RuntimeConfig) -> AgentSession:
        agent = reference_agent(config)
        wanted = config.resume_session_id
        if wanted is None:
            session_id = str(uuid.uuid4())
            return cls(agent=agent, session_id=session_id, memory=agent.memory_factory(session_id))
        if agent.session_store is None:
            raise NoSessionStoreError("resume a session by id")
        snapshot = agent.session_store.load(wanted)
        if snapshot is None:
            raise SessionNotFoundError(wanted)
        session = cls(agent=agent, session_id=wanted, memory=agent.memory_factory(wanted))
        session.restore(snapshot)
        return session

    return build


def with_config(change: Callable[[RuntimeConfig], RuntimeConfig]) -> Factory:
    """The reference adapter, given a changed config."""
    return lambda config: reference_runtime(change(config))


class Delegating:
    """A reference session behind a wrapper whose subclasses change one method."""

    def __init__(self, inner: AgentSession) -> None:
        self.inner = inner

    @property
    def session_id(self) -> str:
        return self.inner.session_id

    @property
    def last_compact_result(self) -> CompactResult | None:
        return self.inner.last_compact_result

    def run(self, user_input: JsonValue = None) -> str | None:
        return self.inner.run(user_input)

    def compact(self, policy: CompactPolicy) -> CompactResult:
        return self.inner.compact(policy)

    def snapshot(self) -> AgentSessionSnapshot:
        return self.inner.snapshot()

    def restore(self, snapshot: AgentSessionSnapshot) -> None:
        self.inner.restore(snapshot)

    def save(self) -> None:
        self.inner.save()


def wrapped(cls: Callable[[AgentSession], Delegating]) -> Factory:
    return lambda config: cls(reference_runtime(config))


def named(function: Callable[[Any], object], like: object) -> Callable[[Any], object]:
    function.__qualname__ = observer_name(like)
    return function


def listeners_seeing(
    change: Callable[[RuntimeEvent], RuntimeEvent | None],
) -> Callable[[RuntimeConfig], RuntimeConfig]:
    """Listeners receive ``change(event)``, or nothing when it is ``None``."""

    def wrap(listener: EventListener) -> EventListener:
        def deliver(event: RuntimeEvent) -> object:
            changed = change(event)
            return None if changed is None else listener(changed)

        return named(deliver, listener)

    return lambda config: evolve(
        config, event_listeners=tuple(wrap(listener) for listener in config.event_listeners)
    )


def hooks_seeing(
    change: Callable[[RuntimeLifecycleEvent], RuntimeLifecycleEvent | None],
) -> Callable[[RuntimeConfig], RuntimeConfig]:
    """Hooks receive ``change(event)``, or nothing when it is ``None``."""

    def wrap(hook: LifecycleHook) -> LifecycleHook:
        def deliver(event: RuntimeLifecycleEvent) -> object:
            changed = change(event)
            return None if changed is None else hook(changed)

        return named(deliver, hook)

    return lambda config: evolve(
        config, lifecycle_hooks=tuple(wrap(hook) for hook in config.lifecycle_hooks)
    )


def without(kind: str, message: str | None = None) -> Callable[[RuntimeEvent], RuntimeEvent | None]:
    def change(event: RuntimeEvent) -> RuntimeEvent | None:
        dropped = event.type == kind and (message is None or event.message == message)
        return None if dropped else event

    return change


class FinalOutputLate:
    """Delivers each FINAL_OUTPUT after the STEP_END that follows it."""

    def __init__(self, listener: EventListener) -> None:
        self.listener = listener
        self.held: list[RuntimeEvent] = []
        self.__qualname__ = observer_name(listener)

    def __call__(self, event: RuntimeEvent) -> object:
        if event.type == "FINAL_OUTPUT":
            self.held.append(event)
            return None
        result = self.listener(event)
        if event.type == "STEP_END":
            for held in self.held:
                self.listener(held)
            self.held.clear()
        return result


# -- sessions that break one rule of the loop ------------------------------------------------


class InputAfterFirstAttempt(AgentSession):
    """Adds the user input after step 0's compaction attempt (RUN-2: first)."""

    pending: JsonValue = None

    def run(self, user_input: JsonValue = None) -> str | None:
        self.pending = user_input
        return super().run(None)

    def _auto_compact(self, step: int) -> None:
        super()._auto_compact(step)
        if step == 0 and self.pending is not None:
            self.memory.add_user_input(self.pending)
            self.pending = None


class CompactsAfterModelCall(AgentSession):
    """Runs the auto-compaction attempt after the model call instead of before it."""

    def _auto_compact(self, step: int) -> None:
        pass

    def _ask_model(self, prompt: ModelPrompt, step: int) -> ModelResult:
        result = super()._ask_model(prompt, step)
        AgentSession._auto_compact(self, step)
        return result


class ProjectsRawItems(AgentSession):
    """Projects the raw items (the summary message left out) instead of get_items()."""

    def _prompt(self, step: int) -> ModelPrompt:
        agent = self.agent
        items = list(self.memory.snapshot().items)
        if agent.projector is not None:
            projection = agent.projector.project(items, agent.budget)
            self._observers.publish(
                AgentEventType.MEMORY_COMPRESS, CONTEXT_PROJECTION_MESSAGE, step, projection.report
            )
            items = list(projection.items)
        return ModelPrompt(model=agent.model_name, system_prompt=agent.system_prompt, items=items)


class WritesProjection(AgentSession):
    """Writes the projected items back into memory."""

    def _prompt(self, step: int) -> ModelPrompt:
        prompt = super()._prompt(step)
        summary = self.memory.get_summary()
        self.memory.restore(MemorySnapshot(items=prompt.items[1:] if summary else prompt.items))
        self.memory.set_summary(summary)
        return prompt


class FailingToolEndsRun(AgentSession):
    """Lets a tool's error escape."""

    def _tool_output(self, call: ToolCall) -> str:
        tool = self.agent.tools.get(call.name)
        return "unknown" if tool is None else tool(call.arguments)


class SkipsUnknownTools(AgentSession):
    """Appends no output for a tool it does not have."""

    def _call_tool(self, step: int, call: ToolCall) -> None:
        if call.name in self.agent.tools:
            super()._call_tool(step, call)


class _OutputItems:
    """A session's memory whose ``add_output_items`` writes what ``rewrite`` makes of them."""

    def __init__(self, inner: Any, rewrite: Callable[[list[JsonValue]], list[JsonValue]]) -> None:
        self._inner = inner
        self._rewrite = rewrite

    def add_output_items(self, items: Iterable[JsonValue]) -> None:
        self._inner.add_output_items(self._rewrite(list(items)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class RewritesStepItems(AgentSession):
    """Writes a step's items (the result's, with its calls declared) as ``rewrite`` says."""

    def __init__(self, **arguments: Any) -> None:
        super().__init__(**arguments)
        self._raw: ModelResult | None = None
        self._memory = _OutputItems(self._memory, self.rewrite)

    def _ask_model(self, prompt: ModelPrompt, step: int) -> ModelResult:
        self._raw = super()._ask_model(prompt, step)
        return self._raw

    def rewrite(self, items: list[JsonValue]) -> list[JsonValue]:
        return items


class NamesOnlyTheOutput(RewritesStepItems):
    """ai4j (DIF-26): a blank call id is generated for the output only; the call stays blank."""

    def rewrite(self, items: list[JsonValue]) -> list[JsonValue]:
        assert self._raw is not None
        return [*self._raw.memory_items, *items[len(self._raw.memory_items) :]]


class DeclaresNoMissingCall(RewritesStepItems):
    """Writes the result's items with the generated ids, but declares no call they leave out."""

    def rewrite(self, items: list[JsonValue]) -> list[JsonValue]:
        assert self._raw is not None
        return items[: len(self._raw.memory_items)]


class DeclaresMissingCallsFirst(RewritesStepItems):
    """Declares the calls the result's items leave out before those items, not after."""

    def rewrite(self, items: list[JsonValue]) -> list[JsonValue]:
        assert self._raw is not None
        count = len(self._raw.memory_items)
        return [*items[count:], *items[:count]]


class ModelErrorUnpublished(AgentSession):
    """Lets a model error propagate without the ERROR event."""

    def _ask_model(self, prompt: ModelPrompt, step: int) -> ModelResult:
        del step
        return self.agent.model_client.create(prompt)


class DecisionErrorEndsRun(AgentSession):
    """ai4j: an error of should_compact ends the run."""

    def _auto_compact(self, step: int) -> None:
        policy = self.agent.compact_policy
        if policy is not None:
            policy.should_compact(self.memory.snapshot())
        super()._auto_compact(step)


class NoRollback(AgentSession):
    """Leaves the memory half-restored when a compaction's restore fails."""

    def _roll_back(self, before: MemorySnapshot, error: Exception) -> None:
        pass


class NoRestoreOnAutoCompaction(AgentSession):
    """Does not restore the memory from an auto-compaction's result."""

    def _compact(
        self, policy: CompactPolicy, before: MemorySnapshot, step: int | None, message: str
    ) -> CompactResult:
        if step is None:
            return super()._compact(policy, before, step, message)
        self._observers.dispatch(LifecycleEventType.BEFORE_COMPACT, message, step, before)
        return policy.compact(before)


class NullMemoryIsNoCompaction(AgentSession):
    """Treats a result without memory as no compaction at all (RUN-13)."""

    def _finish_compaction(self, result: CompactResult, step: int | None, message: str) -> None:
        if result.memory is not None:
            super()._finish_compaction(result, step, message)


class NullMemoryEmptiesMemory(AgentSession):
    """Reads a result without memory as "the memory is now empty" (CMP-4)."""

    def _compact(
        self, policy: CompactPolicy, before: MemorySnapshot, step: int | None, message: str
    ) -> CompactResult:
        result = super()._compact(policy, before, step, message)
        if result.memory is None:
            self._memory.restore(MemorySnapshot())
        return result


class AutoCompactionNotRecorded(AgentSession):
    """ai4j: an auto-compaction does not become the last compact result."""

    def _finish_compaction(self, result: CompactResult, step: int | None, message: str) -> None:
        before = self._last_compact_result
        super()._finish_compaction(result, step, message)
        if step is not None:
            self._last_compact_result = before


class ManualEventsWithStep(AgentSession):
    """Gives the events of a manual compaction step 0 instead of null."""

    def _finish_compaction(self, result: CompactResult, step: int | None, message: str) -> None:
        super()._finish_compaction(result, 0 if step is None else step, message)


class FailedCompactionClearsLastResult(AgentSession):
    """Forgets the last compact result when a manual compaction fails."""

    def compact(self, policy: CompactPolicy) -> CompactResult:
        try:
            return super().compact(policy)
        except Exception:
            self._last_compact_result = None
            raise


class RestoreKeepsLastResult(AgentSession):
    """Keeps its last compact result when the snapshot restored has none."""

    def restore(self, snapshot: AgentSessionSnapshot) -> None:
        before = self._last_compact_result
        super().restore(snapshot)
        if snapshot.compact_result is None:
            self._last_compact_result = before


class SharesTheSnapshotWithHooks(AgentSession):
    """ai4j: BEFORE_COMPACT carries the very snapshot that is then compacted."""

    def _compact(
        self, policy: CompactPolicy, before: MemorySnapshot, step: int | None, message: str
    ) -> CompactResult:
        event = LifecycleEvent(
            type=LifecycleEventType.BEFORE_COMPACT,
            message=message,
            step=step,
            payload=before,
            session_id=self.session_id,
        )
        for hook in self.agent.lifecycle_hooks:
            hook(event)
        result = policy.compact(before)
        if result.memory is not None:
            self.memory.restore(result.memory)
        return result


class SharesThePromptWithHooks(AgentSession):
    """Shows hooks the live prompt before the model call, so a hook can change it."""

    def _ask_model(self, prompt: ModelPrompt, step: int) -> ModelResult:
        event = LifecycleEvent(
            type=LifecycleEventType.BEFORE_MODEL_REQUEST,
            message="",
            step=step,
            payload=prompt,
            session_id=self.session_id,
        )
        for hook in self.agent.lifecycle_hooks:
            hook(event)
        return super()._ask_model(prompt, step)


def with_observers(cls: type[Observers]) -> type[AgentSession]:
    class Observed(AgentSession):
        def __init__(self, **arguments: Any) -> None:
            super().__init__(**arguments)
            self._observers = cls(
                session_id=self.session_id,
                listeners=self.agent.event_listeners,
                hooks=self.agent.lifecycle_hooks,
            )

    return Observed


class HookErrorsEscape(Observers):
    def dispatch(
        self, kind: LifecycleEventType, message: str, step: int | None, payload: object = None
    ) -> None:
        event = LifecycleEvent(
            type=kind, message=message, step=step, payload=detached(payload), session_id="s"
        )
        for hook in self.hooks:
            hook(event)


class HookErrorStopsDispatch(Observers):
    def dispatch(
        self, kind: LifecycleEventType, message: str, step: int | None, payload: object = None
    ) -> None:
        event = LifecycleEvent(
            type=kind,
            message=message,
            step=step,
            payload=detached(payload),
            session_id=self.session_id,
        )
        for hook in self.hooks:
            try:
                hook(event)
            except Exception as error:  # noqa: BLE001 - reported, then dispatch stops
                self.publish(
                    AgentEventType.ERROR,
                    f"lifecycle hook failed: {observer_name(hook)}",
                    step,
                    error,
                )
                return


class HooksNamedByType(Observers):
    def dispatch(
        self, kind: LifecycleEventType, message: str, step: int | None, payload: object = None
    ) -> None:
        event = LifecycleEvent(
            type=kind,
            message=message,
            step=step,
            payload=detached(payload),
            session_id=self.session_id,
        )
        for hook in self.hooks:
            try:
                hook(event)
            except Exception as error:  # noqa: BLE001 - reported under the wrong name
                self.publish(
                    AgentEventType.ERROR,
                    f"lifecycle hook failed: {type(hook).__name__}",
                    step,
                    error,
                )


class ListenerErrorsEscape(Observers):
    def _deliver(self, event: AgentEvent, *, failed: int | None) -> None:
        del failed
        for listener in self.listeners:
            listener(event)


class ListenerErrorsUnreported(Observers):
    def _deliver(self, event: AgentEvent, *, failed: int | None) -> None:
        del failed
        for listener in self.listeners:
            try:
                listener(event)
            except Exception:  # noqa: BLE001, S112 - ai4j defines no handling
                continue


class ListenerGetsItsOwnReport(Observers):
    def _deliver(self, event: AgentEvent, *, failed: int | None) -> None:
        for listener in self.listeners:
            try:
                listener(event)
            except Exception as error:  # noqa: BLE001 - reported to every listener
                if failed is None:
                    report = evolve(
                        event,
                        type=AgentEventType.ERROR,
                        message=f"event listener failed: {observer_name(listener)}",
                        payload=error,
                    )
                    self._deliver(report, failed=-1)


# -- sessions that break one rule of compaction or of sessions ----------------------------


class ConsultsPolicyOnManualCompaction(Delegating):
    def compact(self, policy: CompactPolicy) -> CompactResult:
        if not policy.should_compact(self.snapshot().memory):
            return CompactResult()
        return self.inner.compact(policy)


class ManualCompactionWithoutPolicyIsNoop(Delegating):
    def compact(self, policy: CompactPolicy | None) -> CompactResult:
        if policy is None:
            return CompactResult()
        return self.inner.compact(policy)


class SwallowsManualCompactionErrors(Delegating):
    def compact(self, policy: CompactPolicy) -> CompactResult:
        try:
            return self.inner.compact(policy)
        except Exception:  # noqa: BLE001 - the bug on show
            return CompactResult()


class SnapshotIsMemorySnapshot(Delegating):
    def snapshot(self) -> AgentSessionSnapshot:
        return self.inner.snapshot().memory  # type: ignore[return-value]  # the bug on show


class SnapshotWithoutCompactResult(Delegating):
    def snapshot(self) -> AgentSessionSnapshot:
        return evolve(self.inner.snapshot(), compact_result=None)


class RestoreKeepsTheId(Delegating):
    def restore(self, snapshot: AgentSessionSnapshot) -> None:
        self.inner.restore(evolve(snapshot, session_id=self.inner.session_id))


class RestoreLosesTheSummary(Delegating):
    def restore(self, snapshot: AgentSessionSnapshot) -> None:
        memory = evolve(snapshot.memory, summary=None)
        self.inner.restore(evolve(snapshot, memory=memory))


class SaveWithoutStoreIsNoop(Delegating):
    def save(self) -> None:
        if self.inner.agent.session_store is not None:
            self.inner.save()


class PreCompactRunsAfter(Delegating):
    """ai4j: pre_compact registers for ON_COMPACT."""

    def __init__(self, inner: AgentSession) -> None:
        super().__init__(inner)
        self.after: list[Callable[[object], object]] = []

    def pre_compact(self, hook: Callable[[object], object]) -> None:
        self.after.append(hook)

    def compact(self, policy: CompactPolicy) -> CompactResult:
        result = self.inner.compact(policy)
        for hook in self.after:
            hook(result)
        return result


def fixed_session_id(config: RuntimeConfig) -> AgentSession:
    agent = reference_agent(config)
    if config.resume_session_id is not None:
        return agent.resume_session(config.resume_session_id)
    return agent.new_session("session")


def shared_memory() -> Factory:
    memories: dict[int, Any] = {}

    def change(config: RuntimeConfig) -> RuntimeConfig:
        def memory_factory(session_id: str) -> Any:
            return memories.setdefault(id(config), config.memory_factory(session_id))

        return evolve(config, memory_factory=memory_factory)

    return with_config(change)


def resume_unknown_starts_fresh(config: RuntimeConfig) -> AgentSession:
    agent = reference_agent(config)
    wanted = config.resume_session_id
    if wanted is None:
        return agent.new_session()
    if agent.session_store is not None and agent.session_store.load(wanted) is None:
        return agent.new_session(wanted)
    return agent.resume_session(wanted)


def resume_drops(what: str) -> Factory:
    def build(config: RuntimeConfig) -> AgentSession:
        session = reference_runtime(config)
        if config.resume_session_id is not None:
            taken = session.snapshot()
            if what == "compact result":
                session.restore(evolve(taken, compact_result=None))
            else:
                session.restore(evolve(taken, memory=evolve(taken.memory, summary=None)))
        return session

    return build


def budget_without_projector(config: RuntimeConfig) -> RuntimeConfig:
    if config.projector is None and config.budget is not None:
        return evolve(config, projector=DefaultContextProjector())
    return config


class AlwaysCompact:
    """Asks the real policy, then compacts whatever it said."""

    def __init__(self, policy: CompactPolicy) -> None:
        self.policy = policy

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        self.policy.should_compact(snapshot)
        return True

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        return self.policy.compact(snapshot)


def always_compact(config: RuntimeConfig) -> RuntimeConfig:
    policy = config.compact_policy
    return config if policy is None else evolve(config, compact_policy=AlwaysCompact(policy))


def renamed(kind: str, old: str, new: str) -> Callable[[RuntimeEvent], RuntimeEvent | None]:
    def change(event: RuntimeEvent) -> RuntimeEvent:
        if event.type == kind and event.message == old:
            return evolve(event, message=new)
        return event

    return change


def compacted_payload_is_memory(event: RuntimeEvent) -> RuntimeEvent:
    if event.type == "MEMORY_COMPRESS" and isinstance(event.payload, CompactResult):
        return evolve(event, payload=event.payload.memory)
    return event


def final_output_is_the_result(event: RuntimeEvent) -> RuntimeEvent:
    if event.type == "FINAL_OUTPUT":
        return evolve(event, payload=ModelResult(output_text=str(event.payload)))
    return event


def manual_only_on_compact(event: RuntimeEvent) -> RuntimeEvent | None:
    return None if event.type == "MEMORY_COMPRESS" and event.step is None else event


def hooks_manual_only_on_compact(event: RuntimeLifecycleEvent) -> RuntimeLifecycleEvent | None:
    return None if event.type == "BEFORE_COMPACT" and event.step is None else event


def final_output_late(config: RuntimeConfig) -> RuntimeConfig:
    return evolve(
        config,
        event_listeners=tuple(FinalOutputLate(listener) for listener in config.event_listeners),
    )


def hooks_reversed(config: RuntimeConfig) -> RuntimeConfig:
    return evolve(config, lifecycle_hooks=tuple(reversed(config.lifecycle_hooks)))


def manual_without_announcements(config: RuntimeConfig) -> RuntimeConfig:
    quiet = listeners_seeing(manual_only_on_compact)(config)
    return hooks_seeing(hooks_manual_only_on_compact)(quiet)


class PythonBlankIds(AgentSession):
    """Reads a call id as blank when Python's ``str.strip`` leaves nothing: NUL is an id to it,
    an ideographic space is blank (§1.4 trims U+0000 to U+0020 only)."""

    def _step(self, step: int) -> ModelResult:
        with mock.patch.object(tool_call_rules, "is_blank", lambda text: not text.strip()):
            return super()._step(step)


# -- sessions that take a policy's wrong answers for right ones (RUN-12) -----------------


class TruthyDecisions(AgentSession):
    """Compacts when should_compact answers anything truthy, as ``if policy.should_compact``."""

    def _auto_compact(self, step: int) -> None:
        policy = self.agent.compact_policy
        if policy is None:
            return
        try:
            if not policy.should_compact(self.memory.snapshot()):
                return
            result = self._compact(policy, self.memory.snapshot(), step, AUTO_COMPACT_MESSAGE)
        except MemoryRollbackError:
            raise
        except Exception as error:  # noqa: BLE001 - as the reference
            self._observers.publish(
                AgentEventType.COMPACT_FAILED, COMPACT_FAILED_MESSAGE, step, error
            )
            return
        self._finish_compaction(result, step, AUTO_COMPACT_MESSAGE)


class DuckTypedResults(AgentSession):
    """Takes whatever compact returns for a result: a document is read, anything else used."""

    def _compact(
        self, policy: CompactPolicy, before: MemorySnapshot, step: int | None, message: str
    ) -> CompactResult:
        self._observers.dispatch(LifecycleEventType.BEFORE_COMPACT, message, step, before)
        answer: Any = policy.compact(before)
        if isinstance(answer, dict):
            result = from_json(CompactResult, answer)
        elif isinstance(answer, CompactResult):
            result = answer
        else:
            result = CompactResult(memory=answer.memory, summary=answer.summary)
        if result.memory is not None:
            try:
                self._memory.restore(result.memory)
            except Exception as error:
                self._roll_back(before, error)
                raise
        return result


# -- the zoo ------------------------------------------------------------------------------


@frozen(kw_only=True)
class Wrong:
    """A wrong runtime: what it breaks, which check must catch it, and why."""

    name: str
    breaks: tuple[str, ...]
    check_id: str
    reason: str
    factory: Factory


def wrong(name: str, breaks: str, check_id: str, reason: str, factory: Factory) -> Wrong:
    return Wrong(
        name=name,
        breaks=tuple(breaks.split()),
        check_id=check_id,
        reason=reason,
        factory=factory,
    )


ZOO: tuple[Wrong, ...] = (
    wrong(
        "reads blank call ids with Python's strip",
        "RUN-7",
        "runtime.tool-call-ids",
        "(RUN-3 (5), RUN-7)",
        with_session_class(PythonBlankIds),
    ),
    wrong(
        "compacts on a truthy non-bool decision",
        "RUN-12",
        "runtime.compaction-wrong-answers",
        "COMPACT_FAILED events carrying an error followed",
        with_session_class(TruthyDecisions),
    ),
    wrong(
        "takes a document or a look-alike for a compact result",
        "RUN-12",
        "runtime.compaction-wrong-answers",
        "COMPACT_FAILED events carrying an error followed",
        with_session_class(DuckTypedResults),
    ),
    wrong(
        "ignores the system prompt",
        "RUN-1",
        "runtime.prompt",
        "system prompt None",
        with_config(lambda config: evolve(config, system_prompt=None)),
    ),
    wrong(
        "adds the input after step 0's compaction attempt",
        "RUN-2",
        "runtime.loop-order",
        "expected memory.add_user_input but got policy.should_compact",
        with_session_class(InputAfterFirstAttempt),
    ),
    wrong(
        "compacts after the model call",
        "RUN-3 RUN-11",
        "runtime.loop-order",
        "expected policy.should_compact but got STEP_START",
        with_session_class(CompactsAfterModelCall),
    ),
    wrong(
        "publishes no projection event",
        "RUN-4",
        "runtime.prompt",
        "0 MEMORY_COMPRESS 'context projection' events",
        with_config(listeners_seeing(without("MEMORY_COMPRESS", CONTEXT_PROJECTION_MESSAGE))),
    ),
    wrong(
        "projects the raw items without the summary message",
        "RUN-4",
        "runtime.prompt",
        "but memory.get_items() was",
        with_session_class(ProjectsRawItems),
    ),
    wrong(
        "applies the budget without a projector",
        "RUN-5",
        "runtime.prompt",
        "not memory.get_items()",
        with_config(budget_without_projector),
    ),
    wrong(
        "writes the projection into memory",
        "RUN-6",
        "runtime.memory-writes",
        "only the projection had was written into memory",
        with_session_class(WritesProjection),
    ),
    wrong(
        "lets a failing tool end the run",
        "RUN-7",
        "runtime.tools",
        "a failing or unknown tool ended the run with ValueError: the fail tool failed on",
        with_session_class(FailingToolEndsRun),
    ),
    wrong(
        "skips unknown tools",
        "RUN-7",
        "runtime.tools",
        "expected the output of call",
        with_session_class(SkipsUnknownTools),
    ),
    wrong(
        "writes a generated call id into the output only (ai4j)",
        "RUN-7 PAIR-1",
        "runtime.tool-call-ids",
        "no earlier item declares",
        with_session_class(NamesOnlyTheOutput),
    ),
    wrong(
        "declares no call its memory items leave out",
        "RUN-7 PAIR-1",
        "runtime.tool-call-ids",
        "no earlier item declares",
        with_session_class(DeclaresNoMissingCall),
    ),
    wrong(
        "declares the missing calls before the memory items",
        "RUN-7 RUN-3",
        "runtime.tool-call-ids",
        "with its calls declared",
        with_session_class(DeclaresMissingCallsFirst),
    ),
    wrong(
        "does not publish a model error",
        "RUN-8",
        "runtime.model-error",
        "0 ERROR 'model request failed' events",
        with_session_class(ModelErrorUnpublished),
    ),
    wrong(
        "does not publish the step limit",
        "RUN-9",
        "runtime.max-steps",
        "0 ERROR 'max steps exceeded' events",
        with_config(listeners_seeing(without("ERROR", MAX_STEPS_MESSAGE))),
    ),
    wrong(
        "compacts whatever the policy says",
        "RUN-10",
        "runtime.auto-compaction",
        "compact was called 1 times, but should_compact said no",
        with_config(always_compact),
    ),
    wrong(
        "does not restore an auto-compaction's memory",
        "RUN-11",
        "runtime.auto-compaction",
        "memory at the model call is",
        with_session_class(NoRestoreOnAutoCompaction),
    ),
    wrong(
        "lets should_compact's error end the run (ai4j)",
        "RUN-12 DIF-13",
        "runtime.auto-compaction-fail-safe",
        "the failing snapshot at step 0 ended the run with OSError",
        with_session_class(DecisionErrorEndsRun),
    ),
    wrong(
        "leaves memory half-restored after a failed auto-compaction",
        "RUN-12",
        "runtime.auto-compaction-fail-safe",
        "after the failed restore",
        with_session_class(NoRollback),
    ),
    wrong(
        "fails to compact silently (ai4j)",
        "RUN-12 DIF-13",
        "runtime.auto-compaction-fail-safe",
        "0 COMPACT_FAILED events",
        with_config(listeners_seeing(without("COMPACT_FAILED"))),
    ),
    wrong(
        "treats a result without memory as no compaction",
        "RUN-13",
        "runtime.auto-compaction",
        "MEMORY_COMPRESS 'compacted' events for",
        with_session_class(NullMemoryIsNoCompaction),
    ),
    wrong(
        "empties the memory on a result without memory",
        "CMP-4",
        "runtime.auto-compaction",
        "memory at the model call is",
        with_session_class(NullMemoryEmptiesMemory),
    ),
    wrong(
        "asks should_compact before a manual compaction",
        "RUN-14",
        "runtime.manual-compaction",
        "consulted should_compact",
        wrapped(ConsultsPolicyOnManualCompaction),
    ),
    wrong(
        "announces a manual compaction with ON_COMPACT only (ai4j)",
        "RUN-14 DIF-14",
        "runtime.manual-compaction",
        "the manual compaction's events",
        with_config(manual_without_announcements),
    ),
    wrong(
        "does nothing on compact(None) (ai4j)",
        "RUN-14 DIF-14",
        "runtime.manual-compaction-needs-policy",
        "returned instead of raising",
        wrapped(ManualCompactionWithoutPolicyIsNoop),
    ),
    wrong(
        "swallows manual compaction errors",
        "RUN-15 DIF-14",
        "runtime.manual-compaction-failure",
        "did not propagate",
        wrapped(SwallowsManualCompactionErrors),
    ),
    wrong(
        "leaves memory half-restored after a failed manual compaction",
        "RUN-15",
        "runtime.manual-compaction-failure",
        "after the failed restore",
        with_session_class(NoRollback),
    ),
    wrong(
        "snapshot() returns the memory's snapshot",
        "SES-1",
        "runtime.session-snapshot",
        "not an AgentSessionSnapshot",
        wrapped(SnapshotIsMemorySnapshot),
    ),
    wrong(
        "gives every session the same id",
        "SES-2",
        "runtime.session-ids",
        "three sessions of one agent got the ids",
        fixed_session_id,
    ),
    wrong(
        "shares one memory between sessions",
        "SES-2",
        "runtime.session-ids",
        "shares its memory",
        shared_memory(),
    ),
    wrong(
        "leaves the compact result out of snapshots",
        "SES-3",
        "runtime.session-snapshot",
        "the snapshot's compactResult is null",
        wrapped(SnapshotWithoutCompactResult),
    ),
    wrong(
        "keeps its id on restore",
        "SES-4",
        "runtime.session-restore",
        "after restore the session id",
        wrapped(RestoreKeepsTheId),
    ),
    wrong(
        "loses the summary on restore",
        "SES-4",
        "runtime.session-restore",
        "after restore the memory",
        wrapped(RestoreLosesTheSummary),
    ),
    wrong(
        "does not record auto-compactions (ai4j)",
        "SES-5 DIF-13",
        "runtime.auto-compaction",
        "last_compact_result after the run",
        with_session_class(AutoCompactionNotRecorded),
    ),
    wrong(
        "keeps its last result when restoring a snapshot without one",
        "SES-5",
        "runtime.session-restore",
        "after restore last_compact_result",
        with_session_class(RestoreKeepsLastResult),
    ),
    wrong(
        "forgets the last result when a manual compaction fails",
        "SES-5",
        "runtime.manual-compaction-failure",
        "last_compact_result became",
        with_session_class(FailedCompactionClearsLastResult),
    ),
    wrong(
        "does nothing on save() without a store (ai4j)",
        "SES-6",
        "runtime.session-save-resume",
        "save() without a session store raised None",
        wrapped(SaveWithoutStoreIsNoop),
    ),
    wrong(
        "resumes an unknown id as a new session",
        "SES-7",
        "runtime.session-save-resume",
        "of an unknown id raised",
        resume_unknown_starts_fresh,
    ),
    wrong(
        "loses the summary on resume",
        "SES-7",
        "runtime.session-lifecycle",
        "the session's snapshot is",
        resume_drops("summary"),
    ),
    wrong(
        "loses the compact result on resume",
        "SES-8",
        "runtime.session-save-resume",
        "the resumed session's snapshot",
        resume_drops("compact result"),
    ),
    wrong(
        "writes event types in lower case",
        "EVT-1",
        "runtime.event-records",
        "is not written as its upper-case name",
        with_config(listeners_seeing(lambda event: evolve(event, type=event.type.lower()))),
    ),
    wrong(
        "numbers the events of a manual compaction",
        "EVT-2",
        "runtime.event-records",
        "the events of a manual compaction carry steps",
        with_session_class(ManualEventsWithStep),
    ),
    wrong(
        "never dispatches ON_COMPACT",
        "EVT-3",
        "runtime.event-records",
        "no ON_COMPACT lifecycle event",
        with_config(hooks_seeing(lambda event: None if event.type == "ON_COMPACT" else event)),
    ),
    wrong(
        "words the compaction failure differently",
        "EVT-4",
        "runtime.auto-compaction-fail-safe",
        "COMPACT_FAILED carries message 'compaction error'",
        with_config(
            listeners_seeing(renamed("COMPACT_FAILED", COMPACT_FAILED_MESSAGE, "compaction error"))
        ),
    ),
    wrong(
        "publishes the memory instead of the compact result",
        "EVT-5",
        "runtime.auto-compaction",
        "the MEMORY_COMPRESS 'compacted' payload",
        with_config(listeners_seeing(compacted_payload_is_memory)),
    ),
    wrong(
        "publishes the model result as FINAL_OUTPUT's payload",
        "EVT-5",
        "runtime.event-records",
        "FINAL_OUTPUT events (step, payload) are",
        with_config(listeners_seeing(final_output_is_the_result)),
    ),
    wrong(
        "calls hooks in reverse order",
        "EVT-6",
        "runtime.observers-only-observe",
        "in the order they were registered",
        with_config(hooks_reversed),
    ),
    wrong(
        "lets a hook change the prompt",
        "EVT-7",
        "runtime.observers-only-observe",
        "changed the prompt",
        with_session_class(SharesThePromptWithHooks),
    ),
    wrong(
        "hands hooks the snapshot it compacts (ai4j)",
        "EVT-8 DIF-18",
        "runtime.observers-only-observe",
        "changed what is compacted",
        with_session_class(SharesTheSnapshotWithHooks),
    ),
    wrong(
        "lets a hook's error escape",
        "EVT-9",
        "runtime.failing-hook",
        "broken_hook failed on",
        with_session_class(with_observers(HookErrorsEscape)),
    ),
    wrong(
        "stops dispatch at a failing hook",
        "EVT-9",
        "runtime.failing-hook",
        "dispatch did not go on",
        with_session_class(with_observers(HookErrorStopsDispatch)),
    ),
    wrong(
        "names a failing hook by its type",
        "EVT-11",
        "runtime.failing-hook",
        "ERROR messages seen: ['lifecycle hook failed: _Hook']",
        with_session_class(with_observers(HooksNamedByType)),
    ),
    wrong(
        "lets a listener's error escape",
        "EVT-10",
        "runtime.failing-listener",
        "broken_listener failed on",
        with_session_class(with_observers(ListenerErrorsEscape)),
    ),
    wrong(
        "sends a failing listener its own report",
        "EVT-10",
        "runtime.failing-listener",
        "the report of its own failure",
        with_session_class(with_observers(ListenerGetsItsOwnReport)),
    ),
    wrong(
        "ignores failing listeners (ai4j)",
        "EVT-10 DIF-20",
        "runtime.failing-listener",
        "events reached the other listeners",
        with_session_class(with_observers(ListenerErrorsUnreported)),
    ),
    wrong(
        "registers pre_compact hooks for after the compaction (ai4j)",
        "EVT-12 DIF-19",
        "runtime.compaction-hook-helpers",
        "a hook registered with pre_compact ran after the compaction",
        wrapped(PreCompactRunsAfter),
    ),
    wrong(
        "publishes FINAL_OUTPUT after STEP_END",
        "EVT-13",
        "runtime.loop-order",
        "expected FINAL_OUTPUT",
        with_config(final_output_late),
    ),
)


def cited(checks: Iterable[Check]) -> set[str]:
    return {clause for check in checks for clause in check.clauses}


def test_the_zoo_breaks_every_clause_the_runtime_checks_cite() -> None:
    broken = {clause for member in ZOO for clause in member.breaks}
    missing = cited(RUNTIME_CHECKS) - broken - EXEMPT.keys()
    assert not missing, f"no wrong runtime breaks {sorted(missing)}"
    assert not broken & EXEMPT.keys(), "a clause is both exempt and broken by the zoo"
    assert EXEMPT.keys() <= cited(RUNTIME_CHECKS)


@pytest.mark.parametrize("member", ZOO, ids=lambda member: member.name)
def test_each_member_names_a_check_that_cites_what_it_breaks(member: Wrong) -> None:
    check = BY_ID[member.check_id]
    assert set(member.breaks) <= set(check.clauses)


@pytest.mark.parametrize("member", ZOO, ids=lambda member: member.name)
def test_each_member_fails_its_check_for_the_right_reason(member: Wrong) -> None:
    result = run_check(
        BY_ID[member.check_id],
        factory=member.factory,
        claims=frozenset({Claim.GENERIC, Claim.EXACT}),
        settings=QUICK,
    )
    assert result.outcome is Outcome.FAIL, result.message
    assert member.reason in result.message


REFERENCE = next(t for t in reference_targets() if t.component is Component.RUNTIME)


def test_only_the_tool_call_ids_check_catches_a_runtime_that_names_only_the_output() -> None:
    # RUN-7's new part: every other check drives calls with ids, or memory items that declare
    # nothing, where writing the generated id into the call makes no difference.
    (member,) = [m for m in ZOO if m.name.startswith("writes a generated call id")]
    failed = [
        check.id
        for check in RUNTIME_CHECKS
        if check.id != member.check_id
        and run_check(
            check,
            factory=member.factory,
            claims=frozenset({Claim.GENERIC, Claim.EXACT}),
            settings=QUICK,
        ).outcome
        is Outcome.FAIL
    ]
    assert not failed, failed


#: Members of checks added for the suite's power (issue 12) that no other check may catch.
ONLY_ITS_CHECK = (
    "compacts on a truthy non-bool decision",
    "takes a document or a look-alike for a compact result",
)


@pytest.mark.parametrize("name", ONLY_ITS_CHECK)
def test_no_other_check_catches_the_member(name: str) -> None:
    (member,) = [m for m in ZOO if m.name == name]
    failed = [
        check.id
        for check in RUNTIME_CHECKS
        if check.id != member.check_id
        and run_check(
            check,
            factory=member.factory,
            claims=frozenset({Claim.GENERIC, Claim.EXACT}),
            settings=QUICK,
        ).outcome
        is not Outcome.PASS
    ]
    assert not failed, failed


def test_the_reference_runtime_is_a_target() -> None:
    assert REFERENCE.name == "ctxpact.reference:Agent"
    # The runtime has one level (§1.3): its checks are generic, and no claim adds any.
    assert REFERENCE.claims == {Claim.GENERIC}


@pytest.mark.parametrize("check", RUNTIME_CHECKS, ids=lambda check: check.id)
def test_every_runtime_check_passes_on_the_reference(check: Check) -> None:
    result = run_check(
        check,
        factory=REFERENCE.factory,
        claims=REFERENCE.claims,
        settings=QUICK,
        options=REFERENCE.options,
    )
    assert result.outcome is Outcome.PASS, result.message


def test_the_reference_adapter_builds_runtime_sessions() -> None:
    factory: RuntimeFactory = reference_runtime  # mypy checks the protocol here
    session = factory(RuntimeConfig(model_client=NoModel(), memory_factory=in_memory_factory))
    assert isinstance(session, RuntimeSession)
    assert isinstance(session, AgentSession)
    assert not isinstance(NoModel(), RuntimeSession)


def test_a_runtime_without_a_step_bound_skips_the_bound_check() -> None:
    result = run_check(
        BY_ID["runtime.max-steps"],
        factory=REFERENCE.factory,
        claims=REFERENCE.claims,
        settings=QUICK,
        options={"max_steps": False},
    )
    assert result.outcome is Outcome.SKIP
    assert "RUN-9 is a MAY" in result.message


# -- where the reference and SPEC.md disagree ------------------------------------------------


def test_a_call_whose_id_is_no_string_gets_the_generated_id() -> None:
    # §1.4: an id counts only when it is a JSON string, so `"call_id": 5` is no id, and RUN-7
    # (a) gives it the generated id of the blank call. The reference leaves 5 and declares
    # the call a second time (RUN-7 (b)), so memory holds a call without an id.
    item: JsonValue = {"type": "function_call", "call_id": 5, "name": "echo", "arguments": "{}"}
    answers = (
        ModelResult(
            memory_items=(item,), tool_calls=(ToolCall(call_id="", name="echo", arguments="{}"),)
        ),
        ModelResult(output_text="done", memory_items=({"role": "assistant"},)),
    )
    memories: list[Any] = []

    def memory(session_id: str) -> Any:
        memories.append(in_memory_factory(session_id))
        return memories[-1]

    config = RuntimeConfig(
        model_client=_Scripted(answers), memory_factory=memory, tools={"echo": str}
    )
    reference_runtime(config).run("go")
    items = memories[0].get_items()
    assert items[1] == {**item, "call_id": "tool_step_0_0"}  # type: ignore[dict-item]
    assert len(items) == 4  # input, the call, its output, the final answer


class _Scripted:
    def __init__(self, answers: tuple[ModelResult, ...]) -> None:
        self.answers = list(answers)

    def create(self, prompt: ModelPrompt) -> ModelResult:
        del prompt
        return self.answers.pop(0)
