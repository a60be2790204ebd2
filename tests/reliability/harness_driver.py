"""Run one request against a hostile harness and report how it ended, how long, how much memory.

Run as a script by tests/reliability/test_hostile_harnesses.py::

    python harness_driver.py TIMEOUT -- COMMAND...

Prints one JSON object: ``error`` (the exception's type, or null), ``message``, ``seconds``
and ``peak_mb`` (this process's peak resident memory).
"""

from __future__ import annotations

import json
import resource
import shlex
import sys
import time

from ctxpact.conformance.harness import HarnessConnection, ProjectorProxy


def main() -> int:
    """Start the harness, send one project request, stop; report on stdout."""
    timeout = float(sys.argv[1])
    command = shlex.join(sys.argv[3:])
    started = time.monotonic()
    error: BaseException | None = None
    connection = HarnessConnection(command, timeout=timeout)
    try:
        connection.start()
        ProjectorProxy(connection, "DefaultContextProjector").project(["a"], None)
    except Exception as raised:  # noqa: BLE001 - what ended the request is the report
        error = raised
    finally:
        connection.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is in kilobytes on Linux and in bytes on macOS.
    peak_mb = peak / 1024 / (1024 if sys.platform == "darwin" else 1)
    report = {
        "error": None if error is None else type(error).__name__,
        "message": "" if error is None else str(error),
        "seconds": round(time.monotonic() - started, 3),
        "peak_mb": round(peak_mb, 1),
    }
    sys.stdout.write(json.dumps(report) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
