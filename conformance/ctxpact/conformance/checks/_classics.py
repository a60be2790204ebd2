"""What the checks of the pair-keeping claims share: the orphaning bugs trimmers really have.

Each transcript is one a provider's API accepts (``wire_problems`` finds nothing), ending with
a step of parallel calls answered together, so that the newest unit has several items. The
budgets cut where the field's trimmers cut: the newest item alone, inside the run of parallel
results, exactly the newest unit's item count or size and one below, and a pinned prefix that
ends inside a unit. The checks of pair integrity and wire validity use them as explicit
examples, so that the derandomised profiles meet every one of them on every run. Each call
builds the items afresh: a target that mutates its input must not change the next example.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from hypothesis import example

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim
from ctxpact.conformance._pairing import pairs
from ctxpact.conformance._target import TargetError, check_claim_options
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import PROVIDERS, ContextBudget, JsonObject, JsonValue

Transcript = list[JsonValue]
Test = TypeVar("Test", bound=Callable[[], None])
#: (provider, items, budget) for a projector; the provider's name is that of SPEC.md §1.6.
Classic = tuple[str, Transcript, ContextBudget]


def user(text: str) -> JsonObject:
    """A user input item."""
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def assistant(text: str) -> JsonObject:
    """An assistant message without tool calls."""
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text}],
    }


def responses_transcript() -> Transcript:
    """Responses: reasoning with its call, then two parallel calls answered after both."""
    return [
        user("fix the build"),
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "look"}]},
        {"type": "function_call", "call_id": "c1", "name": "read_file", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "x" * 40},
        user("and the tests?"),
        {"type": "function_call", "call_id": "c2", "name": "run_tests", "arguments": "{}"},
        {"type": "function_call", "call_id": "c3", "name": "grep", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c2", "output": "3 failed"},
        {"type": "function_call_output", "call_id": "c3", "output": "y" * 40},
    ]


def chat_transcript() -> Transcript:
    """Chat: two steps in one turn, the second an assistant message with two tool calls."""
    return [
        user("fix the build"),
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "x" * 40},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c2",
                    "type": "function",
                    "function": {"name": "run_tests", "arguments": "{}"},
                },
                {"id": "c3", "type": "function", "function": {"name": "grep", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "c2", "content": "3 failed"},
        {"role": "tool", "tool_call_id": "c3", "content": "y" * 40},
    ]


def anthropic_transcript() -> Transcript:
    """Anthropic: tool_use parts, then the user message whose leading parts answer them."""
    return [
        user("fix the build"),
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "reading"},
                {"type": "tool_use", "id": "c1", "name": "read_file", "input": {"path": "a.py"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "c1", "content": "x" * 40},
                {"type": "text", "text": "and the tests?"},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "c2", "name": "run_tests", "input": {}},
                {"type": "tool_use", "id": "c3", "name": "grep", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "c2", "content": "3 failed"},
                {"type": "tool_result", "tool_use_id": "c3", "content": "y" * 40},
            ],
        },
        assistant("done"),
    ]


#: Each provider's classic transcript.
TRANSCRIPTS: dict[str, Callable[[], Transcript]] = {
    "openai-responses": responses_transcript,
    "openai-chat": chat_transcript,
    "anthropic": anthropic_transcript,
}


def _last_multi_unit(items: Transcript) -> tuple[int, ...]:
    return [unit for unit in pairs(items).units if len(unit) > 1][-1]


def budgets(items: Transcript) -> list[ContextBudget]:
    """The classic cuts of *items*, aimed at its last unit of several items."""
    unit = _last_multi_unit(items)
    tail = len(items) - unit[0]
    size = sum(approx_chars(items[p]) for p in range(unit[0], len(items)))
    return [
        ContextBudget(max_items=1),
        ContextBudget(max_items=tail - 1),
        ContextBudget(max_items=tail),
        ContextBudget(max_approx_chars=size - 1),
        ContextBudget(max_items=len(items) - 1),
        ContextBudget(max_items=len(items) - 1, pinned_prefix_items=2),
        ContextBudget(max_items=len(items) - 1, max_recent_tool_results=0),
    ]


def classic_cases(*, limit: int | None = None) -> list[Classic]:
    """Every provider's transcript with each of its classic budgets (the first *limit* each)."""
    return [
        (provider, build(), budget)
        for provider, build in TRANSCRIPTS.items()
        for budget in budgets(build())[:limit]
    ]


def with_examples(test: Test, argument: str, values: Sequence[object]) -> Test:
    """*test*, a Hypothesis property, with each of *values* as an explicit *argument*.

    Hypothesis runs the explicit examples it finds on the ``@given`` wrapper; the inner test
    shares that list only when it had ``@example`` s of its own before ``@given`` wrapped it,
    so the list is set on both.
    """
    for value in values:
        example(**{argument: value})(test)
    found = test.hypothesis_explicit_examples  # type: ignore[attr-defined]  # set just above
    test.hypothesis.inner_test.hypothesis_explicit_examples = found  # type: ignore[attr-defined]
    return test


#: Why a claimed wire-valid check cannot run: the claim names no provider.
NO_PROVIDERS = (
    "the target claims wire-valid, but the check needs options={'providers': [...]}, the "
    f"providers the claim is made for (among {', '.join(PROVIDERS)})"
)


def claimed_providers(context: CheckContext) -> tuple[str, ...] | str:
    """``options["providers"]``, the providers of the wire-valid claim, or why they are unusable.

    Missing providers, or names that are not those of §1.6, leave the claim uncheckable: the
    check then errors (``ctxpact check`` refuses unknown names before any check runs).
    """
    if context.options.get("providers") is None:
        return NO_PROVIDERS
    try:
        check_claim_options({Claim.WIRE_VALID}, context.options)
    except TargetError as error:
        return f"the target claims wire-valid, but {error}"
    return tuple(str(provider) for provider in context.options["providers"])
