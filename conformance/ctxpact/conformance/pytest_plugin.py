"""The pytest plugin of ctxpact (entry point ``pytest11``): options and the marker, nothing else.

It changes no test and collects nothing; the checks run only in classes that subclass
:mod:`ctxpact.conformance.testing`'s base classes.
"""

from __future__ import annotations

import pytest

from ctxpact.conformance._profiles import PROFILES


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--ctxpact-profile`` and ``--ctxpact-seed``."""
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


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``ctxpact`` marker that every conformance test carries."""
    config.addinivalue_line(
        "markers", "ctxpact(check_id, clauses): a ctxpact conformance check and its clauses"
    )
