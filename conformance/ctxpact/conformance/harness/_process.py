"""One harness process: its pipes, a reader thread per output stream, and a kill that never waits.

Whatever the harness does, the suite stays bounded in time and memory (HRN-19 .. HRN-22):

- stdout is read in chunks into one line at a time; a line longer than the limit is reported
  (:class:`LineTooLong`) and reading stops, so a harness that writes without a line feed
  costs at most the limit;
- stderr is drained into a ring buffer of its last bytes, whose last lines error messages
  quote, so a harness that logs without end costs a few kilobytes;
- the harness runs in a process group of its own, killed whole; the suite then stops reading
  and closes nothing a reader thread may still use, so a descendant that escaped the group
  (a daemon started with ``setsid``) and keeps the pipes open cannot block the suite;
- a harness that exited is noticed even when such a descendant keeps its stdout open.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO

from attrs import frozen

#: How many of the harness's last stderr lines a crash report quotes.
STDERR_TAIL_LINES = 20
#: How many of the harness's last stderr bytes the suite keeps (HRN-20).
STDERR_TAIL_BYTES = 8 * 1024
#: The longest response line the suite reads, in bytes, unless told otherwise (HRN-19).
DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024
#: How long to wait for a killed process to be reaped.
_REAP_SECONDS = 2.0
#: How often a reader thread looks whether it should stop, and the receiver whether the
#: harness is still alive, in seconds.
_POLL_SECONDS = 0.1
#: How long after the harness exited its last output may still arrive.
_EXIT_GRACE_SECONDS = 0.5
#: How much a reader takes from a pipe at once.
_CHUNK_BYTES = 64 * 1024
#: How many complete lines may wait to be received before the reader stops taking more (the
#: harness then blocks on its pipe, as it would if nobody read it).
_BACKLOG_LINES = 4
#: Lines up to this size fit in an empty pipe (16 KiB on macOS, 64 KiB on Linux), so
#: writing them cannot block; a longer line is written under a watchdog.
_UNBLOCKED_BYTES = 16 * 1024


@frozen
class LineTooLong:
    """What :meth:`HarnessProcess.receive` returns for a line over the limit (HRN-19)."""

    limit: int
    start: bytes


class HarnessProcess:
    """A running harness: write request lines, read response lines with a timeout.

    stdout and stderr are each read by a daemon thread, so a wait can time out and a full
    pipe never blocks the harness. On POSIX the harness gets its own process group, so a
    kill also reaches the processes it started.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    ) -> None:
        self.argv = tuple(argv)
        self.max_line_bytes = max_line_bytes
        self._popen = subprocess.Popen(  # noqa: S603 - running the user's harness is the point
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=None if env is None else dict(env),
            start_new_session=os.name == "posix",
        )
        self._stop = threading.Event()
        self._lines: queue.Queue[bytes | LineTooLong | None] = queue.Queue(_BACKLOG_LINES)
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        stdout, stderr = self._popen.stdout, self._popen.stderr
        assert stdout is not None  # noqa: S101 - created with PIPE
        assert stderr is not None  # noqa: S101 - created with PIPE
        self._threads = [
            threading.Thread(
                target=self._read_stdout,
                args=(stdout,),
                name="ctxpact-harness-stdout",
                daemon=True,
            ),
            threading.Thread(
                target=self._read_stderr,
                args=(stderr,),
                name="ctxpact-harness-stderr",
                daemon=True,
            ),
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

    # -- the reader threads --------------------------------------------------------------

    def _chunk(self, stream: IO[bytes]) -> bytes:
        """The next chunk of the pipe, or ``b""`` at its end or after a stop (then closed).

        Only this thread ever touches *stream*: the file descriptor is closed here, when
        reading ends, so it is never closed (and reused) under a blocked read.
        """
        descriptor = stream.fileno()
        # poll, not select: select cannot watch a descriptor numbered 1024 or more.
        poller = select.poll() if hasattr(select, "poll") else None
        if poller is not None:
            poller.register(descriptor, select.POLLIN)
        while not self._stop.is_set():
            if poller is not None and not poller.poll(_POLL_SECONDS * 1000):
                continue
            try:
                chunk = os.read(descriptor, _CHUNK_BYTES)
            except OSError:
                chunk = b""
            if chunk:
                return chunk
            break
        with contextlib.suppress(OSError):
            stream.close()
        return b""

    def _put(self, line: bytes | LineTooLong | None) -> bool:
        """Queue *line* for :meth:`receive`, waiting while the backlog is full (``False``: stop)."""
        while not self._stop.is_set():
            try:
                self._lines.put(line, timeout=_POLL_SECONDS)
            except queue.Full:
                continue
            return True
        return False

    def _read_stdout(self, stream: IO[bytes]) -> None:
        pending = bytearray()
        while chunk := self._chunk(stream):
            searched = len(pending)
            pending += chunk
            while (end := pending.find(b"\n", searched)) >= 0 and end <= self.max_line_bytes:
                line = bytes(pending[: end + 1])
                del pending[: end + 1]
                searched = 0
                if not self._put(line):
                    return
            if len(pending) > self.max_line_bytes:
                # Whatever else the harness writes is not worth the memory: stop reading.
                self._put(LineTooLong(self.max_line_bytes, bytes(pending[:200])))
                with contextlib.suppress(OSError):
                    stream.close()
                return
        self._put(None)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        while chunk := self._chunk(stream):
            with self._stderr_lock:
                self._stderr += chunk[-STDERR_TAIL_BYTES:]
                del self._stderr[:-STDERR_TAIL_BYTES]

    # -- requests -------------------------------------------------------------------------

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

    def receive(self, timeout: float) -> bytes | LineTooLong | None:
        """The next line of stdout, a :class:`LineTooLong`, or ``None`` at its end.

        The end is also when the harness exited and nothing more came within a moment, even
        if a process it started still holds its stdout open.

        Raises:
            queue.Empty: when no line came within *timeout* seconds.

        """
        deadline = time.monotonic() + timeout
        exited_at: float | None = None
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise queue.Empty
            try:
                return self._lines.get(timeout=min(_POLL_SECONDS, deadline - now))
            except queue.Empty:
                pass
            if self._popen.poll() is not None:
                exited_at = time.monotonic() if exited_at is None else exited_at
                if time.monotonic() - exited_at >= _EXIT_GRACE_SECONDS:
                    return None

    def exit_status(self, wait: float = 1.0) -> int | None:
        """The exit status, waiting up to *wait* seconds for it; ``None`` if still running."""
        try:
            return self._popen.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self) -> str:
        """The last lines the harness wrote to stderr (of its last few kilobytes)."""
        with self._stderr_lock:
            tail = bytes(self._stderr)
        lines = tail.decode("utf-8", "replace").splitlines()
        return "\n".join(line.rstrip("\r") for line in lines[-STDERR_TAIL_LINES:])

    def kill(self) -> None:
        """Kill the process (and its group), reap it, stop reading; idempotent, never blocks.

        Waits a moment at most: a descendant that escaped the group may keep the pipes open
        for ever, and nothing here waits for it (HRN-21).
        """
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
        # The readers close their own pipes within a poll interval (or at the end of the
        # output); waiting longer for them would let an escaped descendant block the suite.
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=_POLL_SECONDS * 3)
        stdin = self._popen.stdin
        if stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                stdin.close()
