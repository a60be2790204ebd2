"""A harness that attacks the suite's transport: it answers ``start`` and then misbehaves.

Run as a script (the tests import nothing from it)::

    python hostile_harness.py --mode escape

Every mode answers ``start`` like the reference (one projector target) and then, on the
first ``project`` request:

``escape``
    starts a daemon in a session of its own (``setsid``) that keeps stdout and stderr open
    for ``--linger`` seconds, and stops answering: only the timeout can end the request, and
    killing the harness's process group does not reach the daemon.
``escape-exit``
    the same daemon, but the harness itself exits at once: the pipes stay open although the
    process the suite started is gone.
``stderr-flood``
    writes ``--megabytes`` MiB to stderr without a line feed, then answers correctly.
``stdout-flood``
    writes ``--megabytes`` MiB to stdout without a line feed (a response line without end).
``huge-line``
    answers with one valid response line of about ``--megabytes`` MiB.
``deep-reply``
    answers with a result nested ``--depth`` levels deep.

Memory stays small whatever the sizes: everything is written in chunks of 1 MiB.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, BinaryIO

MODES = ("escape", "escape-exit", "stderr-flood", "stdout-flood", "huge-line", "deep-reply")
_CHUNK = 1024 * 1024
_TARGET = {
    "name": "DefaultContextProjector",
    "component": "projector",
    "claims": ["generic"],
    "options": {"tiers": False},
}


def _line(document: Any) -> bytes:
    return json.dumps(document, separators=(",", ":")).encode("ascii") + b"\n"


def _started(seq: Any) -> bytes:
    implementation = {
        "name": "hostile",
        "language": "python",
        "version": "",
        "homepage": "",
        "targets": [_TARGET],
    }
    return _line({"seq": seq, "result": {"version": 1, "implementation": implementation}})


def _daemon(linger: float) -> None:
    """Fork a grandchild in a new session that holds the inherited pipes for *linger* s.

    It writes a dot to stderr five times a second, and ends as soon as that fails: once the
    suite has stopped reading, it does not outlive the test by long.
    """
    if os.fork() != 0:
        return
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    deadline = time.monotonic() + linger
    try:
        while time.monotonic() < deadline:
            os.write(2, b".")
            time.sleep(0.2)
    except OSError:
        pass
    os._exit(0)


def _write_chunks(stream: BinaryIO, megabytes: int) -> None:
    chunk = b"x" * _CHUNK
    stream.writelines(chunk for _ in range(megabytes))
    stream.flush()


def _huge_line(stream: BinaryIO, seq: Any, megabytes: int) -> None:
    # {"seq":S,"result":{"items":["xxx…"],"report":…}}: valid JSON, written piecewise.
    stream.write(b'{"seq":' + json.dumps(seq).encode() + b',"result":{"items":["')
    _write_chunks(stream, megabytes)
    stream.write(b'"],"report":{}}}\n')
    stream.flush()


def _deep_reply(stream: BinaryIO, seq: Any, depth: int) -> None:
    stream.write(b'{"seq":' + json.dumps(seq).encode() + b',"result":')
    stream.write(b"[" * depth + b"]" * depth)
    stream.write(b"}\n")
    stream.flush()


def main() -> int:
    """Answer start, then misbehave on the first project request as --mode says."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--megabytes", type=int, default=512)
    parser.add_argument("--depth", type=int, default=100_000)
    parser.add_argument("--linger", type=float, default=20.0)
    options = parser.parse_args()
    stdin, stdout, stderr = sys.stdin.buffer, sys.stdout.buffer, sys.stderr.buffer
    for raw in iter(stdin.readline, b""):
        request = json.loads(raw)
        seq, command = request.get("seq"), request.get("cmd")
        if command == "start":
            stdout.write(_started(seq))
            stdout.flush()
            continue
        if command != "project":
            stdout.write(_line({"seq": seq, "result": None}))
            stdout.flush()
            if command == "stop":
                return 0
            continue
        mode = options.mode
        if mode in {"escape", "escape-exit"}:
            _daemon(options.linger)
            if mode == "escape-exit":
                return 4
            time.sleep(3600)
        elif mode == "stderr-flood":
            _write_chunks(stderr, options.megabytes)
            stdout.write(_line({"seq": seq, "skipped": {"reason": "flooded stderr first"}}))
            stdout.flush()
        elif mode == "stdout-flood":
            _write_chunks(stdout, options.megabytes)
            time.sleep(3600)
        elif mode == "huge-line":
            _huge_line(stdout, seq, options.megabytes)
        else:
            _deep_reply(stdout, seq, options.depth)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
