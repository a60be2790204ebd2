"""Time a whole agent run against the sum of one json.dumps of its memory at every step.

Run ``python bench/bench_agent_run.py``; it prints a markdown table. An ``Agent`` with a
scripted model client and one tool runs 200 user turns of 10 steps: 2,000 steps and 10,000
memory items in all, 5 a step on average. A turn is the user's message, nine tool steps (a
reasoning item, two or three parallel Responses ``function_call`` items and their outputs of
a few kB, from the generator of ``bench_projection.py``) and a final answer, all generated
before the run starts. The agent projects every prompt with ``TypeAwareContextProjector``
under both limits and both tiers (``bench_projection.BUDGET``), and a compact policy decides
at every step (``StructuredSummaryCompactPolicy`` with a limit the run never reaches: it
decides, and never compacts).

Everything is CPU time (``time.process_time``). A step's cost is the time from one model
call to the next: the memory taking the model's items and the tools' outputs, the
compaction decision, the next prompt and its projection. The yardstick is the sum, over the
steps, of one ``json.dumps`` of the memory the step projected. ``--copying`` runs the same
agent on the same memory seen only through ``AgentMemory`` (no views): the runtime then
copies the memory twice a step and the projector checks and measures every item again, as
it did before ``SizedItems``. ``--memory sqlite`` uses a ``SqliteAgentMemory`` in a
temporary file.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import tempfile
import time
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

from bench_projection import BUDGET, SEED, TOOLS, Transcript

from ctxpact.reference.compaction import StructuredSummaryCompactPolicy
from ctxpact.reference.memory import InMemoryAgentMemory, SqliteAgentMemory
from ctxpact.reference.projection import TypeAwareContextProjector
from ctxpact.reference.session import Agent
from ctxpact.spec import (
    AgentMemory,
    ContextBudget,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    ToolCall,
)

TURNS = 200
STEPS_PER_TURN = 10
NEVER = ContextBudget(max_items=10**9)  # the policy decides at every step and never compacts


class Script:
    """Every model result and tool output of the run, generated before it starts."""

    def __init__(self, turns: int) -> None:
        transcript = Transcript(SEED)
        self.results: list[ModelResult] = []
        self.outputs: dict[str, str] = {}
        self.users = [transcript.user() for _ in range(turns)]
        for _ in range(turns):
            for step in range(1, STEPS_PER_TURN):
                # 3 calls in the first step, 2 after: 7 + 8 x 5 + 2 + the user's 1 = 50 a turn.
                calls = [transcript.call() for _ in range(3 if step == 1 else 2)]
                declared: list[JsonValue] = [
                    {"type": "function_call", "call_id": i, "name": n, "arguments": a}
                    for i, n, a in calls
                ]
                self.results.append(
                    ModelResult(
                        memory_items=[transcript.reasoning(), *declared],
                        tool_calls=[ToolCall(call_id=i, name=n, arguments=a) for i, n, a in calls],
                    )
                )
                for _, _, arguments in calls:  # each call's arguments name a line of its own
                    self.outputs[arguments] = transcript.text(4, 80)
            answer: JsonValue = {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": transcript.text(1, 4)}],
            }
            self.results.append(
                ModelResult(output_text="done", memory_items=[transcript.reasoning(), answer])
            )


class ScriptedModel:
    """Answers from a :class:`Script`, noting the time of each call and the memory's length."""

    def __init__(self, script: Script) -> None:
        self.results = iter(script.results)
        self.stamps: list[float] = []
        self.lengths: list[int] = []  # items in memory when each step projected
        self.length = 0

    def create(self, prompt: ModelPrompt) -> ModelResult:  # noqa: ARG002 - scripted
        self.stamps.append(time.process_time())
        result = next(self.results)
        self.lengths.append(self.length)
        self.length += len(result.memory_items) + len(result.tool_calls)
        return result


class WithoutViews:
    """A memory seen only through the AgentMemory protocol: no views, so the runtime copies."""

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


def run(script: Script, memory: AgentMemory) -> tuple[float, ScriptedModel]:
    """CPU seconds of the whole run, and the model that timed its steps."""
    model = ScriptedModel(script)
    agent = Agent(
        model_client=model,
        memory_factory=lambda _: memory,
        projector=TypeAwareContextProjector(),
        budget=BUDGET,
        compact_policy=StructuredSummaryCompactPolicy(NEVER),
        tools=dict.fromkeys(TOOLS, script.outputs.__getitem__),
        max_steps=STEPS_PER_TURN,
    )
    session = agent.new_session("bench")
    gc.collect()
    gc.freeze()  # the script lives through the run: keep the collector from walking it
    start = time.process_time()
    for user in script.users:
        model.length += 1  # the user's message
        session.run(user)
    total = time.process_time() - start
    gc.unfreeze()
    return total, model


def dumps_sum(items: list[JsonValue], lengths: list[int], every: int) -> float:
    """The CPU seconds of one json.dumps of the memory at each step (every *every*-th, scaled)."""
    total = 0.0
    for length in lengths[::every]:
        memory = items[:length]
        start = time.process_time()
        json.dumps(memory)
        total += time.process_time() - start
    return total * every


def per_step(model: ScriptedModel, fraction: float, window: int = 50) -> float:
    """The median cost of the steps around *fraction* of the run."""
    durations = [later - earlier for earlier, later in pairwise(model.stamps)]
    end = max(window, round(len(durations) * fraction))
    return statistics.median(durations[end - window : end])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=TURNS)
    parser.add_argument("--memory", choices=("in-memory", "sqlite"), default="in-memory")
    parser.add_argument("--copying", action="store_true", help="also run without views")
    parser.add_argument("--every", type=int, default=1, help="time json.dumps every N-th step")
    arguments = parser.parse_args()
    script = Script(arguments.turns)
    rows = []
    yardstick: float | None = None  # the same script gives the same memories: measured once
    with tempfile.TemporaryDirectory() as directory:
        kinds = ["views", "copying"] if arguments.copying else ["views"]
        for kind in kinds:
            memory: AgentMemory
            if arguments.memory == "sqlite":
                memory = SqliteAgentMemory(Path(directory) / f"{kind}.db", "bench")
            else:
                memory = InMemoryAgentMemory()
            total, model = run(script, memory if kind == "views" else WithoutViews(memory))
            items = list(memory.snapshot().items)
            if yardstick is None:
                yardstick = dumps_sum(items, model.lengths, arguments.every)
            rows.append((kind, len(model.stamps), len(items), total, yardstick, model))
    print(
        "| memory | steps | items at the end | agent run | sum of json.dumps | ratio | "
        "per step at 10% | at 50% | at 100% |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    for kind, steps, count, total, yardstick, model in rows:
        cells = [
            f"{arguments.memory}, {kind}",
            f"{steps:,}",
            f"{count:,}",
            f"{total:.2f} s",
            f"{yardstick:.2f} s",
            f"{total / yardstick:.3f}",
            *(f"{per_step(model, fraction) * 1e3:.2f} ms" for fraction in (0.1, 0.5, 1.0)),
        ]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
