"""The attrs records and the hand-written schemas describe the same documents, both ways."""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance.strategies import RECORDS
from ctxpact.spec import (
    SCHEMA_OF,
    ContextBudget,
    ContextReport,
    SchemaValidationError,
    camel_case,
    from_json,
    load_schema,
    to_json,
    violations,
    with_defaults,
)

RECORD_CLASSES = sorted(SCHEMA_OF, key=lambda cls: cls.__name__)


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
def test_field_names_equal_schema_properties(cls: type[Any]) -> None:
    schema: Any = load_schema(SCHEMA_OF[cls])
    assert [camel_case(f.name) for f in attrs.fields(cls)] == list(schema["properties"])


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
def test_required_fields_equal_schema_required(cls: type[Any]) -> None:
    schema: Any = load_schema(SCHEMA_OF[cls])
    required = {camel_case(f.name) for f in attrs.fields(cls) if f.default is attrs.NOTHING}
    assert required == set(schema["required"])


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
def test_schema_defaults_equal_field_defaults(cls: type[Any]) -> None:
    schema: Any = load_schema(SCHEMA_OF[cls])
    document = to_json(
        cls(
            **{
                f.name: RECORDS_EXAMPLE_VALUES[f.name]
                for f in attrs.fields(cls)
                if f.default is attrs.NOTHING
            }
        )
    )
    for field in attrs.fields(cls):
        if field.default is not attrs.NOTHING:
            assert (
                document[camel_case(field.name)]
                == schema["properties"][camel_case(field.name)]["default"]
            ), field.name


RECORDS_EXAMPLE_VALUES: dict[str, Any] = {
    "source_item_count": 1,
    "projected_item_count": 1,
    "dropped_item_count": 0,
    "source_approx_chars": 1,
    "projected_approx_chars": 1,
    "item_limit_applied": False,
    "character_limit_applied": False,
    "items": (),
    "session_id": "s",
    "call_id": "c",
    "name": "n",
    "arguments": "{}",
    "model": "m",
    "system_prompt": None,
    "report": ContextReport(
        source_item_count=0,
        projected_item_count=0,
        dropped_item_count=0,
        source_approx_chars=0,
        projected_approx_chars=0,
        item_limit_applied=False,
        character_limit_applied=False,
    ),
}


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
@given(data=st.data())
def test_any_record_unstructures_to_a_valid_document_and_back(cls: type[Any], data: Any) -> None:
    record = data.draw(RECORDS[cls])
    document = to_json(record)
    assert violations(document, SCHEMA_OF[cls]) == ()
    assert from_json(cls, document) == record


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
def test_schema_examples_structure_and_round_trip(cls: type[Any]) -> None:
    schema: Any = load_schema(SCHEMA_OF[cls])
    for document in schema["examples"]:
        original = copy.deepcopy(document)
        record = from_json(cls, document)
        assert document == original  # from_json never touches its input
        assert to_json(record) == with_defaults(document, SCHEMA_OF[cls])


def _mutations(document: dict[str, Any], schema: dict[str, Any]) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = [("extra key", {**document, "unexpectedKey": 1})]
    found.extend(
        (f"missing {key}", {k: v for k, v in document.items() if k != key})
        for key in schema["required"]
    )
    for key, prop in schema["properties"].items():
        wrong: Any = {"wrong": "type"}
        found.append((f"wrong type for {key}", {**document, key: wrong}))
        if prop.get("minimum") == 0:
            found.append((f"negative {key}", {**document, key: -1}))
    return found


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
@given(data=st.data())
def test_mutated_documents_are_rejected_by_schema_and_converter(cls: type[Any], data: Any) -> None:
    schema: Any = load_schema(SCHEMA_OF[cls])
    document: Any = to_json(data.draw(RECORDS[cls]))
    for what, mutated in _mutations(document, schema):
        assert violations(mutated, SCHEMA_OF[cls]), what
        with pytest.raises(SchemaValidationError):
            from_json(cls, mutated)


@given(budget=RECORDS[ContextBudget])
@example(budget=ContextBudget())
@example(budget=ContextBudget(max_items=0, max_approx_chars=0, max_recent_tool_results=0))
def test_budget_round_trips_with_nulls_for_unset_limits(budget: ContextBudget) -> None:
    document = to_json(budget)
    assert set(document) == {
        "maxItems",
        "maxApproxChars",
        "pinnedPrefixItems",
        "maxRecentToolResults",
        "trimOldReasoning",
    }
    assert from_json(ContextBudget, document) == budget


def _without_defaults(document: Any, schema_name: str) -> Any:
    """*document* with every top-level member that equals its schema default left out."""
    schema: Any = load_schema(schema_name)
    return {
        key: value
        for key, value in document.items()
        if "default" not in schema["properties"][key]
        or value != schema["properties"][key]["default"]
    }


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
@given(data=st.data())
def test_a_writer_may_omit_every_member_that_has_its_default(cls: type[Any], data: Any) -> None:
    # JSON-15: the shorter document is the same document, for the schema and the converter.
    record = data.draw(RECORDS[cls])
    shorter = _without_defaults(to_json(record), SCHEMA_OF[cls])
    assert violations(shorter, SCHEMA_OF[cls]) == ()
    assert from_json(cls, shorter) == record
    assert with_defaults(shorter, SCHEMA_OF[cls]) == to_json(record)


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
def test_the_examples_without_their_defaults_are_the_same_documents(cls: type[Any]) -> None:
    # The explicit cases of the property above: every schema example, written shortest.
    schema: Any = load_schema(SCHEMA_OF[cls])
    for document in schema["examples"]:
        record = from_json(cls, document)
        shorter = _without_defaults(to_json(record), SCHEMA_OF[cls])
        assert from_json(cls, shorter) == record
        assert with_defaults(shorter, SCHEMA_OF[cls]) == to_json(record)


def _not_nullable_defaults(cls: type[Any]) -> list[str]:
    schema: Any = load_schema(SCHEMA_OF[cls])
    return [
        key
        for key, member in schema["properties"].items()
        if "default" in member and member["default"] is not None
    ]


@pytest.mark.parametrize("cls", RECORD_CLASSES, ids=lambda cls: cls.__name__)
def test_null_is_refused_for_a_member_whose_default_is_not_null(cls: type[Any]) -> None:
    # JSON-15: a writer omits such a member; null is not another way of writing its default.
    required = {
        f.name: RECORDS_EXAMPLE_VALUES[f.name]
        for f in attrs.fields(cls)
        if f.default is attrs.NOTHING
    }
    document = to_json(cls(**required))
    for key in _not_nullable_defaults(cls):
        written = {**document, key: None}
        assert [v.path for v in violations(written, SCHEMA_OF[cls])] == [f"$.{key}"], key
        with pytest.raises(SchemaValidationError):
            from_json(cls, written)
