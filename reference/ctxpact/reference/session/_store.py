"""The session store protocol, the JSON form every store keeps, and the in-process store."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ctxpact.reference.memory._state import checked_session_id
from ctxpact.reference.session._errors import CorruptSessionError, SessionIdMismatchError
from ctxpact.spec import (
    MAX_DOCUMENT_DEPTH,
    AgentSessionSnapshot,
    InvalidJsonError,
    JsonLimitError,
    JsonObject,
    SchemaValidationError,
    Violation,
    decode_json,
    from_json,
    to_json,
    validate,
)

#: The schema every stored session document satisfies.
SESSION_SCHEMA = "session-snapshot"


@runtime_checkable
class SessionStore(Protocol):
    """Where sessions are saved and found again by id (SES-9).

    ``load`` returns ``None`` for an id it does not hold and raises a
    :class:`CorruptSessionError` for a document it cannot read; ``save`` replaces the
    session's document as a whole or not at all (SES-9, SES-10). Session ids are non-blank
    strings without lone surrogates (UTF-8 cannot carry those); others are refused with
    ``InvalidValueError`` (SES-17).
    """

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Store *snapshot* under its ``session_id``, replacing what was there."""
        ...

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None``."""
        ...


@runtime_checkable
class ListingSessionStore(SessionStore, Protocol):
    """A session store that can also delete sessions and list them (optional in SES-9).

    The three stores of the reference are such stores.
    """

    def delete(self, session_id: str) -> bool:
        """Remove the session; whether there was one."""
        ...

    def session_ids(self) -> list[str]:
        """The ids of every stored session, sorted."""
        ...


def session_key(owner: str, session_id: object) -> str:
    """*session_id*, checked against the session-id rule of every store and memory (SES-17).

    Raises:
        InvalidValueError: naming the store and the id, for an id that is not a non-blank
            string without lone surrogates.

    """
    return checked_session_id(owner, session_id)


def session_document(snapshot: AgentSessionSnapshot) -> JsonObject:
    """The JSON document of *snapshot*, validated before anything is written.

    Raises:
        SchemaValidationError: if the snapshot holds a value JSON cannot carry; nothing has
            been written then.

    """
    if not isinstance(snapshot, AgentSessionSnapshot):
        raise SchemaValidationError.single(
            "$", f"Expected an AgentSessionSnapshot but got {type(snapshot).__name__}"
        )
    session_key(type(snapshot).__name__, snapshot.session_id)
    document = to_json(snapshot)
    validate(document, SESSION_SCHEMA)
    return document


def session_from_text(location: str, session_id: str, text: str) -> AgentSessionSnapshot:
    """Read a stored document back, checking that it is valid and holds *session_id*.

    Raises:
        CorruptSessionError: if *text* is not JSON or breaks the schema, with JSON paths.
        SessionIdMismatchError: if the document holds another session.

    """
    try:
        document = decode_json(text, max_depth=MAX_DOCUMENT_DEPTH)
    except InvalidJsonError as error:
        detail = (
            f"Expected JSON text but got invalid JSON: {error.msg} at line {error.lineno} "
            f"column {error.colno}"
        )
        raise CorruptSessionError(
            location=location, violations=[Violation(path="$", message=detail)]
        ) from error
    except JsonLimitError as error:
        raise CorruptSessionError(location=location, violations=error.violations) from error
    return session_from_document(location, session_id, document)


def session_from_document(location: str, session_id: str, document: object) -> AgentSessionSnapshot:
    """Like :func:`session_from_text`, for a document already parsed."""
    try:
        snapshot = from_json(AgentSessionSnapshot, document)
    except SchemaValidationError as error:
        raise CorruptSessionError(location=location, violations=error.violations) from error
    if snapshot.session_id != session_id:
        raise SessionIdMismatchError(
            location=location, expected=session_id, actual=snapshot.session_id
        )
    return snapshot


class InMemorySessionStore:
    """A session store in the process: a dict from id to the snapshot's JSON document.

    Saving and loading go through ``to_json`` / ``from_json``, so stored values share no
    object with the caller and every load is validated against the schema (SES-11, SES-12).
    """

    def __init__(self) -> None:
        self._documents: dict[str, JsonObject] = {}

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Store a copy of *snapshot* under its ``session_id``."""
        self._documents[snapshot.session_id] = session_document(snapshot)

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """A fresh copy of the stored snapshot of *session_id*, or ``None``."""
        document = self._documents.get(session_key(type(self).__name__, session_id))
        if document is None:
            return None
        return session_from_document(f"memory, session {session_id!r}", session_id, document)

    def delete(self, session_id: str) -> bool:
        """Remove the session; whether there was one."""
        return self._documents.pop(session_key(type(self).__name__, session_id), None) is not None

    def session_ids(self) -> list[str]:
        """The ids of every stored session, sorted."""
        return sorted(self._documents)
