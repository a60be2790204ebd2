"""Access to the normative JSON Schemas that ship with ctxpact, and validation against them."""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast
from urllib.parse import urljoin

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from ctxpact.spec._errors import SchemaNotFoundError, SchemaValidationError, Violation
from ctxpact.spec._json import JsonObject, JsonValue
from ctxpact.spec._version import SCHEMA_VERSION

_SUFFIX = ".schema.json"
_ID_BASE = f"https://ctxpact.dev/schemas/{SCHEMA_VERSION}/"


def _schema_directory() -> Traversable:
    # An installed wheel carries the schemas inside the package; an editable install or a
    # checkout finds them at the repository's top level, where they are maintained.
    packaged = resources.files("ctxpact.spec").joinpath("schemas")
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[3] / "schemas"
    if checkout.is_dir():
        return checkout
    raise SchemaNotFoundError(
        f"The ctxpact schemas are missing: looked in {packaged} and {checkout}"
    )


@functools.cache
def schema_names() -> tuple[str, ...]:
    """The names of the shipped schemas, sorted, e.g. ``("compact-result", ...)``.

    The harness protocol's schemas live in a subdirectory and are named ``harness/<name>``.
    """
    directory = _schema_directory()
    names = [
        entry.name.removesuffix(_SUFFIX)
        for entry in directory.iterdir()
        if entry.name.endswith(_SUFFIX)
    ]
    for sub in directory.iterdir():
        if sub.is_dir():
            names.extend(
                f"{sub.name}/{entry.name.removesuffix(_SUFFIX)}"
                for entry in sub.iterdir()
                if entry.name.endswith(_SUFFIX)
            )
    return tuple(sorted(names))


@functools.cache
def _load(name: str) -> str:
    if name not in schema_names():
        known = ", ".join(schema_names())
        raise SchemaNotFoundError(f"No schema named {name!r}; the schemas are: {known}")
    return _schema_directory().joinpath(f"{name}{_SUFFIX}").read_text(encoding="utf-8")


def load_schema(name: str) -> JsonObject:
    """Return a fresh copy of the schema called *name* (see :func:`schema_names`)."""
    return cast("JsonObject", json.loads(_load(name)))


def schema_id(name: str) -> str:
    """The ``$id`` of the schema called *name*: where a ``$ref`` to its file resolves.

    A schema refers to a record of another file by a relative reference to that file
    (``"$ref": "../context-report.schema.json"``), which resolves against its own ``$id`` to
    the record's ``$id``, and against its own path to the record's file (JSON-19).
    """
    return f"{_ID_BASE}{name}{_SUFFIX}"


@functools.cache
def _registry() -> Registry[Any]:
    # Every schema under its own $id, so that the relative references between files resolve
    # without a network and without reading the file system again.
    return Registry().with_resources(
        (schema_id(name), Resource.from_contents(load_schema(name), DRAFT202012))
        for name in schema_names()
    )


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(load_schema(name), registry=_registry())


def json_path(parts: object) -> str:
    """Render a sequence of keys and indices as a JSON path such as ``$.items[3].type``."""
    path = "$"
    for part in cast("list[Any]", parts):
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _leaves(error: ValidationError) -> list[ValidationError]:
    # A failed anyOf (a record or null) says only "not valid under any of the given
    # schemas"; the branch that got furthest into the document says what is really wrong.
    if not error.context:
        return [error]
    branches: dict[object, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    furthest = max(
        branches.values(),
        key=lambda subs: max((len(e.absolute_path), e.validator != "type") for e in subs),
    )
    return [leaf for sub in furthest for leaf in _leaves(sub)]


def violations(document: object, schema_name: str) -> tuple[Violation, ...]:
    """Every way in which *document* breaks the schema *schema_name*, in document order."""
    validator = _validator(schema_name)
    # A quick yes or no first: the list of violations is only worth building for a document
    # that has some.
    if validator.is_valid(document):
        return ()
    leaves = [leaf for error in validator.iter_errors(document) for leaf in _leaves(error)]
    # Document order: names as text, array indices as numbers ([2] before [11]).
    leaves.sort(
        key=lambda error: [
            (1, part, "") if isinstance(part, int) else (0, 0, str(part))
            for part in error.absolute_path
        ]
    )
    return tuple(
        Violation(path=json_path(leaf.absolute_path), message=leaf.message) for leaf in leaves
    )


def validate(document: object, schema_name: str) -> None:
    """Validate *document* against the schema *schema_name* (JSON Schema draft 2020-12).

    Raises:
        SchemaValidationError: carrying every violation with its JSON path.
        SchemaNotFoundError: if there is no schema of that name.

    """
    found = violations(document, schema_name)
    if found:
        raise SchemaValidationError(found, schema=schema_name)


def _matches(document: object, uri: str) -> bool:
    return Draft202012Validator({"$ref": uri}, registry=_registry()).is_valid(document)


def _at(uri: str, *keys: str | int) -> str:
    # The URI of a subschema below the one uri names: a JSON pointer in the fragment.
    base, _, pointer = uri.partition("#")
    return "#".join((base, "/".join((pointer, *map(str, keys)))))


def _choice(document: JsonValue, uri: str, schema: dict[str, Any]) -> str | None:
    # The branch of an anyOf or oneOf that document is valid under, if the schema has one.
    for keyword in ("anyOf", "oneOf"):
        for index in range(len(schema.get(keyword, ()))):
            if _matches(document, _at(uri, keyword, index)):
                return _at(uri, keyword, index)
    return None


def _fill(document: JsonValue, uri: str) -> JsonValue:
    # uri names the subschema that describes document: a schema's $id and a JSON pointer.
    schema: object = _registry().resolver().lookup(uri).contents
    if not isinstance(schema, dict):
        return document  # true: any JSON value, nothing to fill
    if "$ref" in schema:
        document = _fill(document, urljoin(uri.partition("#")[0], schema["$ref"]))
    for index in range(len(schema.get("allOf", ()))):
        document = _fill(document, _at(uri, "allOf", index))
    branch = _choice(document, uri, schema)
    if branch is not None:
        return _fill(document, branch)
    if isinstance(document, dict) and "properties" in schema:
        filled: dict[str, JsonValue] = {}
        for name, member in schema["properties"].items():
            if name in document:
                filled[name] = _fill(document[name], _at(uri, "properties", name))
            elif isinstance(member, dict) and "default" in member:
                default = copy.deepcopy(member["default"])
                filled[name] = _fill(default, _at(uri, "properties", name))
        filled.update((name, value) for name, value in document.items() if name not in filled)
        return filled
    if isinstance(document, list) and isinstance(schema.get("items"), dict):
        return [_fill(element, _at(uri, "items")) for element in document]
    return document


def with_defaults(document: JsonValue, schema_name: str) -> JsonValue:
    """*document* with every absent optional member written out as its schema default.

    Recursively, through records that refer to other records and through the choices of
    ``anyOf`` and ``oneOf``; *document* is not changed. Two documents of one schema that are
    equal after this are the same document written with more or fewer defaults, which a
    writer may omit (JSON-15).

    Raises:
        SchemaNotFoundError: if there is no schema of that name.

    """
    if schema_name not in schema_names():
        _load(schema_name)  # raises, naming the known schemas
    return _fill(document, f"{schema_id(schema_name)}#")
