"""The exceptions of ctxpact: one root, and subclasses that also inherit the matching builtin."""

from __future__ import annotations

import json
from collections.abc import Iterable

from attrs import frozen


class CtxpactError(Exception):
    """The root of every error that ctxpact raises on purpose."""


@frozen(kw_only=True)
class Violation:
    """One way in which a document breaks its schema.

    ``path`` is a JSON path from the document's root, such as ``$.items[3]`` or
    ``$.report.droppedItemCount``; ``message`` says what was expected and what was found.
    """

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class SchemaValidationError(CtxpactError, ValueError):
    """A document does not match its JSON Schema (or cannot become the record it describes).

    Carries every violation found, each with its JSON path, so one run shows all of them.
    """

    def __init__(self, violations: Iterable[Violation], *, schema: str | None = None) -> None:
        self.violations: tuple[Violation, ...] = tuple(violations)
        self.schema = schema
        where = f" against {schema}" if schema else ""
        lines = "\n".join(f"  {violation}" for violation in self.violations)
        count = len(self.violations)
        noun = "violation" if count == 1 else "violations"
        super().__init__(f"{count} schema {noun}{where}:\n{lines}")

    @classmethod
    def single(cls, path: str, message: str) -> SchemaValidationError:
        """Build the error for one violation at *path*."""
        return cls([Violation(path=path, message=message)])


class JsonLimitError(SchemaValidationError):
    """A value goes beyond the limits every JSON value of ctxpact keeps (JSON-17).

    Nested more than :data:`~ctxpact.spec.MAX_JSON_DEPTH` levels deep, or holding an integer
    of more than :data:`~ctxpact.spec.MAX_INTEGER_DIGITS` digits; the violation names the
    JSON path of the first place that does.
    """


class InvalidJsonError(CtxpactError, json.JSONDecodeError):
    """Text that is not strict JSON (JSON-7): a syntax error, ``NaN`` or ``Infinity``.

    A :class:`json.JSONDecodeError` (so a ``ValueError``) with the same ``msg``, ``pos``,
    ``lineno`` and ``colno``.
    """


class ArgumentTypeError(CtxpactError, TypeError):
    """A public operation was given an argument of the wrong type (JSON-18).

    Reads like ``Expected a sequence of items (a list or a tuple) but got str for
    DefaultContextProjector.project(items)``.
    """

    def __init__(self, *, operation: str, argument: str, expected: str, actual: object) -> None:
        self.operation = operation
        self.argument = argument
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"Expected {expected} but got {type(actual).__name__} for {operation}({argument})"
        )


class InvalidValueError(CtxpactError, ValueError):
    """A record was built with a value its field does not allow (BUD-3, BUD-4).

    Reads like ``Expected a non-negative integer but got -1 for ContextBudget.max_items``.
    """

    def __init__(self, *, record: str, field: str, expected: str, actual: object) -> None:
        self.record = record
        self.field = field
        self.expected = expected
        self.actual = actual
        super().__init__(f"Expected {expected} but got {actual!r} for {record}.{field}")


class SchemaNotFoundError(CtxpactError, LookupError):
    """No schema of that name ships with ctxpact."""
