"""pytest base classes: subclass one, supply ``factory``, and every check becomes a test.

::

    from ctxpact.conformance.testing import ProjectorConformance

    class TestMyProjector(ProjectorConformance):
        claims = ("generic", "pair-integrity")

        def factory(self):
            return MyProjector()

Test names are stable (``test_<check id>``), so a single check can be overridden or
deselected by name. Known failures go in ``expected_failures``; they are strict. The class
is checked when it is defined: an attribute that looks like a misspelt setting (``claim``
for ``claims``), a claim that selects no check, an option no claimed check reads, a missing
option or a ``factory`` the suite cannot call is a :class:`~ctxpact.conformance.TargetError`
at collection, once, not one failure per test. ``factory`` is called as SUITE-4 says (for a
compact policy: ``def factory(self, model_client)`` gets the client, ``def factory(self)``
nothing).

The plugin's options ``--ctxpact-profile``, ``--ctxpact-seed`` and ``--ctxpact-timeout``
(or the environment variables ``CTXPACT_CONFORMANCE_PROFILE``, ``CTXPACT_CONFORMANCE_SEED``
and ``CTXPACT_CONFORMANCE_TIMEOUT``) choose the profile, the seed and each check's time
limit; a class's ``timeout`` attribute overrides the limit for its checks.
"""

from __future__ import annotations

import difflib
import inspect
import os
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar, cast

import pytest

from ctxpact.conformance._claims import OPTIONS, MissingOptionError, check_options
from ctxpact.conformance._errors import TargetError
from ctxpact.conformance._format import format_result
from ctxpact.conformance._model import (
    Check,
    Claim,
    Component,
    ExpectedFailure,
    Implementation,
    Outcome,
)
from ctxpact.conformance._profiles import DEFAULT_PROFILE, profile_settings
from ctxpact.conformance._runner import limits, prepare, run_check
from ctxpact.conformance._target import claims_of
from ctxpact.conformance.checks import ALL_CHECKS, checks_for

#: Environment variables read when the pytest plugin's options are not given.
PROFILE_VARIABLE = "CTXPACT_CONFORMANCE_PROFILE"
SEED_VARIABLE = "CTXPACT_CONFORMANCE_SEED"
TIMEOUT_VARIABLE = "CTXPACT_CONFORMANCE_TIMEOUT"
#: The settings a conformance class may define.
SETTINGS = ("claims", "expected_failures", "factory", "options", "timeout")


def test_name(check: Check) -> str:
    """The stable name of the test that runs *check*."""
    return "test_" + re.sub(r"\W+", "_", check.id).strip("_")


def _choice(request: pytest.FixtureRequest, option: str, variable: str) -> str | None:
    try:
        value = request.config.getoption(option)
    except ValueError:  # the plugin is not loaded
        value = None
    return str(value) if value is not None else os.environ.get(variable)


def _factory_of(cls: type[_Conformance]) -> Callable[..., Any]:
    """``cls.factory`` as an instance would call it (without ``self``), to read its signature."""
    raw = inspect.getattr_static(cls, "factory")
    if not inspect.isfunction(raw):  # a staticmethod, a classmethod, a class: no self
        return cls.factory
    method = cast("Callable[..., Any]", raw)

    def bound(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - the component's own type
        return method(None, *args, **kwargs)

    signature = inspect.signature(method)
    parameters = list(signature.parameters.values())[1:]
    bound.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined] # read by inspect
    bound.__qualname__ = f"{cls.__qualname__}.factory"
    return bound


class _Conformance:
    component: ClassVar[Component]
    #: What the implementation claims (``"generic"``, always included, ``"pair-integrity"``,
    #: ``"exact"``, ``"llm-summary"``); checks of other claims are skipped.
    claims: ClassVar[Collection[Claim | str]] = (Claim.GENERIC,)
    #: Checks known to fail, with the reason; strict (an unexpected pass fails).
    expected_failures: ClassVar[Collection[ExpectedFailure]] = ()
    #: What claimed checks need to know (e.g. ``{"max_items": 4}`` for ``llm-summary``).
    options: ClassVar[Mapping[str, Any]] = {}
    #: Seconds each check may run (default: the plugin's option, or the profile's limit).
    timeout: ClassVar[float | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:  # noqa: ANN401 - pytest's own
        super().__init_subclass__(**kwargs)
        if "component" in cls.__dict__:
            return  # a base class of this module
        _refuse_misspellings(cls)
        if inspect.getattr_static(cls, "factory") is _Conformance.__dict__["factory"]:
            return  # an abstract intermediate class: its subclasses define the factory
        claims = claims_of(cls.claims)
        implementation = Implementation(
            name=cls.__qualname__, component=cls.component, claims=claims
        )
        try:
            check_options(cls.component, claims, cls.options)
            prepare(
                ALL_CHECKS,
                implementation=implementation,
                factory=_factory_of(cls),
                options=cls.options,
                expected_failures=cls.expected_failures,
            )
        except MissingOptionError as error:
            raise TargetError(f"{cls.__qualname__}: {error}") from None
        except TargetError as error:
            raise TargetError(f"{cls.__qualname__}: {error}") from None

    def factory(self, *args: Any) -> Any:  # noqa: ANN401 - the component's own type
        """Build a fresh instance of the implementation under test."""
        raise NotImplementedError(f"{type(self).__name__} must define factory()")

    def _run(self, check: Check, request: pytest.FixtureRequest) -> None:
        profile = _choice(request, "ctxpact_profile", PROFILE_VARIABLE) or DEFAULT_PROFILE
        seed_text = _choice(request, "ctxpact_seed", SEED_VARIABLE)
        seed = int(seed_text) if seed_text else None
        timeout_text = _choice(request, "ctxpact_timeout", TIMEOUT_VARIABLE)
        chosen = self.timeout or (float(timeout_text) if timeout_text else None)
        time_bound, shrink_limit = limits(profile, chosen)
        expected = {entry.check_id: entry for entry in self.expected_failures}
        result = run_check(
            check,
            factory=self.factory,
            claims=claims_of(self.claims),
            settings=profile_settings(profile, seed=seed),
            seed=seed,
            options=self.options,
            expected=expected.get(check.id),
            timeout=time_bound,
            shrink_limit=shrink_limit,
        )
        if result.outcome is Outcome.PASS:
            return
        if result.outcome is Outcome.SKIP:
            pytest.skip(result.message)
        if result.outcome is Outcome.XFAIL:
            pytest.xfail(result.message)
        pytest.fail(format_result(result), pytrace=False)


def _refuse_misspellings(cls: type) -> None:
    """An attribute that is nearly a setting, or an option, would silently check the default."""
    options = {spec.key for spec in OPTIONS}
    for name, value in vars(cls).items():
        if name in SETTINGS or name.startswith(("_", "test")):
            continue
        if name in options and not callable(value):
            raise TargetError(
                f"{cls.__qualname__} defines {name!r}, which is an option of the checks, not a "
                f"setting of the class: write options = {{{name!r}: {value!r}}}"
            )
        close = difflib.get_close_matches(name, SETTINGS, n=1, cutoff=0.75)
        if close:
            raise TargetError(
                f"{cls.__qualname__} defines {name!r}, which is not a setting of a conformance "
                f"class; did you mean {close[0]!r}? (the settings: {', '.join(SETTINGS)})"
            )


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


@_with_checks
class SpecFunctionsConformance(_Conformance):
    """Every check of the spec's functions; ``factory()`` returns their port.

    An object with a method per function it ports (``approx_chars``, ``turn_boundary_cut``,
    ``extract_file_operations``, ``render_summary``), as ``ctxpact.reference.SpecFunctions``.
    """

    component = Component.FUNCTIONS


__all__ = [
    "AgentMemoryConformance",
    "CompactPolicyConformance",
    "MemoryCompressorConformance",
    "ProjectorConformance",
    "RuntimeConformance",
    "SessionStoreConformance",
    "SpecFunctionsConformance",
    "SummaryParserConformance",
    "test_name",
]
