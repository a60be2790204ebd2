"""The agent: a model client and everything a session needs around it."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from attrs import Attribute, field, frozen

from ctxpact.reference.memory import InMemoryAgentMemory
from ctxpact.reference.memory._state import checked_session_id
from ctxpact.reference.session._errors import NoSessionStoreError, SessionNotFoundError
from ctxpact.reference.session._events import EventListener, LifecycleHook
from ctxpact.reference.session._session import AgentSession
from ctxpact.reference.session._store import SessionStore
from ctxpact.spec import (
    AgentMemory,
    CompactPolicy,
    ContextBudget,
    ContextProjector,
    InvalidValueError,
    ModelClient,
)

#: How many steps a run may take before :class:`MaxStepsExceededError` (RUN-9).
DEFAULT_MAX_STEPS = 32

#: A tool: takes the call's arguments as JSON text, returns the output text.
Tool = Callable[[str], str]
#: Builds the memory of a new or resumed session from its id.
MemoryFactory = Callable[[str], AgentMemory]


def in_memory_factory(session_id: str) -> AgentMemory:  # noqa: ARG001 - the id is not needed
    """The default memory factory: a fresh :class:`InMemoryAgentMemory` without compressor."""
    return InMemoryAgentMemory()


def _tools(tools: Mapping[str, Tool]) -> Mapping[str, Tool]:
    return MappingProxyType(dict(tools))


def _listeners(listeners: Iterable[EventListener]) -> tuple[EventListener, ...]:
    return tuple(listeners)


def _hooks(hooks: Iterable[LifecycleHook]) -> tuple[LifecycleHook, ...]:
    return tuple(hooks)


def _positive(instance: object, attribute: Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected="a positive integer",
            actual=value,
        )


@frozen(kw_only=True, eq=False)
class Agent:
    """A model client with its memory factory, context rules, tools and observers (RUN-1).

    ``memory_factory`` receives the session id (so a :class:`SqliteAgentMemory` can be
    opened per session); ``tools`` maps a tool name to a function of the arguments' JSON
    text. ``budget`` only matters with a ``projector``: without one the prompt is
    ``memory.get_items()`` as it is. ``compact_policy`` is consulted at the top of every step.
    """

    model_client: ModelClient
    memory_factory: MemoryFactory = in_memory_factory
    model_name: str = ""
    system_prompt: str | None = None
    projector: ContextProjector | None = None
    budget: ContextBudget | None = None
    compact_policy: CompactPolicy | None = None
    tools: Mapping[str, Tool] = field(factory=dict, converter=_tools)
    event_listeners: tuple[EventListener, ...] = field(default=(), converter=_listeners)
    lifecycle_hooks: tuple[LifecycleHook, ...] = field(default=(), converter=_hooks)
    session_store: SessionStore | None = None
    max_steps: int = field(default=DEFAULT_MAX_STEPS, validator=_positive)

    def new_session(self, session_id: str | None = None) -> AgentSession:
        """A session with a fresh memory from the factory (SES-2).

        The id defaults to a random UUID in lower-case canonical form; an explicit id must
        be a non-blank string without lone surrogates, the rule of every store and memory
        (SES-17).
        """
        chosen = str(uuid.uuid4()) if session_id is None else session_id
        checked_session_id("Agent", chosen)
        return AgentSession(agent=self, session_id=chosen, memory=self.memory_factory(chosen))

    def resume_session(self, session_id: str) -> AgentSession:
        """A session restored from the store's snapshot of *session_id* (SES-7).

        Raises:
            NoSessionStoreError: if the agent has no session store.
            SessionNotFoundError: if the store holds no session with that id.

        """
        store = self.session_store
        if store is None:
            raise NoSessionStoreError("resume a session by id")
        snapshot = store.load(session_id)
        if snapshot is None:
            raise SessionNotFoundError(session_id)
        session = self.new_session(session_id)
        session.restore(snapshot)
        return session
