"""What a check sees while it runs: the implementation under test and a place for evidence."""

from __future__ import annotations

import enum
import re
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, ClassVar, Final, cast

import attrs
from hypothesis import settings

from ctxpact.conformance._model import Claim, Mismatch
from ctxpact.spec import SCHEMA_OF, CtxpactError, JsonValue, compact_json, copy_json, to_json


class _Missing(enum.Enum):
    MISSING = "missing"


#: Says "not given" where ``None`` is a value (a null returned by the implementation).
MISSING: Final = _Missing.MISSING


class CheckFailure(CtxpactError, AssertionError):  # noqa: N818 - reads as the finding it is
    """A clause does not hold: raised by :meth:`CheckContext.expect`, with its example.

    ``clause`` is the clause that broke when the check said so, and ``mismatch`` what the
    implementation returned beside what that clause expected.
    """

    example: tuple[dict[str, JsonValue] | None, list[JsonValue]] | None = None
    clause: str = ""
    mismatch: Mismatch | None = None


class CheckTimeout(BaseException):
    """The check ran past its time limit; raised inside whatever code was running then.

    A ``BaseException``, like ``KeyboardInterrupt``: Hypothesis does not take it for a
    failure to shrink, and an implementation's ``except Exception`` does not swallow it.
    """


class SubjectError(CtxpactError):
    """The implementation could not be exercised: its factory raised, or its harness failed.

    An error a harness reports for an operation is one too (the check is reported ``error``),
    but the implementation raised it: a check that expected an error judges it like any other.
    """

    #: Whether the implementation itself raised it, inside a harness.
    raised_by_implementation: ClassVar[bool] = False


class SkipCheck(CtxpactError):  # noqa: N818 - a signal, like pytest's Skipped
    """Raised by a check when the implementation lacks an optional capability it needs."""


def as_json(value: object) -> JsonValue:
    """Best-effort JSON form of a check's input, for a counterexample."""
    if type(value) in SCHEMA_OF:
        return to_json(value)
    if attrs.has(type(value)):
        names = [f.name for f in attrs.fields(cast("type[attrs.AttrsInstance]", type(value)))]
        return {name: as_json(getattr(value, name)) for name in names}
    if isinstance(value, dict):
        return {str(key): as_json(member) for key, member in value.items()}
    if isinstance(value, list | tuple):
        return [as_json(member) for member in value]
    try:
        return copy_json(value)
    except ValueError:
        return repr(value)


class CheckContext:
    """The implementation under test, the suite's settings, and the last example tried.

    Checks call :meth:`subject` for a fresh instance per example, :meth:`record` with the
    example's inputs before exercising it, and :meth:`expect` for each clause. Hypothesis
    replays the shrunk example last, so the recorded inputs at a failure are the minimal
    counterexample.
    """

    def __init__(
        self,
        factory: Callable[..., Any],
        *,
        settings: settings,
        options: Mapping[str, Any] | None = None,
        claims: Collection[Claim] = (),
    ) -> None:
        self.factory = factory
        self.settings = settings
        self.options: Mapping[str, Any] = options or {}
        #: What the target claims: a check whose rule depends on another claim reads it here
        #: (PAIR-5: pair integrity changes what the pinned-prefix and newest-item rules say).
        self.claims: frozenset[Claim] = frozenset(claims)
        self.example: dict[str, JsonValue] | None = None
        self.steps: list[JsonValue] = []
        #: The last failure :meth:`expect` raised: what a time limit that interrupts the
        #: shrinking of a failure reports instead of the interruption.
        self.last_failure: CheckFailure | None = None

    def subject(self, *args: Any) -> Any:  # noqa: ANN401 - the component's own type
        """A fresh instance of the implementation (the factory's arguments pass through)."""
        try:
            return self.factory(*args)
        except Exception as error:
            raise SubjectError(f"the factory raised {type(error).__name__}: {error}") from error

    def record(self, **inputs: object) -> None:
        """Remember the inputs of the example about to run (and forget any steps).

        They are copied to JSON now, so an implementation that mutates its input cannot
        change the counterexample shown.
        """
        self.example = {key: as_json(value) for key, value in inputs.items()}
        self.steps = []

    def step(self, name: str, **arguments: object) -> None:
        """Remember one step of a stateful example."""
        self.steps.append({"step": name, **{k: as_json(v) for k, v in arguments.items()}})

    def expect(
        self,
        condition: bool,
        message: str,
        *,
        clause: str = "",
        returned: object = MISSING,
        expected: object = MISSING,
    ) -> None:
        """Fail the check with *message* unless *condition* holds.

        *clause* names the one clause that broke (among the check's); *returned* and
        *expected* are what the implementation gave and what that clause asks for, shown
        whole beside the message (which may abbreviate them). Both are copied to JSON now.

        The example that failed is kept: Hypothesis runs every explicit example before it
        reports the first failure, so the last one recorded is not always the one that failed.
        """
        if not condition:
            # A check often calls expect(False, ...) from an `except Exception` around the
            # subject; when what was caught is a skip or a fault of the implementation's
            # harness, that is the outcome, not a finding against the clause.
            handling = sys.exc_info()[1]
            if isinstance(handling, SkipCheck) or (
                isinstance(handling, SubjectError) and not handling.raised_by_implementation
            ):
                raise handling
            failure = CheckFailure(message)
            failure.example = (self.example, list(self.steps))
            failure.clause = clause
            if returned is not MISSING or expected is not MISSING:
                failure.mismatch = Mismatch(
                    returned=_evidence(returned), expected=_evidence(expected)
                )
            self.last_failure = failure
            raise failure

    def counterexample(self, error: BaseException | None = None) -> JsonValue:
        """The JSON form of the example that failed with *error* (and its steps), or ``None``.

        A :class:`CheckFailure` carries the example it was raised in: Hypothesis may run
        other explicit examples before it reports the first failure. For anything else the
        implementation raised, it is the last example recorded, which is the one Hypothesis
        replays last (the shrunk one).
        """
        example, steps = getattr(error, "example", None) or (self.example, self.steps)
        if example is None and not steps:
            return None
        document: dict[str, JsonValue] = dict(example or {})
        if steps:
            document["steps"] = list(steps)
        return document


def _evidence(value: object) -> JsonValue:
    return None if value is MISSING else as_json(value)


def clauses_named(message: str, clauses: Sequence[str]) -> tuple[str, ...]:
    """The clause ids among *clauses* that *message* names, in the order of *clauses*.

    An id counts as a whole word: ``PRJ-1`` is not named by ``PRJ-12``.
    """
    return tuple(
        clause
        for clause in clauses
        if re.search(rf"(?<![\w-]){re.escape(clause)}(?![\w-])", message) is not None
    )


def describe(value: object, limit: int = 300) -> str:
    """A short JSON rendering of *value* for a failure message."""
    text = compact_json(as_json(value))
    return text if len(text) <= limit else f"{text[:limit]}…"
