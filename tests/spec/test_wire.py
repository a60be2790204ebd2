"""What each provider rejects, as data (§1.6, WIRE-1 .. WIRE-16)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance.vectors import Vector, vectors_for
from ctxpact.spec import (
    PROVIDERS,
    JsonObject,
    JsonValue,
    WireProblem,
    WireProblemError,
    compact_json,
    pairing,
    wire_problems,
)
from ctxpact.spec._wire import (
    NO_TOOL_CALL_FOUND,
    TOOL_CALLS_UNANSWERED,
    TOOL_MESSAGE_WITHOUT_CALLS,
    TOOL_USE_UNANSWERED,
)


def user(text: str = "u") -> JsonObject:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def assistant(text: str = "a") -> JsonObject:
    return {"type": "message", "role": "assistant", "content": [{"type": "text", "text": text}]}


# -- the vectors -------------------------------------------------------------------------------


@pytest.mark.parametrize("vector", vectors_for("wire_problems"), ids=lambda v: v.id)
def test_every_wire_vector(vector: Vector) -> None:
    items = copy.deepcopy(vector.input["items"])
    found = wire_problems(items, vector.input["provider"])
    assert [
        {"rule": p.rule, "position": p.position, "part": p.part, "message": p.message}
        for p in found
    ] == vector.expected["problems"]
    assert items == vector.input["items"]  # never modified


def test_the_vectors_cover_every_rule_and_provider() -> None:
    vectors = vectors_for("wire_problems")
    rules = {p["rule"] for v in vectors for p in v.expected["problems"]}
    assert rules == {f"WIRE-{n}" for n in range(2, 17) if n != 12}
    assert {v.input["provider"] for v in vectors} == set(PROVIDERS)
    valid = {v.input["provider"] for v in vectors if not v.expected["problems"]}
    assert valid == set(PROVIDERS)


# -- the provider's words ----------------------------------------------------------------------


def test_a_problem_reads_like_a_validation_error() -> None:
    (problem,) = wire_problems(
        [user(), {"type": "function_call_output", "call_id": "c"}], "openai-responses"
    )
    assert problem == WireProblem(
        rule="WIRE-4",
        provider="openai-responses",
        position=1,
        part=None,
        item={},
        message=NO_TOOL_CALL_FOUND.format(call_id="c"),
    )
    assert problem.path == "$[1]"
    assert str(problem) == (
        "$[1]: No tool call found for function call output with call_id c. "
        "(WIRE-4, openai-responses)"
    )
    assert problem.item == {"type": "function_call_output", "call_id": "c"}


def test_the_provider_texts_are_the_ones_users_report() -> None:
    # Quoted from the providers' 400 answers (SPEC.md §1.6); the typo is OpenAI's.
    assert "preceeding message with 'tool_calls'" in TOOL_MESSAGE_WITHOUT_CALLS
    assert TOOL_CALLS_UNANSWERED.endswith("did not have response messages: {ids}")
    assert TOOL_USE_UNANSWERED.startswith("messages.{position}: `tool_use` ids were found")


def test_an_unknown_provider_is_an_error_naming_the_known_ones() -> None:
    with pytest.raises(WireProblemError, match="'openai-responses', 'openai-chat', 'anthropic'"):
        wire_problems([], "gemini")


@pytest.mark.parametrize("items", ["text", b"bytes", {"a": 1}, 7])
def test_a_non_list_is_an_error(items: object) -> None:
    with pytest.raises(WireProblemError, match="Expected a list of items"):
        wire_problems(items, "anthropic")  # type: ignore[arg-type]  # wrong on purpose


def test_a_tuple_of_items_is_a_list() -> None:
    assert wire_problems((user(), assistant()), "anthropic") == ()


# -- valid transcripts, and what breaking a pair does ------------------------------------------


@st.composite
def step(draw: st.DrawFn, provider: str, counter: list[int]) -> list[JsonValue]:
    """One tool-calling step in *provider*'s shape, every call answered."""
    ids = []
    for _ in range(draw(st.integers(1, 3))):
        counter[0] += 1
        ids.append(f"call-{counter[0]}")
    if provider == "openai-responses":
        items: list[JsonValue] = []
        if draw(st.booleans()):
            items.append({"type": "reasoning", "id": f"rs_{ids[0]}", "summary": []})
        items += [
            {"type": "function_call", "call_id": i, "name": "t", "arguments": "{}"} for i in ids
        ]
        return items + [{"type": "function_call_output", "call_id": i, "output": "o"} for i in ids]
    if provider == "openai-chat":
        head: JsonValue = {
            "type": "message",
            "role": "assistant",
            "tool_calls": [{"id": i, "type": "function", "function": {"name": "t"}} for i in ids],
        }
        answers: list[JsonValue] = [
            {"role": "tool", "tool_call_id": i, "content": "o"} for i in draw(st.permutations(ids))
        ]
        return [head, *answers]
    uses: list[JsonValue] = [{"type": "text", "text": "on it"}]
    uses += [{"type": "tool_use", "id": i, "name": "t", "input": {}} for i in ids]
    results: list[JsonValue] = [{"type": "tool_result", "tool_use_id": i} for i in ids]
    if draw(st.booleans()):
        results.append({"type": "text", "text": "and a remark"})
    return [
        {"type": "message", "role": "assistant", "content": uses},
        {"type": "message", "role": "user", "content": results},
    ]


@st.composite
def transcripts(draw: st.DrawFn, provider: str) -> list[JsonValue]:
    """Turns of user input, tool-calling steps and answers, valid for *provider*."""
    counter = [0]
    items: list[JsonValue] = []
    for _ in range(draw(st.integers(0, 3))):
        items.append(user())
        for _ in range(draw(st.integers(0, 2))):
            items += draw(step(provider, counter))
        if draw(st.booleans()):
            items.append(assistant())
    return items


PROVIDER = st.sampled_from(PROVIDERS)


@given(data=st.data(), provider=PROVIDER)
@example(data=None, provider="anthropic")
def test_generated_transcripts_are_valid(data: st.DataObject | None, provider: str) -> None:
    items = [user()] if data is None else data.draw(transcripts(provider))
    assert wire_problems(items, provider) == ()


def _without(items: list[JsonValue], position: int) -> list[JsonValue]:
    return items[:position] + items[position + 1 :]


@given(data=st.data(), provider=PROVIDER)
@example(data=None, provider="openai-chat")
def test_splitting_any_unit_is_a_problem(data: st.DataObject | None, provider: str) -> None:
    """Dropping one position of a unit that pairs a call with a result breaks the list."""
    if data is None:
        items: list[JsonValue] = [
            user(),
            {"type": "message", "role": "assistant", "tool_calls": [{"id": "c", "type": "f"}]},
            {"role": "tool", "tool_call_id": "c", "content": "o"},
        ]
    else:
        items = data.draw(transcripts(provider))
    found = pairing(items)
    paired = {link.position for link in found.results if link.call is not None}
    paired |= {link.call for link in found.results if link.call is not None}
    for position in sorted(paired):
        broken = _without(items, position)
        assert wire_problems(broken, provider), (position, compact_json(broken))


def test_a_system_message_between_two_turns_is_passed_over_by_anthropic() -> None:
    system: JsonValue = {"type": "message", "role": "system", "content": "summary"}
    uses: JsonValue = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t", "name": "x", "input": {}}],
    }
    results: JsonValue = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}
    assert wire_problems([user(), uses, system, results], "anthropic") == ()
    # For Chat, a system message between the calls and their answers breaks the run.
    calls: JsonValue = {"role": "assistant", "tool_calls": [{"id": "t", "type": "function"}]}
    answer: JsonValue = {"role": "tool", "tool_call_id": "t", "content": "o"}
    found = wire_problems([user(), calls, system, answer], "openai-chat")
    assert [(p.rule, p.position) for p in found] == [("WIRE-10", 1), ("WIRE-8", 3)]
