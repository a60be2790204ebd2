"""Checks for agent memories: the contract of §14, against the reference memory as the model.

Every memory is checked side by side with a fresh
:class:`~ctxpact.reference.memory.InMemoryAgentMemory`, the spec's model of §14.1: a state
machine adds items, sets summaries, takes snapshots, restores them, compacts and resumes in
random order and compares ``get_items``, ``get_summary`` and ``snapshot`` after every step
(JSON-10 identity: member order and number forms count). The named properties have checks of
their own, so a failure says which clause broke.

Claims: the §14.1 contract is ``generic`` (any memory). The checks that build more memories
with the reference constructors (a compressor, MEM-14 and MEM-15; storage in a table,
MEM-15 .. MEM-21) are ``exact``: they apply to ports of the reference classes and are skipped
for a memory that does not have the capability (no ``compressor`` attribute; no
``session_id`` and ``table``). A memory kept in a table is checked on whichever database its
class takes, SQLite or PostgreSQL (:mod:`~ctxpact.conformance.checks._storage`): the same
checks, by what the memory does.

The checks live by topic: :mod:`.model` (the state machine), :mod:`.operations` (MEM-2 ..
MEM-10, one clause at a time), :mod:`.values` (copies, arguments, non-JSON values, depth),
:mod:`.compressor` (MEM-6, MEM-14, MEM-15) and :mod:`.tables` (MEM-15 .. MEM-21); what they
share (capabilities, shapes, strategies, operations, comparisons, the scripted compressor,
the table class a check builds) is in ``_support``.
"""

from __future__ import annotations

from ctxpact.conformance._model import Check
from ctxpact.conformance.checks.memory.compressor import compressor
from ctxpact.conformance.checks.memory.model import model_based
from ctxpact.conformance.checks.memory.operations import (
    output_items,
    restore_keeps_summary,
    set_summary,
    summary_message,
    tool_output,
    user_input,
)
from ctxpact.conformance.checks.memory.tables import (
    table_atomic,
    table_construction,
    table_corrupt_row,
    table_errors,
    table_isolation,
    table_reopen,
)
from ctxpact.conformance.checks.memory.values import (
    arguments_unchanged,
    beyond_limits_refused_or_kept,
    deep_items,
    independent_copies,
    json_fidelity,
    non_json_rejected,
)

#: Every check of this package, in the order they run.
CHECKS: tuple[Check, ...] = (
    model_based,
    user_input,
    output_items,
    tool_output,
    summary_message,
    set_summary,
    restore_keeps_summary,
    independent_copies,
    arguments_unchanged,
    non_json_rejected,
    json_fidelity,
    deep_items,
    beyond_limits_refused_or_kept,
    compressor,
    table_construction,
    table_isolation,
    table_reopen,
    table_atomic,
    table_corrupt_row,
    table_errors,
)

__all__ = ["CHECKS"]
