"""The session store that keeps one pretty-printed JSON file per session, written atomically."""

from __future__ import annotations

import contextlib
import json
import os
import string
import tempfile
from pathlib import Path

from ctxpact.reference.session._errors import CorruptSessionError
from ctxpact.reference.session._store import session_document, session_from_text, session_key
from ctxpact.spec import AgentSessionSnapshot, InvalidValueError, Violation

#: A session file's name: the safe form of the id (see :func:`session_file_stem`) plus this.
SESSION_FILE_SUFFIX = ".json"
#: Temporary files start with a dot and end with this suffix; they are never session files.
TEMPORARY_SUFFIX = ".tmp"
#: How much of the stem a temporary file's name repeats (for people looking at the directory).
TEMPORARY_STEM_CHARS = 64
#: The longest file name, in bytes, a session file may have (most file systems allow 255).
MAX_FILE_NAME_BYTES = 255

_KEPT = frozenset((string.ascii_lowercase + string.digits + "_-").encode("ascii"))


def session_file_stem(session_id: str) -> str:
    """The *safe form* of *session_id*: the file stem of its session file (SES-13).

    Each ASCII lower-case letter, ASCII digit, ``_`` and ``-`` is kept; every other code point
    becomes the bytes of its UTF-8 encoding, each written ``%`` and two upper-case hex digits,
    so ``Run/1`` becomes ``%52un%2F1``. The form is injective, so distinct ids never share a
    file, even on a case-insensitive file system.

    Raises:
        UnicodeEncodeError: for a lone surrogate (stores check ids before calling this).

    """
    return "".join(
        chr(byte) if byte in _KEPT else f"%{byte:02X}" for byte in session_id.encode("utf-8")
    )


class FileSessionStore:
    """A session store keeping ``<safe form>.json`` per session in one directory (SES-13).

    The document is ``to_json(snapshot)``, pretty-printed (two-space indent, ASCII-escaped,
    newline at the end). A save is atomic (SES-14): the text is written to a temporary file
    ``.<stem>.<random>.tmp`` in the same directory, flushed and fsync-ed, renamed over the
    session's file with ``os.replace``, and the directory is fsync-ed. A save that fails leaves
    the old file as it was and removes its temporary file; a crash can leave a stray temporary
    file, which the store never reads. The directory is created on the first save.

    A session's file is only replaced or removed after it has been read back as that same
    session: a corrupt or schema-invalid file, an empty one included, raises
    :class:`CorruptSessionError` naming the file and the JSON path (SES-10, SES-15), and is
    left for a person to inspect.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self._directory = Path(directory)

    @property
    def directory(self) -> Path:
        """The directory holding the session files."""
        return self._directory

    def path_for(self, session_id: str) -> Path:
        """The file that holds *session_id*'s document.

        Raises:
            InvalidValueError: for an empty id, an id with a lone surrogate, or one whose file
                name would be longer than 255 bytes.

        """
        owner = type(self).__name__
        name = f"{session_file_stem(session_key(owner, session_id))}{SESSION_FILE_SUFFIX}"
        if len(name) > MAX_FILE_NAME_BYTES:
            raise InvalidValueError(
                record=owner,
                field="session_id",
                expected=f"an id whose file name has at most {MAX_FILE_NAME_BYTES} bytes",
                actual=f"{session_id[:40]}... ({len(name)} bytes)",
            )
        return self._directory / name

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Write *snapshot* atomically, replacing the session's previous file."""
        text = json.dumps(session_document(snapshot), indent=2, ensure_ascii=True) + "\n"
        target = self.path_for(snapshot.session_id)
        # Read the current file first: it must be this session's, and readable, or we stop.
        self._read(target, snapshot.session_id)
        self._directory.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(
            # A short prefix keeps the temporary name within the limit for the longest ids.
            dir=self._directory,
            prefix=f".{target.stem[:TEMPORARY_STEM_CHARS]}.",
            suffix=TEMPORARY_SUFFIX,
        )
        try:
            with open(descriptor, "w", encoding="utf-8", newline="\n") as file:  # noqa: PTH123
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            Path(temporary).replace(target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                Path(temporary).unlink()
            raise
        _fsync_directory(self._directory)

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None`` when it has no file."""
        return self._read(self.path_for(session_id), session_id)

    def delete(self, session_id: str) -> bool:
        """Remove the session's file (after reading it back as that session); whether it existed."""
        target = self.path_for(session_id)
        if self._read(target, session_id) is None:
            return False
        target.unlink()
        _fsync_directory(self._directory)
        return True

    def session_ids(self) -> list[str]:
        """The ids of every stored session, read from the documents, sorted."""
        if not self._directory.is_dir():
            return []
        return sorted(
            _listed_id(path)
            for path in self._directory.glob(f"*{SESSION_FILE_SUFFIX}")
            if not path.name.startswith(".") and path.is_file()
        )

    def _read(self, path: Path, session_id: str) -> AgentSessionSnapshot | None:
        if not path.exists():
            return None
        return session_from_text(_location(path), session_id, _read_text(path))


def _location(path: Path) -> str:
    return f"file {str(path)!r}"


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        message = f"Expected UTF-8 text but got an invalid byte at offset {error.start}"
        raise CorruptSessionError(
            location=_location(path), violations=[Violation(path="$", message=message)]
        ) from error


def _listed_id(path: Path) -> str:
    text = _read_text(path)
    claimed = _claimed_id(text)
    # Validation fails before the id comparison when the document has no string sessionId.
    snapshot = session_from_text(_location(path), claimed or "", text)
    try:
        expected = f"{session_file_stem(snapshot.session_id)}{SESSION_FILE_SUFFIX}"
    except UnicodeEncodeError:
        expected = "no file (the id holds a lone surrogate)"
    if path.name != expected:
        message = (
            f"Expected a session id stored as {path.name} but got {snapshot.session_id!r}, "
            f"which is stored as {expected}"
        )
        raise CorruptSessionError(
            location=_location(path), violations=[Violation(path="$.sessionId", message=message)]
        )
    return snapshot.session_id


def _claimed_id(text: str) -> str | None:
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(document, dict):
        claimed = document.get("sessionId")
        if isinstance(claimed, str):
            return claimed
    return None


def _fsync_directory(directory: Path) -> None:
    # A rename is durable only once the directory entry is; POSIX only (Windows has no
    # directory handles to fsync, and NTFS journals the rename).
    flags = getattr(os, "O_DIRECTORY", None)
    if flags is None:
        return
    descriptor = os.open(directory, os.O_RDONLY | flags)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
