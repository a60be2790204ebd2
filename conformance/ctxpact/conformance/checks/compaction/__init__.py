"""Checks for compact policies: generic invariants, the LLM summary rules, the structured policy.

Generic checks hold for any policy. ``llm-summary`` checks need ``options["max_items"]`` (the
policy's keep-recent count, and ``options["model_name"]`` when it is not ``""``); they drive
the policy with a scripted model and compare what it sends and returns with
:class:`~ctxpact.reference.compaction.LlmCompactPolicy` built the same way. ``exact`` checks
need ``options["budget"]`` and compare with
:class:`~ctxpact.reference.compaction.StructuredSummaryCompactPolicy` of that budget.

``find_turn_boundary_cut``, ``extract_file_operations`` and ``render_structured_summary`` are
helper functions of the spec, not components a user hands to the suite; their clauses are
checked where they are observable, through the LLM policy: the items it keeps show its cut,
its file lists show the file tracking, its summary shows the rendering. Their vectors are lifted
onto the policy the same way (see :func:`cut_vectors`).
"""

from __future__ import annotations

from ctxpact.conformance._model import Check
from ctxpact.conformance.checks.compaction._generic import (
    compact_no_mutation,
    context_report,
    kept_verbatim,
    result_valid,
    should_compact_empty,
    should_compact_pure,
    summary_kept,
)
from ctxpact.conformance.checks.compaction._llm import (
    llm_cut,
    llm_cut_zero,
    llm_fallback,
    llm_prompt,
    llm_should_compact,
    llm_summary,
    requires_client,
)
from ctxpact.conformance.checks.compaction._llm_files import (
    llm_accumulation,
    llm_errors_propagate,
    llm_files,
    llm_stateless,
)
from ctxpact.conformance.checks.compaction._llm_vectors import (
    cut_vectors,
    file_vectors,
    llm_vectors,
    render_vectors,
)
from ctxpact.conformance.checks.compaction._mutation_finds import llm_files_every_call
from ctxpact.conformance.checks.compaction._pairs import (
    compaction_pair_integrity,
    compaction_wire_valid,
)
from ctxpact.conformance.checks.compaction._state import stateless
from ctxpact.conformance.checks.compaction._structured import (
    structured_bounded_nesting,
    structured_differential,
    structured_should_compact,
    structured_vectors,
)

#: Every check of this package, in the order they run.
CHECKS: tuple[Check, ...] = (
    should_compact_pure,
    compact_no_mutation,
    result_valid,
    kept_verbatim,
    summary_kept,
    context_report,
    should_compact_empty,
    compaction_pair_integrity,
    compaction_wire_valid,
    stateless,
    requires_client,
    llm_should_compact,
    llm_cut_zero,
    llm_cut,
    llm_prompt,
    llm_fallback,
    llm_summary,
    llm_files,
    llm_accumulation,
    llm_stateless,
    llm_errors_propagate,
    llm_vectors,
    cut_vectors,
    file_vectors,
    render_vectors,
    structured_should_compact,
    structured_differential,
    structured_bounded_nesting,
    structured_vectors,
    llm_files_every_call,
)

__all__ = ["CHECKS"]
