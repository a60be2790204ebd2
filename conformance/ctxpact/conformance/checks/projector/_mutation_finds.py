"""Projector checks found by mutation testing (docs/mutation.md).

The budgets at the edges of each stage, compared with the reference (PRJ-15 .. PRJ-23,
PRJ-32, PRJ-33, T1-1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance.checks.projector._common import (
    Test,
    _expect_same,
    _for_target,
    _project,
    _reference,
    exact,
)
from ctxpact.conformance.checks.projector._examples import (
    _tool_result,
    _user,
    carriers,
    four_results,
    paired,
    reasoned,
    summary_and_tail,
    tier1_example,
)
from ctxpact.reference.projection import (
    approx_chars,
)
from ctxpact.spec import (
    ContextBudget,
    ContextProjector,
    JsonValue,
)


def _split_unit() -> list[JsonValue]:
    """The newest unit is a call and its result with a user message between them (PAIR-3)."""
    return [
        _user("go"),
        {"type": "function_call", "call_id": "c1", "name": "read_file", "arguments": "{}"},
        _user("meanwhile"),
        _tool_result("c1", "done"),
    ]


def _unnamed_calls() -> list[JsonValue]:
    """Calls without a call id or without a name, and results without a call id (T1-5, T1-6).

    The last call of id ``d1`` has no name: the name is the one of the last call that has both
    (T1-5). The Chat tool message without a call id has the smallest placeholder of its shape.
    """
    return [
        {"type": "function_call", "name": "read", "arguments": "{}"},
        {"type": "function_call_output", "output": "a" * 20},
        {"type": "function_call", "call_id": "n1", "arguments": "{}"},
        _tool_result("n1", "b" * 20),
        {"type": "function_call", "call_id": "d1", "name": "grep", "arguments": "{}"},
        {"type": "function_call", "call_id": "d1", "arguments": "{}"},
        _tool_result("d1", "c" * 20),
        {"role": "tool", "content": "e" * 30},
        _tool_result("c9", "newest"),
    ]


def _single_part_carriers() -> list[JsonValue]:
    """Anthropic carriers of one tool result each: a placeholder's content is a one-part array."""
    return [
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "read", "input": {}}],
        },
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x" * 50}],
        },
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t2", "name": "grep", "input": {}}],
        },
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "y"}],
        },
    ]


#: The transcripts of :func:`boundaries`: plain texts, tool calls with their results in three
#: shapes, placeholders already there, reasoning, a unit split by another item, calls without
#: a name or an id, one-part carriers; short enough that every budget at a boundary of them
#: can be tried.
_BOUNDARY_TRANSCRIPTS: tuple[Callable[[], list[JsonValue]], ...] = (
    lambda: ["aa", "b", "cccc", "dd", "e"],
    summary_and_tail,
    paired,
    carriers,
    tier1_example,
    four_results,
    reasoned,
    _split_unit,
    _unnamed_calls,
    _single_part_carriers,
)


def _fits(sizes: Sequence[int]) -> set[int]:
    """Every character budget at which a prefix plus a suffix fits exactly, or misses by one."""
    count = len(sizes)
    heads = [sum(sizes[:i]) for i in range(count + 1)]
    tails = [sum(sizes[i:]) for i in range(count + 1)]
    exact = {head + tail for i, head in enumerate(heads) for tail in tails[i:]}
    return exact | {limit - 1 for limit in exact if limit > 0}


def _boundary_budgets(
    reference: ContextProjector, items: Sequence[JsonValue]
) -> list[ContextBudget]:
    """Budgets at every limit where an item fits exactly or misses by one character.

    The sizes are the items' as given (Tier-1 off) or as Tier-1 leaves them (keeping none,
    one, or more results than there are); the pinned prefix is 0 or 2, and the item limits
    go from 0 to all, alone and, one short of all, with each character limit.
    """
    budgets: list[ContextBudget] = []
    seen: set[tuple[int, ...]] = set()
    for recent in (None, 0, 1, 9):
        tiered = reference.project(items, ContextBudget(max_recent_tool_results=recent)).items
        sizes = tuple(approx_chars(item) for item in tiered)
        if recent is not None and sizes in seen:
            # Tier-1 clears nothing more here: the limits would repeat, the tier alone not.
            budgets.append(ContextBudget(max_recent_tool_results=recent))
            continue
        seen.add(sizes)
        limits = sorted(_fits(sizes))
        budgets.extend(
            ContextBudget(
                max_approx_chars=limit, pinned_prefix_items=pinned, max_recent_tool_results=recent
            )
            for limit in limits
            for pinned in (0, 2)
        )
        budgets.extend(
            ContextBudget(
                max_items=max(len(items) - 1, 1),
                max_approx_chars=limit,
                pinned_prefix_items=1,
                max_recent_tool_results=recent,
            )
            for limit in limits
        )
    budgets.extend(
        ContextBudget(max_items=limit, pinned_prefix_items=pinned)
        for limit in range(len(items) + 1)
        for pinned in range(3)
    )
    return budgets


@exact(
    "projector.exact.boundaries",
    "PRJ-15",
    "PRJ-16",
    "PRJ-18",
    "PRJ-20",
    "PRJ-21",
    "PRJ-22",
    "PRJ-23",
    "PRJ-32",
    "PRJ-33",
    "T1-1",
)
def boundaries(context: CheckContext) -> Test:
    """The reference's items and report at every limit that an item fits exactly.

    Each budget's ``maxApproxChars`` is a sum of the sizes of a prefix and a suffix of the items
    (as given, or as Tier-1 leaves them), or one less, so that some item fits with no character
    to spare or misses by one; each ``maxItems`` is a count from 0 to all. A stage that keeps an
    item only when it fits with room left, that counts one character off, or that skips on a
    lower bound of the size, gives another result at one of them.
    """
    reference = _reference(context)

    def test() -> None:
        for build in _BOUNDARY_TRANSCRIPTS:
            items = build()
            budgets = _boundary_budgets(reference, items)
            # Without tiers many budgets coincide: each distinct one is tried once.
            for target_budget in dict.fromkeys(_for_target(context, b) for b in budgets):
                want = reference.project(items, target_budget)
                got = _project(context, build(), target_budget)
                _expect_same(context, "compared with the reference", got, want.items, want.report)

    return test
