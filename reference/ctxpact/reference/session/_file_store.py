"""The session store that keeps one pretty-printed JSON file per session, written atomically."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

from ctxpact.reference.session._errors import CorruptSessionError
from ctxpact.reference.session._store import session_document, session_from_text
from ctxpact.spec import AgentSessionSnapshot, Violation

#: A session file's name: the file stem (see :func:`session_file_stem`) plus this suffix.
SESSION_FILE_SUFFIX = ".json"
#: The stem used for the empty session id, before its hash suffix.
EMPTY_ID_STEM = "anon"
#: Separates a safe name from the hash that makes it unique; never kept in a safe name.
HASH_SEPARATOR = "~"
#: How many hex digits of the SHA-256 of the id a hashed stem carries.
HASH_DIGITS = 16
#: The longest safe name kept before the hash suffix (file names stay well under 255 bytes).
MAX_SAFE_NAME = 128
#: Temporary files start with a dot and end with this suffix; they are never session files.
TEMPORARY_SUFFIX = ".tmp"

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def session_file_stem(session_id: str) -> str:
    """The file stem of *session_id*: the id itself when it is safe, else a unique safe form.

    An id made only of ``[A-Za-z0-9._-]`` (at most 128 characters, not starting with a dot)
    is its own stem, as in ai4j. Any other id maps to its ai4j safe name (each other character
    becomes ``_``; empty becomes ``anon``), cut to 128 characters, a leading ``.`` made ``_`` (so
    no session file is hidden), then ``~`` and the first 16
    hex digits of the SHA-256 of its UTF-8 bytes. ``~`` never occurs in a safe name, so two
    different ids never share a file (SES-n). Example: ``"a/b"`` → ``a_b~<hash>``.
    """
    safe = _UNSAFE.sub("_", session_id)
    if safe == session_id and 0 < len(safe) <= MAX_SAFE_NAME and not safe.startswith("."):
        return safe
    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()
    head = safe[:MAX_SAFE_NAME] or EMPTY_ID_STEM
    if head.startswith("."):
        head = f"_{head[1:]}"
    return f"{head}{HASH_SEPARATOR}{digest[:HASH_DIGITS]}"


class FileSessionStore:
    """A session store keeping ``<stem>.json`` per session in one directory (SES-n).

    The document is ``to_json(snapshot)``, pretty-printed (two-space indent, ASCII-escaped,
    newline at the end). A save is atomic: the text is written to a temporary file in the same
    directory, flushed and fsync-ed, renamed over the session's file with ``os.replace``, and
    the directory is fsync-ed. A save that fails leaves the old file as it was and removes its
    temporary file; a crash can leave a stray ``.<stem>.*.tmp`` file, which the store ignores.

    A session's file is only replaced or removed after it has been read back as that same
    session: a corrupt or schema-invalid file raises :class:`CorruptSessionError` naming the
    file and the JSON path, and is left for a person to inspect.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self._directory = Path(directory)
        self._directory.mkdir(parents=True, exist_ok=True)

    @property
    def directory(self) -> Path:
        """The directory holding the session files."""
        return self._directory

    def path_for(self, session_id: str) -> Path:
        """The file that holds *session_id*'s document."""
        return self._directory / f"{session_file_stem(session_id)}{SESSION_FILE_SUFFIX}"

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Write *snapshot* atomically, replacing the session's previous file."""
        text = json.dumps(session_document(snapshot), indent=2, ensure_ascii=True) + "\n"
        target = self.path_for(snapshot.session_id)
        # Read the current file first: it must be this session's, and readable, or we stop.
        self._read(target, snapshot.session_id)
        descriptor, temporary = tempfile.mkstemp(
            dir=self._directory, prefix=f".{target.stem}.", suffix=TEMPORARY_SUFFIX
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
    expected = f"{session_file_stem(snapshot.session_id)}{SESSION_FILE_SUFFIX}"
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
    except ValueError:
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
