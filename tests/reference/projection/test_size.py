"""approx_chars and total_approx_chars: code points of strings, of compact JSON otherwise."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference._items import function_call_output, user_message
from ctxpact.reference.projection import approx_chars, total_approx_chars
from ctxpact.spec import JsonValue, SchemaValidationError, compact_json

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("", 0),
        ("system-summary", 14),
        ("héllo", 5),
        ("😀", 1),  # one code point, although two UTF-16 code units
        ('a"b\n', 4),  # a string item counts itself, not its JSON text
        (None, 0),
        (42, 2),
        (-7, 2),
        (1.5, 3),
        (True, 4),
        (False, 5),
        ([], 2),
        ({}, 2),
        ([None], 6),
        (["a", None, "b"], 14),
        ({"a": [1, "é"]}, 13),
        ({"b": 1, "a": 2}, 13),
        ({"q": 'a"b'}, 12),  # inside JSON, a string counts with its quotes and escapes
        (user_message("hello"), 81),
        (function_call_output("call-1", "payload-1"), 71),
        (function_call_output("call-1", None), 64),
        (function_call_output("call-1", "x" * 200), 262),
    ],
)
def test_approx_chars_of_examples(item: JsonValue, expected: int) -> None:
    assert approx_chars(item) == expected


def test_key_order_is_kept_not_sorted() -> None:
    # Same length either way, so compare the text that approx_chars measures.
    assert compact_json({"b": 1, "a": 2}) == '{"b":1,"a":2}'
    assert approx_chars({"b": "é" * 3, "a": None}) == len('{"b":"ééé","a":null}')


@given(json_values)
@example("😀é")
@example(None)
@example({"k": ["ü", 1.0e300, None]})
def test_approx_chars_is_the_code_points_of_the_compact_json(item: JsonValue) -> None:
    if isinstance(item, str):
        expected = len(item)
    elif item is None:
        expected = 0
    else:
        expected = len(compact_json(item))
    assert approx_chars(item) == expected


@given(st.lists(json_values, max_size=6))
@example([])
@example(["ab", None, {"c": 1}])
def test_total_is_the_sum(items: list[JsonValue]) -> None:
    assert total_approx_chars(items) == sum(approx_chars(item) for item in items)
    assert total_approx_chars(iter(items)) == total_approx_chars(items)


@pytest.mark.parametrize(
    ("item", "path"),
    [
        ({1, 2}, "$"),
        (math.nan, "$"),
        ({"a": [1, {"b": math.inf}]}, "$.a[1].b"),
        ({"a": {1, 2}}, "$.a"),
        ({(1, 2): "tuple key"}, "$"),
    ],
)
def test_a_value_json_cannot_carry_is_a_clear_error(item: object, path: str) -> None:
    with pytest.raises(SchemaValidationError) as raised:
        approx_chars(item)  # type: ignore[arg-type]  # deliberately not a JSON value
    assert [violation.path for violation in raised.value.violations] == [path]


def test_a_cycle_is_a_clear_error() -> None:
    cyclic: list[object] = []
    cyclic.append(cyclic)
    with pytest.raises(
        SchemaValidationError, match=r"\$\[0\]: Expected a JSON value but got a list that contains"
    ):
        approx_chars(cyclic)  # type: ignore[arg-type]  # deliberately not a JSON value


def test_total_names_the_bad_item() -> None:
    with pytest.raises(SchemaValidationError) as raised:
        total_approx_chars(["ok", {"x": 1}, {"bad": {1}}])  # type: ignore[dict-item]  # not JSON
    assert [violation.path for violation in raised.value.violations] == ["$[2].bad"]
