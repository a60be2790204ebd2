"""A steerable harness: serves the reference over the protocol, and misbehaves on demand.

Run as a script (the tests import nothing from it)::

    python fake_harness.py --mode crash --after 3 --once /tmp/marker

Modes: ``ok`` serves the reference faithfully; ``crash`` exits with status 3, ``hang`` stops
answering, ``garbage`` writes a line that is not JSON, ``wrong-seq`` answers with another seq,
``invalid-response`` adds a member no schema allows, each from the ``--after``-th request
after start on (only requests of ``--on``'s command count when given); ``wrong-version``
answers start with protocol version 2; ``drop-last`` is a projector that loses the last
item of every projection; ``deaf`` stops reading its stdin after start. With ``--once PATH``,
a fault happens only while PATH does not exist, and creates it, so the restarted harness
behaves.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, BinaryIO

from ctxpact.reference.harness import encode, reference_harness

MODES = (
    "ok",
    "crash",
    "hang",
    "garbage",
    "wrong-seq",
    "wrong-version",
    "invalid-response",
    "drop-last",
    "deaf",
)

#: The modes that misbehave from the --after-th request on.
FAULTS = {"crash", "hang", "garbage", "wrong-seq", "invalid-response"}


class Faults:
    """Decides which requests a fault mode spoils."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.counted = 0

    def due(self, command: object) -> bool:
        """Whether to misbehave on this request."""
        options = self.options
        if options.mode not in FAULTS or command == "start":
            return False
        if options.on is not None and command != options.on:
            return False
        self.counted += 1
        if self.counted < options.after:
            return False
        if options.once is None:
            return True
        if options.once.exists():
            return False
        options.once.write_text("faulted\n", encoding="utf-8")
        return True


def edit(mode: str, command: object, response: Any) -> None:
    """The modes that always bend the reference's answers."""
    if "result" not in response:
        return
    if mode == "wrong-version" and command == "start":
        response["result"]["version"] = 2
    if mode == "drop-last" and command == "project" and response["result"]["items"]:
        response["result"]["items"].pop()


def misbehave(mode: str, command: object, response: Any, stdout: BinaryIO) -> int | None:
    """Spoil one response; an exit status when the harness must exit instead."""
    sys.stderr.write(f"fake harness: {mode} on {command}\n")
    sys.stderr.flush()
    if mode == "crash":
        return 3
    if mode == "hang":
        time.sleep(3600)
    if mode == "garbage":
        stdout.write(b"this is not JSON\n")
        stdout.flush()
        return None
    if mode == "wrong-seq":
        response["seq"] = 1000 + int(str(response["seq"]))
    if mode == "invalid-response":
        response["debug"] = True
    stdout.write(encode(response))
    stdout.flush()
    return None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=MODES, default="ok")
    parser.add_argument("--after", type=int, default=1)
    parser.add_argument("--on", default=None)
    parser.add_argument("--once", type=Path, default=None)
    options = parser.parse_args()
    harness = reference_harness()
    faults = Faults(options)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    for raw in iter(stdin.readline, b""):
        request = json.loads(raw)
        command = request.get("cmd") if isinstance(request, dict) else None
        response: Any = harness.handle(request)
        if faults.due(command):
            status = misbehave(options.mode, command, response, stdout)
            if status is not None:
                return status
            continue
        edit(options.mode, command, response)
        stdout.write(encode(response))
        stdout.flush()
        if options.mode == "deaf":
            time.sleep(3600)
        if harness.stopped:
            break
    harness.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
