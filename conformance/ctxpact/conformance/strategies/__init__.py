"""Public Hypothesis strategies: records of the contract, agent transcripts, model outputs.

Transcripts come in three kinds: :func:`transcripts` (every call answered together, in all
three wire formats and mixtures, optionally a pending step at the tail),
:func:`provider_transcripts` (lists one provider's API accepts, as ``wire_problems`` reads
them) and :func:`adversarial_transcripts` (broken pairing and odd items, for robustness).
:func:`edge_budgets` puts a budget's limits where a pair-keeping projector must decide.
:data:`EDGES` is the edge inventory: for every clause that decides an edge value (empty,
blank, null, non-ASCII, non-string, at the limit), the strategy that generates it and the
check whose explicit example pins it in every profile.
"""

from ctxpact.conformance.strategies._edges import EDGE_EXEMPT, EDGE_TERMS, EDGES, Edge
from ctxpact.conformance.strategies._records import (
    RECORDS,
    budgets,
    compact_results,
    json_values,
    projections,
    prompts,
    reports,
    results,
    session_snapshots,
    snapshots,
    structured_summaries,
    tool_calls,
)
from ctxpact.conformance.strategies._transcripts import (
    EDGE_TOOL_NAMES,
    PROVIDER_SHAPES,
    TOOL_NAMES,
    adversarial_transcripts,
    budgets_for,
    edge_budgets,
    json_faithful,
    model_outputs,
    provider_transcripts,
    summary_objects,
    texts,
    tool_outputs,
    transcripts,
    unit_edges,
)

__all__ = [
    "EDGES",
    "EDGE_EXEMPT",
    "EDGE_TERMS",
    "EDGE_TOOL_NAMES",
    "PROVIDER_SHAPES",
    "RECORDS",
    "TOOL_NAMES",
    "Edge",
    "adversarial_transcripts",
    "budgets",
    "budgets_for",
    "compact_results",
    "edge_budgets",
    "json_faithful",
    "json_values",
    "model_outputs",
    "projections",
    "prompts",
    "provider_transcripts",
    "reports",
    "results",
    "session_snapshots",
    "snapshots",
    "structured_summaries",
    "summary_objects",
    "texts",
    "tool_calls",
    "tool_outputs",
    "transcripts",
    "unit_edges",
]
