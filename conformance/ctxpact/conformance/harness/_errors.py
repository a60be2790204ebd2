"""What can go wrong with a harness, as exceptions that turn into outcomes of the suite.

A fault of the harness process (it crashed, hung, or broke the protocol) raises a
:class:`HarnessFault`; the check it interrupts is reported ``error`` and the suite goes on with
a restarted process. Faults also inherit :class:`unittest.SkipTest` for one reason only:
Hypothesis re-raises a skip at once instead of shrinking it, and shrinking a fault of the
process would only replay it (a hang costs the timeout each time) or, once the process is
restarted, call it flaky. The runner catches faults as :class:`SubjectError` first, so they
are never reported as skips.
"""

from __future__ import annotations

import unittest

from ctxpact.conformance._context import SkipCheck, SubjectError
from ctxpact.spec import CtxpactError


class HarnessStartError(CtxpactError, RuntimeError):
    """The harness could not be started: it did not run, or its start response was wrong.

    ``ctxpact check`` exits with status 2 when the first start fails.
    """

    def __init__(self, command: str, detail: str) -> None:
        self.command = command
        self.detail = detail
        super().__init__(f"harness {command!r} could not be started: {detail}")


class HarnessFault(SubjectError, CtxpactError, unittest.SkipTest):  # noqa: N818 - reads as what it is
    """The harness process failed while answering *request* (a description of it).

    ``restarted`` says whether the process was killed, to be started afresh on the next
    request.
    """

    def __init__(self, command: str, request: str, detail: str, *, restarted: bool) -> None:
        self.command = command
        self.request = request
        self.detail = detail
        self.restarted = restarted
        after = (
            "; the harness was killed and is restarted for the next request" if restarted else ""
        )
        super().__init__(f"harness {command!r} {detail} (request: {request}){after}")


class HarnessCrashedError(HarnessFault):
    """The harness exited, or closed its stdout, before answering."""


class HarnessTimeoutError(HarnessFault):
    """The harness did not answer within the per-request timeout."""


class HarnessProtocolError(HarnessFault):
    """The answer broke the protocol: not JSON, the wrong seq, or not valid per its schema."""


class HarnessOperationError(SubjectError, CtxpactError):
    """The harness answered ``errored``: the operation raised inside the implementation.

    The check is reported ``error``. Unlike a fault, this one is shrunk like any failure, so
    the message shows the smallest request found that makes the implementation raise.
    """

    raised_by_implementation = True

    def __init__(self, request: str, message: str, traceback: str | None) -> None:
        self.request = request
        self.message = message
        self.traceback = traceback
        lines = [f"the harness answered errored to {request}: {message}"]
        if traceback:
            lines.append("harness traceback:\n" + traceback.rstrip())
        super().__init__("\n".join(lines))


class HarnessSkippedError(SkipCheck, unittest.SkipTest):
    """The harness answered ``skipped``: it does not implement the request.

    The check is reported ``skip`` with the harness's reason (a skip stops Hypothesis at once).
    """

    def __init__(self, request: str, reason: str) -> None:
        self.request = request
        self.reason = reason
        super().__init__(f"the harness skipped {request}: {reason}")


class HarnessValueError(HarnessOperationError, ValueError):
    """An ``errored`` answer of kind ``value``: the implementation refused a bad value."""


class HarnessTypeError(HarnessOperationError, TypeError):
    """An ``errored`` answer of kind ``type``: a value of the wrong type was refused."""


class HarnessLookupError(HarnessOperationError, LookupError):
    """An ``errored`` answer of kind ``lookup``: what was asked for does not exist."""


class HarnessStateError(HarnessOperationError, RuntimeError):
    """An ``errored`` answer of kind ``state``: the object's state does not allow it."""


class HarnessWaitError(HarnessOperationError, TimeoutError):
    """An ``errored`` answer of kind ``timeout``: the implementation gave up waiting.

    A database another connection held past the implementation's own busy timeout (MEM-21)
    is one; a harness that does not answer in time is a :class:`HarnessTimeoutError` instead.
    """


#: The error the suite raises for each kind of a raised error (HRN-27).
RAISED_KINDS: dict[str | None, type[HarnessOperationError]] = {
    None: HarnessOperationError,
    "value": HarnessValueError,
    "type": HarnessTypeError,
    "lookup": HarnessLookupError,
    "state": HarnessStateError,
    "timeout": HarnessWaitError,
}
