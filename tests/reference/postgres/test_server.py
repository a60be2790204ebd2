"""The PostgreSQL server the tests use: reachable, and each test's schema its own."""

from __future__ import annotations

import pytest

psycopg = pytest.importorskip(
    "psycopg", reason="psycopg is not installed: pip install -e '.[postgres]'"
)


def test_the_server_answers_and_the_schema_is_empty(postgres_schema: str) -> None:
    with psycopg.connect(postgres_schema, autocommit=True) as connection:
        (schema,) = connection.execute("SELECT current_schema()").fetchone() or ("",)
        assert schema.startswith("test_")
        tables = connection.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = %s", (schema,)
        ).fetchone()
        assert tables == (0,)
