"""The runtime reads a memory through its views (RUN-16): the same run, without the copies.

A run on a memory with views gives the prompts, reports, events and final state of the same
run on a memory without them; the projector is handed the memory's sized view and the
policy's should_compact its shared snapshot, while compaction still gets a copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from ctxpact.reference import SizedItemsView
from ctxpact.reference.compaction import CompactPolicy
from ctxpact.reference.memory import InMemoryAgentMemory, MemoryViews, SqliteAgentMemory
from ctxpact.reference.projection import PairSafeContextProjector, TypeAwareContextProjector
from ctxpact.reference.session import Agent, AgentEvent
from ctxpact.spec import (
    AgentMemory,
    CompactResult,
    ContextBudget,
    ContextProjection,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    ToolCall,
    compact_json,
    to_json,
)

BUDGET = ContextBudget(
    max_items=6, max_approx_chars=900, pinned_prefix_items=1, max_recent_tool_results=1,
    trim_old_reasoning=True,
)  # fmt: skip


class Script:
    """A model that reasons, calls a tool twice per step for five steps, then answers."""

    def __init__(self) -> None:
        self.prompts: list[ModelPrompt] = []

    def create(self, prompt: ModelPrompt) -> ModelResult:
        self.prompts.append(prompt)
        step = len(self.prompts)
        if step > 5:
            return ModelResult(output_text="done", memory_items=[{"role": "assistant"}])
        ids = [f"call-{step}-{n}" for n in range(2)]
        reasoning: JsonValue = {"type": "reasoning", "id": f"rs_{step}", "summary": []}
        declared: list[JsonValue] = [
            {"type": "function_call", "call_id": i, "name": "echo", "arguments": i} for i in ids
        ]
        return ModelResult(
            memory_items=[reasoning, *declared],
            tool_calls=[ToolCall(call_id=i, name="echo", arguments=i) for i in ids],
        )


class Recording:
    """A projector that records what it is handed, then projects as *inner* does."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.given: list[Sequence[JsonValue]] = []

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        self.given.append(items)
        projection: ContextProjection = self.inner.project(items, budget)
        return projection


class EveryThird(CompactPolicy):
    """Compacts when the memory has more than eight items, keeping the last four."""

    def __init__(self) -> None:
        self.decided: list[MemorySnapshot] = []
        self.compacted: list[MemorySnapshot] = []
        self.memory: InMemoryAgentMemory | None = None  # set: check what the policy is given
        self.shared: list[bool] = []
        self.copied: list[bool] = []

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        self.decided.append(snapshot)
        if self.memory is not None:
            own = self.memory.snapshot_view().items
            self.shared.append(
                snapshot == self.memory.snapshot()
                and all(a is b for a, b in zip(snapshot.items, own, strict=True))
            )
        return len(snapshot.items) > 8

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        self.compacted.append(snapshot)
        if self.memory is not None:
            own = self.memory.snapshot_view().items
            self.copied.append(
                snapshot == self.memory.snapshot()
                and not any(a is b for a, b in zip(snapshot.items, own, strict=True))
            )
        kept = MemorySnapshot(items=snapshot.items[-4:], summary=f"{len(snapshot.items)} items")
        return CompactResult(memory=kept, summary=kept.summary)


class WithoutViews:
    """The same memory behind the bare AgentMemory protocol: the runtime must copy."""

    def __init__(self, inner: AgentMemory) -> None:
        self.inner = inner

    def add_user_input(self, value: JsonValue) -> None:
        self.inner.add_user_input(value)

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        self.inner.add_output_items(items)

    def add_tool_output(self, call_id: str, output: str | None) -> None:
        self.inner.add_tool_output(call_id, output)

    def get_items(self) -> list[JsonValue]:
        return self.inner.get_items()

    def get_summary(self) -> str | None:
        return self.inner.get_summary()

    def set_summary(self, summary: str | None) -> None:
        self.inner.set_summary(summary)

    def clear(self) -> None:
        self.inner.clear()

    def snapshot(self) -> MemorySnapshot:
        return self.inner.snapshot()

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        self.inner.restore(snapshot)


def run(
    memory: AgentMemory, projector: Any, policy: EveryThird | None = None
) -> tuple[Script, Recording, EveryThird, list[str]]:
    model, recording = Script(), Recording(projector)
    policy = EveryThird() if policy is None else policy
    events: list[str] = []

    def listen(event: AgentEvent) -> None:
        payload = event.payload
        shown = (
            compact_json(to_json(payload)) if hasattr(payload, "__attrs_attrs__") else repr(payload)
        )
        events.append(f"{event.type.name} {event.message} {event.step} {shown}")

    agent = Agent(
        model_client=model,
        memory_factory=lambda _: memory,
        projector=recording,
        budget=BUDGET,
        compact_policy=policy,
        tools={"echo": lambda arguments: f"echo {arguments} " * 20},
        event_listeners=[listen],
    )
    assert agent.new_session("s").run("go") == "done"
    return model, recording, policy, events


def prompts(model: Script) -> list[str]:
    return [compact_json(to_json(prompt)) for prompt in model.prompts]


@pytest.mark.parametrize("projector", [TypeAwareContextProjector(), PairSafeContextProjector()])
@pytest.mark.parametrize("kind", ["in-memory", "sqlite"])
def test_a_run_through_views_is_the_run_through_copies(
    projector: Any, kind: str, tmp_path: Path
) -> None:
    def memory(name: str) -> AgentMemory:
        if kind == "in-memory":
            return InMemoryAgentMemory()
        return SqliteAgentMemory(tmp_path / f"{name}.db", "s")

    viewed = memory("viewed")
    assert isinstance(viewed, MemoryViews)
    copied = WithoutViews(memory("copied"))
    assert not isinstance(copied, MemoryViews)
    with_views, without = run(viewed, projector), run(copied, projector)
    assert prompts(with_views[0]) == prompts(without[0])
    assert with_views[3] == without[3]  # every event, payloads included
    assert viewed.snapshot() == copied.snapshot()
    assert with_views[2].compacted == without[2].compacted
    # Through views: the projector had the memory's sized view, the policy its own items.
    assert all(isinstance(items, SizedItemsView) for items in with_views[1].given)
    assert not any(isinstance(items, SizedItemsView) for items in without[1].given)


def test_the_policy_decides_on_the_memorys_own_items_and_compacts_a_copy() -> None:
    memory, policy = InMemoryAgentMemory(), EveryThird()
    policy.memory = memory
    _, recording, _, _ = run(memory, TypeAwareContextProjector(), policy)
    assert policy.compacted, "the script compacts at least once"
    assert policy.shared == [True] * len(policy.decided)
    assert policy.copied == [True] * len(policy.compacted)
    # Each step's view is the memory's prompt list of that step, and stays so.
    final = recording.given[-1]
    assert compact_json(list(final)) == compact_json(memory.get_items()[: len(final)])
