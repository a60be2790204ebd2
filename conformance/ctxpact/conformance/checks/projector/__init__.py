"""Checks for context projectors: generic invariants, pair integrity, wire validity, exact.

Generic checks hold for any projector, whatever its algorithm (PRJ-6): they look only at
what §5.1, §5.2 and §6 promise; for a target that claims pair integrity the pinned-prefix
and newest-item checks read PAIR-6 and PAIR-7 in place of PRJ-10 and PRJ-11 (PAIR-5). The
pair-integrity check is for projectors that claim never to separate a tool call from its
results (PAIR-4), the wire-valid check for those that claim never to turn a list a provider
accepts into one it rejects (WIRE-18, ``options["providers"]``). Exact checks compare with
the reference (``DefaultContextProjector`` for a target whose options say
``{"tiers": False}``, ``PairSafeContextProjector`` for one whose options say
``{"pair_safe": True}``, ``TypeAwareContextProjector`` otherwise), run the vectors, and
restate the named invariants of §5.3, §5.4, §5.5, §7 and §8 one per check, so that a failure
names its clause.
"""

from __future__ import annotations

from ctxpact.conformance._model import Check
from ctxpact.conformance.checks.projector._exact import (
    cleared_reasoning,
    differential,
    idempotence,
    notes,
    pair_safe_singletons,
    pair_safe_vectors,
    placeholders,
    tier2_scope,
    tier_purity,
    tiers_off,
    unit_stages,
    vectors,
)
from ctxpact.conformance.checks.projector._generic import (
    budget_semantics,
    deterministic,
    document,
    max_items,
    newest_item,
    no_mutation,
    order_preserving,
    pinned_prefix,
    report_consistency,
    result_type,
    size_vectors,
)
from ctxpact.conformance.checks.projector._mutation_finds import boundaries
from ctxpact.conformance.checks.projector._pairs import pair_integrity, wire_valid
from ctxpact.conformance.checks.projector._state import stateless

#: Every check of this package, in the order they run.
CHECKS: tuple[Check, ...] = (
    result_type,
    document,
    order_preserving,
    no_mutation,
    deterministic,
    max_items,
    pinned_prefix,
    newest_item,
    report_consistency,
    size_vectors,
    budget_semantics,
    pair_integrity,
    wire_valid,
    differential,
    vectors,
    pair_safe_vectors,
    unit_stages,
    pair_safe_singletons,
    placeholders,
    tiers_off,
    tier2_scope,
    cleared_reasoning,
    notes,
    idempotence,
    tier_purity,
    stateless,
    boundaries,
)

__all__ = ["CHECKS"]
