"""Run the suite from Python, without pytest: one function per component."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypedDict, Unpack

import hypothesis

from ctxpact.conformance._claims import check_options, words
from ctxpact.conformance._errors import TargetError
from ctxpact.conformance._model import (
    Check,
    CheckResult,
    Claim,
    Component,
    ConformanceReport,
    ExpectedFailure,
)
from ctxpact.conformance._profiles import DEFAULT_PROFILE
from ctxpact.conformance._runner import check_keywords, run_checks
from ctxpact.conformance._runtime import RuntimeConfig, RuntimeSession
from ctxpact.conformance._target import Target
from ctxpact.conformance.checks import ALL_CHECKS, checks_for
from ctxpact.spec import AgentMemory, CompactPolicy, ContextProjector, ModelClient, SummaryParser


def check_target(  # noqa: PLR0913 - each argument is an independent choice of the caller
    target: Target,
    *,
    profile: str = DEFAULT_PROFILE,
    settings: hypothesis.settings | None = None,
    seed: int | None = None,
    keywords: Sequence[str] = (),
    progress: Callable[[CheckResult], None] | None = None,
    timeout: float | None = None,
) -> ConformanceReport:
    """Run every check that applies to *target* and return the report.

    *timeout* is each check's time limit in seconds (default: the profile's, SUITE-6); a
    target a harness serves has none, its harness's per-request timeout bounds it.

    Raises:
        TargetError: before any check runs, for a run that cannot be done as asked: a
            keyword that selects nothing, a claim that selects nothing, a missing option,
            an expected failure naming no check, a factory the suite cannot call.
        RunInterrupted: on Ctrl-C, with the report of what ran (a ``KeyboardInterrupt``).

    """
    check_keywords(keywords, checks_for(target.component), words(target.component))
    return run_target(
        target,
        profile=profile,
        settings=settings,
        seed=seed,
        keywords=keywords,
        progress=progress,
        timeout=timeout,
    )


def run_target(  # noqa: PLR0913 - as check_target
    target: Target,
    *,
    profile: str = DEFAULT_PROFILE,
    settings: hypothesis.settings | None = None,
    seed: int | None = None,
    keywords: Sequence[str] = (),
    progress: Callable[[CheckResult], None] | None = None,
    timeout: float | None = None,
    starting: Callable[[Check], None] | None = None,
) -> ConformanceReport:
    """:func:`check_target` for one of several targets: *keywords* may select none of it."""
    if not target.in_process:
        timeout = math.inf  # a harness bounds each request instead (SUITE-6)
    return run_checks(
        ALL_CHECKS,
        factory=target.factory,
        implementation=target.implementation,
        profile=profile,
        settings=settings,
        seed=seed,
        options=target.options,
        expected_failures=target.expected_failures,
        keywords=keywords,
        progress=progress,
        timeout=timeout,
        starting=starting,
    )


class RunOptions(TypedDict, total=False):
    """The keyword arguments every ``check_*`` function takes."""

    claims: Iterable[Claim | str]
    settings: hypothesis.settings | None
    profile: str
    seed: int | None
    options: Mapping[str, Any]
    expected_failures: Iterable[ExpectedFailure]
    keywords: Sequence[str]
    name: str
    timeout: float | None


def _run(component: Component, factory: Callable[..., Any], run: RunOptions) -> ConformanceReport:
    unknown = sorted(run.keys() - RunOptions.__annotations__.keys())
    if unknown:
        raise TargetError(
            f"Unknown keyword argument {unknown[0]!r}; the check_* functions take "
            f"{', '.join(sorted(RunOptions.__annotations__))}"
        )
    keywords = run.get("keywords", ())
    if isinstance(keywords, str):
        raise TargetError(f"Expected keywords as a list (e.g. [{keywords!r}]) but got a string")
    target = Target(
        name=run.get("name") or str(getattr(factory, "__qualname__", repr(factory))),
        component=component,
        factory=factory,
        claims=run.get("claims", (Claim.GENERIC,)),
        options=run.get("options", {}),
        expected_failures=run.get("expected_failures", ()),
    )
    check_options(component, target.claims, target.options)
    return check_target(
        target,
        profile=run.get("profile", DEFAULT_PROFILE),
        settings=run.get("settings"),
        seed=run.get("seed"),
        keywords=keywords,
        timeout=run.get("timeout"),
    )


def check_projector(
    factory: Callable[[], ContextProjector], **run: Unpack[RunOptions]
) -> ConformanceReport:
    """Check the projectors that *factory* builds (one fresh instance per example).

    *factory* is called with no argument. Keyword arguments: ``claims`` (``generic`` always;
    also ``"pair-integrity"``, ``"wire-valid"``, which needs ``options={"providers": [...]}``,
    and ``"exact"``, with ``options={"tiers": False}`` or ``{"pair_safe": True}`` for the
    default or pair-safe algorithm), ``settings`` (Hypothesis settings overriding
    the profile), ``profile`` (``quick``, ``default``, ``thorough``), ``seed``, ``options``
    (only those the claimed checks read), ``expected_failures`` (:class:`ExpectedFailure` s,
    strict), ``keywords`` (select checks by id or clause; each must match one), ``timeout``
    (each check's time limit in seconds) and ``name``. A run that cannot be done as asked
    raises :class:`TargetError` before any check runs.
    """
    return _run(Component.PROJECTOR, factory, run)


def check_compact_policy(
    factory: Callable[[ModelClient], CompactPolicy] | Callable[[], CompactPolicy],
    **run: Unpack[RunOptions],
) -> ConformanceReport:
    """Check the compact policies that *factory* builds.

    *factory* gets the model client the suite scripts as its one argument when its first
    parameter has no default (or it takes ``*args``), and no argument otherwise (SUITE-4):
    ``LlmCompactPolicy``-like classes take the client, ``MyPolicy(keep_last=4)`` keeps its
    defaults. The ``"llm-summary"`` claim needs ``options={"max_items": N}``, the policy's
    keep-recent count, and ``"wire-valid"`` ``options={"providers": [...]}``. Other keyword
    arguments as for :func:`check_projector`.
    """
    return _run(Component.COMPACT_POLICY, factory, run)


def check_agent_memory(
    factory: Callable[[], AgentMemory], **run: Unpack[RunOptions]
) -> ConformanceReport:
    """Check the agent memories that *factory* builds (each fresh and empty).

    Keyword arguments as for :func:`check_projector`.
    """
    return _run(Component.AGENT_MEMORY, factory, run)


def check_summary_parser(
    factory: Callable[[], SummaryParser], **run: Unpack[RunOptions]
) -> ConformanceReport:
    """Check the summary parser that *factory* returns.

    Keyword arguments as for :func:`check_projector`.
    """
    return _run(Component.SUMMARY_PARSER, factory, run)


def check_runtime(
    factory: Callable[[RuntimeConfig], RuntimeSession], **run: Unpack[RunOptions]
) -> ConformanceReport:
    """Check the agent runtime that *factory* adapts: it builds a session from a config.

    See :class:`~ctxpact.conformance.RuntimeConfig`; ``reference_runtime`` is the adapter of
    ``ctxpact.reference.Agent``. Other keyword arguments as for :func:`check_projector`.
    """
    return _run(Component.RUNTIME, factory, run)


def check_spec_functions(
    factory: Callable[[], object], **run: Unpack[RunOptions]
) -> ConformanceReport:
    """Check a port of the spec's functions: *factory* returns an object with their methods.

    See :class:`~ctxpact.reference.SpecFunctions`; a method the object lacks skips its check
    (HRN-23). Keyword arguments as for :func:`check_projector`.
    """
    return _run(Component.FUNCTIONS, factory, run)


def check_session_store(
    factory: Callable[[], object], **run: Unpack[RunOptions]
) -> ConformanceReport:
    """Check the session stores that *factory* builds (each fresh and empty).

    Keyword arguments as for :func:`check_projector`.
    """
    return _run(Component.SESSION_STORE, factory, run)
