"""The schemas themselves: well-formed, portable, documented, and found where users look."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from jsonschema import Draft202012Validator

from ctxpact.spec import (
    SCHEMA_OF,
    SCHEMA_VERSION,
    SchemaNotFoundError,
    load_schema,
    schema_id,
    schema_names,
    violations,
)

ROOT = Path(__file__).resolve().parents[2]
RECORD_SCHEMAS = sorted(SCHEMA_OF.values())
#: Schemas of documents that ctxpact.conformance writes or exchanges, not records of
#: ctxpact.spec: besides the harness protocol's requests and responses, its calls back to the
#: suite and the suite's replies (spec/HARNESS.md HRN-24).
SUITE_SCHEMAS = ["conformance-report", "vectors", "harness/call", "harness/reply"]
#: Schemas of the runtime's events as JSON documents (SPEC.md EVT-14), for hosts.
EVENT_SCHEMAS = ["agent-event", "event-error", "lifecycle-event"]
ALL_SCHEMAS = sorted(schema_names())
#: The harness protocol's messages (spec/HARNESS.md): one request and one response a command.
HARNESS_MESSAGES = [
    name for name in ALL_SCHEMAS if re.fullmatch(r"harness/.+-(request|response)", name)
]
# Keywords that code generators for other languages mishandle (conformance-anchors §1.9).
# oneOf is not among them: a response's choice of outcome is one (test below), which the
# generated types of tests/spec/test_codegen.py keep.
UNPORTABLE = {
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentRequired",
    "dependentSchemas",
    "$dynamicRef",
    "$dynamicAnchor",
    "if",
    "then",
    "else",
    "minProperties",
    "maxProperties",
}
#: A reference to another file's record: relative, to the file, with no fragment (JSON-19).
FILE_REFERENCE = re.compile(
    r"(\.\./)?([a-z0-9]+(-[a-z0-9]+)*/)?[a-z0-9]+(-[a-z0-9]+)*\.schema\.json"
)


def _subschemas(schema: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(schema, dict):
        yield path, schema
        for key, value in schema.items():
            if key in {"examples", "default", "const", "enum"}:
                continue
            yield from _subschemas(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from _subschemas(value, f"{path}[{index}]")


def _references(name: str) -> set[str]:
    """The schemas that the schema *name* refers to by file."""
    found = set()
    for _, sub in _subschemas(load_schema(name)):
        reference = sub.get("$ref", "#")
        if not reference.startswith("#"):
            found.add(_target(name, reference))
    return found


def _target(name: str, reference: str) -> str:
    """The name of the schema a relative file reference in the schema *name* points at."""
    uri = urljoin(schema_id(name), reference)
    return uri.removeprefix(schema_id("x").removesuffix("x.schema.json")).removesuffix(
        ".schema.json"
    )


def test_every_record_has_a_schema_and_every_schema_a_purpose() -> None:
    # A schema is a record's, a suite document's, a harness message's, or a part that other
    # schemas refer to (a harness message's options, its scripted model, its outcomes).
    parts = set().union(*(_references(name) for name in ALL_SCHEMAS))
    purposes = {*RECORD_SCHEMAS, *SUITE_SCHEMAS, *EVENT_SCHEMAS, *HARNESS_MESSAGES}
    assert set(ALL_SCHEMAS) - purposes <= parts
    assert {"harness/skipped-outcome", "harness/target-options"} <= parts - purposes


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_schema_passes_the_2020_12_metaschema(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_schema_is_versioned_titled_and_has_examples(name: str) -> None:
    schema = load_schema(name)
    assert schema["$id"] == f"https://ctxpact.dev/schemas/{SCHEMA_VERSION}/{name}.schema.json"
    assert schema["title"]
    assert schema["examples"]


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_schema_stays_in_the_portable_subset(name: str) -> None:
    schema: Any = load_schema(name)
    for path, sub in _subschemas(schema):
        assert not UNPORTABLE & sub.keys(), f"{name} {path} uses {UNPORTABLE & sub.keys()}"
        if sub.get("type") == "object" or "properties" in sub:
            assert sub.get("additionalProperties") is False, f"{name} {path} is open"
        for ref in [sub["$ref"]] if "$ref" in sub else []:
            assert sub.keys() == {"$ref"}, f"{name} {path}: a $ref with keywords beside it"
            if ref.startswith("#"):
                assert ref.removeprefix("#/$defs/") in schema.get("$defs", {}), (name, path)
            else:
                assert FILE_REFERENCE.fullmatch(ref), f"{name} {path}: {ref} is not a file"
                assert _target(name, ref) in ALL_SCHEMAS, f"{name} {path}: no schema {ref}"


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_a_choice_between_records_is_structural(name: str) -> None:
    # oneOf only where its branches are objects told apart by a required member that the
    # others do not have, so that a generated type can tell them apart as well.
    for path, sub in _subschemas(load_schema(name)):
        if "oneOf" not in sub:
            continue
        branches = [_resolved(name, branch) for branch in sub["oneOf"]]
        assert all(b["type"] == "object" and b["additionalProperties"] is False for b in branches)
        own = [
            set(b["required"])
            - set().union(*(set(o["properties"]) for o in branches if o is not b))
            for b in branches
        ]
        assert all(own), f"{name} {path}: a branch has no member of its own"


def _resolved(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in schema and not schema["$ref"].startswith("#"):
        found: dict[str, Any] = load_schema(_target(name, schema["$ref"]))
        return found
    return schema


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_every_property_has_a_description(name: str) -> None:
    # A member that holds any JSON value is the schema true, which every generator types as
    # its any-type (a description beside it would make json-schema-to-typescript declare an
    # object); the record's own description says what it holds.
    for path, sub in _subschemas(load_schema(name)):
        for key, prop in sub.get("properties", {}).items():
            if prop is True:
                assert key in sub["description"], f"{name} {path} does not describe {key}"
            else:
                assert prop.get("description"), f"{name} {path}.properties.{key} has no description"


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_an_any_value_is_written_as_true(name: str) -> None:
    for path, sub in _subschemas(load_schema(name)):
        annotations = {"title", "description", "$comment", "default", "examples"}
        assert not (sub and sub.keys() <= annotations), f"{name} {path} is an annotated any-value"


#: Integers that are not counts: the naive cut may be any integer, the function clamps it.
SIGNED = {("harness/turn-boundary-cut-request", "$.properties.naiveCut")}


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_counts_and_limits_cannot_be_negative(name: str) -> None:
    for path, sub in _subschemas(load_schema(name)):
        types = sub.get("type")
        if (name, path) in SIGNED:
            assert "minimum" not in sub, f"{name} {path} is signed but has a minimum"
        elif types == "integer" or (isinstance(types, list) and "integer" in types):
            minimum = sub.get("minimum")
            assert isinstance(minimum, int), f"{name} {path} allows negative integers"
            assert minimum >= 0, f"{name} {path} allows negative integers"


def _titles(name: str) -> list[str]:
    subschemas = _subschemas(load_schema(name))
    return [sub["title"] for _, sub in subschemas if isinstance(sub.get("title"), str)]


def test_every_record_is_defined_once() -> None:
    # Generated into one package, every titled schema becomes one type: a record copied into
    # another file would be declared twice (JSON-19).
    titles = [title for name in ALL_SCHEMAS for title in _titles(name)]
    assert sorted(title for title in set(titles) if titles.count(title) > 1) == []


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_a_file_defines_its_own_record_first(name: str) -> None:
    assert _titles(name)[0] == load_schema(name)["title"]


def test_load_schema_returns_an_independent_copy() -> None:
    first = load_schema("context-report")
    first["title"] = "changed"
    assert load_schema("context-report")["title"] == "ContextReport"


def test_unknown_schema_names_the_known_ones() -> None:
    with pytest.raises(SchemaNotFoundError, match="context-report"):
        load_schema("no-such-schema")


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_checked_in_file_is_what_load_schema_serves(name: str) -> None:
    on_disk = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert on_disk == load_schema(name)


def test_wheel_ships_the_schemas_and_the_installed_package_finds_them(tmp_path: Path) -> None:
    # Build a real wheel with hatchling and import ctxpact.spec from it, not from the checkout.
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("ctxpact-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path / "site")
    for name in ALL_SCHEMAS:
        assert f"ctxpact/spec/schemas/{name}.schema.json" in names
    assert "ctxpact/__init__.py" not in names  # ctxpact is a namespace package
    assert {
        "ctxpact/spec/py.typed",
        "ctxpact/reference/py.typed",
        "ctxpact/conformance/py.typed",
    } <= names
    probe = (
        "import ctxpact.spec as s, ctxpact.spec._schemas as m;"
        "print(s.__file__); print(m._schema_directory()); print(len(s.schema_names()))"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert out[0].startswith(str(tmp_path / "site"))
    assert out[1] == str(tmp_path / "site" / "ctxpact" / "spec" / "schemas")
    assert int(out[2]) == len(schema_names())


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_every_example_is_valid(name: str) -> None:
    for example in load_schema(name)["examples"]:  # type: ignore[union-attr]
        assert violations(example, name) == ()


def test_references_resolve_by_id_as_they_do_by_path() -> None:
    # A reference resolves against the referring file's $id; the $id of every file is its
    # path under schemas/, so a generator that reads files finds the same schema.
    for name in ALL_SCHEMAS:
        assert load_schema(name)["$id"] == schema_id(name)
        for target in _references(name):
            assert (ROOT / "schemas" / f"{target}.schema.json").is_file()


def test_a_reference_to_another_file_is_followed_when_validating() -> None:
    report = load_schema("context-report")["examples"][0]  # type: ignore[index]
    projection = {"items": [1, "a", None, [True]], "report": report}
    assert violations(projection, "context-projection") == ()
    broken = {**projection, "report": {**report, "droppedItemCount": -1}}  # type: ignore[dict-item]
    assert [v.path for v in violations(broken, "context-projection")] == [
        "$.report.droppedItemCount"
    ]


def _nullable(member: Any) -> bool:
    if member is True:
        return True
    types = member.get("type", [])
    choices = member.get("anyOf", [])
    return "null" in (types if isinstance(types, list) else [types]) or {"type": "null"} in choices


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_an_optional_member_that_may_be_null_defaults_to_null(name: str) -> None:
    # JSON-15: so that a writer that writes null for an absent value (as many generated types
    # do) and one that omits it write the same document.
    for path, sub in _subschemas(load_schema(name)):
        if not isinstance(sub.get("properties"), dict) or "type" not in sub:
            continue
        for key, member in sub["properties"].items():
            if key not in sub.get("required", []) and member is not True and _nullable(member):
                assert member.get("default", "absent") is None, f"{name} {path}.{key}"


@pytest.mark.parametrize("name", RECORD_SCHEMAS)
def test_every_optional_member_of_a_record_has_a_default(name: str) -> None:
    schema: Any = load_schema(name)
    optional = set(schema["properties"]) - set(schema["required"])
    assert {key for key in optional if "default" not in schema["properties"][key]} == set()
