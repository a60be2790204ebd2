"""Every adapter converts a history in work proportional to its length, never its square.

Work is counted, not timed: the Python bytecode instructions the conversion executes (the
tracer counts every opcode of every frame, the framework's own code included) and the peak
memory it allocates. A conversion that copies a table at every position, or scans the
history once per item, does about sixteen times the work on a history four times as long;
a linear one about four times. The bound is 6, far from both.
"""

from __future__ import annotations

import gc
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

import pytest

from ctxpact.conformance.adapters import FRAMEWORK_MODULES, matched_projection
from ctxpact.reference import TypeAwareContextProjector
from ctxpact.spec import ContextBudget, JsonValue, copy_json

SHORT = 60
LONG = 4 * SHORT
#: The largest ratio of work a linear conversion may show for a history four times as long.
BOUND = 6.0


def history(turns: int) -> list[JsonValue]:
    """*turns* steps of an agent: a user turn, a Chat tool call and its result, in order."""
    items: list[JsonValue] = []
    for turn in range(turns):
        call = f"call-{turn}"
        entry: JsonValue = {
            "id": call,
            "type": "function",
            "function": {"name": "grep", "arguments": "{}"},
        }
        items += [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]},
            {"type": "message", "role": "assistant", "tool_calls": [entry]},
            {"type": "function_call_output", "call_id": call, "output": "found"},
        ]
    return items


def anthropic_history(turns: int) -> list[JsonValue]:
    """The same steps with Anthropic ``tool_use`` parts, which Strands carries."""
    items: list[JsonValue] = []
    for turn in range(turns):
        call = f"call-{turn}"
        use: JsonValue = {"type": "tool_use", "id": call, "name": "grep", "input": {}}
        items += [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]},
            {"type": "message", "role": "assistant", "content": [use]},
            {"type": "function_call_output", "call_id": call, "output": "found"},
        ]
    return items


class _Opcodes:
    """Counts the bytecode instructions executed while it is installed."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, frame: FrameType, event: str, _: object) -> Callable[..., Any]:
        frame.f_trace_opcodes = True
        if event == "opcode":
            self.count += 1
        return self


def work(convert: Callable[[list[JsonValue]], object], items: list[JsonValue]) -> tuple[int, int]:
    """The opcodes executed by ``convert(items)`` and the peak memory it allocated."""
    gc.collect()
    tracemalloc.start()
    counter = _Opcodes()
    sys.settrace(counter)
    try:
        convert(items)
    finally:
        sys.settrace(None)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return counter.count, peak


def assert_linear(
    convert: Callable[[list[JsonValue]], object],
    shape: Callable[[int], list[JsonValue]] = history,
) -> None:
    convert(shape(2))  # imports and caches, once
    short_ops, short_peak = work(convert, shape(SHORT))
    long_ops, long_peak = work(convert, shape(LONG))
    assert long_ops / short_ops < BOUND, (short_ops, long_ops)
    assert long_peak / short_peak < BOUND, (short_peak, long_peak)


def _quadratic_names(items: Sequence[JsonValue]) -> list[dict[str, str]]:
    """The defect of issue 15: the call-name table copied at every position."""
    names: dict[str, str] = {}
    seen = []
    for item in items:
        seen.append(dict(names))
        if isinstance(item, dict) and isinstance(item.get("call_id"), str):
            names[str(item["call_id"])] = "tool"
    return seen


def test_the_measure_catches_a_quadratic_conversion() -> None:
    with pytest.raises(AssertionError):
        assert_linear(_quadratic_names)


def test_the_measure_passes_a_linear_one() -> None:
    assert_linear(lambda items: [dict(item) for item in items if isinstance(item, dict)])


BUDGET = ContextBudget(max_items=20, max_recent_tool_results=2)


def unbudgeted(projector: Any) -> Callable[[list[JsonValue]], object]:
    """A wrapped trimmer without a budget: only the adapter's conversions and mapping run."""
    return lambda items: projector.project(items, None)


def _rematched(items: list[JsonValue]) -> object:
    """What an adapter does with copies a framework hands back (a stored session)."""
    copies = copy_json(items)
    assert isinstance(copies, list)
    return matched_projection(
        items, copies[1:], item_limit_applied=True, character_limit_applied=False
    )


def _conversions() -> list[tuple[str, Callable[[list[JsonValue]], object]]]:
    found: list[tuple[str, Callable[[list[JsonValue]], object]]] = [
        ("common.matched_projection", _rematched)
    ]
    if "langchain" in _installed():
        from ctxpact.conformance.adapters import langchain as lc  # noqa: PLC0415

        trimmer = lc.ctxpact_trimmer(TypeAwareContextProjector(), BUDGET)
        found += [
            ("langchain.to_langchain", lc.to_langchain),
            ("langchain.from_langchain", lambda items: lc.from_langchain(lc.to_langchain(items))),
            ("langchain.present", lambda items: [lc.present(item) for item in items]),
            (
                "langchain.TrimMessagesProjector",
                lambda i: lc.TrimMessagesProjector().project(i, None),
            ),
            ("langchain.ctxpact_trimmer", lambda items: trimmer(lc.to_langchain(items))),
        ]
    if "autogen" in _installed():
        import asyncio  # noqa: PLC0415

        from ctxpact.conformance.adapters import autogen as ag  # noqa: PLC0415

        def context(items: list[JsonValue]) -> object:
            view = ag.CtxpactChatCompletionContext(
                TypeAwareContextProjector(), BUDGET, ag.to_autogen(items)
            )
            return asyncio.run(view.get_messages())

        found += [
            ("autogen.to_autogen", ag.to_autogen),
            ("autogen.from_autogen", lambda items: ag.from_autogen(ag.to_autogen(items))),
            ("autogen.present", ag.present),
            (
                "autogen.BufferedContextProjector",
                lambda i: ag.BufferedContextProjector().project(i, None),
            ),
            ("autogen.CtxpactChatCompletionContext", context),
        ]
    if "strands" in _installed():
        from ctxpact.conformance.adapters import strands as sa  # noqa: PLC0415

        found += [
            ("strands.to_strands", lambda items: sa.to_strands(anthropic(items))),
            (
                "strands.from_strands",
                lambda items: sa.from_strands(sa.to_strands(anthropic(items))),
            ),
            ("strands.present", lambda items: [sa.present(item) for item in items]),
            (
                "strands.SlidingWindowProjector",
                lambda i: sa.SlidingWindowProjector().project(i, None),
            ),
        ]
    return found


def anthropic(items: list[JsonValue]) -> list[JsonValue]:
    """*items* of :func:`history` rewritten with Anthropic calls (same length, same ids)."""
    return anthropic_history(len(items) // 3)


def _installed() -> set[str]:
    import importlib  # noqa: PLC0415

    extras = set()
    for extra, module in FRAMEWORK_MODULES.items():
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        extras.add(extra)
    return extras


@pytest.mark.parametrize(
    "convert", [pytest.param(convert, id=name) for name, convert in _conversions()]
)
def test_conversion_is_linear(convert: Callable[[list[JsonValue]], object]) -> None:
    assert_linear(convert)
