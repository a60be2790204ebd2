"""Checks for the runtime component."""

from __future__ import annotations

from ctxpact.conformance._model import Check

#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = ()
