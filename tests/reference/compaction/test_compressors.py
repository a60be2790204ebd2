"""The CompactPolicy base and the two memory compressors (CMP-n, ai4j §6.1, §6.3, §7.4)."""

from __future__ import annotations

import pytest

from ctxpact.reference.compaction import (
    CompactPolicy,
    CompactPolicyMemoryCompressor,
    StructuredSummaryCompactPolicy,
    WindowedMemoryCompressor,
)
from ctxpact.spec import (
    CompactPolicy as CompactPolicyProtocol,
)
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    InvalidValueError,
    MemorySnapshot,
)
from ctxpact.spec import (
    MemoryCompressor as MemoryCompressorProtocol,
)


class ScriptedPolicy(CompactPolicy):
    """A policy that never asks to compact and answers from a script."""

    def __init__(self, *results: CompactResult | Exception) -> None:
        self.results = list(results)
        self.seen: list[MemorySnapshot] = []

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        self.seen.append(snapshot)
        result = self.results.pop(0)
        if isinstance(result, Exception):
            raise result
        return result


def test_base_policy_is_manual_only_and_abstract() -> None:
    policy = ScriptedPolicy()
    assert policy.should_compact(MemorySnapshot(items=tuple(range(1000)))) is False
    assert isinstance(policy, CompactPolicyProtocol)
    with pytest.raises(TypeError, match="abstract"):
        CompactPolicy()  # type: ignore[abstract]


def test_compressor_always_compacts_and_remembers_the_result() -> None:
    kept = MemorySnapshot(items=("b",), summary="s")
    policy = ScriptedPolicy(CompactResult(memory=kept, summary="s"))
    compressor = CompactPolicyMemoryCompressor(policy)
    assert compressor.get_last_result() is None
    snapshot = MemorySnapshot(items=("a", "b"))
    assert compressor.compress(snapshot) == kept
    assert policy.seen == [snapshot]
    assert compressor.get_last_result() == CompactResult(memory=kept, summary="s")
    assert isinstance(compressor, MemoryCompressorProtocol)
    assert compressor.policy is policy


def test_compressor_returns_the_input_when_the_result_has_no_memory() -> None:
    compressor = CompactPolicyMemoryCompressor(ScriptedPolicy(CompactResult(summary="x")))
    snapshot = MemorySnapshot(items=("a",), summary="old")
    assert compressor.compress(snapshot) is snapshot
    assert compressor.get_last_result() == CompactResult(summary="x")


def test_compressor_errors_propagate_and_keep_the_last_result() -> None:
    first = CompactResult(memory=MemorySnapshot(), summary="first")
    compressor = CompactPolicyMemoryCompressor(ScriptedPolicy(first, RuntimeError("boom")))
    compressor.compress(MemorySnapshot())
    with pytest.raises(RuntimeError, match="boom"):
        compressor.compress(MemorySnapshot())
    assert compressor.get_last_result() == first


def test_compressor_with_structured_policy_rewrites_on_every_call() -> None:
    compressor = CompactPolicyMemoryCompressor(
        StructuredSummaryCompactPolicy(ContextBudget(max_items=10))
    )
    compressed = compressor.compress(MemorySnapshot(items=("a",)))
    assert compressed.summary is not None
    assert compressed.summary.startswith("AI4J_COMPACT_SUMMARY\n")
    last = compressor.get_last_result()
    assert last is not None
    assert last.memory == compressed


def test_compressor_rejects_a_non_policy() -> None:
    with pytest.raises(InvalidValueError, match="CompactPolicy"):
        CompactPolicyMemoryCompressor(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("max_items", [0, -1, True, 1.5, None])
def test_windowed_compressor_rejects_a_non_positive_limit(max_items: object) -> None:
    with pytest.raises(InvalidValueError, match="positive integer"):
        WindowedMemoryCompressor(max_items)  # type: ignore[arg-type]


def test_windowed_compressor_keeps_the_last_items_and_the_summary() -> None:
    compressor = WindowedMemoryCompressor(2)
    snapshot = MemorySnapshot(items=("a", "b", "c"), summary="s")
    assert compressor.compress(snapshot) == MemorySnapshot(items=("b", "c"), summary="s")
    assert snapshot.items == ("a", "b", "c")
    short = MemorySnapshot(items=("a", "b"))
    assert compressor.compress(short) is short
    assert isinstance(compressor, MemoryCompressorProtocol)
