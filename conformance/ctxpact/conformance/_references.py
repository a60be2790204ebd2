"""The reference implementations, as the targets ``ctxpact check`` runs when none is named."""

from __future__ import annotations

import itertools
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path

from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._report import suite_version
from ctxpact.conformance._runtime import reference_runtime
from ctxpact.conformance._target import Target
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


def _structured(_: ModelClient) -> StructuredSummaryCompactPolicy:
    return StructuredSummaryCompactPolicy(STRUCTURED_BUDGET)


def _llm(model_client: ModelClient) -> LlmCompactPolicy:
    return LlmCompactPolicy(model_client, max_items=LLM_MAX_ITEMS)


def reference_targets() -> tuple[Target, ...]:
    """Every reference implementation with the claims it makes."""
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
