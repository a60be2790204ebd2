"""Where a store's documents are, for the checks that read and damage them.

A file store's files (SES-13), a table's rows found by what they hold (SES-16), on a fresh
place the suite makes; for a harness's store, one it opens there by address (HRN-29).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol, cast

import attrs

from ctxpact.conformance._context import CheckContext, SkipCheck
from ctxpact.conformance.checks._storage import (
    POSTGRES_DSN_VARIABLE,
    Database,
    Remote,
    Storage,
    declared_storage,
    offered,
    remote_storage,
    remote_store_builder,
    storage_of,
)
from ctxpact.conformance.checks.store._support import (
    DEFAULT_SESSION_TABLE,
    DirectoryStore,
    SessionStore,
    TableStore,
    safe_form,
)


class Documents(Protocol):
    """Where a store's documents can be read and damaged by a check."""

    def read(self, session_id: str) -> str | None:
        """The stored text of the session, or ``None``."""
        ...

    def write(self, session_id: str, content: str) -> None:
        """Replace the stored text of the session (it must have been saved before)."""
        ...

    def names(self, session_id: str) -> tuple[str, ...]:
        """What an error about this document must name (SES-10)."""
        ...


@attrs.frozen(kw_only=True)
class FileDocuments:
    """The files of a file store (SES-13)."""

    directory: Path

    def path(self, session_id: str) -> Path:
        """The file of *session_id*."""
        return self.directory / f"{safe_form(session_id)}.json"

    def read(self, session_id: str) -> str | None:
        """The file's text, or ``None``."""
        path = self.path(session_id)
        return path.read_text(encoding="utf-8") if path.exists() else None

    def write(self, session_id: str, content: str) -> None:
        """Overwrite the file."""
        self.path(session_id).write_bytes(content.encode())

    def names(self, session_id: str) -> tuple[str, ...]:
        """The file's name."""
        return (self.path(session_id).name,)


@attrs.frozen(kw_only=True)
class TableDocuments:
    """The rows of a store kept in a table; the column layout is found, not assumed."""

    database: Database
    table: str

    def _row(self, session_id: str) -> tuple[str, object, str, str] | None:
        for readable, raw in self.database.rows(self.table):
            keys = [column for column, value in readable.items() if value == session_id]
            for column, value in readable.items():
                if keys and column not in keys and isinstance(value, str) and value[:1] == "{":
                    return keys[0], raw[keys[0]], column, value
        return None

    def read(self, session_id: str) -> str | None:
        """The document cell of the session's row, or ``None``."""
        found = self._row(session_id)
        return None if found is None else found[3]

    def write(self, session_id: str, content: str) -> None:
        """Overwrite the document cell of the session's row."""
        found = self._row(session_id)
        if found is None:
            raise SkipCheck(f"no row holding a document for {session_id!r} in {self.table!r}")
        key, stored_key, column, _ = found
        self.database.rowcount(
            f'UPDATE "{self.table}" SET "{column}" = ? WHERE "{key}" = ?',  # noqa: S608
            (content, stored_key),
        )

    def names(self, session_id: str) -> tuple[str, ...]:
        """The table and the session id."""
        return (self.table, session_id)


def _close(store: object) -> None:
    close = getattr(store, "close", None)
    if callable(close):
        close()


def _table_store_class(context: CheckContext) -> tuple[Any, Storage]:
    """The class of a store kept in a table, and the kind of database it takes (MEM-26).

    For a harness's store, a constructor that opens one in the harness on the database the
    suite made, of the kind the target declares (HRN-29).
    """
    subject = context.subject()
    if isinstance(subject, Remote):
        kind = declared_storage(context.options, "store")
        if kind == "directory":
            raise SkipCheck("the harness's store keeps its sessions in files, not in a table")
        return remote_store_builder(subject), remote_storage(kind)
    if not isinstance(subject, TableStore):
        raise SkipCheck(f"{type(subject).__name__} is not a store kept in a table (no table)")
    _close(subject)
    cls: Any = type(subject)
    wanted = context.options.get("storage")
    storage = storage_of(cls, wanted)
    if storage is None:
        raise SkipCheck(
            f"{cls.__name__}(database) takes none of the databases the suite can make here "
            f"({offered(wanted)}); set {POSTGRES_DSN_VARIABLE} to check a PostgreSQL store"
        )
    return cls, storage


@contextlib.contextmanager
def _table_store(
    cls: Any,  # noqa: ANN401 - the implementation's class
    database: Database,
    **options: object,
) -> Iterator[SessionStore]:
    try:
        store = cls(database.handle, **options)
    except TypeError as error:
        raise SkipCheck(f"{cls.__name__}(database) cannot be built: {error}") from error
    try:
        yield store
    finally:
        _close(store)


@contextlib.contextmanager
def _stored_documents(context: CheckContext) -> Iterator[tuple[SessionStore, Documents]]:
    subject = context.subject()
    if isinstance(subject, DirectoryStore) or (
        isinstance(subject, Remote) and context.options.get("storage") == "directory"
    ):
        with _file_store(context) as (store, directory):
            yield store, FileDocuments(directory=directory)
        return
    if isinstance(subject, Remote):
        cls, storage = _table_store_class(context)
        # The table is named, as SES-16's default: the suite cannot ask a harness's store.
        with storage.database() as database, _table_store(cls, database) as store:
            yield store, TableDocuments(database=database, table=DEFAULT_SESSION_TABLE)
        return
    if not isinstance(subject, TableStore):
        raise SkipCheck(
            f"{type(subject).__name__} keeps its documents where the suite cannot read them "
            "(neither a directory nor a table)"
        )
    cls, storage = _table_store_class(context)
    with storage.database() as database, _table_store(cls, database) as store:
        yield (
            store,
            TableDocuments(database=database, table=cast("TableStore", store).table),
        )


@contextlib.contextmanager
def _file_store(context: CheckContext) -> Iterator[tuple[SessionStore, Path]]:
    """A fresh file store and its directory (for a harness's, one the suite made: HRN-29)."""
    subject = context.subject()
    if isinstance(subject, Remote):
        if declared_storage(context.options, "store") != "directory":
            raise SkipCheck("the harness's store does not keep its sessions in files")
        with tempfile.TemporaryDirectory(prefix="ctxpact-check-") as root:
            directory = Path(root) / "sessions"
            store = subject.new_instance({"address": str(directory)})
            try:
                yield store, directory
            finally:
                _close(store)
        return
    if not isinstance(subject, DirectoryStore):
        raise SkipCheck(f"{type(subject).__name__} is not a file store (no directory)")
    yield cast("SessionStore", subject), Path(subject.directory)
