"""pytest base classes: subclass one, supply ``factory``, and every check becomes a test.

::

    from ctxpact.conformance.testing import ProjectorConformance

    class TestMyProjector(ProjectorConformance):
        claims = ("generic", "pair-integrity")

        def factory(self):
            return MyProjector()

Test names are stable (``test_<check id>``), so a single check can be overridden or
deselected by name. Known failures go in ``expected_failures``; they are strict.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

import pytest

from ctxpact.conformance._model import Check, Claim, Component, ExpectedFailure, Outcome
from ctxpact.conformance._profiles import DEFAULT_PROFILE, profile_settings
from ctxpact.conformance._runner import run_check
from ctxpact.conformance._target import claims_of
from ctxpact.conformance.checks import checks_for

#: Environment variables read when the pytest plugin's options are not given.
PROFILE_VARIABLE = "CTXPACT_CONFORMANCE_PROFILE"
SEED_VARIABLE = "CTXPACT_CONFORMANCE_SEED"


def test_name(check: Check) -> str:
    """The stable name of the test that runs *check*."""
    return "test_" + re.sub(r"\W+", "_", check.id).strip("_")


def _choice(request: pytest.FixtureRequest, option: str, variable: str) -> str | None:
    try:
        value = request.config.getoption(option)
    except ValueError:  # the plugin is not loaded
        value = None
    return str(value) if value is not None else os.environ.get(variable)


class _Conformance:
    component: ClassVar[Component]
    #: What the implementation claims (``"generic"``, ``"pair-integrity"``, ``"exact"``,
    #: ``"llm-summary"``); checks of other claims are skipped.
    claims: ClassVar[Collection[Claim | str]] = (Claim.GENERIC,)
    #: Checks known to fail, with the reason; strict (an unexpected pass fails).
    expected_failures: ClassVar[Collection[ExpectedFailure]] = ()
    #: What claimed checks need to know (e.g. ``{"max_items": 4}`` for ``llm-summary``).
    options: ClassVar[Mapping[str, Any]] = {}

    def factory(self, *args: Any) -> Any:  # noqa: ANN401 - the component's own type
        """Build a fresh instance of the implementation under test."""
        raise NotImplementedError(f"{type(self).__name__} must define factory()")

    def _run(self, check: Check, request: pytest.FixtureRequest) -> None:
        profile = _choice(request, "ctxpact_profile", PROFILE_VARIABLE) or DEFAULT_PROFILE
        seed_text = _choice(request, "ctxpact_seed", SEED_VARIABLE)
        seed = int(seed_text) if seed_text else None
        expected = {entry.check_id: entry for entry in self.expected_failures}
        result = run_check(
            check,
            factory=self.factory,
            claims=claims_of(self.claims),
            settings=profile_settings(profile, seed=seed),
            seed=seed,
            options=self.options,
            expected=expected.get(check.id),
        )
        if result.outcome is Outcome.PASS:
            return
        if result.outcome is Outcome.SKIP:
            pytest.skip(result.message)
        if result.outcome is Outcome.XFAIL:
            pytest.xfail(result.message)
        lines = [f"{check.id} ({', '.join(check.clauses)}): {check.title}", result.message]
        if result.counterexample is not None:
            text = json.dumps(result.counterexample, ensure_ascii=False)
            lines.append(f"counterexample: {text}")
        pytest.fail("\n".join(lines), pytrace=False)


def _test(check: Check) -> Callable[[_Conformance, pytest.FixtureRequest], None]:
    def test(self: _Conformance, request: pytest.FixtureRequest) -> None:
        self._run(check, request)

    test.__name__ = test.__qualname__ = test_name(check)
    test.__doc__ = f"{check.title} ({', '.join(check.clauses)})"
    marked: Callable[[_Conformance, pytest.FixtureRequest], None] = pytest.mark.ctxpact(
        check_id=check.id, clauses=check.clauses
    )(test)
    return marked


def _with_checks(cls: type[_Conformance]) -> type[_Conformance]:
    for check in checks_for(cls.component):
        setattr(cls, test_name(check), _test(check))
    return cls


@_with_checks
class ProjectorConformance(_Conformance):
    """Every projector check; ``factory()`` returns a fresh ``ContextProjector``."""

    component = Component.PROJECTOR


@_with_checks
class CompactPolicyConformance(_Conformance):
    """Every compact-policy check; ``factory(model_client)`` returns a fresh policy."""

    component = Component.COMPACT_POLICY


@_with_checks
class AgentMemoryConformance(_Conformance):
    """Every agent-memory check; ``factory()`` returns a fresh, empty ``AgentMemory``."""

    component = Component.AGENT_MEMORY


@_with_checks
class SummaryParserConformance(_Conformance):
    """Every summary-parser check; ``factory()`` returns the parser (a ``str -> summary``)."""

    component = Component.SUMMARY_PARSER


@_with_checks
class SessionStoreConformance(_Conformance):
    """Every session-store check; ``factory()`` returns a fresh, empty store."""

    component = Component.SESSION_STORE


@_with_checks
class MemoryCompressorConformance(_Conformance):
    """Every memory-compressor check; see :mod:`ctxpact.conformance.checks.compressor`."""

    component = Component.MEMORY_COMPRESSOR


@_with_checks
class RuntimeConformance(_Conformance):
    """Every runtime check; ``factory(config)`` returns a fresh session.

    The config is a :class:`ctxpact.conformance.RuntimeConfig` (model client, memory,
    projector, budget, policy, tools, listeners, hooks).
    """

    component = Component.RUNTIME


__all__ = [
    "AgentMemoryConformance",
    "CompactPolicyConformance",
    "MemoryCompressorConformance",
    "ProjectorConformance",
    "RuntimeConformance",
    "SessionStoreConformance",
    "SummaryParserConformance",
    "test_name",
]
