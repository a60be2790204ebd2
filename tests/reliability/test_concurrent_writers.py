"""Several processes writing one PostgreSQL session at once lose nothing (MEM-28).

Each writer is a process of its own with its own connection, started together: the memory's
writers append numbered items to one session, the store's writers save whole snapshots of
one session. Afterwards the memory holds every item of every writer, each writer's in the
order it added them; the store holds one of the snapshots saved, whole, and no save failed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

psycopg = pytest.importorskip(
    "psycopg", reason="psycopg is not installed: pip install -e '.[postgres]'"
)

from ctxpact.reference.postgres import (  # noqa: E402 - after the skip without psycopg
    PostgresAgentMemory,
    PostgresSessionStore,
)

WRITERS = 4
#: Adds (or saves) per writer: enough that the writers' transactions interleave.
OPERATIONS = 60

_WRITER = textwrap.dedent(
    """
    import sys
    from ctxpact.reference.postgres import PostgresAgentMemory, PostgresSessionStore
    from ctxpact.spec import AgentSessionSnapshot, MemorySnapshot

    kind, conninfo, writer, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    sys.stdin.readline()  # every writer starts when the test says so
    if kind == "memory":
        with PostgresAgentMemory(conninfo, "shared", busy_timeout=30) as memory:
            for number in range(count):
                memory.add_output_items([{"writer": writer, "n": number}, f"{writer}-{number}"])
    else:
        with PostgresSessionStore(conninfo, busy_timeout=30) as store:
            for number in range(count):
                items = tuple({"writer": writer, "n": n} for n in range(number % 7 + 1))
                store.save(
                    AgentSessionSnapshot(
                        session_id="shared",
                        memory=MemorySnapshot(items=items, summary=f"{writer} {number}"),
                    )
                )
    """
)


def _run_writers(kind: str, conninfo: str) -> None:
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, kind, conninfo, f"w{index}", str(OPERATIONS)],
            stdin=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for index in range(WRITERS)
    ]
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    for process in processes:
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors


def test_concurrent_memory_writers_lose_no_item(postgres_schema: str) -> None:
    PostgresAgentMemory(postgres_schema, "shared").close()  # the table, before the race
    _run_writers("memory", postgres_schema)
    with PostgresAgentMemory(postgres_schema, "shared") as memory:
        items = memory.snapshot().items
    assert len(items) == 2 * WRITERS * OPERATIONS
    pairs = [items[index : index + 2] for index in range(0, len(items), 2)]
    for writer in (f"w{index}" for index in range(WRITERS)):
        # Each add's two items stay together, and each writer's adds stay in order.
        own = [pair for pair in pairs if isinstance(pair[0], dict) and pair[0]["writer"] == writer]
        assert own == [
            ({"writer": writer, "n": number}, f"{writer}-{number}") for number in range(OPERATIONS)
        ]


def test_concurrent_store_writers_leave_one_whole_snapshot(postgres_schema: str) -> None:
    PostgresSessionStore(postgres_schema).close()
    _run_writers("store", postgres_schema)
    with PostgresSessionStore(postgres_schema) as store:
        loaded = store.load("shared")
        assert store.session_ids() == ["shared"]
    assert loaded is not None
    assert loaded.memory.summary is not None
    writer, number = loaded.memory.summary.split()
    expected = [{"writer": writer, "n": n} for n in range(int(number) % 7 + 1)]
    assert json.dumps(list(loaded.memory.items)) == json.dumps(expected)
