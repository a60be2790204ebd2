"""Serves the wrong memories and stores of the zoos over the harness protocol.

Run as a script (the zoo tests start it; they import nothing from it)::

    python zoo_harness.py

Every member of ``test_memory_zoo.py`` and ``test_store_zoo.py`` becomes one target, named
``memory-<member>`` or ``store-<member>``, served the way the reference harness serves the
class it breaks: a memory or a store kept in SQLite or in files is opened on the storage the
suite names (HRN-29), a memory takes the suite's compressor (HRN-30). So the zoo tests can
show that the wrong members of the checks that read stored state are caught through the
protocol as they are in process. When ``CTXPACT_POSTGRES_DSN`` names a server, it also serves
the PostgreSQL reference memory and store, opened by conninfo only (``postgres-memory`` and
``postgres-store``), so that the suite's PostgreSQL storage is proven through a harness too.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from ctxpact.reference.harness import Harness, HarnessSkip, ServedTarget, serve
from ctxpact.reference.memory import (
    DEFAULT_MEMORY_TABLE,
    InMemoryAgentMemory,
    SqliteAgentMemory,
)
from ctxpact.reference.session import FileSessionStore, SqliteSessionStore
from ctxpact.spec import JsonObject

_DEFAULT_SESSION_TABLE = "ctxpact_agent_session"


def _zoo(name: str) -> ModuleType:
    """The zoo test module *name*, loaded from beside this file."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the zoo {name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _busy(storage: JsonObject) -> dict[str, Any]:
    # Only a member that keeps the reference constructor takes busy_timeout.
    timeout = storage.get("busyTimeout")
    return {} if timeout is None else {"busy_timeout": timeout}


def _memory_target(name: str, factory: Callable[[], object]) -> ServedTarget:
    cls: Any = type(factory())
    if not issubclass(cls, SqliteAgentMemory):
        compressing = issubclass(cls, InMemoryAgentMemory)
        return ServedTarget(
            name=name,
            component="agent-memory",
            claims=("generic", "exact"),
            factory=cls if compressing else factory,
            compressing=compressing,
        )

    def opener(storage: JsonObject, compressor: object) -> object:
        table = storage.get("table")
        return cls(
            storage["address"],
            storage["sessionId"],
            table=DEFAULT_MEMORY_TABLE if table is None else table,
            compressor=compressor,
            **_busy(storage),
        )

    return ServedTarget(
        name=name,
        component="agent-memory",
        claims=("generic", "exact"),
        factory=lambda compressor=None: cls(":memory:", "zoo", compressor=compressor),
        options={"storage": "sqlite"},
        opener=opener,
        compressing=True,
    )


def _store_target(name: str, build: Callable[[Path], object], root: Path) -> ServedTarget:
    counter = itertools.count()
    # Each member's stores live in a directory of its own, never shared with another's.
    cls: Any = type(build(root / name / "probe"))
    if issubclass(cls, FileSessionStore):
        return ServedTarget(
            name=name,
            component="session-store",
            claims=("generic",),
            factory=lambda: cls(root / name / str(next(counter))),
            options={"storage": "directory"},
            opener=lambda storage, _: cls(storage["address"]),
        )
    if not issubclass(cls, SqliteSessionStore):
        return ServedTarget(
            name=name,
            component="session-store",
            claims=("generic",),
            factory=lambda: build(root / name / str(next(counter))),
        )

    def opener(storage: JsonObject, _: object) -> object:
        table = storage.get("table")
        return cls(
            storage["address"],
            table=_DEFAULT_SESSION_TABLE if table is None else table,
            **_busy(storage),
        )

    return ServedTarget(
        name=name,
        component="session-store",
        claims=("generic",),
        factory=lambda: cls(":memory:"),
        options={"storage": "sqlite"},
        opener=opener,
    )


def _by_address_only() -> object:
    raise HarnessSkip("this target is opened on storage the suite names, never made empty")


def _postgres_targets() -> tuple[ServedTarget, ...]:
    if not os.environ.get("CTXPACT_POSTGRES_DSN"):
        return ()
    from ctxpact.reference import postgres  # noqa: PLC0415 - only with a server

    # The storage document's members go through as the suite sent them.
    memory_class: Any = postgres.PostgresAgentMemory
    store_class: Any = postgres.PostgresSessionStore

    def memory(storage: JsonObject, compressor: object) -> object:
        table = storage.get("table")
        return memory_class(
            storage["address"],
            storage["sessionId"],
            table=DEFAULT_MEMORY_TABLE if table is None else table,
            compressor=compressor,
            busy_timeout=storage.get("busyTimeout"),
        )

    def store(storage: JsonObject, _: object) -> object:
        table = storage.get("table")
        return store_class(
            storage["address"],
            table=_DEFAULT_SESSION_TABLE if table is None else table,
            busy_timeout=storage.get("busyTimeout"),
        )

    options: JsonObject = {"storage": "postgresql"}
    return (
        ServedTarget(
            name="postgres-memory",
            component="agent-memory",
            claims=("generic", "exact"),
            factory=_by_address_only,
            options=options,
            opener=memory,
            compressing=True,
        ),
        ServedTarget(
            name="postgres-store",
            component="session-store",
            claims=("generic",),
            factory=_by_address_only,
            options=options,
            opener=store,
        ),
    )


def zoo_targets(root: Path) -> tuple[ServedTarget, ...]:
    """One target for each member of the memory and store zoos."""
    memories = [_memory_target(f"memory-{w.name}", w.factory) for w in _zoo("test_memory_zoo").ZOO]
    stores = [_store_target(f"store-{w.name}", w.build, root) for w in _zoo("test_store_zoo").ZOO]
    return (*memories, *stores, *_postgres_targets())


def main() -> int:
    """Serve the zoo on this process's stdin and stdout."""
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr
    with tempfile.TemporaryDirectory(prefix="ctxpact-zoo-") as root:
        harness = Harness(zoo_targets(Path(root)), name="ctxpact-zoo")
        return serve(harness, sys.stdin.buffer, protocol_out)


if __name__ == "__main__":
    raise SystemExit(main())
