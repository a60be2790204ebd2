"""The reference runtime behind the harness protocol, its parts calling back to the suite.

A ``runtime_new`` request names the suite's parts (model, memory factory, projector, policy,
tools, observers, store); the agent built here holds a stand-in for each that turns every use
into a *call* line and waits for the suite's *reply* (spec/HARNESS.md HRN-24 .. HRN-27). So the
agent under test runs here while everything it talks to runs in the suite, exactly as the
suite's runtime checks script it in process.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import cast

import attrs

from ctxpact.reference.session import (
    DEFAULT_MAX_STEPS,
    Agent,
    AgentEvent,
    AgentSession,
    LifecycleEvent,
)
from ctxpact.spec import (
    SCHEMA_OF,
    AgentSessionSnapshot,
    CompactPolicy,
    CompactResult,
    ContextBudget,
    ContextProjection,
    CtxpactError,
    JsonObject,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    copy_json,
    from_json,
    to_json,
)

#: Calls one of the suite's objects: its name, the method, the JSON arguments; the result.
Caller = Callable[[str, str, list[JsonValue]], JsonValue]


class SuiteCallError(CtxpactError, RuntimeError):
    """What a call to one of the suite's objects raised there, raised here in turn (HRN-27)."""

    def __init__(self, call_id: int, message: str, type_name: str) -> None:
        self.call_id = call_id
        self.type_name = type_name
        super().__init__(message)


class _Remote:
    def __init__(self, caller: Caller, name: str) -> None:
        self._caller = caller
        self._name = name

    def _call(self, method: str, *args: JsonValue) -> JsonValue:
        return self._caller(self._name, method, list(args))


class RemoteModel(_Remote):
    """The suite's model client."""

    def create(self, prompt: ModelPrompt) -> ModelResult:
        """The suite's answer to *prompt*."""
        found = self._call("create", to_json(prompt))
        # None is an answer too: the runtime must refuse it (RUN-12).
        return cast("ModelResult", None if found is None else from_json(ModelResult, found))


class RemoteMemory(_Remote):
    """One of the suite's memories (the methods of HRN-15)."""

    def add_user_input(self, value: JsonValue) -> None:
        """Append the user's input."""
        self._call("add_user_input", copy_json(value))

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        """Append the model's output items."""
        self._call("add_output_items", [copy_json(item) for item in items])

    def add_tool_output(self, call_id: str, output: str | None) -> None:
        """Append a tool result."""
        self._call("add_tool_output", call_id, output)

    def get_items(self) -> list[JsonValue]:
        """The items a prompt is built from."""
        return cast("list[JsonValue]", self._call("get_items"))

    def get_summary(self) -> str | None:
        """The summary."""
        return cast("str | None", self._call("get_summary"))

    def set_summary(self, summary: str | None) -> None:
        """Replace the summary."""
        self._call("set_summary", summary)

    def clear(self) -> None:
        """Remove everything."""
        self._call("clear")

    def snapshot(self) -> MemorySnapshot:
        """The items and the summary."""
        return from_json(MemorySnapshot, self._call("snapshot"))

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        """Replace the items and the summary."""
        self._call("restore", None if snapshot is None else to_json(snapshot))


class RemoteProjector(_Remote):
    """The suite's context projector."""

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        """The suite's projection of *items*."""
        sent = [copy_json(item) for item in items]
        found = self._call("project", sent, None if budget is None else to_json(budget))
        return from_json(ContextProjection, found)


class RemotePolicy(_Remote):
    """One of the suite's compact policies."""

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        """Whether the suite's policy compacts now.

        Its answer is passed on unchanged, not made a bool here, so that the runtime sees an
        answer that is not a bool and fails the attempt (RUN-12).
        """
        return cast("bool", self._call("should_compact", to_json(snapshot)))

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """The suite's compaction of *snapshot*."""
        return from_json(CompactResult, self._call("compact", to_json(snapshot)))


class RemoteCompressor(_Remote):
    """The suite's memory compressor, given to a memory it builds (HRN-30)."""

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        """The suite's compression of *snapshot*."""
        return from_json(MemorySnapshot, self._call("compress", to_json(snapshot)))


class RemoteStore(_Remote):
    """The suite's session store (the methods of HRN-16)."""

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Store *snapshot*."""
        self._call("save", to_json(snapshot))

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None``."""
        found = self._call("load", session_id)
        return None if found is None else from_json(AgentSessionSnapshot, found)

    def delete(self, session_id: str) -> bool:
        """Remove the session; whether there was one."""
        return bool(self._call("delete", session_id))

    def session_ids(self) -> list[str]:
        """The stored ids."""
        return cast("list[str]", self._call("session_ids"))


class ErrorNames:
    """A name for each error this process reports, the same name each time (HRN-27)."""

    def __init__(self) -> None:
        self._names: dict[int, tuple[BaseException, str]] = {}
        self._counter = itertools.count(1)

    def document(self, error: BaseException, trace: str | None = None) -> JsonObject:
        """The RaisedError document of *error*."""
        call = _suite_call(error)
        if isinstance(error, SuiteCallError):
            return {
                "message": str(error),
                "traceback": trace,
                "kind": None,
                "id": None,
                "call": call,
            }
        known = self._names.get(id(error))
        if known is None:
            known = (error, f"error-{next(self._counter)}")
            self._names[id(error)] = known  # the error is kept, so its id is never reused
        return {
            "message": f"{type(error).__name__}: {error}",
            "traceback": trace,
            "kind": _kind(error),
            "id": known[1],
            "call": call,
        }


def _suite_call(error: BaseException) -> int | None:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, SuiteCallError):
            return current.call_id
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _kind(error: BaseException) -> str | None:
    for kind, builtin in (
        ("timeout", TimeoutError),
        ("lookup", LookupError),
        ("type", TypeError),
        ("value", ValueError),
        ("state", RuntimeError),
    ):
        if isinstance(error, builtin):
            return kind
    return None


def _payload(payload: object, errors: ErrorNames) -> JsonValue:
    if payload is None:
        return None
    if isinstance(payload, BaseException):
        return {"error": errors.document(payload)}
    record = SCHEMA_OF.get(type(payload)) if attrs.has(type(payload)) else None
    if record is not None:
        return {"record": record, "document": to_json(payload)}
    return {"value": copy_json(cast("JsonValue", payload))}


class _Observer:
    """A listener or hook of the suite, under the name the suite gave it (EVT-11)."""

    def __init__(
        self, caller: Caller, obj: str, method: str, name: str, errors: ErrorNames
    ) -> None:
        self._caller = caller
        self._object = obj
        self._method = method
        self._errors = errors
        self.__qualname__ = name

    def __call__(self, event: AgentEvent | LifecycleEvent) -> None:
        document: JsonObject = {
            "type": event.type.value,
            "message": event.message,
            "step": event.step,
            "sessionId": event.session_id,
            "payload": _payload(event.payload, self._errors),
        }
        self._caller(self._object, self._method, [document])


def _name(value: JsonValue) -> str:
    if not isinstance(value, str):
        raise TypeError(f"Expected the name of one of the suite's objects but got {value!r}")
    return value


def _entries(config: JsonObject, key: str) -> list[tuple[str, str]]:
    entries = config.get(key) or []
    if not isinstance(entries, list):
        raise TypeError(f"Expected an array {key} but got {entries!r}")
    found = []
    for entry in entries:
        if not isinstance(entry, dict):
            raise TypeError(f"Expected an object in {key} but got {entry!r}")
        found.append((str(entry["name"]), _name(entry["object"])))
    return found


def remote_session(caller: Caller, config: JsonObject, errors: ErrorNames) -> AgentSession:
    """A session of the reference :class:`Agent` built from the suite's parts (HRN-25)."""

    def optional(key: str) -> str | None:
        value = config.get(key)
        return None if value is None else _name(value)

    def memory_factory(session_id: str) -> RemoteMemory:
        return RemoteMemory(caller, _name(caller(factory, "create", [session_id])))

    def tool(name: str) -> Callable[[str], object]:
        return lambda arguments: caller(name, "call", [arguments])

    factory = _name(config["memoryFactory"])
    projector, policy, store = (
        optional("projector"),
        optional("compactPolicy"),
        optional("sessionStore"),
    )
    budget = config.get("budget")
    max_steps = config.get("maxSteps")
    agent = Agent(
        model_client=RemoteModel(caller, _name(config["model"])),
        memory_factory=memory_factory,
        model_name=str(config.get("modelName", "")),
        system_prompt=cast("str | None", config.get("systemPrompt")),
        projector=None if projector is None else RemoteProjector(caller, projector),
        budget=None if budget is None else from_json(ContextBudget, budget),
        compact_policy=None if policy is None else RemotePolicy(caller, policy),
        tools={name: tool(obj) for name, obj in _entries(config, "tools")},  # type: ignore[misc] # a tool may answer anything
        event_listeners=tuple(
            _Observer(caller, obj, "event", name, errors)
            for name, obj in _entries(config, "eventListeners")
        ),
        lifecycle_hooks=tuple(
            _Observer(caller, obj, "lifecycle", name, errors)
            for name, obj in _entries(config, "lifecycleHooks")
        ),
        session_store=None if store is None else RemoteStore(caller, store),
        max_steps=DEFAULT_MAX_STEPS if max_steps is None else cast("int", max_steps),
    )
    resumed = config.get("resumeSessionId")
    if resumed is not None:
        return agent.resume_session(cast("str", resumed))
    return agent.new_session()


def call_session(
    session: AgentSession, caller: Caller, method: str, args: Sequence[JsonValue]
) -> JsonValue:
    """Call *method* of *session* with JSON *args* (HRN-26); the JSON form of its result."""
    match method, list(args):
        case "run", [user_input]:
            return session.run(user_input)
        case "compact", [policy]:
            chosen = None if policy is None else RemotePolicy(caller, _name(policy))
            return to_json(session.compact(cast("CompactPolicy", chosen)))
        case "snapshot", []:
            return to_json(session.snapshot())
        case "restore", [document]:
            session.restore(from_json(AgentSessionSnapshot, document))
        case "save", []:
            session.save()
        case "session_id", []:
            return session.session_id
        case "last_compact_result", []:
            result = session.last_compact_result
            return None if result is None else to_json(result)
        case _:
            raise TypeError(
                f"Expected a session method among the protocol's with its arguments but got "
                f"{method!r} with {len(args)} argument(s)"
            )
    return None
