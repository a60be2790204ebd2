"""The PostgreSQL memory and store: connections, pools, errors and the rules of §14.4.

The contract itself (§14.1, §15.2, MEM-15 .. MEM-21) is checked by the conformance suite
(tests/conformance/test_postgres_conformance.py); these tests cover what only a server
shows: a borrowed connection left as it was, a pool, the lock timeout, an unreachable
server, the table-name limit, ids PostgreSQL's text cannot hold, and the import without
psycopg.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap
import threading

import pytest

from ctxpact.reference.memory import OpenTransactionError
from ctxpact.reference.session import Agent, CorruptSessionError
from ctxpact.spec import (
    AgentSessionSnapshot,
    InvalidValueError,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    to_json,
)

psycopg = pytest.importorskip(
    "psycopg", reason="psycopg is not installed: pip install -e '.[postgres]'"
)
psycopg_pool = pytest.importorskip("psycopg_pool", reason="psycopg_pool is not installed")

from ctxpact.reference.postgres import (  # noqa: E402 - after the skip without psycopg
    MAX_TABLE_NAME,
    PostgresAgentMemory,
    PostgresBusyError,
    PostgresError,
    PostgresOperationalError,
    PostgresSessionStore,
)


def test_importing_the_reference_needs_no_psycopg() -> None:
    # A process where psycopg cannot be imported: the reference imports, the PostgreSQL
    # names say which extra to install.
    script = textwrap.dedent(
        """
        import sys
        sys.modules["psycopg"] = None
        import ctxpact.reference
        from ctxpact.reference import SqliteAgentMemory
        try:
            from ctxpact.reference import PostgresAgentMemory
        except ImportError as error:
            print(type(error).__name__, error)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == (
        "MissingExtraError ctxpact.reference.postgres needs psycopg (3.2 or later), which is "
        "not installed: pip install 'ctxpact[postgres]'"
    )


def test_the_lazy_names_are_the_package_s() -> None:
    import ctxpact.reference  # noqa: PLC0415 - the lazy attribute is the point

    assert ctxpact.reference.PostgresAgentMemory is PostgresAgentMemory
    assert ctxpact.reference.PostgresSessionStore is PostgresSessionStore
    with pytest.raises(AttributeError, match="no attribute 'PostgresNothing'"):
        _ = ctxpact.reference.PostgresNothing


def test_a_borrowed_connection_stays_open_and_outside_a_transaction(postgres_schema: str) -> None:
    with psycopg.connect(postgres_schema) as connection:  # not autocommit: the default
        memory = PostgresAgentMemory(connection, "s-1")
        memory.add_user_input("hello")
        memory.set_summary("kept")
        assert memory.get_summary() == "kept"
        memory.close()
        assert not connection.closed
        assert connection.info.transaction_status.name == "IDLE"
        store = PostgresSessionStore(connection)
        store.save(AgentSessionSnapshot(session_id="s-1", memory=memory.snapshot()))
        store.close()
        assert connection.info.transaction_status.name == "IDLE"
        reopened = PostgresSessionStore(connection).load("s-1")
        assert reopened is not None
        assert reopened.memory.summary == "kept"


def test_a_borrowed_connection_inside_a_transaction_is_refused(postgres_schema: str) -> None:
    with psycopg.connect(postgres_schema) as connection:
        memory = PostgresAgentMemory(connection, "s-1")
        connection.execute("SELECT 1")  # opens a transaction, as psycopg does by default
        with pytest.raises(OpenTransactionError, match="psycopg connection"):
            memory.add_user_input("refused")
        connection.rollback()
        assert memory.snapshot() == MemorySnapshot()


def test_a_pool_lends_each_operation_a_connection(postgres_schema: str) -> None:
    with psycopg_pool.ConnectionPool(postgres_schema, min_size=1, max_size=2) as pool:
        memory = PostgresAgentMemory(pool, "pooled")
        store = PostgresSessionStore(pool)
        memory.add_output_items([{"z": 1, "a": 1.0}, 1e16])
        store.save(AgentSessionSnapshot(session_id="pooled", memory=memory.snapshot()))
        memory.close()
        loaded = store.load("pooled")
        assert loaded is not None
        assert loaded.memory.items == ({"z": 1, "a": 1.0}, 1e16)
        assert list(loaded.memory.items[0]) == ["z", "a"]


def test_a_session_id_with_a_nul_is_kept(postgres_schema: str) -> None:
    # PostgreSQL's text cannot hold U+0000; the id is stored as its UTF-8 (SES-17, MEM-29).
    memory = PostgresAgentMemory(postgres_schema, "a\x00b")
    store = PostgresSessionStore(postgres_schema)
    try:
        memory.add_user_input("\x00 inside")
        store.save(AgentSessionSnapshot(session_id="a\x00b", memory=memory.snapshot()))
        store.save(AgentSessionSnapshot(session_id="a"))
        assert store.session_ids() == ["a", "a\x00b"]
        with PostgresAgentMemory(postgres_schema, "a") as neighbour:
            assert neighbour.snapshot() == MemorySnapshot()
        assert store.delete("a\x00b") is True
        assert store.session_ids() == ["a"]
    finally:
        memory.close()
        store.close()


def test_a_table_name_longer_than_postgresql_keeps_is_refused_before_connecting() -> None:
    long_name = "t" * (MAX_TABLE_NAME + 1)
    with pytest.raises(InvalidValueError, match=f"at most {MAX_TABLE_NAME} characters"):
        PostgresAgentMemory("host=/nonexistent port=1", "s-1", table=long_name)
    with pytest.raises(InvalidValueError, match="database"):
        PostgresSessionStore(object())


def test_an_unreachable_server_is_named_without_its_password() -> None:
    conninfo = "host=/nonexistent-ctxpact port=1 dbname=app user=u password=hunter2"
    with pytest.raises(PostgresOperationalError) as caught:
        PostgresAgentMemory(conninfo, "s-1")
    message = str(caught.value)
    assert "open the database in database 'app' on /nonexistent-ctxpact:1" in message
    assert "hunter2" not in message
    assert isinstance(caught.value, psycopg.OperationalError)
    assert isinstance(caught.value.__cause__, psycopg.OperationalError)


def test_a_session_held_by_another_writer_times_out_as_busy(postgres_schema: str) -> None:
    memory = PostgresAgentMemory(postgres_schema, "held", busy_timeout=0.05)
    other = PostgresAgentMemory(postgres_schema, "other", busy_timeout=0.05)
    holder = psycopg.connect(postgres_schema)
    try:
        memory.add_user_input("before")
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (_key("held"),))
        with pytest.raises(PostgresBusyError) as caught:
            memory.add_user_input("while held")
        assert isinstance(caught.value, TimeoutError)
        assert caught.value.sqlstate == "55P03"
        assert "busy timeout of 0.05 s" in str(caught.value)
        assert "add items of session 'held'" in str(caught.value)
        other.add_user_input("another session does not wait")
        assert memory.get_items()[-1]["content"][0]["text"] == "before"  # type: ignore[index,call-overload]
    finally:
        holder.close()
        memory.close()
        other.close()


def _key(session_id: str) -> int:
    from ctxpact.reference.postgres import session_lock_key  # noqa: PLC0415

    return session_lock_key("ctxpact_agent_memory", session_id)


def test_a_closed_borrowed_connection_is_a_postgres_error(postgres_schema: str) -> None:
    connection = psycopg.connect(postgres_schema)
    memory = PostgresAgentMemory(connection, "s-1")
    connection.close()
    with pytest.raises(PostgresError, match="could not read the items of session 's-1'"):
        memory.get_items()


def test_concurrent_creators_of_one_table_all_succeed(postgres_schema: str) -> None:
    # CREATE TABLE IF NOT EXISTS races in PostgreSQL; the creation lock makes them take turns.
    errors: list[BaseException] = []

    def create(number: int) -> None:
        try:
            PostgresAgentMemory(postgres_schema, f"s-{number}", table="raced").close()
        except BaseException as error:  # noqa: BLE001 - collected and asserted
            errors.append(error)

    threads = [threading.Thread(target=create, args=(number,)) for number in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_the_session_lock_key_is_the_one_spec_md_defines() -> None:
    # MEM-28: every implementation sharing a table takes the same lock; these pin the bytes.
    from ctxpact.reference.postgres import session_lock_key  # noqa: PLC0415

    digest = hashlib.blake2b(b"ctxpact_agent_memory\x00s-1", digest_size=8).digest()
    assert session_lock_key("ctxpact_agent_memory", "s-1") == int.from_bytes(
        digest, "big", signed=True
    )
    assert session_lock_key("ctxpact_agent_memory", "s-1") == -627585284094805887
    assert session_lock_key("t", "a\x00b") == 4779950285156025537


class _Echo:
    """A model client that answers every prompt with the number of items it saw."""

    def create(self, prompt: ModelPrompt) -> ModelResult:
        answer = f"saw {len(prompt.items)}"
        return ModelResult(
            output_text=answer,
            memory_items=(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": answer}],
                },
            ),
        )


def test_the_readme_s_agent_saves_and_resumes_through_a_pool(postgres_schema: str) -> None:
    # SES-8 on PostgreSQL, as the README's example runs it: another agent (another worker)
    # resumes the session and finds it identical.
    with psycopg_pool.ConnectionPool(postgres_schema, min_size=1, max_size=4) as pool:

        def agent() -> Agent:
            return Agent(
                model_client=_Echo(),
                memory_factory=lambda session_id: PostgresAgentMemory(pool, session_id),
                session_store=PostgresSessionStore(pool),
            )

        session = agent().new_session()
        assert session.run("Fix the build") == "saw 1"
        session.memory.set_summary("## Goal\nShip it")
        session.save()
        resumed = agent().resume_session(session.session_id)
        assert to_json(resumed.snapshot()) == to_json(session.snapshot())
        assert resumed.run("and now?") == "saw 4"


def test_a_session_key_that_is_not_utf8_is_reported_not_skipped(postgres_schema: str) -> None:
    with PostgresSessionStore(postgres_schema) as store:
        store.save(AgentSessionSnapshot(session_id="fine"))
        with psycopg.connect(postgres_schema, autocommit=True) as other:
            other.execute("INSERT INTO ctxpact_agent_session VALUES (%s, '{}', 0)", (b"\xff\xfe",))
        with pytest.raises(CorruptSessionError, match="Expected a session id in UTF-8") as caught:
            store.session_ids()
        assert "table 'ctxpact_agent_session'" in str(caught.value)
