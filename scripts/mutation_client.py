# ruff: noqa: INP001 - a script, not a package module
"""cosmic-ray's test command in scripts/mutation.py's runs: ask its suite server to test.

Usage: ``python -I scripts/mutation_client.py SOCKET``. It imports nothing but the standard
library, so that a mutant costs its checks and not the import of Hypothesis and the suite:
the server (``mutation.py serve``) has imported those once, and forks a child per request
that imports the mutated copy and runs the checks. The exit status is the child's: 0 the
mutant survived, 1 a check caught it. When cosmic-ray's timeout kills this process, the
closed socket tells the server to kill the child.
"""

from __future__ import annotations

import socket
import sys


def main(argv: list[str]) -> int:
    """Send one request to the server at ``argv[0]``; print its output, return its status."""
    (path,) = argv
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(path)
        # The socket stays open both ways: the server reads its closing as this process gone.
        connection.sendall(b"test\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    status, _, output = answer.partition(b"\n")
    sys.stdout.write(output.decode("utf-8", "replace"))
    return int(status or b"2")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
