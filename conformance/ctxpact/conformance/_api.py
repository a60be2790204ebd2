"""Run the suite from Python, without pytest: one function per component."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypedDict, Unpack

import hypothesis

from ctxpact.conformance._model import (
    CheckResult,
    Claim,
    Component,
    ConformanceReport,
    ExpectedFailure,
)
from ctxpact.conformance._profiles import DEFAULT_PROFILE
from ctxpact.conformance._runner import run_checks
from ctxpact.conformance._runtime import RuntimeConfig, RuntimeSession
from ctxpact.conformance._target import Target
from ctxpact.conformance.checks import ALL_CHECKS
from ctxpact.spec import AgentMemory, CompactPolicy, ContextProjector, ModelClient, SummaryParser


def check_target(  # noqa: PLR0913 - each argument is an independent choice of the caller
    target: Target,
    *,
    profile: str = DEFAULT_PROFILE,
    settings: hypothesis.settings | None = None,
    seed: int | None = None,
    keywords: Sequence[str] = (),
    progress: Callable[[CheckResult], None] | None = None,
) -> ConformanceReport:
    """Run every check that applies to *target* and return the report."""
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


def _run(component: Component, factory: Callable[..., Any], run: RunOptions) -> ConformanceReport:
    target = Target(
        name=run.get("name") or str(getattr(factory, "__qualname__", repr(factory))),
        component=component,
        factory=factory,
        claims=run.get("claims", (Claim.GENERIC,)),
        options=run.get("options", {}),
        expected_failures=run.get("expected_failures", ()),
    )
    return check_target(
        target,
        profile=run.get("profile", DEFAULT_PROFILE),
        settings=run.get("settings"),
        seed=run.get("seed"),
        keywords=run.get("keywords", ()),
    )


def check_projector(
    factory: Callable[[], ContextProjector], **run: Unpack[RunOptions]
) -> ConformanceReport:
    """Check the projectors that *factory* builds (one fresh instance per example).

    Keyword arguments: ``claims`` (default ``("generic",)``; also ``"pair-integrity"``,
    ``"wire-valid"``, which needs ``options={"providers": [...]}``, and ``"exact"``, with
    ``options={"tiers": False}`` or ``{"pair_safe": True}`` for the default or pair-safe
    algorithm), ``settings`` (Hypothesis settings overriding the profile), ``profile``
    (``quick``, ``default``, ``thorough``), ``seed``, ``options``, ``expected_failures``
    (:class:`ExpectedFailure` s, strict), ``keywords`` (select checks by id or clause) and
    ``name``.
    """
    return _run(Component.PROJECTOR, factory, run)


def check_compact_policy(
    factory: Callable[[ModelClient], CompactPolicy],
    **run: Unpack[RunOptions],
) -> ConformanceReport:
    """Check the compact policies that *factory* builds from a model client.

    A policy that needs no model ignores the client. The ``"llm-summary"`` claim needs
    ``options={"max_items": N}``, the policy's keep-recent count, and ``"wire-valid"``
    ``options={"providers": [...]}``. Other keyword arguments as for :func:`check_projector`.
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


def check_session_store(
    factory: Callable[[], object], **run: Unpack[RunOptions]
) -> ConformanceReport:
    """Check the session stores that *factory* builds (each fresh and empty).

    Keyword arguments as for :func:`check_projector`.
    """
    return _run(Component.SESSION_STORE, factory, run)
