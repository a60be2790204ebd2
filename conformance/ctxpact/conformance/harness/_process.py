"""One harness process: its pipes, a reader thread per output stream, and a clean kill."""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import signal
import subprocess
import threading
from collections.abc import Mapping, Sequence
from typing import IO

#: How many of the harness's last stderr lines a crash report quotes.
STDERR_TAIL_LINES = 20
#: How long to wait for a killed process and its reader threads to finish.
_REAP_SECONDS = 5.0
#: Lines up to this size fit in an empty pipe (16 KiB on macOS, 64 KiB on Linux), so
#: writing them cannot block; a longer line is written under a watchdog.
_UNBLOCKED_BYTES = 16 * 1024


class HarnessProcess:
    """A running harness: write request lines, read response lines with a timeout.

    stdout is read by a thread into a queue, so a wait can time out; stderr is drained by
    another thread into a short tail (a harness that logs a lot never blocks on a full pipe).
    On POSIX the harness gets its own process group, so a kill also reaches the processes
    it started.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.argv = tuple(argv)
        self._popen = subprocess.Popen(  # noqa: S603 - running the user's harness is the point
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=None if env is None else dict(env),
            start_new_session=os.name == "posix",
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._threads = [
            threading.Thread(target=self._read_stdout, name="ctxpact-harness-stdout", daemon=True),
            threading.Thread(target=self._read_stderr, name="ctxpact-harness-stderr", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        self.closed = False
        #: Whether a watchdog killed the process because it did not take a request in time.
        self.timed_out = False

    @property
    def pid(self) -> int:
        """The process id."""
        return self._popen.pid

    def _read_stdout(self) -> None:
        stream = self._popen.stdout
        assert stream is not None  # noqa: S101 - created with PIPE
        with contextlib.suppress(OSError, ValueError):
            for line in iter(stream.readline, b""):
                self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        stream = self._popen.stderr
        assert stream is not None  # noqa: S101 - created with PIPE
        with contextlib.suppress(OSError, ValueError):
            for line in iter(stream.readline, b""):
                self._stderr.append(line.decode("utf-8", "replace").rstrip("\r\n"))

    def send(self, line: bytes, timeout: float) -> None:
        """Write one request line and flush it.

        A harness that stops reading would block a long write forever; a watchdog kills it
        after *timeout* seconds instead, and sets :attr:`timed_out`.

        Raises:
            OSError: (``BrokenPipeError``) when the harness is gone, or was killed.

        """
        stdin = self._popen.stdin
        assert stdin is not None  # noqa: S101 - created with PIPE
        if len(line) <= _UNBLOCKED_BYTES:
            stdin.write(line)
            stdin.flush()
            return
        watchdog = threading.Timer(timeout, self._expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            stdin.write(line)
            stdin.flush()
        finally:
            watchdog.cancel()

    def _expire(self) -> None:
        self.timed_out = True
        self._signal()

    def _signal(self) -> None:
        if self._popen.poll() is None:
            with contextlib.suppress(OSError):
                if os.name == "posix":
                    os.killpg(self._popen.pid, signal.SIGKILL)
                else:  # pragma: no cover - exercised on Windows only
                    self._popen.kill()

    def receive(self, timeout: float) -> bytes | None:
        """The next line of stdout, or ``None`` at its end.

        Raises:
            queue.Empty: when no line came within *timeout* seconds.

        """
        return self._lines.get(timeout=timeout)

    def exit_status(self, wait: float = 1.0) -> int | None:
        """The exit status, waiting up to *wait* seconds for it; ``None`` if still running."""
        try:
            return self._popen.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self) -> str:
        """The last lines the harness wrote to stderr."""
        return "\n".join(self._stderr)

    def kill(self) -> None:
        """Kill the process (and its group), reap it, and close every pipe; idempotent."""
        if self.closed:
            return
        self.closed = True
        self._signal()
        self._reap()

    def finish(self, wait: float) -> None:
        """Let the process exit on its own within *wait* seconds, then kill it if it has not."""
        if self.closed:
            return
        stdin = self._popen.stdin
        if stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                stdin.close()
        if self.exit_status(wait) is None:
            self.kill()
            return
        self.closed = True
        self._reap()

    def _reap(self) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(timeout=_REAP_SECONDS)
        for thread in self._threads:
            thread.join(timeout=_REAP_SECONDS)
        streams: list[IO[bytes] | None] = [
            self._popen.stdin,
            self._popen.stdout,
            self._popen.stderr,
        ]
        for stream in streams:
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
