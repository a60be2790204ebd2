"""Hypothesis profiles for ctxpact's own tests, chosen by CTXPACT_HYPOTHESIS_PROFILE.

``ci`` is derandomised, so a red CI run reproduces exactly on any machine.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_BASE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", _BASE, max_examples=25)
settings.register_profile("default", _BASE, max_examples=100)
settings.register_profile("thorough", _BASE, max_examples=1000)
settings.register_profile("ci", _BASE, max_examples=100, derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("CTXPACT_HYPOTHESIS_PROFILE", "default"))

#: pytester runs the pytest classes of ctxpact.conformance.testing as a user's suite would.
pytest_plugins = ["pytester"]
