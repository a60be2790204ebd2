"""The ctxpact reference implementation: small, exact and deterministic.

It is the model the conformance suite compares other implementations against. Every
public name of its four parts is here; the format constants (notes, placeholders, headings,
prompt text, event messages) stay in the part that owns them:
:mod:`ctxpact.reference.projection`, :mod:`ctxpact.reference.compaction`,
:mod:`ctxpact.reference.memory` and :mod:`ctxpact.reference.session`.
"""

import logging

from ctxpact.reference.compaction import (
    CompactPolicy,
    CompactPolicyMemoryCompressor,
    LlmCompactPolicy,
    StructuredSummaryCompactPolicy,
    WindowedMemoryCompressor,
    carried_summary,
    extract_file_operations,
    find_turn_boundary_cut,
    parse_structured_summary,
    read_file_sections,
    render_structured_summary,
    summary_request_content,
    tool_name_words,
)
from ctxpact.reference.memory import (
    CompressorResultError,
    CorruptMemoryError,
    InMemoryAgentMemory,
    OpenTransactionError,
    SqliteAgentMemory,
)
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
    approx_chars,
    total_approx_chars,
)
from ctxpact.reference.session import (
    Agent,
    AgentEvent,
    AgentEventType,
    AgentSession,
    CorruptSessionError,
    EventListener,
    FileSessionStore,
    InMemorySessionStore,
    LifecycleEvent,
    LifecycleEventType,
    LifecycleHook,
    ListingSessionStore,
    MaxStepsExceededError,
    MemoryFactory,
    MemoryRollbackError,
    NoSessionStoreError,
    RuntimeResultError,
    SessionIdMismatchError,
    SessionNotFoundError,
    SessionStore,
    SqliteSessionStore,
    Tool,
    in_memory_factory,
    session_file_stem,
)

# A library's log records go where the application sends them, and nowhere by default: the
# LLM policy logs a failed summarization (with its traceback) before falling back (LLM-11).
logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "Agent",
    "AgentEvent",
    "AgentEventType",
    "AgentSession",
    "CompactPolicy",
    "CompactPolicyMemoryCompressor",
    "CompressorResultError",
    "CorruptMemoryError",
    "CorruptSessionError",
    "DefaultContextProjector",
    "EventListener",
    "FileSessionStore",
    "InMemoryAgentMemory",
    "InMemorySessionStore",
    "LifecycleEvent",
    "LifecycleEventType",
    "LifecycleHook",
    "ListingSessionStore",
    "LlmCompactPolicy",
    "MaxStepsExceededError",
    "MemoryFactory",
    "MemoryRollbackError",
    "NoSessionStoreError",
    "OpenTransactionError",
    "PairSafeContextProjector",
    "RuntimeResultError",
    "SessionIdMismatchError",
    "SessionNotFoundError",
    "SessionStore",
    "SqliteAgentMemory",
    "SqliteSessionStore",
    "StructuredSummaryCompactPolicy",
    "Tool",
    "TypeAwareContextProjector",
    "WindowedMemoryCompressor",
    "approx_chars",
    "carried_summary",
    "extract_file_operations",
    "find_turn_boundary_cut",
    "in_memory_factory",
    "parse_structured_summary",
    "read_file_sections",
    "render_structured_summary",
    "session_file_stem",
    "summary_request_content",
    "tool_name_words",
    "total_approx_chars",
]
