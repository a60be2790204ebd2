"""Measure what hardening changed: store listing, windowed writes, hostile harnesses.

Run ``python bench/bench_hardening.py``; it prints three markdown tables:

1. ``FileSessionStore.session_ids()`` over 1,000 saved sessions (medians of 5);
2. ``SqliteAgentMemory`` with ``WindowedMemoryCompressor(5000)``: rows written per add (from
   ``sqlite3.Connection.total_changes``) and milliseconds per add (median of 20 adds);
3. one ``project`` request against each mode of ``tests/reliability/hostile_harness.py``,
   through ``tests/reliability/harness_driver.py`` in a fresh process: how the request
   ended, how long it took and the driver's peak resident memory.

Nothing here is asserted; the tests in tests/reliability/ hold the bounds.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ctxpact.reference.compaction import WindowedMemoryCompressor
from ctxpact.reference.memory import SqliteAgentMemory
from ctxpact.reference.session import FileSessionStore
from ctxpact.spec import AgentSessionSnapshot, JsonValue, MemorySnapshot

RELIABILITY = Path(__file__).resolve().parents[1] / "tests" / "reliability"
SESSIONS = 1_000
WINDOW = 5_000
#: (mode, options) of the hostile harness, as the issue measured them.
HOSTILE = (
    ("stderr-flood", ("--megabytes", "512")),
    ("stdout-flood", ("--megabytes", "512")),
    ("huge-line", ("--megabytes", "50")),
    ("deep-reply", ("--depth", "100000")),
    ("escape", ("--linger", "30")),
    ("escape-exit", ("--linger", "30")),
    ("stderr-flood", ("--megabytes", "0")),  # a harness that behaves: the baseline
)
TIMEOUT = 3.0


def _session(number: int) -> AgentSessionSnapshot:
    items: tuple[JsonValue, ...] = tuple(
        {"type": "function_call_output", "call_id": f"c{i}", "output": "x" * 400} for i in range(20)
    )
    return AgentSessionSnapshot(
        session_id=f"session-{number}", memory=MemorySnapshot(items=items, summary="s")
    )


def listing(directory: Path) -> str:
    """session_ids() over SESSIONS sessions."""
    store = FileSessionStore(directory)
    for number in range(SESSIONS):
        store.save(_session(number))
    times = []
    for _ in range(5):
        started = time.perf_counter()
        ids = store.session_ids()
        times.append(time.perf_counter() - started)
    assert len(ids) == SESSIONS
    return (
        "| sessions | `session_ids()` (median) |\n|---:|---:|\n"
        f"| {SESSIONS:,} | {statistics.median(times) * 1000:.1f} ms |"
    )


def windowed(directory: Path) -> str:
    """Rows written and time per add with a full window of WINDOW items."""
    memory = SqliteAgentMemory(
        directory / "window.sqlite", "s", compressor=WindowedMemoryCompressor(WINDOW)
    )
    memory.add_output_items([f"item {i} " + "y" * 200 for i in range(WINDOW)])
    connection: sqlite3.Connection = memory._connection  # noqa: SLF001 - counting its writes
    rows, times = [], []
    for number in range(20):
        before = connection.total_changes
        started = time.perf_counter()
        memory.add_user_input(f"one more {number}")
        times.append(time.perf_counter() - started)
        rows.append(connection.total_changes - before)
    memory.close()
    milliseconds = statistics.median(times) * 1000
    return (
        "| window | rows written per add | time per add (median) |\n|---:|---:|---:|\n"
        f"| {WINDOW:,} | {statistics.median(rows):,.0f} | {milliseconds:.1f} ms |"
    )


def hostile() -> str:
    """One request per hostile mode, each in a fresh driver process."""
    lines = [
        "| harness | options | how the request ended | seconds | driver peak memory |",
        "|---|---|---|---:|---:|",
    ]
    for mode, options in HOSTILE:
        command = [
            sys.executable,
            str(RELIABILITY / "hostile_harness.py"),
            "--mode",
            mode,
            *options,
        ]
        driver = [sys.executable, str(RELIABILITY / "harness_driver.py"), str(TIMEOUT), "--"]
        try:
            finished = subprocess.run(  # noqa: S603 - our own scripts
                [*driver, *command], capture_output=True, text=True, timeout=120, check=True
            )
            report = json.loads(finished.stdout)
            ended = report["error"] or "passed"
            row = f"{ended} | {report['seconds']:.2f} | {report['peak_mb']:.0f} MB"
        except subprocess.TimeoutExpired:
            row = "did not end within 120 s | — | —"
        lines.append(f"| {mode} | {' '.join(options)} | {row} |")
    return "\n".join(lines)


def main() -> None:
    """Print the three tables."""
    directory = Path(tempfile.mkdtemp(prefix="ctxpact-bench-"))
    try:
        print(listing(directory / "sessions"))
        print()
        print(windowed(directory))
        print()
        print(hostile())
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
