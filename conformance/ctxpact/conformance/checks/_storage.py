"""The databases the persistent-memory and store checks can build and look into.

A memory or store kept in a table (MEM-15, SES-16) is checked by what it does: the suite
builds new instances of its class on a fresh database, as ``cls(database, ...)``, and reads
and damages the rows through a connection of its own. Which database a class keeps its rows
in is found by behaviour too: the suite offers each kind it knows a fresh database, and the
first one the class's constructor takes is its storage (MEM-26). SQLite is always known;
PostgreSQL when ``CTXPACT_POSTGRES_DSN`` names a server and psycopg is installed (each check
gets a new schema there, dropped afterwards).

The spec fixes no column layout, so the checks find a stored value by a marker they put into
it, in whichever text column holds it.

A target a harness serves is checked the same way (HRN-29): it declares where its persistent
form keeps its state (the ``storage`` option), the suite makes a fresh place of that kind and
has the harness open new instances on it by address (a file path or a conninfo: nothing is
borrowed across a process boundary), and reads and damages what they stored through its own
connection, exactly as in process.
"""

from __future__ import annotations

import abc
import contextlib
import importlib.util
import os
import sqlite3
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ctxpact.conformance._context import SkipCheck, SubjectError
from ctxpact.spec import JsonObject

#: The environment variable naming the PostgreSQL server the checks may create schemas on.
POSTGRES_DSN_VARIABLE = "CTXPACT_POSTGRES_DSN"
#: Where a harness target's persistent form keeps its state (the ``storage`` option, HRN-29).
STORAGE_KINDS = ("sqlite", "postgresql", "directory")

#: A row of a table: each column's value as text (a ``bytea`` key as its UTF-8), and as stored.
Row = tuple[dict[str, object], dict[str, object]]


class Database(abc.ABC):
    """One fresh database: what a constructor takes, and a connection of the suite's own."""

    #: What the class under test is given: a connection it borrows, or an address it opens.
    handle: object
    #: What an error about this database must name (its path, or its database name).
    label: str

    @abc.abstractmethod
    def tables(self) -> set[str]:
        """The names of the tables in the database."""

    @abc.abstractmethod
    def text_columns(self, table: str) -> list[str]:
        """The columns of *table* that hold text."""

    @abc.abstractmethod
    def execute(self, statement: str, parameters: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """Run *statement* (``?`` placeholders) outside any transaction of the class's; its rows."""

    @abc.abstractmethod
    def rowcount(self, statement: str, parameters: tuple[object, ...]) -> int:
        """Run a statement that changes rows; how many it changed."""

    @abc.abstractmethod
    def rows(self, table: str) -> list[Row]:
        """Every row of *table*."""

    @abc.abstractmethod
    def idle(self) -> bool:
        """Whether a borrowed connection is outside any transaction (none is left open)."""

    @abc.abstractmethod
    def alive(self) -> bool:
        """Whether a borrowed connection is still open."""

    def cells_containing(self, table: str, marker: str) -> list[tuple[str, str]]:
        """``(column, value)`` for each text cell of *table* that contains *marker*."""
        found: list[tuple[str, str]] = []
        for column in self.text_columns(table):
            rows = self.execute(
                f'SELECT "{column}" FROM "{table}" WHERE {self.contains(column)}',  # noqa: S608
                (marker,),
            )
            found.extend((column, row[0]) for row in rows if isinstance(row[0], str))
        return found

    def replace_cells(self, table: str, marker: str, replacement: str) -> int:
        """Replace every text cell of *table* containing *marker* by *replacement*; how many."""
        return sum(
            self.rowcount(
                f'UPDATE "{table}" SET "{column}" = ? WHERE "{column}" = ?',  # noqa: S608
                (replacement, value),
            )
            for column, value in self.cells_containing(table, marker)
        )

    def count_cells(self, table: str, value: str) -> int:
        """How many text cells of *table* hold exactly *value*."""
        return sum(
            int(
                self.execute(
                    f'SELECT count(*) FROM "{table}" WHERE "{column}" = ?',  # noqa: S608
                    (value,),
                )[0][0]
            )
            for column in self.text_columns(table)
        )

    def count_rows(self, table: str) -> int:
        """How many rows *table* holds."""
        return int(self.execute(f'SELECT count(*) FROM "{table}"')[0][0])  # noqa: S608

    @staticmethod
    def contains(column: str) -> str:
        """The SQL condition that *column* contains the parameter."""
        return f'instr("{column}", ?) > 0'


class Storage(abc.ABC):
    """A kind of database the suite can make fresh ones of, and what its errors look like."""

    #: Its name, for messages.
    name: str
    #: The error class its driver raises, which the class's errors must also be (MEM-21).
    driver_error: type[BaseException]

    @abc.abstractmethod
    def database(self, *, address: bool = False) -> contextlib.AbstractContextManager[Database]:
        """A fresh, empty database; with *address*, ``handle`` is an address the class opens."""

    @abc.abstractmethod
    def unopenable(self) -> tuple[object, str]:
        """An address no connection can be opened to, and what its error must name."""

    @abc.abstractmethod
    def held(self, database: Database, table: str) -> contextlib.AbstractContextManager[None]:
        """Another connection holds *table* of an address database so that no write passes."""

    @abc.abstractmethod
    def untouched(self) -> contextlib.AbstractContextManager[tuple[object, Callable[[], bool]]]:
        """An address, and whether anything was created there since (MEM-16: before any I/O)."""


# -- SQLite ---------------------------------------------------------------------------------


class _SqliteDatabase(Database):
    def __init__(self, connection: sqlite3.Connection, handle: object) -> None:
        self.connection = connection
        self.handle = handle
        self.label = str(handle) if isinstance(handle, Path) else "an in-memory database"

    def tables(self) -> set[str]:
        rows = self.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in rows if isinstance(row[0], str)}

    def text_columns(self, table: str) -> list[str]:
        return [row[1] for row in self.connection.execute(f'PRAGMA table_info("{table}")')]

    def execute(self, statement: str, parameters: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        return self.connection.execute(statement, parameters).fetchall()

    def rowcount(self, statement: str, parameters: tuple[object, ...]) -> int:
        return self.connection.execute(statement, parameters).rowcount

    def rows(self, table: str) -> list[Row]:
        cursor = self.connection.execute(f'SELECT * FROM "{table}"')  # noqa: S608
        columns = [description[0] for description in cursor.description]
        found: list[Row] = []
        for row in cursor.fetchall():
            cells = dict(zip(columns, row, strict=True))
            found.append((cells, cells))
        return found

    def idle(self) -> bool:
        return not self.connection.in_transaction

    def alive(self) -> bool:
        try:
            return bool(self.connection.execute("SELECT 1").fetchone() == (1,))
        except sqlite3.ProgrammingError:
            return False


class SqliteStorage(Storage):
    """SQLite: a private in-memory database on a borrowed connection, or a file."""

    name = "SQLite"
    driver_error = sqlite3.OperationalError

    @contextlib.contextmanager
    def database(self, *, address: bool = False) -> Iterator[Database]:
        if not address:
            connection = sqlite3.connect(":memory:", isolation_level=None)
            try:
                yield _SqliteDatabase(connection, connection)
            finally:
                connection.close()
            return
        with tempfile.TemporaryDirectory(prefix="ctxpact-check-") as directory:
            path = Path(directory) / "state.sqlite"
            connection = sqlite3.connect(path, isolation_level=None)
            try:
                yield _SqliteDatabase(connection, path)
            finally:
                connection.close()

    def unopenable(self) -> tuple[object, str]:
        missing = Path(tempfile.gettempdir()) / f"ctxpact-{uuid.uuid4().hex}" / "no" / "m.sqlite"
        return missing, str(missing)

    @contextlib.contextmanager
    def held(self, database: Database, table: str) -> Iterator[None]:  # noqa: ARG002 - all of it
        holder = sqlite3.connect(str(database.handle), isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            yield
        finally:
            holder.close()

    @contextlib.contextmanager
    def untouched(self) -> Iterator[tuple[object, Callable[[], bool]]]:
        with tempfile.TemporaryDirectory(prefix="ctxpact-check-") as directory:
            path = Path(directory) / "refused.sqlite"
            yield path, path.exists


# -- PostgreSQL -----------------------------------------------------------------------------


class _PostgresDatabase(Database):
    def __init__(self, connection: Any, handle: object, label: str) -> None:  # noqa: ANN401
        self.connection = connection
        self.handle = handle
        self.label = label

    def tables(self) -> set[str]:
        rows = self.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {row[0] for row in rows}

    def text_columns(self, table: str) -> list[str]:
        rows = self.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = ? AND data_type = 'text' ORDER BY ordinal_position",
            (table,),
        )
        return [row[0] for row in rows]

    def execute(self, statement: str, parameters: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        cursor = self.connection.execute(statement.replace("?", "%s"), parameters)
        return list(cursor.fetchall()) if cursor.description is not None else []

    def rowcount(self, statement: str, parameters: tuple[object, ...]) -> int:
        return int(self.connection.execute(statement.replace("?", "%s"), parameters).rowcount)

    def rows(self, table: str) -> list[Row]:
        cursor = self.connection.execute(f'SELECT * FROM "{table}"')  # noqa: S608
        columns = [description.name for description in cursor.description]
        found: list[Row] = []
        for row in cursor.fetchall():
            raw = dict(zip(columns, row, strict=True))
            readable = {
                column: bytes(value).decode(errors="replace")
                if isinstance(value, bytes | memoryview)
                else value
                for column, value in raw.items()
            }
            found.append((readable, raw))
        return found

    def idle(self) -> bool:
        handle = self.handle
        info = getattr(handle, "info", None)
        return info is None or info.transaction_status.name == "IDLE"

    def alive(self) -> bool:
        handle = self.handle
        return not getattr(handle, "closed", False)

    @staticmethod
    def contains(column: str) -> str:
        return f'strpos("{column}", ?) > 0'


class PostgresStorage(Storage):
    """PostgreSQL: a new schema on the server ``CTXPACT_POSTGRES_DSN`` names, per database."""

    name = "PostgreSQL"

    def __init__(self, conninfo: str) -> None:
        import psycopg  # noqa: PLC0415 - only when a server is named

        self._psycopg = psycopg
        self.conninfo = conninfo
        self.driver_error = psycopg.OperationalError
        parts = psycopg.conninfo.conninfo_to_dict(conninfo)
        self.label = str(parts.get("dbname") or parts.get("host") or "")

    def _in(self, schema: str) -> str:
        return f"{self.conninfo} options='-c search_path={schema}'"

    @contextlib.contextmanager
    def _schema(self) -> Iterator[str]:
        schema = f"ctxpact_check_{uuid.uuid4().hex[:16]}"
        with self._psycopg.connect(self.conninfo, autocommit=True) as admin:
            admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield schema
        finally:
            with self._psycopg.connect(self.conninfo, autocommit=True) as admin:
                admin.execute(f'DROP SCHEMA "{schema}" CASCADE')

    @contextlib.contextmanager
    def database(self, *, address: bool = False) -> Iterator[Database]:
        with (
            self._schema() as schema,
            self._psycopg.connect(self._in(schema), autocommit=True) as inspector,
        ):
            if address:
                yield _PostgresDatabase(inspector, self._in(schema), self.label)
                return
            # The class borrows a connection of the default kind (not autocommit): it must
            # leave it outside any transaction after every operation.
            borrowed = self._psycopg.connect(self._in(schema))
            try:
                yield _PostgresDatabase(inspector, borrowed, self.label)
            finally:
                borrowed.close()

    def unopenable(self) -> tuple[object, str]:
        name = f"ctxpact_missing_{uuid.uuid4().hex[:8]}"
        return f"{self.conninfo} dbname={name}", name

    @contextlib.contextmanager
    def held(self, database: Database, table: str) -> Iterator[None]:
        with self._psycopg.connect(str(database.handle)) as holder:
            holder.execute(f'LOCK TABLE "{table}" IN ACCESS EXCLUSIVE MODE')
            try:
                yield
            finally:
                holder.rollback()

    @contextlib.contextmanager
    def untouched(self) -> Iterator[tuple[object, Callable[[], bool]]]:
        with self.database(address=True) as database:
            yield database.handle, lambda: bool(database.tables())


def storages() -> list[Storage]:
    """The kinds of database the suite can make here: SQLite, and PostgreSQL when named."""
    known: list[Storage] = [SqliteStorage()]
    conninfo = os.environ.get(POSTGRES_DSN_VARIABLE)
    if conninfo and importlib.util.find_spec("psycopg") is not None:
        known.append(PostgresStorage(conninfo))
    return known


def offered(kind: object = None) -> str:
    """The kinds of database :func:`storage_of` offers, for a message: ``SQLite, PostgreSQL``."""
    known = ", ".join(storage.name for storage in storages())
    return known if kind is None else f"{known}, of which the storage option names {kind}"


def storage_of(build: Callable[[object], object], kind: object = None) -> Storage | None:
    """The storage whose fresh database *build* (a constructor call) accepts, or ``None``.

    *kind*, the target's ``storage`` option when it has one, names the only kind offered.
    """
    for storage in storages():
        if kind is not None and storage.name.lower() != kind:
            continue
        with storage.database() as database:
            try:
                built = build(database.handle)
            except Exception:  # noqa: BLE001, S112 - refused: not this kind of database
                continue
            close = getattr(built, "close", None)
            if callable(close):
                close()
            return storage
    return None


# -- targets a harness serves (HRN-29, HRN-30) ----------------------------------------------


@runtime_checkable
class Remote(Protocol):
    """A subject living in a harness, which makes new instances of its target on request."""

    def new_instance(
        self,
        storage: JsonObject | None = None,
        compressor: object | None = None,
    ) -> Any:  # noqa: ANN401 - the component's own type
        """Another instance, created (or opened on *storage*) now, with *compressor*."""
        ...


def raised_message(error: BaseException) -> str:
    """What *error* says of itself: for an error a harness reported, the harness's own message.

    The suite's text around it quotes the request, and so every argument sent: a check of
    what an error names must read only what the implementation wrote.
    """
    message = getattr(error, "message", None)
    if isinstance(error, SubjectError) and isinstance(message, str):
        return message
    return str(error)


class _AddressOnly(Storage):
    """A kind of database whose every fresh database is an address a harness opens."""

    def __init__(self, inner: Storage) -> None:
        self.inner = inner
        self.name = inner.name
        # Across a process boundary only the message tells the database's errors apart.
        self.driver_error = Exception

    def database(self, *, address: bool = False) -> contextlib.AbstractContextManager[Database]:  # noqa: ARG002 - always one
        return self.inner.database(address=True)

    def unopenable(self) -> tuple[object, str]:
        return self.inner.unopenable()

    def held(self, database: Database, table: str) -> contextlib.AbstractContextManager[None]:
        return self.inner.held(database, table)

    def untouched(self) -> contextlib.AbstractContextManager[tuple[object, Callable[[], bool]]]:
        return self.inner.untouched()


def declared_storage(options: Any, what: str) -> str:  # noqa: ANN401 - the target's options
    """The ``storage`` a harness target declares (HRN-29); a skip when it declares none."""
    kind = options.get("storage")
    if kind is None:
        raise SkipCheck(
            f"the harness's {what} declares no storage option: it keeps nothing the suite "
            "can open again (HRN-29)"
        )
    if kind not in STORAGE_KINDS:
        raise SkipCheck(f"the harness's {what} declares an unknown storage {kind!r}")
    return str(kind)


def remote_storage(kind: str) -> Storage:
    """The databases of *kind* (``sqlite`` or ``postgresql``), offered to a harness by address."""
    for storage in storages():
        if storage.name.lower() == kind:
            return _AddressOnly(storage)
    raise SkipCheck(
        f"the harness's target keeps its state in {kind}, which the suite cannot make here; "
        f"set {POSTGRES_DSN_VARIABLE} to check it"
    )


def remote_memory_builder(subject: Remote) -> Callable[..., Any]:
    """A constructor of the harness's memories, called as ``cls(database, session_id, ...)``."""

    def build(
        database: object,
        session_id: str,
        *,
        table: str | None = None,
        compressor: object | None = None,
        busy_timeout: float | None = None,
    ) -> Any:  # noqa: ANN401 - the component's own type
        storage: JsonObject = {
            "address": str(database),
            "sessionId": session_id,
            "table": table,
            "busyTimeout": busy_timeout,
        }
        return subject.new_instance(storage, compressor)

    return build


def remote_store_builder(subject: Remote) -> Callable[..., Any]:
    """A constructor of the harness's stores, called as ``cls(database_or_directory, ...)``."""

    def build(
        database: object, *, table: str | None = None, busy_timeout: float | None = None
    ) -> Any:  # noqa: ANN401 - the component's own type
        storage: JsonObject = {"address": str(database), "table": table}
        if busy_timeout is not None:
            storage["busyTimeout"] = busy_timeout
        return subject.new_instance(storage)

    return build
