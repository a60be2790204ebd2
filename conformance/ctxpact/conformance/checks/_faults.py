"""Faults injected through the file-system calls a store makes: a write, an fsync, a rename.

The store check of SES-14 makes one of these fail during one ``save`` and then looks at what
the directory holds. A fault is injected by replacing the functions of ``os``, ``io`` and
``builtins`` that every Python file store goes through (``open`` also behind ``Path.open``
and ``os.fdopen``, ``os.write``, ``os.fsync``, ``os.replace`` behind ``Path.replace``), only
for the duration of the ``with`` block, and only for files under the store's directory when
a path is known.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import io
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Self

#: The faults, by the call that fails.
FAULTS = ("write", "fsync", "rename")
_INJECTED = "injected by the conformance suite"


class _FailingFile:
    """A file opened for writing whose ``write`` stores half its data, then fails (ENOSPC)."""

    def __init__(self, inner: Any) -> None:  # noqa: ANN401 - any file object
        self._inner = inner

    def write(self, data: Any) -> int:  # noqa: ANN401 - text or bytes
        self._inner.write(data[: len(data) // 2])
        with contextlib.suppress(OSError, ValueError):
            self._inner.flush()
        raise OSError(errno.ENOSPC, f"No space left on device ({_INJECTED})")

    def writelines(self, lines: Any) -> None:  # noqa: ANN401 - an iterable of text or bytes
        for line in lines:
            self.write(line)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self._inner.close()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._inner)

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - whatever the file has
        return getattr(self._inner, name)


def _writes(mode: str) -> bool:
    return any(flag in mode for flag in "wax+")


def _regular(descriptor: int) -> bool:
    try:
        return stat.S_ISREG(os.fstat(descriptor).st_mode)
    except OSError:
        return False


def _under(directory: Path, target: object) -> bool:
    """Whether *target* is a file of *directory* (a descriptor: whether it is a regular file)."""
    if isinstance(target, int):
        return _regular(target)
    if not isinstance(target, str | bytes | os.PathLike):
        return False
    try:
        return Path(os.fsdecode(target)).resolve().parent == directory.resolve()
    except (TypeError, ValueError, OSError):
        return False


def _failing(call: str) -> Callable[..., Any]:
    def fail(*_arguments: object, **_keywords: object) -> Any:  # noqa: ANN401 - never returns
        raise OSError(errno.EIO, f"Input/output error in {call} ({_INJECTED})")

    return fail


@contextlib.contextmanager
def injected(fault: str, directory: Path) -> Iterator[None]:
    """Make every *fault* call (``write``, ``fsync`` or ``rename``) fail within the block."""
    if fault not in FAULTS:
        raise ValueError(f"Expected a fault among {', '.join(FAULTS)} but got {fault!r}")
    replaced: list[tuple[Any, str, Any]] = []

    def replace(owner: object, name: str, value: object) -> None:
        replaced.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    try:
        if fault == "write":
            real_open, real_write = io.open, os.write

            def opening(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - as open
                opened = real_open(file, mode, *args, **kwargs)
                return _FailingFile(opened) if _writes(mode) and _under(directory, file) else opened

            def writing(descriptor: int, data: bytes) -> int:
                if not _regular(descriptor):
                    return real_write(descriptor, data)
                real_write(descriptor, data[: len(data) // 2])
                raise OSError(errno.ENOSPC, f"No space left on device ({_INJECTED})")

            replace(builtins, "open", opening)
            replace(io, "open", opening)
            replace(os, "write", writing)
        elif fault == "fsync":
            replace(os, "fsync", _failing("fsync"))
            if hasattr(os, "fdatasync"):
                replace(os, "fdatasync", _failing("fdatasync"))
        else:
            replace(os, "replace", _failing("rename"))
            replace(os, "rename", _failing("rename"))
        yield
    finally:
        for owner, name, value in reversed(replaced):
            setattr(owner, name, value)
