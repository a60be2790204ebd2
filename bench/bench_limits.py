"""What the bounds on a check cost, and what the shrink bound saves.

Run ``python bench/bench_limits.py``; it prints two markdown tables.

The first is the fixed cost a check pays for its time limit (SUITE-6) and for the rest of what
``run_check`` wraps around it: a check that does nothing, run many times with no limit, with
the ``SIGALRM`` timer and with the watchdog thread (medians of 7 repeats).

The second is a failure whose shrinking is slow: a projector that is wrong only for long
source lists with a character limit, and that takes 20 or 50 ms a call, as an
implementation behind a network or a database would. The ``projector.order-preserving``
check at the ``default`` profile runs once with Hypothesis's own shrink bound (300 s) and once
with the profile's (SUITE-7); the table gives the seconds and the size of the counterexample
each found.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence

from ctxpact.conformance import (
    SHRINK_LIMITS,
    CheckContext,
    Claim,
    Component,
    profile_settings,
    run_check,
)
from ctxpact.conformance._limits import time_limit
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks import checks_for
from ctxpact.reference.projection import TypeAwareContextProjector
from ctxpact.spec import ContextBudget, ContextProjection, JsonValue

RUNS = 2_000
#: Seconds a call of the slow projector takes.
DELAYS = (0.02, 0.05)
#: Seconds a call of the slow projector takes.
DELAYS = (0.02, 0.05)
REPEATS = 7
GENERIC = frozenset({Claim.GENERIC})


@check("bench.nothing", component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=("PRJ-1",))
def nothing(_: CheckContext) -> Callable[[], None]:
    """Does nothing."""
    return lambda: None


def _per_check(method: str | None) -> float:
    """Microseconds one empty check takes through run_check, with the given limit."""
    settings = profile_settings("quick")

    def once() -> None:
        for _ in range(RUNS):
            if method is None:
                run_check(nothing, factory=list, claims=GENERIC, settings=settings)
            else:
                with time_limit(30, method=method):
                    run_check(nothing, factory=list, claims=GENERIC, settings=settings)

    samples = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        once()
        samples.append((time.perf_counter() - started) / RUNS * 1e6)
    return statistics.median(samples)


class SlowAndWrongForLongLists:
    """Drops the newest item of a long list under a character limit; *delay* seconds a call."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        time.sleep(self.delay)
        projection = TypeAwareContextProjector().project(items, budget)
        if budget is not None and budget.max_approx_chars and len(projection.items) >= 6:
            return ContextProjection(items=projection.items[:-1], report=projection.report)
        return projection


def _shrinking(delay: float, limit: float | None) -> tuple[float, int]:
    (order,) = [c for c in checks_for(Component.PROJECTOR) if c.id == "projector.order-preserving"]
    started = time.perf_counter()
    result = run_check(
        order,
        factory=lambda: SlowAndWrongForLongLists(delay),
        claims=GENERIC,
        settings=profile_settings("default"),
        timeout=math.inf,
        shrink_limit=limit,
    )
    seconds = time.perf_counter() - started
    shown = result.counterexample
    items = shown.get("items") if isinstance(shown, dict) else None
    return seconds, len(items) if isinstance(items, list) else -1


def main() -> None:
    """Print both tables."""
    print("| time limit | one empty check |\n|---|---:|")
    for label, method in (
        ("none", None),
        ("SIGALRM timer", "signal"),
        ("watchdog thread", "thread"),
    ):
        print(f"| {label} | {_per_check(method):.1f} µs |")
    print(
        "\n| a call takes | shrink bound | check failing | counterexample items |\n"
        "|---:|---|---:|---:|"
    )
    bound = SHRINK_LIMITS["default"]
    for delay in DELAYS:
        for label, limit in (("Hypothesis's own, 300 s", None), (f"{bound:g} s", bound)):
            seconds, size = _shrinking(delay, limit)
            print(f"| {delay * 1000:.0f} ms | {label} | {seconds:.1f} s | {size} |")


if __name__ == "__main__":
    main()
