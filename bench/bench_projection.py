"""Time TypeAwareContextProjector against one json.dumps of the same items.

Run ``python bench/bench_projection.py``; it prints a markdown table. The transcripts are
generated deterministically (seeded ``random.Random``) and look like a coding agent's memory:
user turns, reasoning items, assistant messages with parallel tool calls in the Chat shape
(``tool_calls``) and the Responses shape (``function_call`` items), and tool outputs of a few
kB. Both timings are medians over several repeats, taken side by side in one process. The
first table is the budget the target is set for (both limits and both tiers on); the second
drops ``max_items``, so that the character stage walks the whole memory.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from attrs import evolve

from ctxpact.reference.projection import TypeAwareContextProjector
from ctxpact.spec import ContextBudget, JsonObject, JsonValue

SIZES = (1_000, 10_000, 100_000)
SEED = 20_260_819
BUDGET = ContextBudget(
    max_items=500,
    max_approx_chars=400_000,
    pinned_prefix_items=1,
    max_recent_tool_results=25,
    trim_old_reasoning=True,
)
TOOLS = ("read_file", "write_file", "run_command", "grep_search", "list_dir", "apply_patch")
# The vocabulary of the generated text: code-like words and some non-ASCII ones.
VOCABULARY = """
def class return import self value items budget report result None True
for while if else elif try except raise with async await yield lambda
données größe naïve café 数据 結果 — → ✓ {} [] () : , . = == != <= >= + - * /
"""
WORDS = tuple(VOCABULARY.split())
TABLE_HEADER = (
    "| items | JSON size | json.dumps (median) | TypeAware projector (median) | ratio | "
    "projector per item |\n|---:|---:|---:|---:|---:|---:|"
)
TABLE_ROW = (
    "| {items:,} | {megabytes:.1f} MB | {dumps:.2f} ms | {projector:.2f} ms | {ratio:.2f} | "
    "{per_item:.2f} µs |"
)


class Transcript:
    """Builds one agent transcript of a given length from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lines = [self.line() for _ in range(2_000)]
        self.calls = 0

    def line(self) -> str:
        indent = "    " * self.rng.randint(0, 3)
        return indent + " ".join(self.rng.choices(WORDS, k=self.rng.randint(3, 14)))

    def text(self, low: int, high: int) -> str:
        return "\n".join(self.rng.choices(self.lines, k=self.rng.randint(low, high)))

    def user(self) -> JsonObject:
        return {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": self.text(1, 8)}],
        }

    def reasoning(self) -> JsonObject:
        blob = "".join(self.rng.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123456789+/", k=1200))
        return {
            "type": "reasoning",
            "id": f"rs_{self.rng.getrandbits(48):012x}",
            "summary": [{"type": "summary_text", "text": self.text(1, 4)}],
            "encrypted_content": blob,
        }

    def call(self) -> tuple[str, str, str]:
        self.calls += 1
        name = self.rng.choice(TOOLS)
        arguments = json.dumps({"path": f"src/pkg/module_{self.calls % 97}.py", "line": self.calls})
        return f"call_{self.calls:07d}", name, arguments

    def step(self) -> list[JsonValue]:
        calls = [self.call() for _ in range(self.rng.choice((1, 1, 2, 3, 4)))]
        step: list[JsonValue] = [self.reasoning()]
        if self.rng.random() < 0.5:
            step.append(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "input_text", "text": self.text(0, 2)}],
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": arguments},
                        }
                        for call_id, name, arguments in calls
                    ],
                }
            )
        else:
            step.extend(
                {
                    "type": "function_call",
                    "id": f"fc_{call_id}",
                    "call_id": call_id,
                    "name": name,
                    "arguments": arguments,
                }
                for call_id, name, arguments in calls
            )
        step.extend(
            {"type": "function_call_output", "call_id": call_id, "output": self.text(4, 80)}
            for call_id, _, _ in calls
        )
        return step

    def items(self, count: int) -> list[JsonValue]:
        items: list[JsonValue] = []
        while len(items) < count:
            items.append(self.user())
            for _ in range(self.rng.randint(1, 8)):
                items.extend(self.step())
            items.append(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "input_text", "text": self.text(1, 6)}],
                }
            )
        return items[:count]


def elapsed(run: Callable[[], object], number: int) -> float:
    """Seconds per call of *run*, over *number* calls."""
    start = time.perf_counter()
    for _ in range(number):
        run()
    return (time.perf_counter() - start) / number


def measure(items: list[JsonValue], budget: ContextBudget, repeats: int) -> str:
    """One table row: medians of json.dumps and of the projector, timed alternately."""
    count = len(items)
    projector = TypeAwareContextProjector()
    assert projector.project(items, budget).report.source_item_count == count
    number = max(1, 10_000 // count)
    dumps: list[float] = []
    project: list[float] = []
    for _ in range(repeats):  # alternated, so drift affects both alike
        dumps.append(elapsed(lambda: json.dumps(items), number))
        project.append(elapsed(lambda: projector.project(items, budget), number))
    dumps_s, project_s = statistics.median(dumps), statistics.median(project)
    return TABLE_ROW.format(
        items=count,
        megabytes=len(json.dumps(items)) / 1e6,
        dumps=dumps_s * 1e3,
        projector=project_s * 1e3,
        ratio=project_s / dumps_s,
        per_item=project_s / count * 1e6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    arguments = parser.parse_args()
    budgets = (BUDGET, evolve(BUDGET, max_items=None))
    rows: list[list[str]] = [[] for _ in budgets]
    for count in arguments.sizes:
        items = Transcript(SEED + count).items(count)
        for budget, table in zip(budgets, rows, strict=True):
            table.append(measure(items, budget, arguments.repeats))
    for budget, table in zip(budgets, rows, strict=True):
        print(f"Budget: {budget}\n\n{TABLE_HEADER}")
        print("\n".join(table), end="\n\n")


if __name__ == "__main__":
    main()
