"""The session store that keeps one pretty-printed JSON file per session, written atomically."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import string
import tempfile
import time
import urllib.parse
import warnings
from collections.abc import Iterator
from pathlib import Path

from ctxpact.reference.memory._state import checked_session_id
from ctxpact.reference.session._errors import (
    CorruptSessionError,
    ForeignSessionFileWarning,
    SessionFileError,
)
from ctxpact.reference.session._store import session_document, session_from_text, session_key
from ctxpact.spec import AgentSessionSnapshot, InvalidValueError, Violation, encode_json

#: A session file's name: the safe form of the id (see :func:`session_file_stem`) plus this.
SESSION_FILE_SUFFIX = ".json"
#: Temporary files start with a dot and end with this suffix; they are never session files.
TEMPORARY_SUFFIX = ".tmp"
#: How much of the stem a temporary file's name repeats (for people looking at the directory).
TEMPORARY_STEM_CHARS = 64
#: The longest file name, in bytes, a session file may have (most file systems allow 255).
MAX_FILE_NAME_BYTES = 255
#: How old, in seconds, a temporary file must be before a store removes it as the leftover of
#: a crashed save (SES-18): far longer than any save takes, so a save in progress is safe.
STALE_TEMPORARY_SECONDS = 3600.0

# The temporary files this store makes: "." + up to 64 characters of a safe form + "." +
# tempfile's 8 random characters + ".tmp". Nothing else is ever removed.
_TEMPORARY_NAME = re.compile(r"\.[a-z0-9_%A-F-]{1,64}\.[a-z0-9_]{8}\.tmp")
_SAFE_FORM = re.compile(r"(?:[a-z0-9_-]|%[0-9A-F]{2})+")

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


def session_id_of_stem(stem: str) -> str | None:
    """The session id whose safe form is *stem*, or ``None`` when no id has that form (SES-18).

    The inverse of :func:`session_file_stem`: only the canonical form counts (``%61`` is not
    ``a``, ``%2f`` is not ``%2F``), and the id must be a valid one (SES-17).
    """
    if _SAFE_FORM.fullmatch(stem) is None:
        return None
    try:
        session_id = urllib.parse.unquote_to_bytes(stem).decode("utf-8")
        checked_session_id("FileSessionStore", session_id)
    except (UnicodeDecodeError, InvalidValueError):
        return None
    return session_id if session_file_stem(session_id) == stem else None


class FileSessionStore:
    """A session store keeping ``<safe form>.json`` per session in one directory (SES-13).

    The document is ``to_json(snapshot)``, pretty-printed (two-space indent, ASCII-escaped,
    newline at the end). A save is atomic (SES-14): the text is written to a temporary file
    ``.<stem>.<random>.tmp`` in the same directory, flushed and fsync-ed, renamed over the
    session's file with ``os.replace``, and the directory is fsync-ed. A save that fails leaves
    the old file as it was and removes its temporary file. A crash can leave a temporary file
    behind; the store never reads one, and the first save of each store object removes the
    store's own temporary files that are older than *stale_after* seconds (default an hour,
    far longer than a save takes), and nothing else (SES-18). The directory is created on the
    first save.

    A session's file is only replaced or removed after it has been read back as that same
    session: a corrupt or schema-invalid file, an empty one included, raises
    :class:`CorruptSessionError` naming the file and the JSON path (SES-10, SES-15), and is
    left for a person to inspect; so does a directory in the file's place. Other failures of
    the file system are :class:`SessionFileError` (an ``OSError``) naming the file.
    :meth:`session_ids` reads the ids from the file names alone, and ignores files that no
    session id names, with a :class:`ForeignSessionFileWarning` (SES-18).
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        stale_after: float = STALE_TEMPORARY_SECONDS,
    ) -> None:
        if (
            isinstance(stale_after, bool)
            or not isinstance(stale_after, int | float)
            or not stale_after >= 0
        ):
            raise InvalidValueError(
                record=type(self).__name__,
                field="stale_after",
                expected="a non-negative number of seconds",
                actual=stale_after,
            )
        self._directory = Path(directory)
        self._stale_after = float(stale_after)
        self._swept = False

    @property
    def directory(self) -> Path:
        """The directory holding the session files."""
        return self._directory

    def path_for(self, session_id: str) -> Path:
        """The file that holds *session_id*'s document.

        Raises:
            InvalidValueError: for a blank id, an id with a lone surrogate, or one whose file
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
        text = encode_json(session_document(snapshot), indent=2, ensure_ascii=True) + "\n"
        target = self.path_for(snapshot.session_id)
        # Read the current file first: it must be this session's, and readable, or we stop.
        self._read(target, snapshot.session_id)
        with _file_errors("create the directory", self._directory):
            self._directory.mkdir(parents=True, exist_ok=True)
        if not self._swept:
            self._swept = True
            self.remove_stale_temporary_files()
        with _file_errors("write a temporary file in", self._directory):
            descriptor, temporary = tempfile.mkstemp(
                # A short prefix keeps the temporary name within the limit for the longest ids.
                dir=self._directory,
                prefix=f".{target.stem[:TEMPORARY_STEM_CHARS]}.",
                suffix=TEMPORARY_SUFFIX,
            )
        try:
            with _file_errors("write", target):
                with open(descriptor, "w", encoding="utf-8", newline="\n") as file:  # noqa: PTH123
                    file.write(text)
                    file.flush()
                    os.fsync(file.fileno())
                Path(temporary).replace(target)
        except BaseException:
            with contextlib.suppress(OSError):
                Path(temporary).unlink()
            raise
        with _file_errors("sync the directory", self._directory):
            _fsync_directory(self._directory)

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None`` when it has no file."""
        return self._read(self.path_for(session_id), session_id)

    def delete(self, session_id: str) -> bool:
        """Remove the session's file (after reading it back as that session); whether it existed."""
        target = self.path_for(session_id)
        if self._read(target, session_id) is None:
            return False
        with _file_errors("delete", target):
            target.unlink()
            _fsync_directory(self._directory)
        return True

    def session_ids(self) -> list[str]:
        """The ids of every stored session, sorted, read from the file names alone (SES-18).

        A ``.json`` file (or directory) whose name is not the safe form of a session id is
        not a session: it is left alone, with a :class:`ForeignSessionFileWarning`.
        """
        found: list[str] = []
        for entry in self._entries():
            name = entry.name
            if not name.endswith(SESSION_FILE_SUFFIX):
                continue  # temporary files and anything else that is not a session file
            session_id = session_id_of_stem(name.removesuffix(SESSION_FILE_SUFFIX))
            if session_id is None or not _is_file(entry):
                warnings.warn(
                    ForeignSessionFileWarning(self._directory / name),
                    stacklevel=2,
                )
                continue
            found.append(session_id)
        return sorted(found)

    def remove_stale_temporary_files(self) -> list[Path]:
        """Remove this store's temporary files older than *stale_after*; the files removed.

        Only regular files named as this store names its temporary files are candidates, and
        only those last modified *stale_after* seconds ago or earlier: the leftovers of saves
        that crashed, never a save in progress nor anyone else's file (SES-18). The first
        save of each store object calls it.
        """
        removed: list[Path] = []
        deadline = time.time() - self._stale_after
        for entry in self._entries():
            if _TEMPORARY_NAME.fullmatch(entry.name) is None:
                continue
            with contextlib.suppress(OSError):  # gone already, or not ours to remove
                status = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(status.st_mode) and status.st_mtime <= deadline:
                    Path(entry.path).unlink()
                    removed.append(Path(entry.path))
        return removed

    def _entries(self) -> Iterator[os.DirEntry[str]]:
        try:
            with os.scandir(self._directory) as entries:
                yield from entries
        except FileNotFoundError:
            return
        except OSError as error:
            raise SessionFileError(operation="list", path=self._directory, error=error) from error

    def _read(self, path: Path, session_id: str) -> AgentSessionSnapshot | None:
        try:
            status = path.stat()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise SessionFileError(operation="read", path=path, error=error) from error
        if not stat.S_ISREG(status.st_mode):
            kind = "a directory" if stat.S_ISDIR(status.st_mode) else "another kind of file"
            message = f"Expected a regular file holding a session document but got {kind}"
            raise CorruptSessionError(
                location=_location(path), violations=[Violation(path="$", message=message)]
            )
        return session_from_text(_location(path), session_id, _read_text(path))


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


@contextlib.contextmanager
def _file_errors(operation: str, path: Path) -> Iterator[None]:
    """Report an ``OSError`` of the body as :class:`SessionFileError` naming *path*."""
    try:
        yield
    except SessionFileError:
        raise
    except OSError as error:
        raise SessionFileError(operation=operation, path=path, error=error) from error


def _location(path: Path) -> str:
    return f"file {str(path)!r}"


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except IsADirectoryError as error:  # pragma: no cover - replaced between stat and read
        raise CorruptSessionError(
            location=_location(path),
            violations=[Violation(path="$", message="Expected a regular file but got a directory")],
        ) from error
    except OSError as error:
        raise SessionFileError(operation="read", path=path, error=error) from error
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        message = f"Expected UTF-8 text but got an invalid byte at offset {error.start}"
        raise CorruptSessionError(
            location=_location(path), violations=[Violation(path="$", message=message)]
        ) from error


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
