"""Time the three projectors, on a plain list and on a SizedItems, against json.dumps.

Run ``python bench/bench_projection.py``; it prints one markdown table per budget. The
transcripts are generated deterministically (seeded ``random.Random``) and look like a coding
agent's memory: user turns, reasoning items, assistant messages with parallel tool calls in
the Chat shape (``tool_calls``) and the Responses shape (``function_call`` items), and tool
outputs of a few kB with some non-ASCII text.

Every figure is a median of interleaved runs in one process, in CPU time
(``time.process_time``): ``json.dumps`` of the same items (the yardstick), LangChain's
``trim_messages`` with ``count_tokens_approximately`` on the same items as LangChain messages
(``max_tokens`` = ``maxApproxChars`` / 4; skipped with a note when langchain-core is not
installed, ``pip install 'ctxpact[langchain]'``), and each projector on the list
(*stateless*: it checks, measures and scans every item) and on a ``SizedItems`` of it
(*sized*: built once beforehand, as a memory keeps one). The inputs are frozen out of the
garbage collector's sight while they are timed (``gc.freeze``). The first budget is the one the
targets are set for (both limits and both tiers on); the second drops ``max_items``, so that
the character stage walks the whole memory.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence

from attrs import evolve

from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    SizedItems,
    TypeAwareContextProjector,
)
from ctxpact.spec import ContextBudget, ContextProjector, JsonObject, JsonValue

SIZES = (1_000, 10_000, 100_000)
SEED = 20_260_819
BUDGET = ContextBudget(
    max_items=500,
    max_approx_chars=400_000,
    pinned_prefix_items=1,
    max_recent_tool_results=25,
    trim_old_reasoning=True,
)
PROJECTORS: dict[str, ContextProjector] = {
    "Default": DefaultContextProjector(),
    "TypeAware": TypeAwareContextProjector(),
    "PairSafe": PairSafeContextProjector(),
}
TOOLS = ("read_file", "write_file", "run_command", "grep_search", "list_dir", "apply_patch")
# The vocabulary of the generated text: code-like words and some non-ASCII ones.
VOCABULARY = """
def class return import self value items budget report result None True
for while if else elif try except raise with async await yield lambda
données größe naïve café 数据 結果 — → ✓ {} [] () : , . = == != <= >= + - * /
"""
WORDS = tuple(VOCABULARY.split())


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
    """CPU seconds per call of *run*, over *number* calls."""
    start = time.process_time()
    for _ in range(number):
        run()
    return (time.process_time() - start) / number


def langchain_trimmer(items: list[JsonValue], budget: ContextBudget) -> Callable[[], object] | None:
    """``trim_messages`` with the approximate counter on *items*, or ``None`` without LangChain."""
    try:
        from langchain_core.messages import trim_messages  # noqa: PLC0415 - an optional extra
        from langchain_core.messages.utils import count_tokens_approximately  # noqa: PLC0415

        from ctxpact.conformance.adapters.langchain import present  # noqa: PLC0415
    except ImportError:
        return None
    messages = [present(item) for item in items]
    max_tokens = (budget.max_approx_chars or 0) // 4

    def trim() -> object:
        return trim_messages(
            messages, max_tokens=max_tokens, token_counter=count_tokens_approximately
        )

    return trim


def projecting(
    projector: ContextProjector, items: Sequence[JsonValue], budget: ContextBudget
) -> Callable[[], object]:
    """One projection of *items* under *budget*, to be timed."""
    return lambda: projector.project(items, budget)


def measure(items: list[JsonValue], budget: ContextBudget, repeats: int) -> dict[str, float]:
    """Median CPU seconds of every contender on *items*, timed in turn in each repeat."""
    sized = SizedItems(items)
    contenders: dict[str, Callable[[], object]] = {"json.dumps": lambda: json.dumps(items)}
    trim = langchain_trimmer(items, budget)
    if trim is not None:
        contenders["trim_messages"] = trim
    for name, projector in PROJECTORS.items():
        plain, from_sized = projector.project(items, budget), projector.project(sized, budget)
        assert plain == from_sized, name  # the same projection either way (PRJ-36)
        contenders[f"{name} stateless"] = projecting(projector, items, budget)
        contenders[f"{name} sized"] = projecting(projector, sized, budget)
    number = max(1, 10_000 // len(items))
    # The inputs live through every run: keep the collector from walking them again and again
    # (it would charge whoever allocates most for the size of the heap, not for its work).
    gc.collect()
    gc.freeze()
    runs: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):  # interleaved, so drift affects every contender alike
        for name, run in contenders.items():
            runs[name].append(elapsed(run, number))
    gc.unfreeze()
    return {name: statistics.median(times) for name, times in runs.items()}


def build_cost(items: list[JsonValue]) -> float:
    """CPU seconds per item of building a SizedItems (checks, copies, measures, reads)."""
    start = time.process_time()
    SizedItems(items)
    return (time.process_time() - start) / len(items)


def table(rows: list[tuple[int, float, dict[str, float]]], budget: ContextBudget) -> str:
    """A markdown table: milliseconds, and each projector as a ratio of json.dumps."""
    has_trim = all("trim_messages" in timings for _, _, timings in rows)
    head = ["items", "JSON size", "json.dumps"] + (["trim_messages (x dumps)"] if has_trim else [])
    for name in PROJECTORS:
        head += [f"{name} stateless (x dumps)", f"{name} sized (x dumps)"]
    if has_trim:
        head.append("sized vs trim_messages")
    lines = [
        f"Budget: {budget}",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---:|" * len(head),
    ]
    for count, megabytes, timings in rows:
        dumps = timings["json.dumps"]
        cells = [f"{count:,}", f"{megabytes:.1f} MB", f"{dumps * 1e3:.2f} ms"]
        if has_trim:
            trim = timings["trim_messages"]
            cells.append(f"{trim * 1e3:.2f} ms ({trim / dumps:.2f})")
        for name in PROJECTORS:
            for kind in ("stateless", "sized"):
                value = timings[f"{name} {kind}"]
                cells.append(f"{value * 1e3:.2f} ms ({value / dumps:.2f})")
        if has_trim:
            slowest = max(timings[f"{name} sized"] for name in PROJECTORS)
            cells.append(f"{timings['trim_messages'] / slowest:.1f}x faster")
        lines.append("| " + " | ".join(cells) + " |")
    if not has_trim:
        lines += ["", "(langchain-core is not installed: trim_messages was not timed)"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    arguments = parser.parse_args()
    budgets = (BUDGET, evolve(BUDGET, max_items=None))
    rows: list[list[tuple[int, float, dict[str, float]]]] = [[] for _ in budgets]
    builds: list[str] = []
    for count in arguments.sizes:
        items = Transcript(SEED + count).items(count)
        megabytes = len(json.dumps(items)) / 1e6
        builds.append(f"{count:,} items: {build_cost(items) * 1e6:.2f} µs per item")
        for budget, found in zip(budgets, rows, strict=True):
            found.append((count, megabytes, measure(items, budget, arguments.repeats)))
    for budget, found in zip(budgets, rows, strict=True):
        print(table(found, budget), end="\n\n")
    print("Building a SizedItems (once per item, when it enters): " + "; ".join(builds))


if __name__ == "__main__":
    main()
