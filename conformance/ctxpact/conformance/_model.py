"""The records of the conformance suite: checks, their outcomes and the report."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any

from attrs import field, frozen

from ctxpact.spec import JsonValue


class Component(enum.Enum):
    """What a check applies to; an implementation is checked as one component."""

    PROJECTOR = "projector"
    COMPACT_POLICY = "compact-policy"
    AGENT_MEMORY = "agent-memory"
    SUMMARY_PARSER = "summary-parser"
    SESSION_STORE = "session-store"
    RUNTIME = "runtime"
    MEMORY_COMPRESSOR = "memory-compressor"
    FUNCTIONS = "functions"


class Claim(enum.Enum):
    """What an implementation claims, and so which checks apply to it.

    ``GENERIC`` holds for any implementation of the component (a framework's own trimmer,
    with a different algorithm, included). ``PAIR_INTEGRITY`` is the claim of a projector or
    a compact policy that never leaves a tool result without its call nor an answered call
    without its results (SPEC.md §1.5). ``WIRE_VALID`` is the claim of one that never turns a
    list a provider accepts into one it rejects (§1.6); its checks need
    ``options["providers"]``, the providers it is made for. ``EXACT`` is the claim of a port
    of the spec's own algorithms: its results must equal the reference's, byte for byte.
    ``LLM_SUMMARY`` is the claim of a compact policy that follows the spec's LLM summary
    rules (prompt, forgiving parse, fallback, accumulation, turn-boundary cut, file tracking).
    """

    GENERIC = "generic"
    PAIR_INTEGRITY = "pair-integrity"
    WIRE_VALID = "wire-valid"
    EXACT = "exact"
    LLM_SUMMARY = "llm-summary"


class Outcome(enum.Enum):
    """How one check ended for one implementation."""

    PASS = "pass"  # noqa: S105 - an outcome, not a password
    FAIL = "fail"
    SKIP = "skip"
    XFAIL = "xfail"
    ERROR = "error"


def _claims(values: Iterable[Claim]) -> frozenset[Claim]:
    return frozenset(values)


@frozen(kw_only=True)
class Check:
    """One check of the suite: a property of a component, citing the clauses it verifies.

    ``build`` receives the check's context and returns the test to run: a Hypothesis test
    (``@given`` with explicit ``@example`` s) or a plain function for a fixed case.
    """

    id: str
    component: Component
    claim: Claim
    clauses: tuple[str, ...]
    title: str
    build: Callable[[Any], Callable[[], None]] = field(repr=False, eq=False)


@frozen(kw_only=True)
class ExpectedFailure:
    """A check the implementer knows their implementation fails, and why.

    Strict: when the check passes anyway, the run fails, so stale entries are noticed.
    """

    check_id: str
    reason: str


@frozen(kw_only=True)
class Mismatch:
    """What the implementation returned beside what the broken clause expected, as JSON."""

    returned: JsonValue
    expected: JsonValue


@frozen(kw_only=True)
class CheckResult:
    """The outcome of one check, with the shrunk counterexample of a failure.

    ``clause`` is the one clause that broke, when the check knows it (one of ``clauses``);
    ``mismatch`` what the implementation returned and what that clause expected; ``location``
    the implementation's own frame (``path:line in function``) where an exception it raised,
    or an interrupted example, was.
    """

    check_id: str
    clauses: tuple[str, ...]
    title: str
    outcome: Outcome
    duration: float
    message: str = ""
    counterexample: JsonValue = None
    clause: str = ""
    mismatch: Mismatch | None = None
    location: str = ""


@frozen(kw_only=True)
class Implementation:
    """What was checked: a name and the claims it makes."""

    name: str
    component: Component
    claims: frozenset[Claim] = field(converter=_claims)
    language: str = "python"
    version: str = ""


@frozen(kw_only=True)
class ConformanceReport:
    """Every check's result for one implementation, with totals.

    A run stopped by Ctrl-C is ``interrupted``; ``not_run`` lists the selected checks it did
    not finish, in run order. ``str(report)`` is the plain-text report :meth:`format` writes.
    """

    implementation: Implementation
    results: tuple[CheckResult, ...]
    profile: str
    seed: int | None = None
    interrupted: bool = False
    not_run: tuple[str, ...] = ()

    def count(self, outcome: Outcome) -> int:
        """How many checks ended with *outcome*."""
        return sum(result.outcome is outcome for result in self.results)

    @property
    def ok(self) -> bool:
        """True when no check failed or errored (skips and expected failures are fine).

        An interrupted run is not ok: the checks it did not run proved nothing.
        """
        return not self.failures and not self.interrupted

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        """The results that failed or errored."""
        return tuple(r for r in self.results if r.outcome in (Outcome.FAIL, Outcome.ERROR))

    def format(self, *, color: bool = False) -> str:
        """The report for a person: its failures, grouped by cause, and the counts.

        Checks that failed with the same error are one block that names them all; each
        counterexample is shown once, as JSON, with what the implementation returned beside
        what the broken clause expected. *color* adds ANSI colours, for a terminal.
        """
        from ctxpact.conformance._format import format_report  # noqa: PLC0415 - a cycle

        return format_report(self, color=color)

    def __str__(self) -> str:
        return self.format()
