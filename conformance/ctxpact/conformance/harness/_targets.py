"""The targets a harness declares, as :class:`~ctxpact.conformance.Target` s the suite runs."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ctxpact.conformance._model import Component
from ctxpact.conformance._target import Target
from ctxpact.conformance.harness._connection import HarnessConnection
from ctxpact.conformance.harness._proxies import (
    AgentMemoryProxy,
    CompactPolicyProxy,
    FunctionsProxy,
    MemoryCompressorProxy,
    ProjectorProxy,
    SessionStoreProxy,
    SummaryParserProxy,
)
from ctxpact.conformance.harness._runtime import runtime_factory
from ctxpact.spec import ContextBudget, JsonObject, JsonValue, ModelClient, from_json

#: The components a harness can serve (spec/HARNESS.md); the others are checked in process.
SERVED_COMPONENTS = frozenset(
    {
        Component.PROJECTOR,
        Component.COMPACT_POLICY,
        Component.AGENT_MEMORY,
        Component.SUMMARY_PARSER,
        Component.SESSION_STORE,
        Component.FUNCTIONS,
        Component.RUNTIME,
        Component.MEMORY_COMPRESSOR,
    }
)


def _snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def python_options(options: JsonObject) -> dict[str, Any]:
    """A target's options as the checks read them: snake_case names, records for documents.

    ``{"kind": "llm", "maxItems": 4}`` becomes ``{"kind": "llm", "max_items": 4}``,
    ``pairSafe`` becomes ``pair_safe``, a ``budget`` document a
    :class:`~ctxpact.spec.ContextBudget` and the ``providers`` of a wire-valid claim a tuple
    of names, as in the in-process reference targets (HRN-10).
    """
    converted: dict[str, Any] = {}
    for key, value in options.items():
        if key == "budget" and value is not None:
            converted[_snake_case(key)] = from_json(ContextBudget, value)
        elif key == "providers" and isinstance(value, list):
            converted[_snake_case(key)] = tuple(value)
        else:
            converted[_snake_case(key)] = value
    return converted


def _factory(
    connection: HarnessConnection, component: Component, name: str, options: JsonObject
) -> Callable[..., object]:
    if component is Component.COMPACT_POLICY:

        def policy(model_client: ModelClient | None = None, *_: object) -> object:
            return CompactPolicyProxy(connection, name, options, model_client)

        return policy
    if component is Component.RUNTIME:
        return runtime_factory(connection, name)
    if component is Component.MEMORY_COMPRESSOR:

        def compressor(*args: object) -> object:
            return MemoryCompressorProxy(connection, name, *args)

        return compressor
    proxies: dict[Component, Callable[[HarnessConnection, str], object]] = {
        Component.PROJECTOR: ProjectorProxy,
        Component.AGENT_MEMORY: AgentMemoryProxy,
        Component.SUMMARY_PARSER: SummaryParserProxy,
        Component.SESSION_STORE: SessionStoreProxy,
        Component.FUNCTIONS: FunctionsProxy,
    }
    proxy = proxies[component]

    def build(*_: object) -> object:
        return proxy(connection, name)

    return build


def harness_targets(connection: HarnessConnection) -> tuple[Target, ...]:
    """One target for each target the harness declares, named ``<implementation>:<target>``.

    Starts the harness if it is not running.

    Raises:
        HarnessStartError: if it cannot be started.

    """
    implementation = connection.start()
    declared: list[JsonValue] = implementation["targets"]  # type: ignore[assignment] # validated
    targets = []
    for entry in declared:
        assert isinstance(entry, dict)  # noqa: S101 - validated against start-response
        component = Component(entry["component"])
        options: JsonObject = entry.get("options") or {}  # type: ignore[assignment] # validated
        targets.append(
            Target(
                name=f"{implementation['name']}:{entry['name']}",
                component=component,
                factory=_factory(connection, component, str(entry["name"]), options),
                claims=[str(claim) for claim in entry["claims"]],  # type: ignore[union-attr] # validated
                options=python_options(options),
                language=str(implementation["language"]),
                version=str(implementation["version"]),
                in_process=False,
            )
        )
    return tuple(targets)
