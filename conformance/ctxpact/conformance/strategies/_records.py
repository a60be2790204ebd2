"""Strategies for every record of ctxpact.spec: any valid instance, as Hypothesis builds it."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextReport,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    StructuredSummary,
    ToolCall,
)

#: What Java's ``String.trim`` removes: an id of only these is blank (§1.4).
_JAVA_SPACE = "".join(chr(code) for code in range(0x21))

counts = st.integers(min_value=0, max_value=2**31 - 1)
optional_counts = st.none() | counts
texts = st.text(max_size=20)
json_values: st.SearchStrategy[JsonValue] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(texts, children, max_size=4),
    max_leaves=12,
)
items = st.lists(json_values, max_size=6).map(tuple)
string_tuples = st.lists(texts, max_size=4).map(tuple)
index_tuples = st.none() | st.lists(counts, max_size=4).map(tuple)

budgets = st.builds(
    ContextBudget,
    max_items=optional_counts,
    max_approx_chars=optional_counts,
    pinned_prefix_items=counts,
    max_recent_tool_results=optional_counts,
    trim_old_reasoning=st.booleans(),
)
reports = st.builds(
    ContextReport,
    source_item_count=counts,
    projected_item_count=counts,
    dropped_item_count=counts,
    source_approx_chars=counts,
    projected_approx_chars=counts,
    item_limit_applied=st.booleans(),
    character_limit_applied=st.booleans(),
    notes=string_tuples,
    dropped_indices=index_tuples,
    cleared_indices=index_tuples,
)
projections = st.builds(ContextProjection, items=items, report=reports)
snapshots = st.builds(MemorySnapshot, items=items, summary=st.none() | texts)
compact_results = st.builds(
    CompactResult,
    memory=st.none() | snapshots,
    summary=st.none() | texts,
    completed=string_tuples,
    pending=string_tuples,
    decisions=string_tuples,
    changed_artifacts=string_tuples,
    failed_commands=string_tuples,
    test_results=string_tuples,
    user_confirmations=string_tuples,
    sandbox_state=string_tuples,
    open_questions=string_tuples,
    read_files=string_tuples,
    modified_files=string_tuples,
    context_report=st.none() | reports,
)
structured_summaries = st.builds(
    StructuredSummary,
    goal=st.none() | texts,
    completed=string_tuples,
    pending=string_tuples,
    decisions=string_tuples,
    errors=string_tuples,
    test_results=string_tuples,
    open_questions=string_tuples,
    read_files=string_tuples,
    modified_files=string_tuples,
    parsed=st.booleans(),
    text=texts,
)
tool_calls = st.builds(ToolCall, call_id=texts, name=texts, arguments=texts)
prompts = st.builds(ModelPrompt, model=texts, system_prompt=st.none() | texts, items=items)
results = st.builds(
    ModelResult,
    output_text=st.none() | texts,
    memory_items=items,
    tool_calls=st.lists(tool_calls, max_size=3).map(tuple),
)
session_snapshots = st.builds(
    AgentSessionSnapshot,
    # A session id is not blank (SES-17).
    session_id=st.text(min_size=1, max_size=20).filter(lambda text: text.strip(_JAVA_SPACE) != ""),
    memory=snapshots,
    compact_result=st.none() | compact_results,
)

#: One strategy per record class.
RECORDS: dict[type[Any], st.SearchStrategy[Any]] = {
    AgentSessionSnapshot: session_snapshots,
    CompactResult: compact_results,
    ContextBudget: budgets,
    ContextProjection: projections,
    ContextReport: reports,
    MemorySnapshot: snapshots,
    ModelPrompt: prompts,
    ModelResult: results,
    StructuredSummary: structured_summaries,
    ToolCall: tool_calls,
}
