"""Every check of the suite, grouped by the component it applies to."""

from __future__ import annotations

from ctxpact.conformance._model import Check, Component
from ctxpact.conformance.checks import (
    compaction,
    compressor,
    functions,
    memory,
    parser,
    projector,
    runtime,
    store,
)

#: All checks, in run order: by component, then as each module lists them.
ALL_CHECKS: tuple[Check, ...] = (
    *projector.CHECKS,
    *compaction.CHECKS,
    *compressor.CHECKS,
    *memory.CHECKS,
    *store.CHECKS,
    *parser.CHECKS,
    *runtime.CHECKS,
    *functions.CHECKS,
)


def checks_for(component: Component) -> tuple[Check, ...]:
    """The checks that apply to *component*."""
    return tuple(check for check in ALL_CHECKS if check.component is component)


__all__ = ["ALL_CHECKS", "checks_for"]
