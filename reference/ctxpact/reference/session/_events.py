"""What a session tells its observers: agent events for listeners, lifecycle events for hooks.

Listeners and hooks observe; they cannot change what the runtime does. A failing hook or
listener is reported (an ``ERROR`` event) and never stops the run (EVT-6 .. EVT-10).
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from attrs import frozen

from ctxpact.reference.session._copies import detached
from ctxpact.spec import SCHEMA_OF, JsonObject, JsonValue, copy_json, to_json

#: The message of a ``MEMORY_COMPRESS`` event that reports a compaction (auto or manual).
COMPACTED_MESSAGE = "compacted"
#: The message of a ``MEMORY_COMPRESS`` event that reports a projection, every step.
CONTEXT_PROJECTION_MESSAGE = "context projection"
#: The message of a ``COMPACT_FAILED`` event; its payload is the exception.
COMPACT_FAILED_MESSAGE = "compaction failed"
#: The message of the ``ERROR`` event published when a lifecycle hook raises.
HOOK_FAILED_MESSAGE = "lifecycle hook failed: {name}"
#: The message of the ``ERROR`` event published when an event listener raises.
LISTENER_FAILED_MESSAGE = "event listener failed: {name}"
#: The message of the ``ERROR`` event published before a model client's error propagates.
MODEL_FAILED_MESSAGE = "model request failed"
#: The message of the ``ERROR`` event published before the step limit error propagates.
MAX_STEPS_MESSAGE = "max steps exceeded"
#: The message of ``BEFORE_COMPACT`` and ``ON_COMPACT`` when the runtime compacts by itself.
AUTO_COMPACT_MESSAGE = "auto"
#: The message of ``BEFORE_COMPACT`` and ``ON_COMPACT`` for ``AgentSession.compact``.
MANUAL_COMPACT_MESSAGE = "manual"


class AgentEventType(enum.Enum):
    """The kinds of :class:`AgentEvent` (EVT-1)."""

    STEP_START = "STEP_START"
    STEP_END = "STEP_END"
    MEMORY_COMPRESS = "MEMORY_COMPRESS"
    COMPACT_FAILED = "COMPACT_FAILED"
    TOOL_CALL = "TOOL_CALL"
    TOOL_RESULT = "TOOL_RESULT"
    FINAL_OUTPUT = "FINAL_OUTPUT"
    ERROR = "ERROR"


class LifecycleEventType(enum.Enum):
    """The kinds of :class:`LifecycleEvent`: ai4j's ``AgentLifecycleEventType`` (EVT-3)."""

    SESSION_START = "SESSION_START"
    SESSION_END = "SESSION_END"
    BEFORE_TURN = "BEFORE_TURN"
    AFTER_TURN = "AFTER_TURN"
    BEFORE_MODEL_REQUEST = "BEFORE_MODEL_REQUEST"
    AFTER_MODEL_RESPONSE = "AFTER_MODEL_RESPONSE"
    BEFORE_TOOL_CALL = "BEFORE_TOOL_CALL"
    AFTER_TOOL_CALL = "AFTER_TOOL_CALL"
    BEFORE_COMPACT = "BEFORE_COMPACT"
    ON_COMPACT = "ON_COMPACT"


@frozen(kw_only=True)
class AgentEvent:
    """Something the runtime did, for event listeners.

    ``step`` counts from 0 within one ``run``; it is ``None`` outside a run (a manual
    compaction). ``payload`` depends on the type and message (EVT-4, EVT-5): a ``CompactResult`` for
    ``"compacted"``, a ``ContextReport`` for ``"context projection"``, the exception for
    ``COMPACT_FAILED`` and ``ERROR``, a ``ToolCall`` for ``TOOL_CALL``, the output text for
    ``TOOL_RESULT`` and for ``FINAL_OUTPUT`` (EVT-2, EVT-5). Payloads are copies: changing one
    changes nothing in the session (EVT-7).
    """

    type: AgentEventType
    message: str
    step: int | None
    payload: object = None
    session_id: str


@frozen(kw_only=True)
class LifecycleEvent:
    """A point in a session's life, for lifecycle hooks (EVT-3, EVT-8).

    Payloads are copies, so a hook cannot change what the runtime does next: the
    ``BEFORE_COMPACT`` payload is the ``MemorySnapshot`` about to be compacted, and changing
    it does not change what is compacted.
    """

    type: LifecycleEventType
    message: str
    step: int | None
    payload: object = None
    session_id: str


def _payload_document(payload: object) -> JsonValue:
    if type(payload) in SCHEMA_OF:
        return to_json(payload)
    if isinstance(payload, BaseException):
        return {"error": type(payload).__name__, "message": str(payload)}
    # Anything else an event carries is a JSON value already: a text, the user's input.
    return copy_json(payload, "$.payload")


def event_document(event: AgentEvent | LifecycleEvent) -> JsonObject:
    """*event* as the JSON document a host persists or forwards (EVT-14).

    A document of ``agent-event.schema.json`` or ``lifecycle-event.schema.json``: the type's
    upper-case name, the message, the step, the session id and the payload as JSON, a record
    as its document and an exception as an ``EventError`` document
    (``{"error": "RuntimeError", "message": "disk full"}``).

    Raises:
        SchemaValidationError: if the payload is neither a record, an exception nor a JSON
            value, naming its path.

    """
    return {
        "type": event.type.value,
        "message": event.message,
        "step": event.step,
        "payload": _payload_document(event.payload),
        "sessionId": event.session_id,
    }


#: A function that receives every :class:`AgentEvent`.
EventListener = Callable[[AgentEvent], object]
#: A function that receives every :class:`LifecycleEvent`.
LifecycleHook = Callable[[LifecycleEvent], object]


def callable_name(function: object) -> str:
    """The name an error message uses for a hook or listener (EVT-11).

    Its ``__qualname__`` (a function's, such as ``make.<locals>.hook``), or else the name of
    its type (a callable instance's class).
    """
    name = getattr(function, "__qualname__", None)
    return name if isinstance(name, str) else type(function).__name__


@frozen(kw_only=True)
class Observers:
    """Delivers a session's events to its listeners and hooks, one copy of the payload each time.

    A raising hook is caught; an ``ERROR`` event ``lifecycle hook failed: <name>`` (payload:
    the exception) is published and the next hook runs (EVT-9). A raising listener is caught;
    an ``ERROR`` event ``event listener failed: <name>`` goes to the other listeners right
    away, and a listener that raises on that ``ERROR`` event is ignored, so reporting never
    recurses (EVT-10). Only ``Exception`` is caught; ``KeyboardInterrupt`` and the like go
    through.
    """

    session_id: str
    listeners: tuple[EventListener, ...]
    hooks: tuple[LifecycleHook, ...]

    def publish(
        self, kind: AgentEventType, message: str, step: int | None, payload: object = None
    ) -> None:
        """Send an :class:`AgentEvent` to every listener, in order."""
        if self.listeners:
            self._deliver(
                AgentEvent(
                    type=kind,
                    message=message,
                    step=step,
                    payload=detached(payload),
                    session_id=self.session_id,
                ),
                failed=None,
            )

    def dispatch(
        self, kind: LifecycleEventType, message: str, step: int | None, payload: object = None
    ) -> None:
        """Send a :class:`LifecycleEvent` to every hook, in order."""
        if not self.hooks:
            return
        event = LifecycleEvent(
            type=kind,
            message=message,
            step=step,
            payload=detached(payload),
            session_id=self.session_id,
        )
        for hook in self.hooks:
            try:
                hook(event)
            except Exception as error:  # noqa: BLE001 - hooks observe; they never stop a run
                self.publish(
                    AgentEventType.ERROR,
                    HOOK_FAILED_MESSAGE.format(name=callable_name(hook)),
                    step,
                    error,
                )

    def _deliver(self, event: AgentEvent, *, failed: int | None) -> None:
        # failed: the index of the listener whose failure *event* reports, or None.
        for index, listener in enumerate(self.listeners):
            if index == failed:
                continue
            try:
                listener(event)
            except Exception as error:  # noqa: BLE001 - listeners observe; they never stop a run
                if failed is None:
                    self._deliver(
                        AgentEvent(
                            type=AgentEventType.ERROR,
                            message=LISTENER_FAILED_MESSAGE.format(name=callable_name(listener)),
                            step=event.step,
                            payload=error,
                            session_id=self.session_id,
                        ),
                        failed=index,
                    )
