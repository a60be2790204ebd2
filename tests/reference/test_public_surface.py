"""The reference's public surface: wrong types, deep and large values, and session ids.

Each argument of the wrong type is refused with a clear error naming the operation and the
argument (JSON-18); items beyond the limits are refused with their JSON path, and items
within them work from deep in the stack (JSON-17); one session-id rule holds everywhere
(SES-17).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from ctxpact.conformance.harness import HarnessConnection, ProjectorProxy
from ctxpact.reference.compaction import (
    CompactPolicyMemoryCompressor,
    StructuredSummaryCompactPolicy,
    WindowedMemoryCompressor,
    extract_file_operations,
    find_turn_boundary_cut,
    parse_structured_summary,
    render_structured_summary,
)
from ctxpact.reference.memory import InMemoryAgentMemory, SqliteAgentMemory
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    SizedItems,
    TypeAwareContextProjector,
    approx_chars,
    total_approx_chars,
)
from ctxpact.reference.session import (
    Agent,
    FileSessionStore,
    InMemorySessionStore,
    SqliteSessionStore,
)
from ctxpact.spec import (
    MAX_INTEGER_DIGITS,
    MAX_JSON_DEPTH,
    AgentSessionSnapshot,
    ArgumentTypeError,
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextProjector,
    InvalidValueError,
    JsonLimitError,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    SchemaValidationError,
)

T = TypeVar("T")
DEEP_FRAMES = 700
PROJECTORS = [DefaultContextProjector(), TypeAwareContextProjector()]
BUDGET = ContextBudget(max_items=2, max_recent_tool_results=0, trim_old_reasoning=True)


def nested(depth: int) -> JsonValue:
    """A value *depth* levels deep (JSON-7's measure), objects and arrays in turn."""
    value: JsonValue = "bottom"
    for level in range(depth):
        value = [value] if level % 2 else {"content": value}
    return value


def from_deep(call: Callable[[], T], frames: int = DEEP_FRAMES) -> T:
    """*call*'s result, called *frames* frames deeper than here."""
    return call() if frames == 0 else from_deep(call, frames - 1)


# -- projectors ------------------------------------------------------------------------------


@pytest.mark.parametrize("projector", PROJECTORS, ids=lambda p: type(p).__name__)
def test_a_string_is_not_a_list_of_items(projector: ContextProjector) -> None:
    # It used to be projected as its characters: three of them under maxItems 3.
    with pytest.raises(ArgumentTypeError, match=r"project\(items\)") as raised:
        projector.project(
            "hello world", ContextBudget(max_items=3)
        )  # a str is a Sequence, which mypy allows
    assert isinstance(raised.value, TypeError)
    assert "got str" in str(raised.value)
    with pytest.raises(ArgumentTypeError, match=r"project\(items\)"):
        projector.project({"type": "message"}, None)  # type: ignore[arg-type]  # the point


@pytest.mark.parametrize("projector", PROJECTORS, ids=lambda p: type(p).__name__)
def test_a_budget_must_be_a_budget(projector: ContextProjector) -> None:
    # A dict used to fail with an AttributeError deep inside the projector.
    with pytest.raises(ArgumentTypeError, match=r"a ContextBudget or None but got dict"):
        projector.project(["a"], {"maxItems": 1})  # type: ignore[arg-type]  # the point


@pytest.mark.parametrize("projector", PROJECTORS, ids=lambda p: type(p).__name__)
def test_none_items_are_no_items_as_the_binding_documents(projector: ContextProjector) -> None:
    projection = projector.project(None, BUDGET)  # type: ignore[arg-type]  # the binding allows it
    assert projection.items == ()
    assert projection.report.source_item_count == 0


@pytest.mark.parametrize("projector", PROJECTORS, ids=lambda p: type(p).__name__)
def test_a_non_string_key_is_refused_with_its_path(projector: ContextProjector) -> None:
    # JSON-9: {1: "a"} is not a JSON value; the JSON writer used to turn the key into "1".
    with pytest.raises(SchemaValidationError, match=r"\$\.items\[1\]\.x: Expected a string"):
        projector.project(["ok", {"x": {1: "a"}}], None)  # type: ignore[dict-item]  # the point
    with pytest.raises(SchemaValidationError, match=r"\$: Expected a string object key"):
        approx_chars({1: "a"})  # type: ignore[dict-item]  # the point


@pytest.mark.parametrize("projector", PROJECTORS, ids=lambda p: type(p).__name__)
def test_deep_items_are_projected_from_deep_in_the_stack(projector: ContextProjector) -> None:
    deep = nested(MAX_JSON_DEPTH)
    items: list[JsonValue] = [
        "first",
        deep,
        {"type": "function_call_output", "call_id": "c", "output": "o"},
    ]
    projection = from_deep(lambda: projector.project(items, BUDGET))
    assert projection == projector.project(items, BUDGET)
    with pytest.raises(JsonLimitError, match=r"\$\.items\[1\]"):
        from_deep(lambda: projector.project(["a", nested(MAX_JSON_DEPTH + 1)], BUDGET))


@pytest.mark.parametrize(
    "projector", [*PROJECTORS, PairSafeContextProjector()], ids=lambda p: type(p).__name__
)
def test_deep_items_enter_a_sized_list_and_project_from_deep_in_the_stack(
    projector: ContextProjector,
) -> None:
    # A SizedItems measures and reads each item when it enters: deep in the stack too.
    deep = nested(MAX_JSON_DEPTH)
    inner = nested(MAX_JSON_DEPTH - 3)  # the carrier and its part are three levels
    carrier: JsonValue = {"role": "user", "content": [{"type": "tool_result", "content": inner}]}
    items: list[JsonValue] = ["first", deep, carrier]
    sized = from_deep(lambda: SizedItems(items))
    reasoning = {"type": "reasoning", "id": nested(MAX_JSON_DEPTH - 1), "content": "x"}
    user: JsonValue = {"role": "user", "content": "next"}
    from_deep(lambda: sized.extend([reasoning, user]))  # the reasoning is trimmed, and kept
    plain = projector.project([*items, reasoning, user], BUDGET)
    assert from_deep(lambda: projector.project(sized, BUDGET)) == plain
    with pytest.raises(JsonLimitError, match=r"\$\[5\]"):
        from_deep(lambda: sized.append(nested(MAX_JSON_DEPTH + 1)))


@pytest.mark.parametrize("projector", PROJECTORS, ids=lambda p: type(p).__name__)
def test_a_huge_integer_is_refused_by_the_projector_with_its_path(
    projector: ContextProjector,
) -> None:
    # It used to raise the interpreter's ValueError while formatting its own error message.
    huge = 10 ** (MAX_INTEGER_DIGITS + 1)
    with pytest.raises(JsonLimitError, match=r"\$\.items\[0\]\.n: Expected an integer of at"):
        projector.project([{"n": huge}], None)


def test_the_helpers_check_their_items() -> None:
    with pytest.raises(ArgumentTypeError, match=r"total_approx_chars\(items\)"):
        total_approx_chars("abc")
    assert total_approx_chars(iter(["ab", "c"])) == 3
    with pytest.raises(ArgumentTypeError, match=r"find_turn_boundary_cut\(items\)"):
        find_turn_boundary_cut("abc", 1)
    with pytest.raises(ArgumentTypeError, match=r"extract_file_operations\(items\)"):
        extract_file_operations("abc", reads=True)
    with pytest.raises(ArgumentTypeError, match=r"parse_structured_summary\(text\)"):
        parse_structured_summary(None)  # type: ignore[arg-type]  # the point
    with pytest.raises(ArgumentTypeError, match=r"render_structured_summary\(summary\)"):
        render_structured_summary("## Goal")  # type: ignore[arg-type]  # the point


def test_policies_and_compressors_need_a_snapshot() -> None:
    policy = StructuredSummaryCompactPolicy(ContextBudget(max_items=1))
    calls: list[Callable[[], object]] = [
        lambda: policy.compact(["a"]),  # type: ignore[arg-type]  # the point
        lambda: policy.should_compact(None),  # type: ignore[arg-type]  # the point
        lambda: WindowedMemoryCompressor(2).compress("abc"),  # type: ignore[arg-type]  # the point
        lambda: CompactPolicyMemoryCompressor(policy).compress({}),  # type: ignore[arg-type]  # the point
    ]
    for call in calls:
        with pytest.raises(ArgumentTypeError, match=r"\(snapshot\)"):
            call()


def test_a_memory_needs_a_compressor_that_compresses() -> None:
    with pytest.raises(ArgumentTypeError, match=r"InMemoryAgentMemory\(compressor\)"):
        InMemoryAgentMemory(compressor="window")  # type: ignore[arg-type]  # the point


def test_the_projector_proxy_refuses_what_the_reference_refuses_before_sending() -> None:
    connection = HarnessConnection("no-such-command")
    proxy = ProjectorProxy(connection, "DefaultContextProjector")
    with pytest.raises(ArgumentTypeError, match=r"ProjectorProxy\.project\(items\)"):
        proxy.project("hello world", None)
    with pytest.raises(ArgumentTypeError, match="a ContextBudget or None"):
        proxy.project([], {"maxItems": 1})  # type: ignore[arg-type]  # the point
    assert connection.starts == 0  # nothing was sent


# -- records -----------------------------------------------------------------------------------


def test_record_fields_hold_what_they_say() -> None:
    # A snapshot without a memory used to be accepted, empty the session on restore and
    # then fail to save with an AttributeError.
    with pytest.raises(
        InvalidValueError, match=r"a MemorySnapshot .* AgentSessionSnapshot\.memory"
    ):
        AgentSessionSnapshot(session_id="s", memory=None)  # type: ignore[arg-type]  # the point
    with pytest.raises(InvalidValueError, match=r"AgentSessionSnapshot\.compact_result"):
        AgentSessionSnapshot(session_id="s", compact_result="x")  # type: ignore[arg-type]  # the point
    with pytest.raises(InvalidValueError, match=r"CompactResult\.memory"):
        CompactResult(memory=["a"])  # type: ignore[arg-type]  # the point
    with pytest.raises(InvalidValueError, match=r"ContextProjection\.report"):
        ContextProjection(items=(), report=None)  # type: ignore[arg-type]  # the point
    with pytest.raises(InvalidValueError, match=r"ModelResult\.tool_calls\[0\]"):
        ModelResult(tool_calls=[{"callId": "c"}])  # type: ignore[list-item]  # the point
    for bad in (None, "abc", {"a": 1}, 3):
        with pytest.raises(ArgumentTypeError, match=r"MemorySnapshot\(items\)"):
            MemorySnapshot(items=bad)  # type: ignore[arg-type]  # the point


# -- memories and stores -----------------------------------------------------------------------


@pytest.fixture
def memories(tmp_path: Path) -> Iterator[list[Any]]:
    with SqliteAgentMemory(tmp_path / "m.sqlite", "s") as sqlite_memory:
        yield [InMemoryAgentMemory(), sqlite_memory]


def test_memories_refuse_too_deep_or_too_large_items_and_change_nothing(
    memories: list[Any],
) -> None:
    for memory in memories:
        memory.add_user_input("kept")
        before = memory.snapshot()
        with pytest.raises(JsonLimitError, match=r"\$\[0\]"):
            memory.add_output_items([nested(MAX_JSON_DEPTH + 1)])
        with pytest.raises(JsonLimitError):
            memory.add_user_input({"n": 10**MAX_INTEGER_DIGITS})
        with pytest.raises(JsonLimitError):
            memory.restore(MemorySnapshot(items=(nested(MAX_JSON_DEPTH + 1),)))
        assert memory.snapshot() == before


def test_memories_read_back_the_deepest_items_from_deep_in_the_stack(
    memories: list[Any],
) -> None:
    deep = nested(MAX_JSON_DEPTH)
    for memory in memories:
        from_deep(lambda memory=memory: memory.add_output_items([deep]))  # type: ignore[misc]  # the default binds the loop's value
        snapshot = from_deep(lambda memory=memory: memory.snapshot())  # type: ignore[misc]  # the default binds the loop's value
        assert snapshot.items == (deep,)
        view = from_deep(lambda memory=memory: memory.prompt_view())  # type: ignore[misc]  # the default binds the loop's value
        assert list(view) == [deep]
        assert view.total_approx_chars == approx_chars(deep)
        assert from_deep(lambda memory=memory: memory.snapshot_view()) == snapshot  # type: ignore[misc]  # the default binds the loop's value


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[list[Any]]:
    with SqliteSessionStore(tmp_path / "s.sqlite") as sqlite_store:
        yield [InMemorySessionStore(), FileSessionStore(tmp_path / "files"), sqlite_store]


def test_what_a_store_accepts_it_reads_back_saves_over_and_deletes_from_any_depth(
    stores: list[Any],
) -> None:
    # An item about 900 deep used to be saved, then called corrupt when loaded from a deeper
    # call stack, after which the session could be neither saved nor deleted.
    deep = AgentSessionSnapshot(
        session_id="d", memory=MemorySnapshot(items=(nested(MAX_JSON_DEPTH),))
    )
    too_deep = AgentSessionSnapshot(
        session_id="d", memory=MemorySnapshot(items=(nested(MAX_JSON_DEPTH + 1),))
    )
    for store in stores:
        with pytest.raises(JsonLimitError, match=r"\$\.memory\.items\[0\]"):
            store.save(too_deep)
        assert store.load("d") is None
        from_deep(lambda store=store: store.save(deep))  # type: ignore[misc]  # the default binds the loop's value
        assert from_deep(lambda store=store: store.load("d")) == deep  # type: ignore[misc]  # the default binds the loop's value
        from_deep(lambda store=store: store.save(deep))  # type: ignore[misc]  # the default binds the loop's value
        assert from_deep(lambda store=store: store.delete("d")) is True  # type: ignore[misc]  # the default binds the loop's value


BLANK_IDS = (" ", "\x00", "\n", "\t \r")


class _NoModel:
    """A model client that is never called."""

    def create(self, prompt: ModelPrompt) -> ModelResult:
        raise AssertionError(prompt)


@pytest.mark.parametrize("session_id", BLANK_IDS)
def test_one_session_id_rule_everywhere(session_id: str, stores: list[Any], tmp_path: Path) -> None:
    # The stores and Agent used to accept these while SqliteAgentMemory refused them.
    with pytest.raises(InvalidValueError, match="non-blank"):
        AgentSessionSnapshot(session_id=session_id)
    for store in stores:
        with pytest.raises(InvalidValueError, match="non-blank"):
            store.load(session_id)
        with pytest.raises(InvalidValueError, match="non-blank"):
            store.delete(session_id)
    with pytest.raises(InvalidValueError, match="non-blank"):
        Agent(model_client=_NoModel()).new_session(session_id)
    connection = sqlite3.connect(tmp_path / "ids.sqlite")
    try:
        with pytest.raises(InvalidValueError, match="non-blank"):
            SqliteAgentMemory(connection, session_id)
    finally:
        connection.close()
    # Inner space and control characters are fine: the id is not blank.
    assert AgentSessionSnapshot(session_id=f"a{session_id}b").session_id == f"a{session_id}b"
