"""Access to the normative JSON Schemas that ship with ctxpact, and validation against them."""

from __future__ import annotations

import functools
import json
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from ctxpact.spec._errors import SchemaNotFoundError, SchemaValidationError, Violation
from ctxpact.spec._json import JsonObject

_SUFFIX = ".schema.json"


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


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(load_schema(name))


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
    leaves = [
        leaf for error in _validator(schema_name).iter_errors(document) for leaf in _leaves(error)
    ]
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
