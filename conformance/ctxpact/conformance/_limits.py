"""Bounds on how long one check may take: its time limit and the time spent shrinking.

The time limit interrupts a check that runs too long (an implementation that loops forever)
by raising :class:`~ctxpact.conformance.CheckTimeout` inside whatever code is running. On the
main thread of a Unix process it is a ``SIGALRM`` timer, which also interrupts ``time.sleep``
and blocking reads; elsewhere (another thread, Windows, a timer already armed by pytest-timeout)
a watchdog thread raises the exception asynchronously, which interrupts any pure-Python loop at
its next bytecode. Either way the interruption repeats every second until the check has
unwound, so an implementation that catches ``BaseException`` does not escape it for long.

The shrink bound stops Hypothesis's shrinker after a number of seconds. Hypothesis keeps the
bound in ``hypothesis.internal.conjecture.engine.MAX_SHRINKING_SECONDS``, which it documents as
meant to be changed; the suite sets it for the duration of one check and puts it back.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Self

from hypothesis.internal.conjecture import engine

from ctxpact.conformance._context import CheckTimeout

#: Seconds between repeated interruptions once the time limit has passed.
_REPEAT = 1.0


class TimeLimit:
    """Interrupts the calling thread with :class:`CheckTimeout` after *seconds*.

    Use it as a context manager around the work to bound; ``expired`` says afterwards whether
    it fired. ``method`` is ``"signal"`` or ``"thread"``; :func:`time_limit` picks one.
    """

    def __init__(self, seconds: float, *, method: str) -> None:
        if method not in ("signal", "thread"):
            raise ValueError(f"Expected the method signal or thread but got {method!r}")
        self.seconds = seconds
        self.method = method
        self.expired = False
        self._stopping = False
        self._stop: Callable[[], None] = lambda: None

    def __enter__(self) -> Self:
        self._stop = self._arm_signal() if self.method == "signal" else self._arm_thread()
        return self

    def __exit__(self, *_: object) -> None:
        # The interruption may land while the limit is being taken down: take it down again
        # until it is, so that no interruption outlives the block (Ctrl-C included).
        self._stopping = True
        while True:
            try:
                self._stop()
            except CheckTimeout:
                continue
            except KeyboardInterrupt:
                self._stop()
                raise
            break

    def _arm_signal(self) -> Callable[[], None]:
        def interrupt(_signum: int, _frame: FrameType | None) -> None:
            if not self._stopping:
                self.expired = True
                raise CheckTimeout(self.seconds)

        previous = signal.signal(signal.SIGALRM, interrupt)
        signal.setitimer(signal.ITIMER_REAL, self.seconds, _REPEAT)

        def stop() -> None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

        return stop

    def _arm_thread(self) -> Callable[[], None]:
        target = threading.get_ident()
        done = threading.Event()
        lock = threading.Lock()

        def watch() -> None:
            timeout = self.seconds
            while not done.wait(timeout):
                with lock:
                    if done.is_set():
                        return
                    self.expired = True
                    _raise_in(target, CheckTimeout)
                timeout = _REPEAT

        watchdog = threading.Thread(target=watch, name="ctxpact-time-limit", daemon=True)
        watchdog.start()

        def stop() -> None:
            with lock:
                done.set()
                if self.expired:
                    # An interruption still pending must not land in the caller's code.
                    _raise_in(target, None)
            watchdog.join()

        return stop


def limit_method() -> str | None:
    """How this thread can be interrupted: ``"signal"``, ``"thread"`` or ``None`` (it cannot).

    The signal on a Unix main thread whose real-time timer and ``SIGALRM`` handler nobody else
    uses (pytest-timeout's signal method uses both), the watchdog thread elsewhere on CPython.
    """
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        armed = signal.getitimer(signal.ITIMER_REAL) != (0.0, 0.0)
        handler = signal.getsignal(signal.SIGALRM)
        if not armed and handler in (signal.SIG_DFL, signal.SIG_IGN, None):
            return "signal"
    return "thread" if sys.implementation.name == "cpython" else None


def _raise_in(thread_id: int, error: type[BaseException] | None) -> None:
    """Raise *error* in the thread *thread_id* at its next bytecode (``None``: cancel it)."""
    # Two prototypes of the one C function: NULL (a None pointer) clears a pending exception,
    # which a py_object argument cannot express.
    name = ("PyThreadState_SetAsyncExc", ctypes.pythonapi)
    if error is None:
        ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)(name)(thread_id, None)
    else:
        ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.py_object)(name)(thread_id, error)


@contextlib.contextmanager
def time_limit(seconds: float | None, *, method: str | None = None) -> Iterator[TimeLimit | None]:
    """Bound the block to *seconds* (``None``: no bound), interrupting it with CheckTimeout.

    Yields the :class:`TimeLimit`, or ``None`` when there is no bound or no way to interrupt
    this thread. *method* forces ``"signal"`` or ``"thread"``.
    """
    chosen = method or limit_method()
    if seconds is None or chosen is None:
        yield None
        return
    with TimeLimit(seconds, method=chosen) as limit:
        yield limit


@contextlib.contextmanager
def shrink_bound(seconds: float | None) -> Iterator[None]:
    """Let Hypothesis shrink a failure for at most about *seconds* (``None``: its own 300 s).

    The shrinker checks the bound after each example it tries, so one slow example can carry
    it past the bound by that example's time. The bound is Hypothesis's one module-level
    setting: checks running at once in several threads share it.
    """
    if seconds is None:
        yield
        return
    previous = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = seconds  # type: ignore[assignment] # a float bound works
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = previous
