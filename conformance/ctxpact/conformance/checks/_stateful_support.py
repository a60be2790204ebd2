"""What the memory and session-store checks share: identity of JSON values, mutation, inputs.

Identity is JSON-10's: two values are identical when their compact JSON texts are the same,
so member order (JSON-3) and the difference between ``1`` and ``1.0`` (JSON-5) count.
:func:`first_difference` says where two values stop being identical, in the words of those
clauses, so that a failure reads like the clause it breaks.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from types import FrameType
from typing import TypeVar, cast

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, run_state_machine_as_test

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance.strategies import texts
from ctxpact.spec import MAX_INTEGER_DIGITS, JsonValue, MemorySnapshot, encode_json

T = TypeVar("T")

#: Added by :func:`scramble` to every object and array it reaches.
MUTATION_MARK = "ctxpact-conformance-mutation"

#: Summaries on the edge of "blank" (§1.4): Java's trim removes U+0000..U+0020 and nothing else.
EDGE_SUMMARIES = (
    "",
    " ",
    "\t\n\r ",
    "\x00\x1f",
    "\u00a0",
    "\u2003",
    "\u3000",
    " padded ",
    "## Goal\nShip it",
    "\U0001f600 \u65e5\u672c",
)

#: Items whose member order, number forms and shapes a memory or store must keep exactly.
EDGE_ITEMS: tuple[JsonValue, ...] = (
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
    {"z": 1, "a": 1.0, "m": [-0.0, 2**70, 1e16, 5e-324]},
    {"type": "function_call_output", "call_id": "call-1", "output": None},
    {"type": "function_call", "call_id": "call-1", "name": "read_file", "arguments": "{}"},
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {"role": "user", "content": "a chat-style user message"},
    [1, "two", None, True, {"b": False, "a": []}],
    "a plain string item",
    "",
    0,
    1.0,
    -(2**80),
    True,
    None,
)


def kind(value: object) -> str:  # noqa: PLR0911 - one return per JSON type
    """The JSON type of *value*, as JSON-5 tells integers and non-integers apart."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "non-integer"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return f"not a JSON value ({type(value).__name__})"


def text(value: object, limit: int = 200) -> str:
    """The compact JSON text of *value* (JSON-6), or its ``repr`` when it is not JSON."""
    try:
        rendered = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        rendered = repr(value)
    return rendered if len(rendered) <= limit else f"{rendered[:limit]}…"


def identical(first: object, second: object) -> bool:
    """Whether two values are identical (JSON-10)."""
    return first_difference(first, second) is None


def first_difference(expected: object, actual: object, path: str = "$") -> str | None:
    """Where *actual* stops being identical to *expected*, or ``None`` when it is identical."""
    try:
        same = _compact(expected) == _compact(actual)
    except (TypeError, ValueError, RecursionError):
        same = False
    return None if same else _walk(expected, actual, path)


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _walk(  # noqa: C901, PLR0911 - one branch per JSON type
    expected: object, actual: object, path: str
) -> str | None:
    expected_kind, actual_kind = kind(expected), kind(actual)
    if expected_kind != actual_kind:
        note = (
            " (JSON-5: 1 and 1.0 are different items)"
            if {expected_kind, actual_kind}
            == {
                "integer",
                "non-integer",
            }
            else ""
        )
        return (
            f"at {path} expected the {expected_kind} {text(expected, 80)} but got the "
            f"{actual_kind} {text(actual, 80)}{note}"
        )
    if isinstance(expected, dict) and isinstance(actual, dict):
        expected_names, actual_names = list(expected), list(actual)
        if expected_names != actual_names:
            if sorted(expected_names) == sorted(actual_names):
                return (
                    f"at {path} expected the members in the order {expected_names} but got "
                    f"{actual_names} (JSON-3: member order is kept)"
                )
            return f"at {path} expected the members {expected_names} but got {actual_names}"
        for name in expected_names:
            found = _walk(expected[name], actual[name], f"{path}.{name}")
            if found is not None:
                return found
        return None
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        if len(expected) != len(actual):
            return (
                f"at {path} expected {len(expected)} element(s) {text(expected, 120)} but got "
                f"{len(actual)} {text(actual, 120)}"
            )
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            found = _walk(left, right, f"{path}[{index}]")
            if found is not None:
                return found
        return None
    if text(expected) != text(actual):
        return f"at {path} expected {text(expected, 80)} but got {text(actual, 80)}"
    return None


def snapshot_difference(expected: MemorySnapshot, actual: object) -> str | None:
    """Where a memory snapshot stops being identical to *expected* (MEM-9, MEM-13)."""
    if not isinstance(actual, MemorySnapshot):
        return f"expected a MemorySnapshot but got {type(actual).__name__}"
    found = first_difference(list(expected.items), list(actual.items), "$.items")
    if found is not None:
        return found
    if expected.summary != actual.summary:
        return f"expected the summary {expected.summary!r} but got {actual.summary!r}"
    return None


#: How deep every implementation must accept items to be (JSON-8).
MAX_DEPTH = 256


def nested(depth: int = MAX_DEPTH) -> JsonValue:
    """A value nested *depth* levels deep (JSON-7's measure), arrays and objects in turn."""
    value: JsonValue = "the bottom"
    for level in range(depth):
        value = [value] if level % 2 else {"level": value}
    return value


#: How deep in the stack a call "from deep in the stack" is made, in frames (JSON-17): past
#: where a recursive walk of 256 levels fails (the interpreter's limit is 1000 frames), with
#: room for the implementation's own frames.
DEEP_FRAMES = 850


def _depth() -> int:
    frame: FrameType | None = sys._getframe()  # noqa: SLF001 - the documented way to see the stack
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def from_deep(call: Callable[[], T], depth: int = DEEP_FRAMES) -> T:
    """*call*'s result, called with *depth* frames on the stack (or where it is, if deeper)."""
    remaining = depth - _depth()

    def descend(frames: int) -> T:
        return call() if frames <= 0 else descend(frames - 1)

    return descend(remaining)


def beyond_limits() -> list[tuple[str, JsonValue]]:
    """Items beyond JSON-17's limits, each with what is wrong with it (fresh every call)."""
    return [
        (f"nested {MAX_DEPTH + 1} levels deep", nested(MAX_DEPTH + 1)),
        ("nested 1000 levels deep", nested(1000)),
        (
            f"holding an integer of {MAX_INTEGER_DIGITS + 1} digits",
            {"n": 10**MAX_INTEGER_DIGITS},
        ),
    ]


def identical_text(value: object) -> str:
    """The compact JSON text of *value*, at any depth (JSON-10 identity), or why it has none."""
    try:
        return encode_json(cast("JsonValue", value))
    except (TypeError, ValueError) as error:
        return f"<not JSON: {error}>"


def nesting_depth(value: object) -> int:
    """The greatest number of arrays and objects that enclose one point of *value* (JSON-7)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, dict):
            stack.extend((member, depth + 1) for member in current.values())
            deepest = max(deepest, depth + 1)
        elif isinstance(current, list | tuple):
            stack.extend((member, depth + 1) for member in current)
            deepest = max(deepest, depth + 1)
    return deepest


def scramble(value: object) -> None:
    """Change every object and array inside *value* in place, as a careless caller might."""
    if isinstance(value, dict):
        for member in list(value.values()):
            scramble(member)
        value[MUTATION_MARK] = True
    elif isinstance(value, list):
        for member in list(value):
            scramble(member)
        value.append(MUTATION_MARK)
    elif isinstance(value, tuple):
        for member in value:
            scramble(member)


def summaries() -> st.SearchStrategy[str | None]:
    """Summaries: none, prose in several scripts, and the blank edge cases."""
    return st.none() | texts() | st.sampled_from(EDGE_SUMMARIES)


#: Small JSON values: cheap to draw, so that a state machine spends its time on steps.
_small_values: st.SearchStrategy[JsonValue] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=4,
)


def items() -> st.SearchStrategy[JsonValue]:
    """Memory items: the realistic and adversarial ones often, any small JSON value else."""
    return st.sampled_from(EDGE_ITEMS) | _small_values


def run_machine(
    context: CheckContext,
    machine: Callable[[], RuleBasedStateMachine],
    *,
    step_share: float = 1.0,
) -> None:
    """Run a state machine under the suite's settings (steps become the counterexample).

    A machine whose steps are costly (a file write, two schema validations) takes
    *step_share* of the profile's steps per example, and never fewer than five.
    """
    steps = max(5, round(context.settings.stateful_step_count * step_share))
    # Hypothesis annotates the factory as a class; any callable returning a machine works.
    run_state_machine_as_test(
        cast("type[RuleBasedStateMachine]", machine),
        settings=settings(context.settings, stateful_step_count=steps),
    )
