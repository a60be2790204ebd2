"""Sessions, the runtime loop, events and session stores.

An :class:`Agent` holds a model client and the context rules; each :class:`AgentSession`
owns a memory and runs the loop: auto-compaction at the top of every step (fail-safe),
projection, the model call, tools. Stores save and resume sessions without losing anything:
documents are validated against the session-snapshot schema, written atomically, and read
back only when they are exactly the session asked for.

Implements SES-1 .. SES-16, RUN-1 .. RUN-15 and EVT-1 .. EVT-13.
"""

from ctxpact.reference.session._agent import (
    DEFAULT_MAX_STEPS,
    Agent,
    MemoryFactory,
    Tool,
    in_memory_factory,
)
from ctxpact.reference.session._errors import (
    CORRUPT_SESSION,
    MAX_STEPS_EXCEEDED,
    NO_SESSION_STORE,
    SESSION_ID_MISMATCH,
    SESSION_NOT_FOUND,
    CorruptSessionError,
    ForeignSessionFileWarning,
    MaxStepsExceededError,
    NoSessionStoreError,
    SessionFileError,
    SessionIdMismatchError,
    SessionNotFoundError,
)
from ctxpact.reference.session._events import (
    AUTO_COMPACT_MESSAGE,
    COMPACT_FAILED_MESSAGE,
    COMPACTED_MESSAGE,
    CONTEXT_PROJECTION_MESSAGE,
    HOOK_FAILED_MESSAGE,
    LISTENER_FAILED_MESSAGE,
    MANUAL_COMPACT_MESSAGE,
    MAX_STEPS_MESSAGE,
    MODEL_FAILED_MESSAGE,
    AgentEvent,
    AgentEventType,
    EventListener,
    LifecycleEvent,
    LifecycleEventType,
    LifecycleHook,
    event_document,
)
from ctxpact.reference.session._file_store import (
    STALE_TEMPORARY_SECONDS,
    FileSessionStore,
    session_file_stem,
    session_id_of_stem,
)
from ctxpact.reference.session._session import (
    TOOL_FAILED_OUTPUT,
    TOOL_NOT_TEXT,
    UNKNOWN_TOOL_OUTPUT,
    AgentSession,
    MemoryRollbackError,
    RuntimeResultError,
)
from ctxpact.reference.session._sqlite_store import DEFAULT_SESSION_TABLE, SqliteSessionStore
from ctxpact.reference.session._store import (
    InMemorySessionStore,
    ListingSessionStore,
    SessionStore,
)
from ctxpact.reference.session._tool_calls import GENERATED_CALL_ID

__all__ = [
    "AUTO_COMPACT_MESSAGE",
    "COMPACTED_MESSAGE",
    "COMPACT_FAILED_MESSAGE",
    "CONTEXT_PROJECTION_MESSAGE",
    "CORRUPT_SESSION",
    "DEFAULT_MAX_STEPS",
    "DEFAULT_SESSION_TABLE",
    "GENERATED_CALL_ID",
    "HOOK_FAILED_MESSAGE",
    "LISTENER_FAILED_MESSAGE",
    "MANUAL_COMPACT_MESSAGE",
    "MAX_STEPS_EXCEEDED",
    "MAX_STEPS_MESSAGE",
    "MODEL_FAILED_MESSAGE",
    "NO_SESSION_STORE",
    "SESSION_ID_MISMATCH",
    "SESSION_NOT_FOUND",
    "STALE_TEMPORARY_SECONDS",
    "TOOL_FAILED_OUTPUT",
    "TOOL_NOT_TEXT",
    "UNKNOWN_TOOL_OUTPUT",
    "Agent",
    "AgentEvent",
    "AgentEventType",
    "AgentSession",
    "CorruptSessionError",
    "EventListener",
    "FileSessionStore",
    "ForeignSessionFileWarning",
    "InMemorySessionStore",
    "LifecycleEvent",
    "LifecycleEventType",
    "LifecycleHook",
    "ListingSessionStore",
    "MaxStepsExceededError",
    "MemoryFactory",
    "MemoryRollbackError",
    "NoSessionStoreError",
    "RuntimeResultError",
    "SessionFileError",
    "SessionIdMismatchError",
    "SessionNotFoundError",
    "SessionStore",
    "SqliteSessionStore",
    "Tool",
    "event_document",
    "in_memory_factory",
    "session_file_stem",
    "session_id_of_stem",
]
