"""The schemas themselves: well-formed, portable, documented, and found where users look."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from ctxpact.spec import (
    SCHEMA_OF,
    SCHEMA_VERSION,
    SchemaNotFoundError,
    load_schema,
    schema_names,
)

ROOT = Path(__file__).resolve().parents[2]
RECORD_SCHEMAS = sorted(SCHEMA_OF.values())
#: Schemas of documents that ctxpact.conformance writes or exchanges (the harness protocol's
#: requests and responses, spec/HARNESS.md), not records of ctxpact.spec.
SUITE_SCHEMAS = [
    "conformance-report",
    "vectors",
    *(
        f"harness/{command}-{direction}"
        for command in (
            "start",
            "project",
            "parse-summary",
            "should-compact",
            "compact",
            "memory-new",
            "memory-call",
            "memory-drop",
            "store-new",
            "store-call",
            "store-drop",
            "memory-open",
            "store-open",
            "approx-chars",
            "turn-boundary-cut",
            "extract-file-operations",
            "render-summary",
            "runtime-new",
            "runtime-call",
            "runtime-drop",
            "compressor-new",
            "compressor-call",
            "compressor-drop",
            "stop",
        )
        for direction in ("request", "response")
    ),
    "harness/call",
    "harness/reply",
]
ALL_SCHEMAS = sorted(schema_names())
# Keywords that code generators for other languages mishandle (conformance-anchors §1.9).
UNPORTABLE = {
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentRequired",
    "dependentSchemas",
    "$dynamicRef",
    "$dynamicAnchor",
    "oneOf",
    "if",
    "then",
    "else",
}


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


def test_every_record_has_a_schema_and_every_schema_a_purpose() -> None:
    assert set(RECORD_SCHEMAS) | set(SUITE_SCHEMAS) == set(schema_names())


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
    for path, sub in _subschemas(load_schema(name)):
        assert not UNPORTABLE & sub.keys(), f"{name} {path} uses {UNPORTABLE & sub.keys()}"
        if sub.get("type") == "object" or "properties" in sub:
            assert sub.get("additionalProperties") is False, f"{name} {path} is open"
        for ref in [sub["$ref"]] if "$ref" in sub else []:
            assert ref.startswith("#/$defs/"), f"{name} {path} refers outside the file"


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_every_property_has_a_description(name: str) -> None:
    for path, sub in _subschemas(load_schema(name)):
        for key, prop in sub.get("properties", {}).items():
            assert prop.get("description"), f"{name} {path}.properties.{key} has no description"


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


@pytest.mark.parametrize("name", RECORD_SCHEMAS)
def test_embedded_definitions_equal_their_own_schema(name: str) -> None:
    # Each file is self-contained for code generators; the copies must not drift.
    titles = {load_schema(other)["title"]: other for other in RECORD_SCHEMAS}
    definitions: dict[str, Any] = load_schema(name).get("$defs", {})  # type: ignore[assignment]
    for title, definition in definitions.items():
        standalone = load_schema(titles[title])
        for key in ("$schema", "$id", "examples", "$defs"):
            standalone.pop(key, None)
        assert definition == standalone, f"$defs/{title} in {name} differs from its schema"


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
    schema = load_schema(name)
    validator = Draft202012Validator(schema)
    for example in schema["examples"]:  # type: ignore[union-attr]
        assert list(validator.iter_errors(example)) == []
