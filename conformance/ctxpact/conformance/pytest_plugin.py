"""The pytest plugin of ctxpact (entry point ``pytest11``): options and the marker, nothing else.

It changes no test and collects nothing; the checks run only in classes that subclass
:mod:`ctxpact.conformance.testing`'s base classes.
"""

from __future__ import annotations

import pytest

from ctxpact.conformance._profiles import PROFILES, TIME_LIMITS


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise ValueError(f"expected a positive number of seconds but got {text}")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--ctxpact-profile``, ``--ctxpact-seed`` and ``--ctxpact-timeout``."""
    group = parser.getgroup("ctxpact", "ctxpact conformance checks")
    group.addoption(
        "--ctxpact-profile",
        choices=sorted(PROFILES),
        default=None,
        help="Hypothesis profile of the conformance checks (default: default).",
    )
    group.addoption(
        "--ctxpact-seed", type=int, default=None, help="Seed for the conformance checks."
    )
    limits = ", ".join(f"{name} {TIME_LIMITS[name]:g}" for name in sorted(PROFILES))
    group.addoption(
        "--ctxpact-timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="Time limit of one conformance check, after which it is interrupted and fails "
        f"(default by profile: {limits}).",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``ctxpact`` marker that every conformance test carries.

    ``-m ctxpact`` selects the conformance tests; the marker's ``check_id`` and ``clauses``
    name the check.
    """
    config.addinivalue_line(
        "markers", "ctxpact(check_id, clauses): a ctxpact conformance check and its clauses"
    )
