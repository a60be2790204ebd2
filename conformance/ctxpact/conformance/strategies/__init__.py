"""Public Hypothesis strategies: records of the contract, JSON values and agent transcripts."""

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

__all__ = [
    "RECORDS",
    "budgets",
    "compact_results",
    "json_values",
    "projections",
    "prompts",
    "reports",
    "results",
    "session_snapshots",
    "snapshots",
    "structured_summaries",
    "tool_calls",
]
