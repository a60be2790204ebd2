"""A runtime living in a harness, with every part of it living in the suite (HRN-24 .. HRN-27).

The runtime checks script the model, the tools, the memory, the policy, the projector, the
observers and the store, and watch every call the runtime makes to them. So those parts stay
here: :class:`~ctxpact.conformance.harness.SuiteObjects` names each one, the harness's runtime
calls them by name with *call* lines while it answers a request, and the suite answers each
call with a *reply* line.
:class:`RuntimeSessionProxy` is the session the checks drive; :func:`runtime_factory` builds
one from a :class:`~ctxpact.conformance.RuntimeConfig`, as an in-process runtime factory does.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from ctxpact.conformance._runtime import RuntimeConfig, RuntimeSession, observer_name
from ctxpact.conformance.harness._calls import SuiteObjects
from ctxpact.conformance.harness._connection import HarnessConnection
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    JsonObject,
    JsonValue,
    copy_json,
    to_json,
)


def _entries(objects: SuiteObjects, kind: str, named: list[tuple[str, object]]) -> JsonValue:
    return [{"name": name, "object": objects.name(kind, obj)} for name, obj in named]


def config_document(objects: SuiteObjects, config: RuntimeConfig) -> JsonObject:
    """The ``config`` member of ``runtime_new``: *config*'s parts named in *objects*."""

    def optional(kind: str, obj: object) -> JsonValue:
        return None if obj is None else objects.name(kind, obj)

    return {
        "model": objects.name("model", config.model_client),
        "memoryFactory": objects.name("memoryFactory", config.memory_factory),
        "modelName": config.model_name,
        "systemPrompt": config.system_prompt,
        "projector": optional("projector", config.projector),
        "budget": None if config.budget is None else to_json(config.budget),
        "compactPolicy": optional("policy", config.compact_policy),
        "tools": _entries(objects, "tool", list(config.tools.items())),
        "eventListeners": _entries(
            objects, "listener", [(observer_name(x), x) for x in config.event_listeners]
        ),
        "lifecycleHooks": _entries(
            objects, "hook", [(observer_name(x), x) for x in config.lifecycle_hooks]
        ),
        "sessionStore": optional("store", config.session_store),
        "maxSteps": config.max_steps,
        "resumeSessionId": config.resume_session_id,
    }


class RuntimeSessionProxy:
    """A session of a harness's runtime: each method is one ``runtime_call`` request.

    Every request may call the suite's parts of the session (its :class:`SuiteObjects`)
    before it is answered; an error the harness reports is rebuilt by them (HRN-27).
    """

    def __init__(self, connection: HarnessConnection, target: str, config: RuntimeConfig) -> None:
        self._connection = connection
        self._objects = SuiteObjects()
        created = connection.request(
            "runtime_new",
            {"target": target, "config": config_document(self._objects, config)},
            on_call=self._objects.answer,
            raised=self._objects.error,
        )
        handle = created.get("handle") if isinstance(created, dict) else None
        if not isinstance(handle, str):
            raise connection.invalid_result("an object with a string handle", created)
        self._handle = handle
        self._generation = connection.generation
        weakref.finalize(self, connection.forget, "runtime_drop", handle, self._generation)

    def _call(self, method: str, *args: JsonValue) -> JsonValue:
        return self._connection.request(
            "runtime_call",
            {"handle": self._handle, "method": method, "args": list(args)},
            generation=self._generation,
            on_call=self._objects.answer,
            raised=self._objects.error,
        )

    @property
    def session_id(self) -> str:
        """The session's id, as the harness holds it now."""
        found = self._call("session_id")
        if not isinstance(found, str):
            raise self._connection.invalid_result("a string", found)
        return found

    @property
    def last_compact_result(self) -> CompactResult | None:
        """The last compaction's result, or the restored one (SES-5)."""
        found = self._call("last_compact_result")
        return None if found is None else self._connection.document(CompactResult, found)

    def run(self, user_input: JsonValue = None) -> str | None:
        """Run the agent on *user_input* in the harness (RUN-2)."""
        found = self._call("run", copy_json(user_input))
        if found is not None and not isinstance(found, str):
            raise self._connection.invalid_result("a string or null", found)
        return found

    def compact(self, policy: object) -> CompactResult:
        """Compact now with the suite's *policy* (RUN-14); ``None`` goes as null."""
        name = None if policy is None else self._objects.name("policy", policy)
        return self._connection.document(CompactResult, self._call("compact", name))

    def snapshot(self) -> AgentSessionSnapshot:
        """The session's snapshot (SES-3)."""
        return self._connection.document(AgentSessionSnapshot, self._call("snapshot"))

    def restore(self, snapshot: AgentSessionSnapshot) -> None:
        """Restore the session from *snapshot* (SES-4)."""
        self._call("restore", to_json(snapshot))

    def save(self) -> None:
        """Save the session in its store (SES-6)."""
        self._call("save")

    def __repr__(self) -> str:
        return f"RuntimeSessionProxy({self._handle!r} in {self._connection.command!r})"


def runtime_factory(
    connection: HarnessConnection, target: str
) -> Callable[[RuntimeConfig], RuntimeSession]:
    """The runtime factory of a harness's runtime *target*: one session per call."""

    def build(config: RuntimeConfig) -> RuntimeSession:
        return RuntimeSessionProxy(connection, target, config)

    return build
