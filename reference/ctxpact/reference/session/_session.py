"""A session: one memory, the runtime loop that drives it, and its compactions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import evolve

from ctxpact.reference.memory import MemoryViews
from ctxpact.reference.session._copies import detached_result, detached_snapshot
from ctxpact.reference.session._errors import MaxStepsExceededError, NoSessionStoreError
from ctxpact.reference.session._events import (
    AUTO_COMPACT_MESSAGE,
    COMPACT_FAILED_MESSAGE,
    COMPACTED_MESSAGE,
    CONTEXT_PROJECTION_MESSAGE,
    MANUAL_COMPACT_MESSAGE,
    MAX_STEPS_MESSAGE,
    MODEL_FAILED_MESSAGE,
    AgentEventType,
    LifecycleEventType,
    Observers,
)
from ctxpact.reference.session._tool_calls import declared_items, named_calls
from ctxpact.spec import (
    AgentMemory,
    AgentSessionSnapshot,
    CompactPolicy,
    CompactResult,
    CtxpactError,
    InvalidValueError,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    SchemaValidationError,
    ToolCall,
)

if TYPE_CHECKING:
    from ctxpact.reference.session._agent import Agent

#: The tool output recorded when the model calls a tool the agent does not have.
UNKNOWN_TOOL_OUTPUT = "Error: unknown tool: {name}"
#: The tool output recorded when a tool raises (``{error}`` is the exception's text).
TOOL_FAILED_OUTPUT = "Error: tool {name} failed: {error}"
#: The ``{error}`` of :data:`TOOL_FAILED_OUTPUT` when a tool returns something not a string.
TOOL_NOT_TEXT = "Expected a str result but got {type}"
#: Raised when a policy's ``should_compact`` does not return a bool.
BAD_DECISION = "Expected should_compact to return a bool but got {type}"
#: Raised when a policy's ``compact`` does not return a ``CompactResult``.
BAD_COMPACT_RESULT = "Expected compact to return a CompactResult but got {type}"
#: Raised when a model client's ``create`` does not return a ``ModelResult``.
BAD_MODEL_RESULT = "Expected the model client to return a ModelResult but got {type}"
#: Raised when a failed compaction could not put the memory back as it was.
ROLLBACK_FAILED = (
    "Expected the memory to restore its state from before the compaction but the restore "
    "raised {error_type}: {error}"
)


class RuntimeResultError(CtxpactError, TypeError):
    """A policy or a model client returned a value of the wrong type (RUN-12, RUN-15)."""


class MemoryRollbackError(CtxpactError, RuntimeError):
    """A compaction failed inside ``memory.restore`` and restoring the old state failed too.

    The memory may then hold neither state, so this error is never swallowed, not even by
    the fail-safe auto-compaction (RUN-12).
    """


def _checked_decision(decision: object) -> bool:
    if not isinstance(decision, bool):
        raise RuntimeResultError(BAD_DECISION.format(type=type(decision).__name__))
    return decision


def _checked_model_result(result: object) -> ModelResult:
    if not isinstance(result, ModelResult):
        raise RuntimeResultError(BAD_MODEL_RESULT.format(type=type(result).__name__))
    return result


class AgentSession:
    """One conversation: a session id, a memory, and the agent that drives it.

    Implements SES-3 .. SES-6, RUN-1 .. RUN-16. Built by :meth:`Agent.new_session` and
    :meth:`Agent.resume_session`. A memory with :class:`~ctxpact.reference.memory.MemoryViews`
    is read through its views at every step: the prompt is projected from ``prompt_view()``
    and ``should_compact`` decides on ``snapshot_view()``, neither copied (RUN-16).
    """

    def __init__(self, *, agent: Agent, session_id: str, memory: AgentMemory) -> None:
        self._agent = agent
        self._session_id = session_id
        self._memory = memory
        # RUN-16: a memory that shares read-only views is read through them at every step.
        self._views = memory if isinstance(memory, MemoryViews) else None
        self._last_compact_result: CompactResult | None = None
        self._observers = Observers(
            session_id=session_id, listeners=agent.event_listeners, hooks=agent.lifecycle_hooks
        )

    @property
    def agent(self) -> Agent:
        """The agent this session belongs to."""
        return self._agent

    @property
    def session_id(self) -> str:
        """The session's id."""
        return self._session_id

    @property
    def memory(self) -> AgentMemory:
        """The session's memory."""
        return self._memory

    @property
    def last_compact_result(self) -> CompactResult | None:
        """A copy of the last compaction's result, automatic or manual, or ``None`` (SES-5)."""
        result = self._last_compact_result
        return None if result is None else detached_result(result)

    # -- snapshots -----------------------------------------------------------------------

    def snapshot(self) -> AgentSessionSnapshot:
        """The session's id, its memory's snapshot and its last compaction's result."""
        return AgentSessionSnapshot(
            session_id=self._session_id,
            memory=self._memory.snapshot(),
            compact_result=self.last_compact_result,
        )

    def restore(self, snapshot: AgentSessionSnapshot) -> None:
        """Restore the memory (summary included), the last compaction result and the id (SES-4).

        The session takes the snapshot's session id. If the memory's restore raises, the
        session is left as it was, apart from whatever the memory itself did.
        """
        if not isinstance(snapshot, AgentSessionSnapshot):
            raise SchemaValidationError.single(
                "$", f"Expected an AgentSessionSnapshot but got {type(snapshot).__name__}"
            )
        self._memory.restore(snapshot.memory)
        result = snapshot.compact_result
        self._last_compact_result = None if result is None else detached_result(result)
        self._session_id = snapshot.session_id
        self._observers = evolve(self._observers, session_id=snapshot.session_id)

    def save(self) -> None:
        """Save :meth:`snapshot` to the agent's session store.

        Raises:
            NoSessionStoreError: if the agent has no store.

        """
        store = self._agent.session_store
        if store is None:
            raise NoSessionStoreError("save a session")
        store.save(self.snapshot())

    # -- compaction ----------------------------------------------------------------------

    def compact(self, policy: CompactPolicy) -> CompactResult:
        """Compact the memory now with *policy*, whatever ``should_compact`` would say (RUN-14).

        Fires ``BEFORE_COMPACT`` → ``MEMORY_COMPRESS("compacted")`` → ``ON_COMPACT``, restores
        the memory from the result, updates :attr:`last_compact_result` and returns a copy of
        the result (RUN-14). On failure ``COMPACT_FAILED`` is published and the error
        propagates, with the memory and the last result as they were (RUN-15).

        Raises:
            InvalidValueError: if *policy* is ``None``.

        """
        if policy is None:
            raise InvalidValueError(
                record=type(self).__name__, field="policy", expected="a CompactPolicy", actual=None
            )
        try:
            before = self._memory.snapshot()
            result = self._compact(policy, before, None, MANUAL_COMPACT_MESSAGE)
        except Exception as error:
            self._observers.publish(
                AgentEventType.COMPACT_FAILED, COMPACT_FAILED_MESSAGE, None, error
            )
            raise
        self._finish_compaction(result, None, MANUAL_COMPACT_MESSAGE)
        return detached_result(result)

    def _auto_compact(self, step: int) -> None:
        # DIF-13: the whole attempt is fail-safe; only a failed rollback escapes. The policy
        # decides on the memory's shared snapshot when it has one (it must not modify it,
        # CMP-1, RUN-16), else on snapshot(), an independent copy; the state to roll back to
        # is taken, as a copy, only when there is a compaction to roll back.
        policy = self._agent.compact_policy
        if policy is None:
            return
        try:
            views = self._views
            decided = self._memory.snapshot() if views is None else views.snapshot_view()
            if not _checked_decision(policy.should_compact(decided)):
                return
            before = self._memory.snapshot()
            result = self._compact(policy, before, step, AUTO_COMPACT_MESSAGE)
        except MemoryRollbackError:
            raise
        except Exception as error:  # noqa: BLE001 - compaction is an optimisation, never fatal
            self._observers.publish(
                AgentEventType.COMPACT_FAILED, COMPACT_FAILED_MESSAGE, step, error
            )
            return
        self._finish_compaction(result, step, AUTO_COMPACT_MESSAGE)

    def _compact(
        self, policy: CompactPolicy, before: MemorySnapshot, step: int | None, message: str
    ) -> CompactResult:
        self._observers.dispatch(LifecycleEventType.BEFORE_COMPACT, message, step, before)
        result = policy.compact(detached_snapshot(before))
        if not isinstance(result, CompactResult):
            raise RuntimeResultError(BAD_COMPACT_RESULT.format(type=type(result).__name__))
        if result.memory is not None:
            try:
                self._memory.restore(result.memory)
            except Exception as error:
                self._roll_back(before, error)
                raise
        return result

    def _roll_back(self, before: MemorySnapshot, error: Exception) -> None:
        try:
            self._memory.restore(before)
        except Exception as rollback_error:  # noqa: BLE001 - any failure here is reported
            raise MemoryRollbackError(
                ROLLBACK_FAILED.format(
                    error_type=type(rollback_error).__name__, error=rollback_error
                )
            ) from error

    def _finish_compaction(self, result: CompactResult, step: int | None, message: str) -> None:
        self._last_compact_result = detached_result(result)
        self._observers.publish(AgentEventType.MEMORY_COMPRESS, COMPACTED_MESSAGE, step, result)
        self._observers.dispatch(LifecycleEventType.ON_COMPACT, message, step, result)

    # -- the runtime loop ----------------------------------------------------------------

    def run(self, user_input: JsonValue = None) -> str | None:
        """Add *user_input* to memory and run steps until the model answers without tools.

        Each step: auto-compaction attempt, ``STEP_START``, ``BEFORE_TURN``, prompt (projected
        when the agent has a projector), ``BEFORE_MODEL_REQUEST``, the model call,
        ``AFTER_MODEL_RESPONSE``, the model's items into memory; then either ``FINAL_OUTPUT``,
        ``AFTER_TURN``, ``STEP_END`` and the output text is returned, or each tool call runs
        (``BEFORE_TOOL_CALL``, ``TOOL_CALL``, the tool, its output into memory,
        ``TOOL_RESULT``, ``AFTER_TOOL_CALL``) followed by ``AFTER_TURN``, ``STEP_END`` and
        the next step. ``SESSION_START`` and ``SESSION_END`` bracket the run (RUN-2 .. RUN-13,
        EVT-13).

        Raises:
            MaxStepsExceededError: if the model still calls tools at step ``max_steps - 1``.
            Exception: whatever the model client raises, after an ``ERROR`` event.

        """
        observers = self._observers
        observers.dispatch(LifecycleEventType.SESSION_START, "", None, user_input)
        output: str | None = None
        try:
            if user_input is not None:
                self._memory.add_user_input(user_input)
            for step in range(self._agent.max_steps):
                result = self._step(step)
                if not result.tool_calls:
                    output = result.output_text
                    return output
            last = self._agent.max_steps - 1
            error = MaxStepsExceededError(max_steps=self._agent.max_steps, step=last)
            observers.publish(AgentEventType.ERROR, MAX_STEPS_MESSAGE, last, error)
            raise error
        finally:
            observers.dispatch(LifecycleEventType.SESSION_END, "", None, output)

    def _step(self, step: int) -> ModelResult:
        observers = self._observers
        self._auto_compact(step)
        observers.publish(AgentEventType.STEP_START, "", step)
        observers.dispatch(LifecycleEventType.BEFORE_TURN, "", step)
        prompt = self._prompt(step)
        observers.dispatch(LifecycleEventType.BEFORE_MODEL_REQUEST, "", step, prompt)
        result = self._ask_model(prompt, step)
        observers.dispatch(LifecycleEventType.AFTER_MODEL_RESPONSE, "", step, result)
        calls = named_calls(result.tool_calls, step)
        self._memory.add_output_items(declared_items(result.memory_items, result.tool_calls, calls))
        if not calls:
            observers.publish(
                AgentEventType.FINAL_OUTPUT, result.output_text or "", step, result.output_text
            )
        for call in calls:
            self._call_tool(step, call)
        observers.dispatch(LifecycleEventType.AFTER_TURN, "", step, result)
        observers.publish(AgentEventType.STEP_END, "", step)
        return result

    def _prompt(self, step: int) -> ModelPrompt:
        agent = self._agent
        views = self._views
        # RUN-16: the memory's shared view, read-only for the projector and the model client.
        items: Sequence[JsonValue] = (
            self._memory.get_items() if views is None else views.prompt_view()
        )
        if agent.projector is not None:
            projection = agent.projector.project(items, agent.budget)
            self._observers.publish(
                AgentEventType.MEMORY_COMPRESS, CONTEXT_PROJECTION_MESSAGE, step, projection.report
            )
            items = projection.items
        return ModelPrompt(model=agent.model_name, system_prompt=agent.system_prompt, items=items)

    def _ask_model(self, prompt: ModelPrompt, step: int) -> ModelResult:
        try:
            result = _checked_model_result(self._agent.model_client.create(prompt))
        except Exception as error:
            self._observers.publish(AgentEventType.ERROR, MODEL_FAILED_MESSAGE, step, error)
            raise
        return result

    def _call_tool(self, step: int, call: ToolCall) -> None:
        observers = self._observers
        observers.dispatch(LifecycleEventType.BEFORE_TOOL_CALL, call.name, step, call)
        observers.publish(AgentEventType.TOOL_CALL, call.name, step, call)
        output = self._tool_output(call)
        self._memory.add_tool_output(call.call_id, output)
        observers.publish(AgentEventType.TOOL_RESULT, call.name, step, output)
        observers.dispatch(LifecycleEventType.AFTER_TOOL_CALL, call.name, step, output)

    def _tool_output(self, call: ToolCall) -> str:
        tool = self._agent.tools.get(call.name)
        if tool is None:
            return UNKNOWN_TOOL_OUTPUT.format(name=call.name)
        try:
            output: object = tool(call.arguments)
        except Exception as error:  # noqa: BLE001 - a failing tool is a result the model sees
            return TOOL_FAILED_OUTPUT.format(name=call.name, error=error)
        if not isinstance(output, str):
            error_text = TOOL_NOT_TEXT.format(type=type(output).__name__)
            return TOOL_FAILED_OUTPUT.format(name=call.name, error=error_text)
        return output
