"""Hypothesis profiles for ctxpact's own tests, chosen by CTXPACT_HYPOTHESIS_PROFILE.

``ci`` is derandomised, so a red CI run reproduces exactly on any machine.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

_BASE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", _BASE, max_examples=25)
settings.register_profile("default", _BASE, max_examples=100)
settings.register_profile("thorough", _BASE, max_examples=1000)
settings.register_profile("ci", _BASE, max_examples=100, derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("CTXPACT_HYPOTHESIS_PROFILE", "default"))

#: pytester runs the pytest classes of ctxpact.conformance.testing as a user's suite would.
pytest_plugins = ["pytester"]


@pytest.fixture
def implementation_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[str, str], str]]:
    """Write a module a test names as ``module:attr``; returns ``write(name, source) -> name``.

    The module is importable and the working directory is its directory, as for a user who
    runs ``ctxpact check`` next to their code; it is forgotten after the test.
    """
    written: list[str] = []
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)

    def write(name: str, source: str) -> str:
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
        written.append(name)
        return name

    yield write
    for name in written:
        sys.modules.pop(name, None)
