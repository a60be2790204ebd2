"""Numbered operations on a persistent memory or store, acknowledged one by one, until killed.

Run as a script by the kill trials (tests/reliability/test_kill_trials.py)::

    python kill_worker.py KIND PATH SEED COUNT

It prints ``ready`` once the target is open, then ``k`` after the k-th operation returned.
The trials load this file as a module too: :func:`model_states` replays the same operations
on the in-process models, so every state the target may hold after a kill is known.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ctxpact.reference.compaction import WindowedMemoryCompressor
from ctxpact.reference.memory import InMemoryAgentMemory, SqliteAgentMemory
from ctxpact.reference.session import FileSessionStore, SqliteSessionStore
from ctxpact.spec import (
    AgentMemory,
    AgentSessionSnapshot,
    JsonValue,
    MemorySnapshot,
    compact_json,
    to_json,
)

#: The targets a trial can run against.
KINDS = ("sqlite-memory", "sqlite-memory-windowed", "file-store", "sqlite-store")
#: The targets kept on a PostgreSQL server: PATH is then a conninfo string.
POSTGRES_KINDS = ("postgres-memory", "postgres-memory-windowed", "postgres-store")
_SESSION_IDS = ("alpha", "Beta/2", "gamma gamma", "δ")
_WINDOW = 6

Operation = tuple[Any, ...]


def _item(rng: random.Random, index: int) -> JsonValue:
    # Large enough that a write takes a while, so kills land inside writes too.
    text = f"item {index} " + "é漢x" * rng.randrange(1, 400)
    shapes: list[JsonValue] = [
        text,
        {"type": "function_call_output", "call_id": f"c{index}", "output": text},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
        [index, 1.5, None, True, {"k": [text]}],
    ]
    return shapes[rng.randrange(len(shapes))]


def operations(kind: str, seed: int, count: int) -> Iterator[Operation]:
    """The operations of a trial, the same in the worker and in the model."""
    rng = random.Random(seed)  # noqa: S311 - reproducible trials, not cryptography
    for index in range(count):
        roll = rng.random()
        if kind.endswith("store"):
            session_id = rng.choice(_SESSION_IDS)
            if roll < 0.15:
                yield ("delete", session_id)
            else:
                items = [_item(rng, index) for _ in range(rng.randrange(1, 6))]
                yield ("save", session_id, items, f"summary {index}")
        elif roll < 0.6:
            yield ("add", [_item(rng, index) for _ in range(rng.randrange(1, 4))])
        elif roll < 0.75:
            yield ("summary", None if rng.random() < 0.3 else f"summary {index}")
        elif roll < 0.9:
            yield ("restore", [_item(rng, index) for _ in range(rng.randrange(0, 8))], "r")
        else:
            yield ("clear",)


def _snapshot(operation: Operation) -> AgentSessionSnapshot:
    _, session_id, items, summary = operation
    return AgentSessionSnapshot(
        session_id=session_id, memory=MemorySnapshot(items=tuple(items), summary=summary)
    )


def apply(target: Any, operation: Operation) -> None:
    """Carry out one operation on a memory, a store, or a model dict of documents."""
    name = operation[0]
    if name == "save":
        if isinstance(target, dict):
            target[operation[1]] = compact_json(to_json(_snapshot(operation)))
        else:
            target.save(_snapshot(operation))
    elif name == "delete":
        if isinstance(target, dict):
            target.pop(operation[1], None)
        else:
            target.delete(operation[1])
    elif name == "add":
        target.add_output_items(operation[1])
    elif name == "summary":
        target.set_summary(operation[1])
    elif name == "restore":
        target.restore(MemorySnapshot(items=tuple(operation[1]), summary=operation[2]))
    else:
        target.clear()


def _compressor(kind: str) -> WindowedMemoryCompressor | None:
    return WindowedMemoryCompressor(_WINDOW) if kind.endswith("windowed") else None


def memory_state(memory: AgentMemory) -> str:
    """A memory's state as text, to compare."""
    return compact_json(to_json(memory.snapshot()))


def model_states(kind: str, seed: int, count: int) -> list[str]:
    """The state after 0, 1, ... *count* operations, replayed on the in-process models."""
    if kind.endswith("store"):
        documents: dict[str, str] = {}
        states = [compact_json(dict(sorted(documents.items())))]
        for operation in operations(kind, seed, count):
            apply(documents, operation)
            states.append(compact_json(dict(sorted(documents.items()))))
        return states
    memory = InMemoryAgentMemory(compressor=_compressor(kind))
    states = [memory_state(memory)]
    for operation in operations(kind, seed, count):
        apply(memory, operation)
        states.append(memory_state(memory))
    return states


def open_target(kind: str, path: Path | str) -> Any:
    """The memory or store of *kind* kept at *path* (a conninfo string for PostgreSQL)."""
    if kind in POSTGRES_KINDS:
        from ctxpact.reference.postgres import (  # noqa: PLC0415 - only with the extra
            PostgresAgentMemory,
            PostgresSessionStore,
        )

        if kind == "postgres-store":
            return PostgresSessionStore(str(path))
        return PostgresAgentMemory(str(path), "trial", compressor=_compressor(kind))
    if kind == "file-store":
        return FileSessionStore(path)
    if kind == "sqlite-store":
        return SqliteSessionStore(path)
    return SqliteAgentMemory(path, "trial", compressor=_compressor(kind))


def stored_state(kind: str, path: Path | str) -> str:
    """What a fresh memory or store finds at *path*, as text comparable to the model's."""
    target = open_target(kind, path)
    try:
        if not kind.endswith("store"):
            return memory_state(target)
        documents = {}
        for session_id in target.session_ids():
            snapshot = target.load(session_id)
            assert snapshot is not None
            documents[session_id] = compact_json(to_json(snapshot))
        return compact_json(dict(sorted(documents.items())))
    finally:
        close = getattr(target, "close", None)
        if callable(close):
            close()


def main() -> int:
    """Open the target, acknowledge readiness, then acknowledge every operation."""
    kind, seed, count = sys.argv[1], int(sys.argv[3]), int(sys.argv[4])
    target = open_target(kind, sys.argv[2] if kind in POSTGRES_KINDS else Path(sys.argv[2]))
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    for number, operation in enumerate(operations(kind, seed, count), start=1):
        apply(target, operation)
        out.write(f"{number}\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
