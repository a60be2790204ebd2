"""The suite's Hypothesis settings, by profile name.

They are plain ``settings`` objects, never registered globally, so running the suite does
not change the Hypothesis profile of the project that runs it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

_BASE = settings(
    deadline=None,
    database=None,
    print_blob=False,
    report_multiple_bugs=False,
    # No explain phase: its "Explanation" lines point into the suite's own files, and it
    # re-runs the failing example under a tracer, which costs time after every failure.
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
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

#: Seconds one check of an in-process target may run before it is interrupted and reported
#: as an error (SUITE-6), by profile; ``--timeout`` and ``timeout=`` override them. About
#: thirty times the slowest reference check at each profile (0.9 s at ``default``), so an
#: implementation much slower than the reference fits, and a hang costs seconds, not a job.
TIME_LIMITS: dict[str, float] = {"quick": 15.0, "default": 30.0, "thorough": 300.0}
#: Seconds Hypothesis may spend shrinking one check's failure, by profile (SUITE-7).
SHRINK_LIMITS: dict[str, float] = {"quick": 5.0, "default": 10.0, "thorough": 60.0}


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
