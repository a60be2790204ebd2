"""The runtime adapter contract: what the suite hands a runtime, and what it expects back.

A runtime (an agent and its sessions, §16 and §17) is checked through one factory,
``factory(config) -> session``. The :class:`RuntimeConfig` carries everything RUN-1 says an
agent is built from, as the suite's own scripted components; the session that comes back
satisfies :class:`RuntimeSession`. Events and lifecycle events reach the suite's observers as
neutral records (:class:`RuntimeEvent`, :class:`RuntimeLifecycleEvent`), so a runtime with
its own event classes, or written in another framework, is adapted by translating them.
:func:`reference_runtime` is the adapter of ``ctxpact.reference.session`` and the model to
copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Protocol, runtime_checkable

from attrs import field, frozen

from ctxpact.reference.session import (
    DEFAULT_MAX_STEPS,
    Agent,
    AgentEvent,
    AgentSession,
    LifecycleEvent,
    SessionStore,
)
from ctxpact.spec import (
    AgentMemory,
    AgentSessionSnapshot,
    CompactPolicy,
    CompactResult,
    ContextBudget,
    ContextProjector,
    JsonValue,
    ModelClient,
)


@frozen(kw_only=True)
class RuntimeEvent:
    """An agent event as the suite's listeners receive it (EVT-1, EVT-2, EVT-5).

    ``type`` is the event type written as its upper-case name (``"STEP_START"``); ``step``
    is the step number within the run, or ``None`` for the events of a manual compaction;
    ``payload`` is the runtime's own object (a ``ContextReport``, a ``CompactResult``, the
    exception, the output text).
    """

    type: str
    message: str | None
    step: int | None
    payload: object = None
    session_id: str


@frozen(kw_only=True)
class RuntimeLifecycleEvent:
    """A lifecycle event as the suite's hooks receive it (EVT-3, EVT-8).

    ``type`` is the upper-case name (``"BEFORE_COMPACT"``); the other fields as for
    :class:`RuntimeEvent`.
    """

    type: str
    message: str | None
    step: int | None
    payload: object = None
    session_id: str


#: A listener of the suite: receives every agent event.
EventListener = Callable[[RuntimeEvent], object]
#: A lifecycle hook of the suite: receives every lifecycle event.
LifecycleHook = Callable[[RuntimeLifecycleEvent], object]
#: Builds the memory of a new or resumed session; it receives the session id (SES-2).
MemoryFactory = Callable[[str], AgentMemory]
#: A tool: the call's arguments text in, the output text out (RUN-1).
Tool = Callable[[str], str]


def _tools(tools: Mapping[str, Tool]) -> Mapping[str, Tool]:
    return MappingProxyType(dict(tools))


def _listeners(listeners: Iterable[EventListener]) -> tuple[EventListener, ...]:
    return tuple(listeners)


def _hooks(hooks: Iterable[LifecycleHook]) -> tuple[LifecycleHook, ...]:
    return tuple(hooks)


@frozen(kw_only=True, eq=False)
class RuntimeConfig:
    """Everything an agent is built from (RUN-1), as the suite supplies it.

    The adapter builds its agent from these and returns one session of it: a new one, or,
    when ``resume_session_id`` is set, the session resumed from ``session_store`` under that
    id (SES-7; the errors of SES-6 and SES-7 propagate out of the factory). Every session
    built from one config counts as a session of one agent (SES-2).

    ``event_listeners`` and ``lifecycle_hooks`` are registered in the order given; an adapter
    that wraps them keeps each one's name (its ``__qualname__``, or else the name of its
    type) for the messages of EVT-9 and EVT-11. ``max_steps`` is the bound of RUN-9 (the
    runtime's own when ``None``); a runtime without a bound is declared with the target option
    ``max_steps=False``.
    """

    model_client: ModelClient
    memory_factory: MemoryFactory
    model_name: str = ""
    system_prompt: str | None = None
    projector: ContextProjector | None = None
    budget: ContextBudget | None = None
    compact_policy: CompactPolicy | None = None
    tools: Mapping[str, Tool] = field(factory=dict, converter=_tools)
    event_listeners: tuple[EventListener, ...] = field(default=(), converter=_listeners)
    lifecycle_hooks: tuple[LifecycleHook, ...] = field(default=(), converter=_hooks)
    session_store: SessionStore | None = None
    max_steps: int | None = None
    resume_session_id: str | None = None


@runtime_checkable
class RuntimeSession(Protocol):
    """A session as the runtime checks drive it (SES-3 .. SES-8, RUN-2, RUN-14).

    It may also offer registration helpers named for compaction times (``pre_compact``,
    ``before_compact``, ``on_compact``), each taking one callable; EVT-12 is checked on
    them when present.
    """

    @property
    def session_id(self) -> str:
        """The session's id."""
        ...

    @property
    def last_compact_result(self) -> CompactResult | None:
        """The result of the last successful compaction, or of the last restore (SES-5)."""
        ...

    def run(self, user_input: JsonValue = None) -> str | None:
        """Add *user_input* to memory and run steps until one ends the run (RUN-2)."""
        ...

    def compact(self, policy: CompactPolicy) -> CompactResult:
        """Compact the memory now with *policy* (RUN-14)."""
        ...

    def snapshot(self) -> AgentSessionSnapshot:
        """The session id, the memory's snapshot and the last compact result (SES-3)."""
        ...

    def restore(self, snapshot: AgentSessionSnapshot) -> None:
        """Restore memory, last compact result and session id from *snapshot* (SES-4)."""
        ...

    def save(self) -> None:
        """Store :meth:`snapshot` in the agent's session store (SES-6)."""
        ...


#: What a runtime target's factory is.
RuntimeFactory = Callable[[RuntimeConfig], RuntimeSession]


def observer_name(observer: object) -> str:
    """The name EVT-11 gives an observer registered without one.

    Its ``__qualname__``, or else the name of its type.
    """
    name = getattr(observer, "__qualname__", None)
    return name if isinstance(name, str) else type(observer).__name__


class _Listener:
    # The reference names a failing listener by __qualname__, so the wrapper carries the
    # name of the suite's listener as its own (EVT-11).
    def __init__(self, listener: EventListener) -> None:
        self._listener = listener
        self.__qualname__ = observer_name(listener)

    def __call__(self, event: AgentEvent) -> object:
        return self._listener(
            RuntimeEvent(
                type=event.type.value,
                message=event.message,
                step=event.step,
                payload=event.payload,
                session_id=event.session_id,
            )
        )


class _Hook:
    def __init__(self, hook: LifecycleHook) -> None:
        self._hook = hook
        self.__qualname__ = observer_name(hook)

    def __call__(self, event: LifecycleEvent) -> object:
        return self._hook(
            RuntimeLifecycleEvent(
                type=event.type.value,
                message=event.message,
                step=event.step,
                payload=event.payload,
                session_id=event.session_id,
            )
        )


def reference_agent(config: RuntimeConfig) -> Agent:
    """The reference :class:`~ctxpact.reference.session.Agent` that *config* describes."""
    return Agent(
        model_client=config.model_client,
        memory_factory=config.memory_factory,
        model_name=config.model_name,
        system_prompt=config.system_prompt,
        projector=config.projector,
        budget=config.budget,
        compact_policy=config.compact_policy,
        tools=config.tools,
        event_listeners=tuple(_Listener(listener) for listener in config.event_listeners),
        lifecycle_hooks=tuple(_Hook(hook) for hook in config.lifecycle_hooks),
        session_store=config.session_store,
        max_steps=DEFAULT_MAX_STEPS if config.max_steps is None else config.max_steps,
    )


def reference_runtime(config: RuntimeConfig) -> AgentSession:
    """The reference runtime's adapter: a new or resumed session of the agent of *config*."""
    agent = reference_agent(config)
    if config.resume_session_id is not None:
        return agent.resume_session(config.resume_session_id)
    return agent.new_session()
