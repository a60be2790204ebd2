"""Run checks against one implementation and collect a :class:`ConformanceReport`."""

from __future__ import annotations

import copy
import functools
import math
import re
import sysconfig
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import hypothesis
from attrs import field, frozen
from hypothesis.reporting import with_reporter
from hypothesis.strategies import DataObject

from ctxpact.conformance._claims import check_claims, check_required_options
from ctxpact.conformance._context import (
    CheckContext,
    CheckFailure,
    CheckTimeout,
    SkipCheck,
    SubjectError,
    clauses_named,
)
from ctxpact.conformance._errors import TargetError
from ctxpact.conformance._factory import factory_call
from ctxpact.conformance._limits import shrink_bound, time_limit
from ctxpact.conformance._model import (
    Check,
    CheckResult,
    Claim,
    ConformanceReport,
    ExpectedFailure,
    Implementation,
    Outcome,
)
from ctxpact.conformance._profiles import (
    DEFAULT_PROFILE,
    SHRINK_LIMITS,
    TIME_LIMITS,
    profile_settings,
)
from ctxpact.conformance._target import check_claim_options


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; ``report`` is what ran before, ``interrupted`` and with ``not_run``.

    A ``KeyboardInterrupt``, so a caller that does nothing about it still stops.
    """

    def __init__(self, report: ConformanceReport) -> None:
        super().__init__(f"interrupted after {len(report.results)} checks")
        self.report = report


def selected(check: Check, keywords: Sequence[str]) -> bool:
    """Whether *check* matches any of *keywords* (substrings of its id or clause ids).

    A keyword starting with ``not `` excludes the checks it matches instead.
    """
    haystack = _haystack(check)
    include = [k.lower() for k in keywords if not k.lower().startswith("not ")]
    exclude = [
        k.lower().removeprefix("not ").strip() for k in keywords if k.lower().startswith("not ")
    ]
    if any(word in haystack for word in exclude):
        return False
    return not include or any(word in haystack for word in include)


def _haystack(check: Check) -> str:
    return " ".join((check.id, *check.clauses)).lower()


def unmatched_keywords(keywords: Sequence[str], checks: Iterable[Check]) -> list[str]:
    """The *keywords* (``not`` ones included) that match no id or clause of *checks*."""
    haystacks = [_haystack(check) for check in checks]
    return [
        keyword
        for keyword in keywords
        if not any(keyword.lower().removeprefix("not ").strip() in h for h in haystacks)
    ]


def check_keywords(keywords: Sequence[str], checks: Iterable[Check], where: str) -> None:
    """Refuse a keyword that selects nothing: a typo must not pass as an empty green run.

    Raises:
        TargetError: naming the keyword.

    """
    unmatched = unmatched_keywords(keywords, checks)
    if unmatched:
        raise TargetError(f"the keyword {unmatched[0]!r} matches no check id or clause of {where}")


#: Directories whose frames are the suite's or Hypothesis's, never the implementation's.
_SUITE_DIRECTORIES = tuple(
    str(Path(path).resolve())
    for path in (
        Path(__file__).parent,
        Path(hypothesis.__file__).parent,
        sysconfig.get_paths()["stdlib"],
        sysconfig.get_paths()["platstdlib"],
    )
)
#: The notes Hypothesis adds to a failure: the example (the counterexample shows it as JSON)
#: and advice about Hypothesis itself.
_HYPOTHESIS_NOTE = re.compile(
    r"^(Falsifying|Failing|Explanation|Trying example|Draw \d|state\.|state =|You can |Unreliable "
    r"|Highest target|The test |Hypothesis )"
)


def _own(filename: str) -> bool:
    try:
        resolved = str(Path(filename).resolve())
    except (OSError, ValueError):
        return True
    return resolved.startswith(_SUITE_DIRECTORIES) or filename.startswith("<")


def location(error: BaseException) -> str:
    """The innermost frame of the implementation's code in *error*'s traceback, or ``""``.

    Frames of the suite, of Hypothesis and of the standard library are skipped. A check's
    own failure looks only at the implementation's exception it was raised in handling.
    """
    seen: set[int] = set()
    # A check's own finding carries no frame of the implementation worth showing, only the
    # exception it caught, when it caught one.
    current: BaseException | None = (
        error.__cause__ or error.__context__ if isinstance(error, CheckFailure) else error
    )
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        frames = [f for f in traceback.extract_tb(current.__traceback__) if not _own(f.filename)]
        if frames:
            frame = frames[-1]
            source = f": {frame.line.strip()}" if frame.line else ""
            return f"{frame.filename}:{frame.lineno} in {frame.name}{source}"
        current = current.__cause__ or current.__context__
    return ""


def _failure_message(error: BaseException) -> str:
    head = str(error) if isinstance(error, CheckFailure) else f"{type(error).__name__}: {error}"
    notes = [
        note
        for note in getattr(error, "__notes__", ())
        if note.strip() and not _HYPOTHESIS_NOTE.match(note.strip()) and not _points_inside(note)
    ]
    return "\n".join([head, *notes])


def _points_inside(note: str) -> bool:
    return any(directory in note for directory in _SUITE_DIRECTORIES[:2])


def _clause(check: Check, error: BaseException, message: str) -> str:
    """The one clause that broke: the check's word for it, or the only one it could be."""
    given = getattr(error, "clause", "")
    if given:
        return str(given)
    if len(check.clauses) == 1:
        return check.clauses[0]
    named = clauses_named(message, check.clauses)
    return named[0] if len(named) == 1 else ""


def _own_arguments(test: Any) -> None:  # noqa: ANN401 - a Hypothesis test
    """Hand every example of *test* its own deep copy of its arguments.

    Explicit examples are built from values the suite's modules share (the transcripts of
    one check's examples are another's), and an implementation that changes its input in
    place would otherwise change them for every check that runs later: whether a check then
    passes would depend on which checks ran before it. Hypothesis lets a test's inner
    function be replaced for this (``test.hypothesis.inner_test``); its seed is still derived
    from the original, which ``functools.wraps`` names, so derandomised runs draw as before.
    """
    inner = test.hypothesis.inner_test

    @functools.wraps(inner)
    def owning(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - the test's own
        copied = {
            name: value if isinstance(value, DataObject) else copy.deepcopy(value)
            for name, value in kwargs.items()
        }
        return inner(*args, **copied)

    test.hypothesis.inner_test = owning


def run_check(  # noqa: PLR0913 - every argument is a separate, named choice of the caller
    check: Check,
    *,
    factory: Callable[..., Any],
    claims: frozenset[Claim],
    settings: hypothesis.settings,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    expected: ExpectedFailure | None = None,
    timeout: float | None = None,
    shrink_limit: float | None = None,
) -> CheckResult:
    """Run one check and say how it ended; never raises for a failing implementation.

    ``generic`` checks always apply (SUITE-2); a check of another claim runs when *claims*
    hold it. *timeout* bounds the check's seconds (SUITE-6, ``None``: no bound) and
    *shrink_limit* the seconds Hypothesis spends shrinking its failure (SUITE-7).

    Raises:
        TargetError: if the factory cannot be called as the component's factories are.
        KeyboardInterrupt: Ctrl-C, as it came.

    """
    started = time.perf_counter()
    if check.claim is not Claim.GENERIC and check.claim not in claims:
        ending = _Ending(Outcome.SKIP, f"not claimed: {check.claim.value}")
        return ending.result(check, started)
    # A seed reaches the @given tests. A state machine cannot take one through Hypothesis's
    # public API, so it stays derandomised: every run of it is reproducible all the same.
    machine_settings = settings if seed is None else hypothesis.settings(settings, derandomize=True)
    context = CheckContext(
        factory_call(factory, check.component),
        settings=machine_settings,
        options=options,
        claims=claims,
    )
    said: list[str] = []
    try:
        with (
            with_reporter(lambda text: said.append(str(text))),
            shrink_bound(shrink_limit),
            time_limit(None if timeout is None or math.isinf(timeout) else timeout),
        ):
            test = check.build(context)
            if getattr(test, "is_hypothesis_test", False):
                _own_arguments(test)
                test = settings(test)
                if seed is not None:
                    test = hypothesis.seed(seed)(test)
            test()
    except CheckTimeout as stopped:
        ending = _timed_out(check, context, stopped, timeout)
    except SkipCheck as skip:
        ending = _Ending(Outcome.SKIP, str(skip))
    except SubjectError as error:
        ending = _Ending(Outcome.ERROR, str(error), {"location": location(error)})
    except Exception as error:  # noqa: BLE001 - whatever the implementation raises is a finding
        message = _failure_message(error)
        if any("spent more than" in line for line in said):
            message += (
                f"\n(shrinking stopped after {shrink_limit:g} s: the counterexample may not be "
                "minimal)"
            )
        ending = _Ending(Outcome.FAIL, message, _evidence(check, context, error, message))
    else:
        ending = _Ending(Outcome.PASS)
    return ending.expecting(expected).result(check, started)


@frozen
class _Ending:
    """How a check ended, before its result is written: outcome, message, evidence."""

    outcome: Outcome
    message: str = ""
    evidence: Mapping[str, Any] = field(factory=dict)

    def expecting(self, expected: ExpectedFailure | None) -> _Ending:
        """The ending once an expected failure is accounted for (strict)."""
        if expected is None:
            return self
        if self.outcome is Outcome.FAIL:
            return _Ending(Outcome.XFAIL, f"expected failure: {expected.reason}", self.evidence)
        if self.outcome is Outcome.PASS:
            return _Ending(
                Outcome.FAIL,
                f"expected to fail ({expected.reason}) but passed: remove it from the expected "
                "failures",
            )
        return self

    def result(self, check: Check, started: float) -> CheckResult:
        """The result of *check*, which started at *started* (``time.perf_counter``)."""
        return CheckResult(
            check_id=check.id,
            clauses=check.clauses,
            title=check.title,
            outcome=self.outcome,
            duration=round(time.perf_counter() - started, 6),
            message=self.message,
            **self.evidence,
        )


def _evidence(
    check: Check, context: CheckContext, error: BaseException, message: str
) -> dict[str, Any]:
    return {
        "counterexample": context.counterexample(error),
        "clause": _clause(check, error, message),
        "mismatch": getattr(error, "mismatch", None),
        "location": location(error),
    }


def _timed_out(
    check: Check, context: CheckContext, stopped: CheckTimeout, timeout: float | None
) -> _Ending:
    seconds = f"{timeout:g} s" if timeout is not None else "its time limit"
    failure = context.last_failure
    if failure is not None:
        # The failure was found; the time ran out while Hypothesis shrank it.
        message = (
            f"{failure}\n(the time limit of {seconds} stopped the search or the shrinking: the "
            "counterexample may not be minimal)"
        )
        return _Ending(Outcome.FAIL, message, _evidence(check, context, failure, message))
    return _Ending(
        Outcome.ERROR,
        f"the check ran past its time limit of {seconds} and was interrupted in the example "
        "below: the implementation may loop forever (raise the limit with --timeout SECONDS "
        "or timeout=SECONDS)",
        {"counterexample": context.counterexample(), "location": location(stopped)},
    )


def limits(profile: str, timeout: float | None) -> tuple[float | None, float | None]:
    """The time limit and the shrink bound of a run: *timeout* or the profile's own.

    A run without a time limit (*timeout* ``math.inf``) has no shrink bound either, so that
    what it finds depends on the implementation, the profile and the seed, never on the
    machine's speed (SUITE-13).
    """
    profile_settings(profile)  # an unknown profile is refused here, with the known ones
    if timeout == math.inf:
        return timeout, None
    return (TIME_LIMITS[profile] if timeout is None else timeout), SHRINK_LIMITS[profile]


def plan(
    checks: Iterable[Check], implementation: Implementation, keywords: Sequence[str] = ()
) -> list[Check]:
    """The checks a run of *implementation* reports on, in run order (before any runs).

    Raises:
        TargetError: for a claim that selects no check of the component.

    """
    relevant = [c for c in checks if c.component is implementation.component]
    check_claims(implementation.component, implementation.claims, relevant)
    return [c for c in relevant if selected(c, keywords)]


def prepare(  # noqa: PLR0913 - what a run is made of, all keywords
    checks: Iterable[Check],
    *,
    implementation: Implementation,
    factory: Callable[..., Any],
    options: Mapping[str, Any] | None = None,
    keywords: Sequence[str] = (),
    expected_failures: Iterable[ExpectedFailure] = (),
) -> list[Check]:
    """:func:`plan` the run and refuse, before any check runs, what cannot run as given.

    Raises:
        TargetError: for an expected failure naming no check of the component, a claim that
            selects no check, a selected and claimed check whose option is missing
            (:class:`~ctxpact.conformance._claims.MissingOptionError`), or a factory that
            cannot be called as the component's factories are (SUITE-4).

    """
    checks = tuple(checks)
    known = {c.id for c in checks if c.component is implementation.component}
    unknown = {entry.check_id for entry in expected_failures} - known
    if unknown:
        raise TargetError(
            f"Expected failures name checks that do not exist for "
            f"{implementation.component.value}: {', '.join(sorted(unknown))}"
        )
    planned = plan(checks, implementation, keywords)
    claimed = [c for c in planned if c.claim is Claim.GENERIC or c.claim in implementation.claims]
    check_required_options(claimed, options or {})
    check_claim_options(implementation.claims, options or {})
    factory_call(factory, implementation.component, name=implementation.name)
    return planned


def run_checks(  # noqa: PLR0913 - see run_check
    checks: Iterable[Check],
    *,
    factory: Callable[..., Any],
    implementation: Implementation,
    profile: str = DEFAULT_PROFILE,
    settings: hypothesis.settings | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    expected_failures: Iterable[ExpectedFailure] = (),
    keywords: Sequence[str] = (),
    progress: Callable[[CheckResult], None] | None = None,
    timeout: float | None = None,
    starting: Callable[[Check], None] | None = None,
) -> ConformanceReport:
    """Run every selected check of *implementation*'s component and report on all of them.

    *timeout* is the time limit of each check in seconds (default: the profile's;
    ``math.inf`` for none). *starting* hears of each check before it runs, *progress* of its
    result after.

    Raises:
        TargetError: before any check runs, for what cannot be run as given: an expected
            failure naming no check, a claim that selects no check, a missing option, a
            factory that cannot be called as the component's factories are.
        RunInterrupted: on Ctrl-C, with the report of what ran.

    """
    chosen = settings or profile_settings(profile, seed=seed)
    time_bound, shrink_limit = limits(profile, timeout)
    expected = {entry.check_id: entry for entry in expected_failures}
    planned = prepare(
        checks,
        implementation=implementation,
        factory=factory,
        options=options,
        keywords=keywords,
        expected_failures=expected.values(),
    )
    results: list[CheckResult] = []
    for check in planned:
        try:
            if starting is not None:
                starting(check)
            outcome = run_check(
                check,
                factory=factory,
                claims=implementation.claims,
                settings=chosen,
                seed=seed,
                options=options,
                expected=expected.get(check.id),
                timeout=time_bound,
                shrink_limit=shrink_limit,
            )
            results.append(outcome)
            if progress is not None:
                progress(outcome)
        except KeyboardInterrupt:
            report = ConformanceReport(
                implementation=implementation,
                results=tuple(results),
                profile=profile,
                seed=seed,
                interrupted=True,
                not_run=tuple(c.id for c in planned[len(results) :]),
            )
            raise RunInterrupted(report) from None
    return ConformanceReport(
        implementation=implementation, results=tuple(results), profile=profile, seed=seed
    )
