"""Measure the PostgreSQL memory and store beside the SQLite ones, in the same process.

Run ``python bench/bench_postgres.py`` (with the extra ``ctxpact[postgres]``); it uses the
server ``CTXPACT_POSTGRES_DSN`` names, or starts a throwaway cluster on a Unix socket
(tests/postgres_server.py), with the server's default durability (``fsync`` and
``synchronous_commit`` on) against SQLite's (a file, ``synchronous=FULL``). It prints one
markdown table:

- adds/s: ``add_user_input`` of one small message, one transaction each;
- saves/s and loads/s: ``save`` and ``load`` of a session of 20 tool results (9 KB);
- two-writer adds/s: two processes adding to one session at once, and how many adds failed
  (SQLite answers ``database is locked`` once its busy timeout of 5 s runs out).

Each figure is the median of ROUNDS rounds, SQLite and PostgreSQL interleaved round by round
so that a slower moment of the machine hits both; the ratio is PostgreSQL's over SQLite's.
CPU time is the client process's (``time.process_time``) plus, for PostgreSQL, the server
backend's that served it (``/proc/<pid>/stat``, readable when the server runs here), per
operation. Nothing here is asserted.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from ctxpact.reference.memory import SqliteAgentMemory
from ctxpact.reference.session import SqliteSessionStore
from ctxpact.spec import AgentSessionSnapshot, JsonValue, MemorySnapshot

TESTS = Path(__file__).resolve().parents[1] / "tests"
ROUNDS = 5
ADDS = 300
SAVES = 200
#: Adds per writer in the two-writer race.
RACE = 300
#: Clock ticks per second, for /proc/<pid>/stat.
_TICKS = os.sysconf("SC_CLK_TCK")

_WRITER = """
import sys, time
kind, where, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
if kind == "sqlite":
    from ctxpact.reference.memory import SqliteAgentMemory as Memory
else:
    from ctxpact.reference.postgres import PostgresAgentMemory as Memory
memory = Memory(where, "race")
sys.stdout.write("ready\\n"); sys.stdout.flush()
sys.stdin.readline()
failed = 0
for number in range(count):
    try:
        memory.add_user_input(f"{sys.argv[4]} {number}")
    except Exception:
        failed += 1
memory.close()
print(failed)
"""


def _server() -> ModuleType:
    spec = importlib.util.spec_from_file_location("postgres_server", TESTS / "postgres_server.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _session(number: int) -> AgentSessionSnapshot:
    items: tuple[JsonValue, ...] = tuple(
        {"type": "function_call_output", "call_id": f"c{i}", "output": "x" * 400} for i in range(20)
    )
    return AgentSessionSnapshot(
        session_id=f"session-{number % 10}", memory=MemorySnapshot(items=items, summary="s")
    )


def _backend_cpu(memory_or_store: Any) -> Callable[[], float]:  # noqa: ANN401 - either
    """Seconds of CPU the object's server backend used so far (0 when it cannot be read)."""
    connection = getattr(memory_or_store, "_connection", None)
    pid = getattr(getattr(connection, "info", None), "backend_pid", None)
    if not isinstance(pid, int):
        return lambda: 0.0

    def read() -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / _TICKS

    return read


def _timed(
    count: int, operation: Callable[[int], object], server: Callable[[], float]
) -> tuple[float, float]:
    """Operations per second, and CPU milliseconds per operation (client and server)."""
    cpu, backend = time.process_time(), server()
    started = time.perf_counter()
    for number in range(count):
        operation(number)
    wall = time.perf_counter() - started
    used = time.process_time() - cpu + server() - backend
    return count / wall, used / count * 1000


def _adds(kind: str, where: str) -> tuple[float, float]:
    memory: Any
    if kind == "sqlite":
        memory = SqliteAgentMemory(where, "adds")
    else:
        from ctxpact.reference.postgres import PostgresAgentMemory  # noqa: PLC0415

        memory = PostgresAgentMemory(where, "adds")
    memory.clear()
    try:
        return _timed(ADDS, lambda n: memory.add_user_input(f"message {n}"), _backend_cpu(memory))
    finally:
        memory.close()


def _store(kind: str, where: str) -> tuple[tuple[float, float], tuple[float, float]]:
    store: Any
    if kind == "sqlite":
        store = SqliteSessionStore(where)
    else:
        from ctxpact.reference.postgres import PostgresSessionStore  # noqa: PLC0415

        store = PostgresSessionStore(where)
    sessions = [_session(number) for number in range(SAVES)]
    cpu = _backend_cpu(store)
    try:
        saves = _timed(SAVES, lambda n: store.save(sessions[n]), cpu)
        loads = _timed(SAVES, lambda n: store.load(f"session-{n % 10}"), cpu)
    finally:
        store.close()
    return saves, loads


def _race(kind: str, where: str) -> tuple[float, int]:
    """Two writer processes adding RACE items each to one session: adds/s and failures."""
    processes = [
        subprocess.Popen(  # noqa: S603 - this interpreter, our own script
            [sys.executable, "-c", _WRITER, kind, where, str(RACE), f"w{index}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for index in range(2)
    ]
    for process in processes:
        assert process.stdout is not None
        assert process.stdout.readline() == "ready\n"
    started = time.perf_counter()
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    failed = 0
    for process in processes:
        out, _ = process.communicate(timeout=600)
        failed += int(out.split()[-1])
    wall = time.perf_counter() - started
    return (2 * RACE - failed) / wall, failed


def main() -> None:
    """Print the table."""
    server = _server()
    directory = Path(tempfile.mkdtemp(prefix="ctxpact-bench-"))
    # Its own directory directly in /tmp: the server's user must reach it, and the socket's
    # path must stay short.
    cluster = Path(tempfile.mkdtemp(prefix="ctxpact-bench-pg-", dir="/tmp"))
    conninfo = os.environ.get(server.DSN_VARIABLE) or server.start(cluster)
    results: dict[str, dict[str, list[float]]] = {"sqlite": {}, "postgres": {}}
    try:
        for round_number in range(ROUNDS):
            for kind in ("sqlite", "postgres"):
                where = (
                    str(directory / f"state-{round_number}.sqlite")
                    if kind == "sqlite"
                    else conninfo
                )
                figures = results[kind]
                rate, cpu = _adds(kind, where)
                (saves, save_cpu), (loads, load_cpu) = _store(kind, where)
                race, failed = _race(kind, where)
                for name, value in (
                    ("adds", rate),
                    ("adds cpu", cpu),
                    ("saves", saves),
                    ("saves cpu", save_cpu),
                    ("loads", loads),
                    ("loads cpu", load_cpu),
                    ("race", race),
                    ("race failed", failed),
                ):
                    figures.setdefault(name, []).append(value)
    finally:
        if not os.environ.get(server.DSN_VARIABLE):
            server.stop(cluster)
        shutil.rmtree(directory, ignore_errors=True)
        shutil.rmtree(cluster, ignore_errors=True)
    median = {kind: {k: statistics.median(v) for k, v in f.items()} for kind, f in results.items()}
    sqlite, postgres = median["sqlite"], median["postgres"]
    print(f"medians of {ROUNDS} interleaved rounds; CPU in ms per operation (client + server)")
    print()
    print("| operation | SQLite | PostgreSQL | PostgreSQL / SQLite |")
    print("|---|---:|---:|---:|")
    for name, label, unit in (
        ("adds", f"adds ({ADDS} per round)", "/s"),
        ("adds cpu", "CPU per add", " ms"),
        ("saves", f"saves ({SAVES}, 9 KB each)", "/s"),
        ("saves cpu", "CPU per save", " ms"),
        ("loads", f"loads ({SAVES})", "/s"),
        ("loads cpu", "CPU per load", " ms"),
        ("race", f"two writers, one session ({RACE} adds each)", " adds/s"),
        ("race failed", "adds that failed in the race", ""),
    ):
        ratio = f"{postgres[name] / sqlite[name]:.2f}" if sqlite[name] else "—"
        digits = 2 if "cpu" in name else 0
        print(
            f"| {label} | {sqlite[name]:,.{digits}f}{unit} | {postgres[name]:,.{digits}f}{unit} "
            f"| {ratio} |"
        )


if __name__ == "__main__":
    main()
