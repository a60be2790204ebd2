"""A throwaway PostgreSQL cluster for the tests: initdb and pg_ctl in a temporary directory.

The tests of the PostgreSQL memory and store, their conformance checks and the benchmark
need a real server. This module finds Debian's (or any) server binaries, makes a cluster in a
directory of its own and starts it on a Unix socket in that directory only (no TCP port, so
nothing else on the machine can reach it or collide with it), with ``trust`` authentication
for its one role. initdb refuses to run as root, so as root the cluster belongs to the
``postgres`` user that Debian's package creates.

As a script, for CI (``.ci/run``) and for a person who wants a server by hand::

    python tests/postgres_server.py start DIRECTORY   # prints the conninfo string
    python tests/postgres_server.py stop DIRECTORY
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

#: The environment variable naming a server to use instead of a throwaway cluster.
DSN_VARIABLE = "CTXPACT_POSTGRES_DSN"
#: The role the cluster is made with (its superuser) and the port its socket is named by.
ROLE = "ctxpact"
PORT = 5432
#: Who owns the cluster when the tests run as root (initdb refuses root).
SERVER_USER = "postgres"


def find_binaries() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or ``None`` when there is none.

    ``PATH`` first, then Debian's versioned directories (newest first): Debian keeps the
    server binaries out of ``PATH``.
    """
    on_path = shutil.which("initdb")
    if on_path is not None and shutil.which("pg_ctl") is not None:
        return Path(on_path).resolve().parent
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version)
    for directory in reversed(candidates):
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    return None


def _version(binaries: Path) -> list[int]:
    return [int(part) for part in binaries.parent.name.split(".") if part.isdigit()]


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    runuser = shutil.which("runuser")
    if runuser is not None:
        return [runuser, "-u", SERVER_USER, "--", *command]
    return ["su", SERVER_USER, "-s", "/bin/sh", "-c", " ".join(map(_quoted, command))]


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def conninfo(directory: Path) -> str:
    """The conninfo string of the cluster in *directory* (its socket is there too)."""
    return f"host={directory} port={PORT} user={ROLE} dbname=postgres"


def start(directory: Path) -> str:
    """Make and start a cluster in *directory* (created if missing); its conninfo string.

    Raises:
        RuntimeError: when no server binaries are found, or initdb or pg_ctl fails (with
            their output).

    """
    binaries = find_binaries()
    if binaries is None:
        raise RuntimeError("no PostgreSQL server binaries (initdb, pg_ctl) were found")
    directory.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        server = pwd.getpwnam(SERVER_USER)
        os.chown(directory, server.pw_uid, server.pw_gid)
    data = directory / "data"
    steps = [
        [
            str(binaries / "initdb"),
            "--pgdata",
            str(data),
            "--username",
            ROLE,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--no-locale",
            "--no-sync",
        ],
        [
            str(binaries / "pg_ctl"),
            "--pgdata",
            str(data),
            "--log",
            str(directory / "server.log"),
            "--wait",
            "--options",
            f"-c listen_addresses='' -k {directory} -p {PORT} -c max_connections=60",
            "start",
        ],
    ]
    for step in steps:
        done = subprocess.run(
            _as_server_user(step), capture_output=True, text=True, check=False, timeout=120
        )
        if done.returncode != 0:
            log = directory / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"{Path(step[0]).name} failed ({done.returncode}): {done.stdout}{done.stderr}{tail}"
            )
    return conninfo(directory)


def stop(directory: Path) -> None:
    """Stop the cluster in *directory* at once (its data is thrown away with the directory)."""
    binaries = find_binaries()
    data = directory / "data"
    if binaries is None or not (data / "postmaster.pid").exists():
        return
    subprocess.run(
        _as_server_user(
            [str(binaries / "pg_ctl"), "--pgdata", str(data), "--mode", "immediate", "stop"]
        ),
        capture_output=True,
        check=False,
        timeout=60,
    )


def main(arguments: list[str]) -> int:
    """``start DIRECTORY`` (prints the conninfo string) or ``stop DIRECTORY``."""
    if len(arguments) != 2 or arguments[0] not in {"start", "stop"}:
        sys.stderr.write("usage: postgres_server.py start|stop DIRECTORY\n")
        return 2
    directory = Path(arguments[1]).resolve()
    if arguments[0] == "start":
        sys.stdout.write(start(directory) + "\n")
    else:
        stop(directory)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
