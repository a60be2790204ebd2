"""The summary parser survives a fixed number of hostile inputs, at any call depth (PRS, JSON-7).

A seeded generator splices JSON objects, stray braces, quotes, escapes, deep nesting, huge
numbers and control characters; every input must give a StructuredSummary without raising,
also when the parser is called from deep in the stack. The count is fixed, so a run costs the
same every time; ``CTXPACT_RELIABILITY_SEED`` chooses the inputs.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable

from ctxpact.reference.compaction import parse_structured_summary
from ctxpact.spec import StructuredSummary

#: How many generated inputs each run parses.
INPUTS = 10_000
#: How many of them are parsed again from this many frames deep in the stack.
DEEP_INPUTS = 500
DEEP_FRAMES = 700
_SEED = int(os.environ.get("CTXPACT_RELIABILITY_SEED", "20260613"))

_FRAGMENTS = (
    "{",
    "}",
    "[",
    "]",
    '"',
    "\\",
    ":",
    ",",
    "\\u",
    "\\ud800",
    "NaN",
    "Infinity",
    "-",
    "1e999999",
    "0" * 5000,
    "null",
    "true",
    "\x00",
    "\n",
    "\u2028",
    "é",
    "漢",
    "```json",
    "```",
    '"goal"',
    '"pending":',
    "prose around it. ",
)


def _object(rng: random.Random) -> str:
    keys = ["goal", "completed", "pending", "decisions", "errors", "testResults", "x"]
    members = {
        rng.choice(keys): rng.choice(
            [
                "text",
                ["a", None, 1.5, {"k": "v"}],
                10 ** rng.randrange(1, 60),
                {"nested": ["deep"]},
                None,
            ]
        )
        for _ in range(rng.randrange(0, 5))
    }
    return json.dumps(members, ensure_ascii=rng.random() < 0.5)


def _nested(rng: random.Random) -> str:
    depth = rng.choice([10, 255, 256, 257, 1000, 5000])
    opening, closing = rng.choice([("[", "]"), ('{"a":', "}")])
    return "{" + '"goal":' + opening * depth + "1" + closing * depth + "}"


def hostile_input(rng: random.Random) -> str:
    """One input: fragments, objects and nestings spliced at random."""
    parts: list[str] = []
    for _ in range(rng.randrange(1, 12)):
        roll = rng.random()
        if roll < 0.5:
            parts.append(rng.choice(_FRAGMENTS))
        elif roll < 0.85:
            parts.append(_object(rng))
        elif roll < 0.95:
            parts.append(_nested(rng))
        else:
            parts.append("".join(chr(rng.randrange(0x110000)) for _ in range(rng.randrange(40))))
    return "".join(parts)


def _from_deep(frames: int, call: Callable[[], StructuredSummary]) -> StructuredSummary:
    return call() if frames == 0 else _from_deep(frames - 1, call)


def test_the_parser_never_raises_on_generated_inputs() -> None:
    rng = random.Random(_SEED)  # noqa: S311 - reproducible inputs
    parsed = 0
    for number in range(INPUTS):
        text = hostile_input(rng)
        result = parse_structured_summary(text)
        assert isinstance(result, StructuredSummary), (number, text[:200])
        parsed += result.parsed
        if number < DEEP_INPUTS:
            deep = _from_deep(DEEP_FRAMES, lambda text=text: parse_structured_summary(text))  # type: ignore[misc]  # a default binds the loop's value
            assert deep == result, (number, text[:200])
    # The generator reaches both outcomes: objects found, and none.
    assert 0 < parsed < INPUTS


def test_nesting_up_to_the_limit_parses_from_deep_in_the_stack() -> None:
    # JSON-7: 256 levels are parseable, 257 are not, whatever the caller's depth.
    for depth, expected in ((256, True), (257, False)):
        text = '{"goal": "g", "x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"
        assert parse_structured_summary(text).parsed is expected
        deep = _from_deep(DEEP_FRAMES, lambda text=text: parse_structured_summary(text))  # type: ignore[misc]  # a default binds the loop's value
        assert deep.parsed is expected, depth
