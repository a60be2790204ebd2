"""Checks for runtimes: the agent loop, compaction, events and hooks, sessions (§15.1-§17).

Every check drives the runtime under test through a
:class:`~ctxpact.conformance.RuntimeConfig` of scripted parts: a model client that answers
from a script and records each prompt, a compact policy whose decisions and results are
scripted (and that raises on demand), a projector that marks what it returns, a memory that
logs its state changes and fails on demand, and observers that record everything in one
trace. What the runtime should have done is computed from SPEC.md §16 by a small model of the
loop (:func:`._scripts._expect`), with the reference memory as the model of a memory.

The checks live by topic: :mod:`.loop` (RUN-1 .. RUN-7), :mod:`.auto_compaction` (RUN-10 ..
RUN-13), :mod:`.manual_compaction` (RUN-14, RUN-15), :mod:`.errors` (RUN-8, RUN-9),
:mod:`.observers` (EVT-1 .. EVT-13) and :mod:`.sessions` (SES-1 .. SES-8). What they share is
in the private modules: the agents' settings and comparing (``_support``), the scripted parts
(``_parts``), scripts and what the spec makes of them (``_scripts``), and the strategies and
fixed scripts (``_strategies``).
"""

from __future__ import annotations

from ctxpact.conformance._model import Check
from ctxpact.conformance.checks.runtime import (
    auto_compaction,
    errors,
    loop,
    manual_compaction,
    observers,
    sessions,
)

#: Every runtime check, in the order they run: the loop, auto-compaction, manual compaction,
#: errors and limits, observers, sessions.
CHECKS: tuple[Check, ...] = (
    *loop.CHECKS,
    *auto_compaction.CHECKS,
    *manual_compaction.CHECKS,
    *errors.CHECKS,
    *observers.CHECKS,
    *sessions.CHECKS,
)

__all__ = ["CHECKS"]
