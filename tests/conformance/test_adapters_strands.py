"""The Strands adapter: conversions both ways and the sliding window as a projector."""

from __future__ import annotations

import pytest

pytest.importorskip("strands")

from hypothesis import example, given
from strands.types.content import Message

from ctxpact.conformance.adapters import (
    UnsupportedItemError,
    UnsupportedMessageError,
)
from ctxpact.conformance.adapters import strands as sa
from ctxpact.conformance.adapters._testing import (
    carried,
    check_known_findings,
    identical,
    orphans,
    text,
    tool_result,
    user,
)
from ctxpact.conformance.strategies import transcripts
from ctxpact.spec import ContextBudget, JsonValue

#: Two turns, each a call and its result; trimming to the newest item orphans the last result.


def tool_use(call_id: str, name: str = "read_file") -> JsonValue:
    return {"type": "tool_use", "id": call_id, "name": name, "input": {"path": "a.txt"}}


def assistant(*parts: JsonValue) -> JsonValue:
    return {"type": "message", "role": "assistant", "content": list(parts)}


EVERY_SHAPE: list[JsonValue] = [
    user("read a.txt"),
    assistant(text("reading"), tool_use("t1"), tool_use("t2", "ls")),
    tool_result("t1", "alpha 🙂"),
    tool_result("t2", {"files": ["a", "b"], "count": 2.5}),
    tool_result("t3", None),
    assistant(text("done")),
]
SLIDING = "strands-agents:SlidingWindowConversationManager"


@given(items=transcripts())
@example(items=EVERY_SHAPE)
def test_a_round_trip_gives_identical_items_or_names_what_it_cannot_carry(
    items: list[JsonValue],
) -> None:
    error: UnsupportedItemError | None = None
    messages = []
    try:
        messages = sa.to_strands(items)
    except UnsupportedItemError as raised:
        error = raised
    if error is not None:
        assert 0 <= error.index < len(items)
        assert error.item is items[error.index]
        assert f"at $[{error.index}]: {error.reason}" in str(error)
        return
    assert identical(sa.from_strands(messages), items)


@given(items=transcripts().map(lambda items: [i for i in items if carried(sa.to_strands, i)]))
@example(items=EVERY_SHAPE)
def test_carried_items_come_back_identical(items: list[JsonValue]) -> None:
    assert identical(sa.from_strands(sa.to_strands(items)), items)


def test_items_become_converse_messages() -> None:
    messages = sa.to_strands(EVERY_SHAPE)
    assert messages[1] == {
        "role": "assistant",
        "content": [
            {"text": "reading"},
            {"toolUse": {"toolUseId": "t1", "name": "read_file", "input": {"path": "a.txt"}}},
            {"toolUse": {"toolUseId": "t2", "name": "ls", "input": {"path": "a.txt"}}},
        ],
    }
    assert messages[3]["content"][0]["toolResult"]["content"] == [
        {"json": {"files": ["a", "b"], "count": 2.5}}
    ]


def test_one_message_of_several_results_reads_as_several_items() -> None:
    message: Message = {
        "role": "user",
        "content": [
            {"toolResult": {"toolUseId": "a", "content": [{"text": "1"}], "status": "success"}},
            {"toolResult": {"toolUseId": "b", "content": [{"text": "2"}], "status": "success"}},
        ],
    }
    assert sa.from_strands([message]) == [tool_result("a", "1"), tool_result("b", "2")]


@pytest.mark.parametrize(
    ("item", "reason"),
    [
        ({"type": "message", "role": "system", "content": [text("x")]}, 'role "system"'),
        ({"type": "message", "role": "user", "content": "x"}, "not an array of parts"),
        (
            {
                "type": "message",
                "role": "assistant",
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            "members ['content'] are missing",
        ),
        (
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
            "function_call",
        ),
        (user("x") | {"content": [tool_use("t")]}, "content[0] is"),  # type: ignore[operator]
    ],
)
def test_what_strands_cannot_carry_is_named(item: JsonValue, reason: str) -> None:
    with pytest.raises(UnsupportedItemError, match=r"at \$\[1\]") as raised:
        sa.to_strands([user("first"), item])
    assert reason in raised.value.reason


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ({"role": "user", "content": [{"image": {"format": "png"}}]}, "['image'] block"),
        (
            {
                "role": "user",
                "content": [
                    {
                        "toolResult": {
                            "toolUseId": "t",
                            "content": [{"text": "x"}],
                            "status": "error",
                        }
                    }
                ],
            },
            'status "error"',
        ),
        ({"role": "user", "content": [{"text": "x"}], "metadata": {}}, "['metadata']"),
    ],
)
def test_what_ctxpact_cannot_carry_is_named(message: Message, reason: str) -> None:
    with pytest.raises(UnsupportedMessageError, match=r"at \[1\]") as raised:
        sa.from_strands([{"role": "user", "content": [{"text": "first"}]}, message])
    assert reason in raised.value.reason


# -- the sliding window as a projector ----------------------------------------------------


def test_the_window_starts_at_a_user_message_or_a_call_and_keeps_pairs() -> None:
    # No plain user message after position 1: the fallback cuts before the toolUse message.
    projection = sa.SlidingWindowProjector().project(EVERY_SHAPE, ContextBudget(max_items=5))
    assert projection.items == tuple(EVERY_SHAPE[1:])
    assert orphans(EVERY_SHAPE, projection) == []
    items = [*EVERY_SHAPE, user("next")]
    projection = sa.SlidingWindowProjector().project(items, ContextBudget(max_items=3))
    assert projection.items == (items[-1],)
    assert orphans(items, projection) == []


def test_without_a_trim_point_the_window_keeps_everything() -> None:
    items = [assistant(text(str(n))) for n in range(6)]
    projection = sa.SlidingWindowProjector().project(items, ContextBudget(max_items=2))
    assert len(projection.items) == 6
    assert "unable to trim conversation context" in projection.report.notes[-1]


def test_a_user_message_between_a_call_and_its_result_orphans_the_result() -> None:
    """The trim point is checked alone: a plain user message is accepted as the new start
    though a later toolResult's toolUse lies before it (the pair-integrity finding)."""
    items = [user("go"), assistant(tool_use("t1")), user("meanwhile"), tool_result("t1", "x")]
    projection = sa.SlidingWindowProjector().project(items, ContextBudget(max_items=2))
    assert projection.items == (items[2], items[3])
    assert orphans(items, projection) == [3]


def test_the_sliding_window_passes_the_generic_checks_but_its_known_findings() -> None:
    check_known_findings(SLIDING)


# -- SummarizingConversationManager as a compact policy ------------------------------------

SUMMARIZING = (
    "strands-agents:SummarizingConversationManager(summary_ratio=0.5, preserve_recent_messages=4)"
)


def test_the_summarizing_policy_keeps_the_tail_and_the_model_s_summary() -> None:
    from ctxpact.conformance import ModelAnswer, ScriptedModelClient  # noqa: PLC0415
    from ctxpact.spec import MemorySnapshot  # noqa: PLC0415

    client = ScriptedModelClient([ModelAnswer(output="so far")])
    policy = sa.SummarizingCompactPolicy(client, summary_ratio=0.5, preserve_recent_messages=2)
    snapshot = MemorySnapshot(items=[user(f"turn {n}") for n in range(6)], summary="before")
    assert policy.should_compact(snapshot)
    result = policy.compact(snapshot)
    assert result.memory is not None
    assert result.summary == result.memory.summary == "so far"
    assert list(result.memory.items) == list(snapshot.items[-4:])  # 3 of 7 summarized
    assert result.memory.items[-1] is snapshot.items[-1]
    (prompt,) = client.prompts
    assert prompt.model == sa.MODEL_NAME
    assert "before" in str(prompt.items)  # the previous summary is summarized again


def test_the_summarizing_policy_that_finds_nothing_to_summarize_leaves_the_memory() -> None:
    from ctxpact.conformance import ScriptedModelClient  # noqa: PLC0415
    from ctxpact.spec import MemorySnapshot  # noqa: PLC0415

    policy = sa.SummarizingCompactPolicy(ScriptedModelClient(), preserve_recent_messages=4)
    snapshot = MemorySnapshot(items=[user("a"), user("b")])
    assert not policy.should_compact(snapshot)
    assert policy.compact(snapshot).memory is None


def test_the_summarizing_policy_passes_the_generic_checks() -> None:
    check_known_findings(SUMMARIZING)


def test_a_carrier_with_text_is_presented_with_its_result_blocks() -> None:
    carrier: JsonValue = {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": "ok"},
            {"type": "text", "text": "and now?"},
        ],
    }
    message = sa.present(carrier)
    assert [sorted(block) for block in message["content"]] == [["toolResult"], ["text"]]
