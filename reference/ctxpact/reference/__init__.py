"""The ctxpact reference implementation: small, exact and deterministic.

It is the model the conformance suite compares other implementations against. Every
public name of its four parts is here; the format constants (notes, placeholders, headings,
prompt text, event messages) stay in the part that owns them:
:mod:`ctxpact.reference.projection`, :mod:`ctxpact.reference.compaction`,
:mod:`ctxpact.reference.memory` and :mod:`ctxpact.reference.session`.

The PostgreSQL memory and store (:mod:`ctxpact.reference.postgres`, the extra
``ctxpact[postgres]``) are here too, loaded on first use: importing this package never
needs psycopg, and they stay out of ``__all__`` so that ``import *`` does not either.
"""

import logging
from typing import TYPE_CHECKING

from ctxpact.reference._arguments import (
    checked_items,
    checked_snapshot,
    checked_text,
    projection_arguments,
)
from ctxpact.reference._extras import MissingExtraError
from ctxpact.reference._functions import SpecFunctions
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
    MemoryViews,
    OpenTransactionError,
    SqliteAgentMemory,
    SqliteBusyError,
    SqliteError,
)
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    SizedItems,
    SizedItemsView,
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
    ForeignSessionFileWarning,
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
    SessionFileError,
    SessionIdMismatchError,
    SessionNotFoundError,
    SessionStore,
    SqliteSessionStore,
    Tool,
    event_document,
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
    "ForeignSessionFileWarning",
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
    "MemoryViews",
    "MissingExtraError",
    "NoSessionStoreError",
    "OpenTransactionError",
    "PairSafeContextProjector",
    "RuntimeResultError",
    "SessionFileError",
    "SessionIdMismatchError",
    "SessionNotFoundError",
    "SessionStore",
    "SizedItems",
    "SizedItemsView",
    "SpecFunctions",
    "SqliteAgentMemory",
    "SqliteBusyError",
    "SqliteError",
    "SqliteSessionStore",
    "StructuredSummaryCompactPolicy",
    "Tool",
    "TypeAwareContextProjector",
    "WindowedMemoryCompressor",
    "approx_chars",
    "carried_summary",
    "checked_items",
    "checked_snapshot",
    "checked_text",
    "event_document",
    "extract_file_operations",
    "find_turn_boundary_cut",
    "in_memory_factory",
    "parse_structured_summary",
    "projection_arguments",
    "read_file_sections",
    "render_structured_summary",
    "session_file_stem",
    "summary_request_content",
    "tool_name_words",
    "total_approx_chars",
]

if TYPE_CHECKING:
    from ctxpact.reference.postgres import PostgresAgentMemory as PostgresAgentMemory
    from ctxpact.reference.postgres import PostgresBusyError as PostgresBusyError
    from ctxpact.reference.postgres import PostgresError as PostgresError
    from ctxpact.reference.postgres import PostgresSessionStore as PostgresSessionStore

#: The names loaded from ctxpact.reference.postgres on first use (they need psycopg).
_POSTGRES_NAMES = frozenset(
    {"PostgresAgentMemory", "PostgresBusyError", "PostgresError", "PostgresSessionStore"}
)


def __getattr__(name: str) -> object:
    if name in _POSTGRES_NAMES:
        from ctxpact.reference import postgres  # noqa: PLC0415 - needs the extra: on first use

        return getattr(postgres, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
