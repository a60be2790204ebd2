"""The depth and size policy of JSON values (JSON-17), kept without recursion at any call depth."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.spec import (
    MAX_DOCUMENT_DEPTH,
    MAX_INTEGER_DIGITS,
    MAX_JSON_DEPTH,
    AgentSessionSnapshot,
    ContextProjection,
    ContextReport,
    InvalidJsonError,
    JsonLimitError,
    JsonValue,
    MemorySnapshot,
    SchemaValidationError,
    check_items,
    check_json,
    compact_json,
    copy_json,
    decode_json,
    encode_json,
    from_json,
    to_json,
)

T = TypeVar("T")
#: How deep in the stack the calls below are made: where a recursive walk of 256 levels
#: used to fail (the interpreter's limit is 1000 frames).
DEEP_FRAMES = 700


def nested(depth: int) -> JsonValue:
    """A value *depth* levels deep (JSON-7's measure), objects and arrays in turn."""
    value: JsonValue = "bottom"
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


def from_deep(call: Callable[[], T], frames: int = DEEP_FRAMES) -> T:
    """*call*'s result, called *frames* frames deeper than here."""
    return call() if frames == 0 else from_deep(call, frames - 1)


DEEPEST = nested(MAX_JSON_DEPTH)
DEEPEST_TEXT = json.dumps(DEEPEST, separators=(",", ":"))
REPORT = ContextReport(
    source_item_count=1,
    projected_item_count=1,
    dropped_item_count=0,
    source_approx_chars=1,
    projected_approx_chars=1,
    item_limit_applied=False,
    character_limit_applied=False,
)


def test_the_deepest_value_allowed_is_copied_written_and_read_from_deep_in_the_stack() -> None:
    assert from_deep(lambda: copy_json(DEEPEST)) == DEEPEST
    from_deep(lambda: check_json(DEEPEST))
    assert from_deep(lambda: compact_json(DEEPEST)) == DEEPEST_TEXT
    assert from_deep(lambda: encode_json(DEEPEST, ensure_ascii=True)) == DEEPEST_TEXT
    pretty = from_deep(lambda: encode_json(DEEPEST, indent=2))
    assert json.loads(pretty) == DEEPEST
    assert from_deep(lambda: decode_json(DEEPEST_TEXT)) == DEEPEST


def test_records_carry_items_of_the_deepest_kind_from_deep_in_the_stack() -> None:
    snapshot = AgentSessionSnapshot(session_id="s", memory=MemorySnapshot(items=(DEEPEST,)))
    document = from_deep(lambda: to_json(snapshot))
    # Each item counts its depth from its own root, not from the document's.
    assert from_deep(lambda: from_json(AgentSessionSnapshot, document)) == snapshot
    projection = ContextProjection(items=(DEEPEST, "x"), report=REPORT)
    assert from_json(ContextProjection, from_deep(lambda: to_json(projection))) == projection


@pytest.mark.parametrize(
    ("call", "root"),
    [(copy_json, "$"), (check_json, "$"), (lambda v: check_items([v]), "$[0]")],
)
def test_one_level_more_is_refused_naming_the_path(
    call: Callable[[object], object], root: str
) -> None:
    with pytest.raises(JsonLimitError) as raised:
        from_deep(lambda: call(nested(MAX_JSON_DEPTH + 1)))
    (violation,) = raised.value.violations
    # The path leads from the value's root to the 257th array or object.
    assert violation.path.startswith(root)
    steps = violation.path.removeprefix(root)
    assert steps.count(".k") + steps.count("[0]") == MAX_JSON_DEPTH
    assert "nested at most 256 levels deep" in violation.message
    assert isinstance(raised.value, SchemaValidationError)
    assert isinstance(raised.value, ValueError)


def test_a_record_refuses_an_item_one_level_too_deep_naming_the_item() -> None:
    snapshot = AgentSessionSnapshot(
        session_id="s", memory=MemorySnapshot(items=("ok", nested(MAX_JSON_DEPTH + 1)))
    )
    with pytest.raises(JsonLimitError) as raised:
        to_json(snapshot)
    assert raised.value.violations[0].path.startswith("$.memory.items[1]")
    document = {"sessionId": "s", "memory": {"items": [nested(MAX_JSON_DEPTH + 1)]}}
    with pytest.raises(JsonLimitError):
        from_json(AgentSessionSnapshot, document)


def test_a_value_far_too_deep_is_refused_not_a_recursion_error() -> None:
    deep = nested(100_000)
    for call in (copy_json, check_json):
        with pytest.raises(JsonLimitError):
            call(deep)
    text = "[" * 100_000 + "]" * 100_000
    with pytest.raises(JsonLimitError, match="nesting too deep"):
        decode_json(text)
    assert decode_json(text, max_depth=None) is not None  # without a limit it is read, too


def test_a_cycle_is_refused_as_a_value_that_contains_itself() -> None:
    cyclic: dict[str, object] = {}
    cyclic["self"] = cyclic
    with pytest.raises(SchemaValidationError, match=r"\$\.self: .* contains itself"):
        copy_json(cyclic)


def test_integers_longer_than_the_limit_are_refused_everywhere_with_the_path() -> None:
    longest = 10**MAX_INTEGER_DIGITS - 1
    assert copy_json([longest]) == [longest]
    assert compact_json(-longest) == "-" + "9" * MAX_INTEGER_DIGITS
    too_long = 10**MAX_INTEGER_DIGITS
    for call in (copy_json, check_json, compact_json, encode_json):
        with pytest.raises(JsonLimitError) as raised:
            call({"n": [1, too_long]})
        assert raised.value.violations[0].path == "$.n[1]"
        assert "at most 4300 digits" in str(raised.value)
    with pytest.raises(JsonLimitError):
        decode_json("[" + "9" * (MAX_INTEGER_DIGITS + 1) + "]")


def test_the_interpreters_lower_digit_limit_is_kept_and_reported() -> None:
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(1000)
    try:
        with pytest.raises(JsonLimitError, match="at most 1000 digits"):
            copy_json(10**1500)
    finally:
        sys.set_int_max_str_digits(before)


def test_decoding_is_strict_and_keeps_the_standard_librarys_errors() -> None:
    for text in ("NaN", "[Infinity]", "-Infinity", "{'a': 1}", "[1,]", "01", ""):
        with pytest.raises(InvalidJsonError) as raised:
            decode_json(text)
        assert isinstance(raised.value, json.JSONDecodeError)
    # Also when the stack is too deep for the C decoder and the iterative one reads.
    for text in ("[NaN]", '{"a" 1}', "[1 2]", '["\x01"]', "[1]]"):
        with pytest.raises(InvalidJsonError):
            from_deep(lambda text=text: decode_json("[" * 200 + text + "]" * 200), 950)  # type: ignore[misc]  # the default binds the loop's value


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(), children, max_size=3)
    ),
    max_leaves=12,
)


@given(value=json_values, ensure_ascii=st.booleans(), indent=st.sampled_from([None, 2]))
@example(value={"a": [1, 2.5, -0.0, "x\ud800é", {"b": None}, [], {}]}, ensure_ascii=True, indent=2)
@example(value={"b": 1, "a": 1e16, "c": 1e-05}, ensure_ascii=False, indent=None)
def test_the_iterative_writer_and_reader_agree_with_the_standard_library(
    value: JsonValue,
    ensure_ascii: bool,
    indent: int | None,
) -> None:
    separators = (",", ":") if indent is None else None
    expected = json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators)
    # 950 frames deep, the standard library's C code cannot run: the iterative code does.
    assert (
        from_deep(lambda: encode_json(value, ensure_ascii=ensure_ascii, indent=indent), 950)
        == expected
    )
    assert from_deep(lambda: decode_json(expected), 950) == json.loads(expected)


def test_the_document_depth_leaves_room_for_the_records_around_items() -> None:
    assert MAX_DOCUMENT_DEPTH > MAX_JSON_DEPTH + 4
