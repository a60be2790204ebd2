"""SIGKILL trials: a process killed at a random moment leaves a state that was written.

Each trial runs tests/reliability/kill_worker.py against a fresh SQLite memory (with and
without the windowed compressor), file store or SQLite store, kills it with SIGKILL at a
random moment, and reads the target back in a new process. The state found must be the one
after the last acknowledged operation or after the one in progress: never a mixture, never
lost, never unreadable (MEM-17, SES-9, SES-14). The file store's leftovers of killed saves
are its own temporary files only, and a later store removes them (SES-18).

``CTXPACT_RELIABILITY_SEED`` chooses the trials' seeds (default: fixed), so a failure can be
run again; the moment of each kill depends on the machine's timing as well.
"""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from ctxpact.reference.session import FileSessionStore
from ctxpact.spec import AgentSessionSnapshot

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL trials need POSIX signals")

WORKER = Path(__file__).with_name("kill_worker.py")
#: Trials per target: a few dozen kills per run in all.
TRIALS = 12
#: Operations a worker may carry out before it is killed (it rarely gets that far).
OPERATIONS = 400
#: The longest a worker runs before the kill, after it is ready, in seconds.
LONGEST_RUN = 0.3
_BASE_SEED = int(os.environ.get("CTXPACT_RELIABILITY_SEED", "20260613"))


def _worker_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kill_worker", WORKER)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


worker = _worker_module()


def _database(kind: str, directory: Path) -> Path:
    return directory / ("sessions" if kind == "file-store" else "state.sqlite")


def _killed_run(kind: str, path: Path | str, seed: int, delay: float) -> int:
    """Run a worker, kill it *delay* seconds after it is ready; the last acknowledged number."""
    process = subprocess.Popen(
        [sys.executable, str(WORKER), kind, str(path), str(seed), str(OPERATIONS)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    try:
        assert process.stdout.readline() == "ready\n"
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        acknowledged = [int(line) for line in process.stdout.read().split()]
    finally:
        process.kill()
        process.wait()
        process.stdout.close()
    return max(acknowledged, default=0)


@pytest.mark.parametrize("kind", worker.KINDS)
def test_a_killed_writer_leaves_a_state_that_was_written(kind: str, tmp_path: Path) -> None:
    rng = random.Random(f"{_BASE_SEED}-{kind}")  # noqa: S311 - reproducible trials
    finished_inside = 0
    for trial in range(TRIALS):
        seed = rng.randrange(2**32)
        delay = rng.uniform(0.0, LONGEST_RUN)
        directory = tmp_path / f"trial-{trial}"
        directory.mkdir()
        path = _database(kind, directory)
        last = _killed_run(kind, path, seed, delay)
        states = worker.model_states(kind, seed, min(last + 1, OPERATIONS))
        found = worker.stored_state(kind, path)
        allowed = {states[last]: last, states[min(last + 1, len(states) - 1)]: last + 1}
        assert found in allowed, (
            f"{kind} trial {trial} (seed {seed}, killed after {delay:.3f} s, {last} "
            f"operation(s) acknowledged) holds a state that was never written: {found[:300]}"
        )
        finished_inside += allowed[found] > last
        if kind == "file-store":
            _expect_only_own_leftovers(path)
    # Not asserted (timing decides), but worth seeing when a run is read by a person.
    print(f"{kind}: {finished_inside} of {TRIALS} kills left the operation in progress done")  # noqa: T201


def _expect_only_own_leftovers(directory: Path) -> None:
    if not directory.exists():
        return
    names = [path.name for path in directory.iterdir()]
    temporary = [name for name in names if name.startswith(".")]
    assert all(name.endswith(".json") for name in names if not name.startswith("."))
    assert len(temporary) <= 1, f"more than the killed save's temporary file: {temporary}"
    # A later store removes the leftovers of crashed saves, and only those.
    FileSessionStore(directory, stale_after=0).save(AgentSessionSnapshot(session_id="after"))
    assert not [path.name for path in directory.iterdir() if path.name.startswith(".")]


@pytest.mark.parametrize("kind", worker.POSTGRES_KINDS)
def test_a_killed_postgres_writer_leaves_a_state_that_was_written(
    kind: str, postgres_conninfo: str
) -> None:
    # The server outlives the client, as in production: the transaction of a killed
    # writer is rolled back by the server, or it had committed (MEM-17, MEM-28).
    psycopg = pytest.importorskip("psycopg")
    rng = random.Random(f"{_BASE_SEED}-{kind}")  # noqa: S311 - reproducible trials
    for trial in range(TRIALS):
        seed = rng.randrange(2**32)
        delay = rng.uniform(0.0, LONGEST_RUN)
        schema = f"kill_{trial}_{rng.randrange(2**32):08x}"
        with psycopg.connect(postgres_conninfo, autocommit=True) as admin:
            admin.execute(f'CREATE SCHEMA "{schema}"')
        conninfo = f"{postgres_conninfo} options='-c search_path={schema}'"
        try:
            worker.open_target(kind, conninfo).close()  # the table exists before the kill
            last = _killed_run(kind, conninfo, seed, delay)
            states = worker.model_states(kind, seed, min(last + 1, OPERATIONS))
            found = worker.stored_state(kind, conninfo)
        finally:
            with psycopg.connect(postgres_conninfo, autocommit=True) as admin:
                admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        allowed = {states[last]: last, states[min(last + 1, len(states) - 1)]: last + 1}
        assert found in allowed, (
            f"{kind} trial {trial} (seed {seed}, killed after {delay:.3f} s, {last} "
            f"operation(s) acknowledged) holds a state that was never written: {found[:300]}"
        )
