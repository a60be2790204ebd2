"""Run checks against one implementation and collect a :class:`ConformanceReport`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import hypothesis

from ctxpact.conformance._context import CheckContext, CheckFailure, SkipCheck, SubjectError
from ctxpact.conformance._model import (
    Check,
    CheckResult,
    Claim,
    ConformanceReport,
    ExpectedFailure,
    Implementation,
    Outcome,
)
from ctxpact.conformance._profiles import DEFAULT_PROFILE, profile_settings
from ctxpact.conformance._target import TargetError, check_claim_options


def selected(check: Check, keywords: Sequence[str]) -> bool:
    """Whether *check* matches any of *keywords* (substrings of its id or clause ids).

    A keyword starting with ``not `` excludes the checks it matches instead.
    """
    haystack = " ".join((check.id, *check.clauses)).lower()
    include = [k.lower() for k in keywords if not k.lower().startswith("not ")]
    exclude = [
        k.lower().removeprefix("not ").strip() for k in keywords if k.lower().startswith("not ")
    ]
    if any(word in haystack for word in exclude):
        return False
    return not include or any(word in haystack for word in include)


def _failure_message(error: BaseException) -> str:
    head = str(error) if isinstance(error, CheckFailure) else f"{type(error).__name__}: {error}"
    notes = [note for note in getattr(error, "__notes__", ()) if note.strip()]
    return "\n".join([head, *notes])


def run_check(  # noqa: PLR0913, PLR0911 - every argument is a separate, named choice of the caller
    check: Check,
    *,
    factory: Callable[..., Any],
    claims: frozenset[Claim],
    settings: hypothesis.settings,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    expected: ExpectedFailure | None = None,
) -> CheckResult:
    """Run one check and say how it ended; never raises for a failing implementation."""
    started = time.perf_counter()

    def result(outcome: Outcome, message: str = "", counterexample: Any = None) -> CheckResult:  # noqa: ANN401
        return CheckResult(
            check_id=check.id,
            clauses=check.clauses,
            title=check.title,
            outcome=outcome,
            duration=round(time.perf_counter() - started, 6),
            message=message,
            counterexample=counterexample,
        )

    if check.claim not in claims:
        return result(Outcome.SKIP, f"not claimed: {check.claim.value}")
    # A seed reaches the @given tests. A state machine cannot take one through Hypothesis's
    # public API, so it stays derandomised: every run of it is reproducible all the same.
    machine_settings = settings if seed is None else hypothesis.settings(settings, derandomize=True)
    context = CheckContext(factory, settings=machine_settings, options=options, claims=claims)
    try:
        test = check.build(context)
        if getattr(test, "is_hypothesis_test", False):
            test = settings(test)
            if seed is not None:
                test = hypothesis.seed(seed)(test)
        test()
    except SkipCheck as skip:
        return result(Outcome.SKIP, str(skip))
    except SubjectError as error:
        return result(Outcome.ERROR, str(error))
    except Exception as error:  # noqa: BLE001 - whatever the implementation raises is a finding
        if expected is not None:
            return result(
                Outcome.XFAIL,
                f"expected failure: {expected.reason}",
                context.counterexample(error),
            )
        return result(Outcome.FAIL, _failure_message(error), context.counterexample(error))
    if expected is not None:
        return result(
            Outcome.FAIL,
            f"expected to fail ({expected.reason}) but passed: remove it from the expected "
            "failures",
        )
    return result(Outcome.PASS)


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
) -> ConformanceReport:
    """Run every selected check of *implementation*'s component and report on all of them."""
    chosen = settings or profile_settings(profile, seed=seed)
    expected = {entry.check_id: entry for entry in expected_failures}
    relevant = [c for c in checks if c.component is implementation.component]
    unknown = expected.keys() - {c.id for c in relevant}
    if unknown:
        raise TargetError(
            f"Expected failures name checks that do not exist for "
            f"{implementation.component.value}: {', '.join(sorted(unknown))}"
        )
    check_claim_options(implementation.claims, options or {})
    results = []
    for check in relevant:
        if not selected(check, keywords):
            continue
        outcome = run_check(
            check,
            factory=factory,
            claims=implementation.claims,
            settings=chosen,
            seed=seed,
            options=options,
            expected=expected.get(check.id),
        )
        results.append(outcome)
        if progress is not None:
            progress(outcome)
    return ConformanceReport(
        implementation=implementation, results=tuple(results), profile=profile, seed=seed
    )
