"""Public Hypothesis strategies: records of the contract, agent transcripts, model outputs."""

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
    TOOL_NAMES,
    budgets_for,
    json_faithful,
    model_outputs,
    summary_objects,
    texts,
    tool_outputs,
    transcripts,
)

__all__ = [
    "RECORDS",
    "TOOL_NAMES",
    "budgets",
    "budgets_for",
    "compact_results",
    "json_faithful",
    "json_values",
    "model_outputs",
    "projections",
    "prompts",
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
]
