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

from collections.abc import Callable

from ctxpact.conformance._runtime import RuntimeConfig, RuntimeSession, observer_name
from ctxpact.conformance.harness._calls import CallingProxy, SuiteObjects
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


class RuntimeSessionProxy(CallingProxy):
    """A session of a harness's runtime: each method is one ``runtime_call`` request.

    Every request may call the suite's parts of the session (its :class:`SuiteObjects`)
    before it is answered; an error the harness reports is rebuilt by them (HRN-27).
    """

    _new, _call, _drop = "runtime_new", "runtime_call", "runtime_drop"

    def __init__(self, connection: HarnessConnection, target: str, config: RuntimeConfig) -> None:
        super().__init__(connection)
        self._create({"target": target, "config": config_document(self._objects, config)})

    @property
    def session_id(self) -> str:
        """The session's id, as the harness holds it now."""
        found = self._invoke("session_id")
        if not isinstance(found, str):
            raise self._connection.invalid_result("a string", found)
        return found

    @property
    def last_compact_result(self) -> CompactResult | None:
        """The last compaction's result, or the restored one (SES-5)."""
        found = self._invoke("last_compact_result")
        return None if found is None else self._connection.document(CompactResult, found)

    def run(self, user_input: JsonValue = None) -> str | None:
        """Run the agent on *user_input* in the harness (RUN-2)."""
        found = self._invoke("run", copy_json(user_input))
        if found is not None and not isinstance(found, str):
            raise self._connection.invalid_result("a string or null", found)
        return found

    def compact(self, policy: object) -> CompactResult:
        """Compact now with the suite's *policy* (RUN-14); ``None`` goes as null."""
        name = None if policy is None else self._objects.name("policy", policy)
        return self._connection.document(CompactResult, self._invoke("compact", name))

    def snapshot(self) -> AgentSessionSnapshot:
        """The session's snapshot (SES-3)."""
        return self._connection.document(AgentSessionSnapshot, self._invoke("snapshot"))

    def restore(self, snapshot: AgentSessionSnapshot) -> None:
        """Restore the session from *snapshot* (SES-4)."""
        self._invoke("restore", to_json(snapshot))

    def save(self) -> None:
        """Save the session in its store (SES-6)."""
        self._invoke("save")


def runtime_factory(
    connection: HarnessConnection, target: str
) -> Callable[[RuntimeConfig], RuntimeSession]:
    """The runtime factory of a harness's runtime *target*: one session per call."""

    def build(config: RuntimeConfig) -> RuntimeSession:
        return RuntimeSessionProxy(connection, target, config)

    return build
