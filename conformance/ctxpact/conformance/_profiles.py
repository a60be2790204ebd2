"""The suite's Hypothesis settings, by profile name.

They are plain ``settings`` objects, never registered globally, so running the suite does
not change the Hypothesis profile of the project that runs it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

_BASE = settings(
    deadline=None,
    database=None,
    print_blob=False,
    report_multiple_bugs=False,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.differing_executors,
    ],
)

#: ``quick`` and ``default`` are derandomised: the same run on any machine finds the same
#: counterexamples, which is what a CI job wants. ``thorough`` explores freshly each time.
PROFILES: dict[str, settings] = {
    "quick": settings(_BASE, max_examples=8, derandomize=True, stateful_step_count=10),
    "default": settings(_BASE, max_examples=60, derandomize=True, stateful_step_count=25),
    "thorough": settings(_BASE, max_examples=600, derandomize=False, stateful_step_count=50),
}
DEFAULT_PROFILE = "default"


def profile_settings(name: str, *, seed: int | None = None) -> settings:
    """The settings of profile *name*; a *seed* turns derandomisation off in favour of it."""
    try:
        chosen = PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise ValueError(f"Expected a profile among {known} but got {name!r}") from None
    if seed is not None:
        return settings(chosen, derandomize=False)
    return chosen
