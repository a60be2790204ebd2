"""Hypothesis profiles for ctxpact's own tests, chosen by CTXPACT_HYPOTHESIS_PROFILE.

``ci`` is derandomised, so a red CI run reproduces exactly on any machine.

The PostgreSQL tests get their server from :func:`postgres_conninfo`: the one that
``CTXPACT_POSTGRES_DSN`` names, or else a throwaway cluster started for the run
(tests/postgres_server.py). Without server binaries they are skipped, saying why; under CI
(``CI`` set) that is a failure instead.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

_BASE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", _BASE, max_examples=25)
settings.register_profile("default", _BASE, max_examples=100)
settings.register_profile("thorough", _BASE, max_examples=1000)
settings.register_profile("ci", _BASE, max_examples=100, derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("CTXPACT_HYPOTHESIS_PROFILE", "default"))

#: pytester runs the pytest classes of ctxpact.conformance.testing as a user's suite would.
pytest_plugins = ["pytester"]


@pytest.fixture
def implementation_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[str, str], str]]:
    """Write a module a test names as ``module:attr``; returns ``write(name, source) -> name``.

    The module is importable and the working directory is its directory, as for a user who
    runs ``ctxpact check`` next to their code; it is forgotten after the test.
    """
    written: list[str] = []
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)

    def write(name: str, source: str) -> str:
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
        written.append(name)
        return name

    yield write
    for name in written:
        sys.modules.pop(name, None)


def _postgres_server() -> object:
    spec = importlib.util.spec_from_file_location(
        "postgres_server", Path(__file__).with_name("postgres_server.py")
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the PostgreSQL tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_conninfo() -> Iterator[str]:
    """The conninfo string of a PostgreSQL server the tests may create schemas in."""
    server: object = _postgres_server()
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("psycopg is not installed: pip install -e '.[postgres]'")
    variable: str = server.DSN_VARIABLE  # type: ignore[attr-defined]
    given = os.environ.get(variable)
    if given:
        yield given
        return
    if server.find_binaries() is None:  # type: ignore[attr-defined]
        _unavailable(
            "no PostgreSQL server binaries (initdb and pg_ctl, on PATH or in "
            f"/usr/lib/postgresql/*/bin): install Debian's postgresql, or set {variable} "
            "to the conninfo string of a server"
        )
    # A short path: the server's Unix socket lives in it (at most 107 bytes).
    directory = Path(tempfile.mkdtemp(prefix="ctxpact-pg-", dir="/tmp"))
    try:
        conninfo: str = server.start(directory)  # type: ignore[attr-defined]
        previous = os.environ.get(variable)
        # Child processes (the kill trials, the concurrent writers) find the server here.
        os.environ[variable] = conninfo
        try:
            yield conninfo
        finally:
            if previous is None:
                os.environ.pop(variable, None)
            else:  # pragma: no cover - set only when given, which returned above
                os.environ[variable] = previous
    finally:
        server.stop(directory)  # type: ignore[attr-defined]
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def postgres_schema(postgres_conninfo: str) -> Iterator[str]:
    """A conninfo string whose ``search_path`` is a new, empty schema, dropped afterwards."""
    import psycopg  # noqa: PLC0415 - only where PostgreSQL is tested

    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_conninfo, autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{postgres_conninfo} options='-c search_path={schema}'"
    finally:
        with psycopg.connect(postgres_conninfo, autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _zoo_targets() -> Iterator[dict[str, object]]:
    from ctxpact.conformance.harness import (  # noqa: PLC0415 - only where a zoo is served
        HarnessConnection,
        harness_targets,
    )

    script = Path(__file__).parent / "conformance" / "zoo_harness.py"
    with HarnessConnection(shlex.join([sys.executable, str(script)]), validate=True) as served:
        yield {target.name.split(":", 1)[1]: target for target in harness_targets(served)}


@pytest.fixture(scope="module")
def zoo_harness() -> Iterator[dict[str, object]]:
    """The memory and store zoos served by a harness: each member's target, by member name.

    ``tests/conformance/zoo_harness.py`` names them ``memory-<member>`` and ``store-<member>``.
    """
    yield from _zoo_targets()


@pytest.fixture(scope="module")
def postgres_zoo_harness(postgres_conninfo: str) -> Iterator[dict[str, object]]:
    """:func:`zoo_harness` started with the tests' PostgreSQL server named, so that it also
    serves ``postgres-memory`` and ``postgres-store``."""
    # The server fixture names the server in the environment the harness inherits.
    assert os.environ.get("CTXPACT_POSTGRES_DSN") == postgres_conninfo
    yield from _zoo_targets()
