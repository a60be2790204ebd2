"""The language-neutral test vectors: load, validate, export.

Each file under ``conformance/vectors/`` (shipped in the wheel) holds the cases of one
operation, in a format like the JSON-Schema-Test-Suite's: a stable ``id`` and a
``description`` per case, the clause ids it pins, its ``input`` and ``expected`` output. The
files validate against the ``vectors`` schema. The suite's exact-semantics checks run them,
and so can an implementation in any language that cannot run Hypothesis.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast

from attrs import frozen

from ctxpact.spec import CtxpactError, JsonValue, SchemaValidationError, validate

_SUFFIX = ".json"


class VectorError(CtxpactError, ValueError):
    """A vector file is missing, malformed, or breaks the ``vectors`` schema."""


@frozen(kw_only=True)
class Vector:
    """One case: what to run, on what, and what must come out."""

    id: str
    description: str
    operation: str
    clauses: tuple[str, ...]
    features: tuple[str, ...]
    input: Any
    expected: Any
    file: str

    def document(self) -> JsonValue:
        """The case as JSON, for a counterexample."""
        return {
            "id": self.id,
            "operation": self.operation,
            "input": self.input,
            "expected": self.expected,
        }


def _directory() -> Traversable:
    packaged = resources.files("ctxpact.conformance").joinpath("_vectors")
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "vectors"
    if checkout.is_dir():
        return checkout
    raise VectorError(f"The ctxpact vectors are missing: looked in {packaged} and {checkout}")


def _files() -> Iterator[Traversable]:
    yield from sorted(
        (entry for entry in _directory().iterdir() if entry.name.endswith(_SUFFIX)),
        key=lambda entry: entry.name,
    )


def _parse(entry: Traversable) -> dict[str, Any]:
    try:
        document = json.loads(entry.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise VectorError(f"{entry.name} is not JSON: {error}") from None
    try:
        validate(document, "vectors")
    except SchemaValidationError as error:
        raise VectorError(f"{entry.name} breaks the vectors schema:\n{error}") from None
    return cast("dict[str, Any]", document)


@functools.cache
def load_vectors() -> tuple[Vector, ...]:
    """Every vector of every file, in file order; ids are checked to be unique."""
    found: list[Vector] = []
    seen: dict[str, str] = {}
    for entry in _files():
        document = _parse(entry)
        for case in document["cases"]:
            if case["id"] in seen:
                raise VectorError(
                    f"Vector id {case['id']!r} appears in {seen[case['id']]} and {entry.name}"
                )
            seen[case["id"]] = entry.name
            found.append(
                Vector(
                    id=case["id"],
                    description=case["description"],
                    operation=document["operation"],
                    clauses=tuple(case["clauses"]),
                    features=tuple(case.get("features", ())),
                    input=case["input"],
                    expected=case["expected"],
                    file=entry.name,
                )
            )
    return tuple(found)


def vectors_for(operation: str) -> tuple[Vector, ...]:
    """The vectors of one *operation* (``project``, ``parse_summary``, ...)."""
    return tuple(vector for vector in load_vectors() if vector.operation == operation)


def export_vectors(directory: Path) -> list[Path]:
    """Copy every vector file into *directory*; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for entry in _files():
        _parse(entry)
        target = directory / entry.name
        target.write_text(entry.read_text(encoding="utf-8"), encoding="utf-8")
        written.append(target)
    return written
