"""The reference implementations, as the targets ``ctxpact check`` runs when none is named."""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import tempfile
import uuid
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._report import suite_version
from ctxpact.conformance._runtime import reference_runtime
from ctxpact.conformance._target import Target
from ctxpact.conformance.checks._storage import POSTGRES_DSN_VARIABLE
from ctxpact.reference import SpecFunctions
from ctxpact.reference.compaction import (
    CompactPolicyMemoryCompressor,
    LlmCompactPolicy,
    StructuredSummaryCompactPolicy,
    WindowedMemoryCompressor,
    parse_structured_summary,
)
from ctxpact.reference.memory import InMemoryAgentMemory, SqliteAgentMemory
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
)
from ctxpact.reference.session import FileSessionStore, InMemorySessionStore, SqliteSessionStore
from ctxpact.spec import PROVIDERS, ContextBudget, ModelClient

#: The keep-recent count of the reference LLM policy that the suite checks.
LLM_MAX_ITEMS = 4
#: The budget of the reference structured-summary policy that the suite checks.
STRUCTURED_BUDGET = ContextBudget(max_items=4, pinned_prefix_items=1)


def _file_stores() -> Callable[[], FileSessionStore]:
    # One temporary directory per run, a fresh sub-directory per store, removed at exit.
    root = tempfile.TemporaryDirectory(prefix="ctxpact-check-")
    counter = itertools.count()

    def build() -> FileSessionStore:
        return FileSessionStore(Path(root.name) / str(next(counter)))

    weakref.finalize(build, root.cleanup)
    return build


class _PostgresSchema:
    """One schema on a server for the reference's PostgreSQL targets, made on first use.

    Its memories borrow one connection and each has a session of its own; its stores each
    have a table of their own: every subject starts empty. The schema is dropped at exit.
    """

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self.schema = f"ctxpact_check_{uuid.uuid4().hex[:16]}"
        self.counter = itertools.count()
        self._connection: Any = None

    def connection(self) -> Any:  # noqa: ANN401 - a psycopg connection
        if self._connection is None:
            import psycopg  # noqa: PLC0415 - only when a server is named

            with psycopg.connect(self.conninfo, autocommit=True) as admin:
                admin.execute(f'CREATE SCHEMA "{self.schema}"')
            self._connection = psycopg.connect(
                f"{self.conninfo} options='-c search_path={self.schema}'", autocommit=True
            )
        return self._connection

    def drop(self) -> None:
        if self._connection is None:
            return
        self._connection.close()
        import psycopg  # noqa: PLC0415 - only when a server is named

        # At exit the server may be gone already (a throwaway one): nothing is left to drop.
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(self.conninfo, autocommit=True) as admin,
        ):
            admin.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')


def postgres_factories(conninfo: str) -> tuple[Callable[[], object], Callable[[], object]]:
    """Factories of fresh PostgreSQL memories and stores on the server *conninfo* names."""
    from ctxpact.reference.postgres import (  # noqa: PLC0415 - needs the extra
        PostgresAgentMemory,
        PostgresSessionStore,
    )

    schema = _PostgresSchema(conninfo)

    def memory() -> PostgresAgentMemory:
        return PostgresAgentMemory(schema.connection(), f"conformance-{next(schema.counter)}")

    def store() -> PostgresSessionStore:
        return PostgresSessionStore(schema.connection(), table=f"sessions_{next(schema.counter)}")

    weakref.finalize(memory, schema.drop)
    return memory, store


def postgres_targets(conninfo: str) -> tuple[Target, ...]:
    """The reference's PostgreSQL memory and store, on the server *conninfo* names."""
    memory, store = postgres_factories(conninfo)
    version = suite_version()
    return (
        Target(
            name="ctxpact.reference:PostgresAgentMemory",
            component=Component.AGENT_MEMORY,
            factory=memory,
            claims=(Claim.GENERIC, Claim.EXACT),
            options={},
            version=version,
        ),
        Target(
            name="ctxpact.reference:PostgresSessionStore",
            component=Component.SESSION_STORE,
            factory=store,
            claims=(Claim.GENERIC,),
            options={},
            version=version,
        ),
    )


def _structured(_: ModelClient) -> StructuredSummaryCompactPolicy:
    return StructuredSummaryCompactPolicy(STRUCTURED_BUDGET)


def _llm(model_client: ModelClient) -> LlmCompactPolicy:
    return LlmCompactPolicy(model_client, max_items=LLM_MAX_ITEMS)


def reference_targets() -> tuple[Target, ...]:
    """Every reference implementation with the claims it makes.

    The PostgreSQL memory and store are among them when ``CTXPACT_POSTGRES_DSN`` names a
    server and psycopg is installed (the extra ``ctxpact[postgres]``).
    """
    conninfo = os.environ.get(POSTGRES_DSN_VARIABLE)
    postgres = (
        postgres_targets(conninfo)
        if conninfo and importlib.util.find_spec("psycopg") is not None
        else ()
    )
    return _targets() + postgres


def _targets() -> tuple[Target, ...]:
    version = suite_version()
    exact = (Claim.GENERIC, Claim.EXACT)
    pair_keeping = (Claim.PAIR_INTEGRITY, Claim.WIRE_VALID)

    def target(
        name: str,
        component: Component,
        factory: Callable[..., object],
        claims: tuple[Claim, ...] = (Claim.GENERIC,),
        **options: object,
    ) -> Target:
        return Target(
            name=f"ctxpact.reference:{name}",
            component=component,
            factory=factory,
            claims=claims,
            options=options,
            version=version,
        )

    return (
        target(
            "DefaultContextProjector",
            Component.PROJECTOR,
            DefaultContextProjector,
            exact,
            tiers=False,
        ),
        target("TypeAwareContextProjector", Component.PROJECTOR, TypeAwareContextProjector, exact),
        target(
            "PairSafeContextProjector",
            Component.PROJECTOR,
            PairSafeContextProjector,
            (*exact, *pair_keeping),
            pair_safe=True,
            providers=PROVIDERS,
        ),
        target(
            "StructuredSummaryCompactPolicy",
            Component.COMPACT_POLICY,
            _structured,
            (*exact, *pair_keeping),
            budget=STRUCTURED_BUDGET,
            providers=PROVIDERS,
        ),
        target(
            "LlmCompactPolicy",
            Component.COMPACT_POLICY,
            _llm,
            (Claim.GENERIC, Claim.LLM_SUMMARY, *pair_keeping),
            max_items=LLM_MAX_ITEMS,
            providers=PROVIDERS,
        ),
        target("InMemoryAgentMemory", Component.AGENT_MEMORY, InMemoryAgentMemory, exact),
        target(
            "SqliteAgentMemory",
            Component.AGENT_MEMORY,
            lambda: SqliteAgentMemory(":memory:", "conformance"),
            exact,
        ),
        target(
            "parse_structured_summary",
            Component.SUMMARY_PARSER,
            lambda: parse_structured_summary,
            exact,
        ),
        target("InMemorySessionStore", Component.SESSION_STORE, InMemorySessionStore),
        target("FileSessionStore", Component.SESSION_STORE, _file_stores()),
        target(
            "SqliteSessionStore", Component.SESSION_STORE, lambda: SqliteSessionStore(":memory:")
        ),
        target("Agent", Component.RUNTIME, reference_runtime),
        target(
            "WindowedMemoryCompressor",
            Component.MEMORY_COMPRESSOR,
            WindowedMemoryCompressor,
            exact,
            kind="windowed",
            args=(3,),
        ),
        target(
            "CompactPolicyMemoryCompressor",
            Component.MEMORY_COMPRESSOR,
            CompactPolicyMemoryCompressor,
            exact,
            kind="policy-adapter",
            args=(StructuredSummaryCompactPolicy(STRUCTURED_BUDGET),),
        ),
        target("SpecFunctions", Component.FUNCTIONS, SpecFunctions, exact),
    )
