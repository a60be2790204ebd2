"""The scripted parts a runtime under test is driven with (§16, §17).

A memory that logs its state changes and fails on demand (the reference memory inside), a
model client that answers from a script and records each prompt, a compact policy whose
decisions and results are scripted and that raises or answers wrongly on demand (RUN-12), a
projector that marks what it returns (RUN-6), and the listener and hook that record every
event in the same trace (EVT-1, EVT-3).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import cast

from attrs import evolve, frozen

from ctxpact.conformance._context import CheckFailure
from ctxpact.conformance._runtime import RuntimeEvent, RuntimeLifecycleEvent
from ctxpact.conformance.checks.runtime._support import (
    _EVENT_TYPES,
    _LIFECYCLE_TYPES,
    _PROJECTION_MARKER,
    _label,
    _result_copy,
    _snapshot_copy,
)
from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextReport,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    copy_json,
)


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
