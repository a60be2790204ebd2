"""The errors of sessions, the runtime loop and session stores."""

from __future__ import annotations

import os
from collections.abc import Iterable

from ctxpact.spec import CtxpactError, SchemaValidationError, Violation

#: Raised by ``Agent.resume_session`` and ``AgentSession.save`` without a store.
NO_SESSION_STORE = "Expected a session store to {action} but the agent has none"
#: Raised by ``Agent.resume_session`` for an id no store holds.
SESSION_NOT_FOUND = "Agent session not found: {session_id!r}"
#: Raised when a stored document cannot be read back as a session snapshot.
CORRUPT_SESSION = "Expected a valid session snapshot in {location} but got:\n{violations}"
#: Raised when a stored document holds another session than the one asked for.
SESSION_ID_MISMATCH = "Expected session {expected!r} in {location} but got session {actual!r}"
#: Raised when the model still asks for tools after ``max_steps`` steps.
MAX_STEPS_EXCEEDED = (
    "Expected a final output within {max_steps} step(s) but the model still requested "
    "tools at step {step}"
)


class NoSessionStoreError(CtxpactError, RuntimeError):
    """The agent has no session store to save to or resume from (SES-6, SES-7)."""

    def __init__(self, action: str) -> None:
        self.action = action
        super().__init__(NO_SESSION_STORE.format(action=action))


class SessionNotFoundError(CtxpactError, LookupError):
    """No store holds a session with this id (SES-7)."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        super().__init__(SESSION_NOT_FOUND.format(session_id=session_id))


class CorruptSessionError(SchemaValidationError):
    """A stored session is not valid JSON or breaks the session-snapshot schema (SES-10, SES-15).

    ``location`` names the file (``file '/x/s-1.json'``) or the row (``table 't', session
    's-1'``); each violation carries its JSON path. Loading never repairs or skips: the
    document stays as it is, and no failed save overwrites it.
    """

    def __init__(self, *, location: str, violations: Iterable[Violation]) -> None:
        super().__init__(violations, schema="session-snapshot")
        self.location = location
        lines = "\n".join(f"  {violation}" for violation in self.violations)
        self.args = (CORRUPT_SESSION.format(location=location, violations=lines),)


class SessionFileError(CtxpactError, OSError):
    """The file system failed while a :class:`FileSessionStore` read or wrote a file.

    An ``OSError`` with the original ``errno`` (and the original error as ``__cause__``),
    whose message says what the store was doing and to which file: ``[Errno 28] Could not
    write '/x/s-1.json': No space left on device``.
    """

    def __init__(self, *, operation: str, path: os.PathLike[str] | str, error: OSError) -> None:
        self.operation = operation
        self.path = os.fspath(path)
        reason = error.strerror or str(error)
        message = f"Could not {operation} {self.path!r}: {reason}"
        if error.errno is None:
            super().__init__(message)
        else:
            super().__init__(error.errno, message)


class ForeignSessionFileWarning(UserWarning):
    """A file in a store's directory ends in ``.json`` but no session id names it (SES-18).

    :meth:`FileSessionStore.session_ids` leaves such a file alone and lists it as no session.
    """

    def __init__(self, path: os.PathLike[str] | str) -> None:
        self.path = os.fspath(path)
        super().__init__(
            f"Ignoring {self.path!r}: its name is not the file name of any session id "
            "(the safe form of SES-13), so it is not a session file"
        )


class SessionIdMismatchError(CtxpactError, ValueError):
    """A stored document holds another session than the id it is stored under (SES-10).

    The store refuses to load it, overwrite it or delete it: two ids never share one slot.
    """

    def __init__(self, *, location: str, expected: str, actual: str) -> None:
        self.location = location
        self.expected = expected
        self.actual = actual
        super().__init__(
            SESSION_ID_MISMATCH.format(location=location, expected=expected, actual=actual)
        )


class MaxStepsExceededError(CtxpactError, RuntimeError):
    """The model asked for tools at every one of the ``max_steps`` steps of a run (RUN-9)."""

    def __init__(self, *, max_steps: int, step: int) -> None:
        self.max_steps = max_steps
        self.step = step
        super().__init__(MAX_STEPS_EXCEEDED.format(max_steps=max_steps, step=step))
