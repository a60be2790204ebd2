"""Hypothesis profiles for ctxpact's own tests, chosen by CTXPACT_HYPOTHESIS_PROFILE.

``ci`` is derandomised, so a red CI run reproduces exactly on any machine.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("quick", max_examples=25, **_COMMON)
settings.register_profile("default", max_examples=100, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.register_profile("ci", max_examples=100, derandomize=True, print_blob=True, **_COMMON)
settings.load_profile(os.environ.get("CTXPACT_HYPOTHESIS_PROFILE", "default"))
