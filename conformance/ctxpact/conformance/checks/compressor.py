"""Checks for memory compressors, the hooks a memory runs on its write path (CMP-6 .. CMP-8).

Generic checks hold for any compressor: ``compress`` changes nothing it is given, answers a
valid snapshot, and answers the same when asked again. The exact checks are for ports of the
spec's two compressors, chosen by ``options["kind"]``:

- ``"windowed"``: ``factory(max_items)`` builds a ``WindowedMemoryCompressor``;
- ``"policy-adapter"``: ``factory(policy)`` builds a ``CompactPolicyMemoryCompressor``.

Generic checks build the subject with ``options["args"]`` (default: none).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck, describe
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.strategies import texts, transcripts
from ctxpact.spec import CompactResult, MemorySnapshot, compact_json, to_json, validate

_COMPRESSOR = Component.MEMORY_COMPRESSOR
_WINDOWED = "windowed"
_ADAPTER = "policy-adapter"


def _snapshots() -> st.SearchStrategy[MemorySnapshot]:
    return st.builds(
        MemorySnapshot, items=transcripts(max_turns=3, max_steps=2), summary=st.none() | texts()
    )


def _identical(left: MemorySnapshot, right: MemorySnapshot) -> bool:
    return compact_json(to_json(left)) == compact_json(to_json(right))


def _other_kind(context: CheckContext, wanted: str) -> Callable[[], None] | None:
    """A test that skips, when the target is not a port of the *wanted* compressor."""
    kind = context.options.get("kind")
    if kind == wanted:
        return None

    def skip() -> None:
        raise SkipCheck(f"options['kind'] is {kind!r}, not {wanted!r}")

    return skip


def _generic_subject(context: CheckContext) -> Any:  # noqa: ANN401 - the subject's own type
    return context.subject(*context.options.get("args", ()))


@check(
    "compressor.pure",
    component=_COMPRESSOR,
    claim=Claim.GENERIC,
    clauses=("JSON-14", "JSON-16"),
)
def pure(context: CheckContext) -> Callable[[], None]:
    """Compressing changes nothing given and answers a valid snapshot, the same each time."""

    @given(snapshot=_snapshots())
    @example(snapshot=MemorySnapshot(items=("a", {"type": "message", "role": "user"}), summary="s"))
    def test(snapshot: MemorySnapshot) -> None:
        context.record(snapshot=snapshot)
        before = copy.deepcopy(to_json(snapshot))
        compressor = _generic_subject(context)
        first = compressor.compress(snapshot)
        context.expect(
            isinstance(first, MemorySnapshot),
            f"compress returned a {type(first).__name__}, not a MemorySnapshot",
            clause="JSON-14",
        )
        validate(to_json(first), "memory-snapshot")
        context.expect(
            to_json(snapshot) == before,
            "compress changed the snapshot it was given",
            clause="JSON-16",
            returned=to_json(snapshot),
            expected=before,
        )
        again = _generic_subject(context).compress(snapshot)
        context.expect(
            _identical(first, again),
            f"compress answered {describe(to_json(first))} and then {describe(to_json(again))}",
            returned=to_json(again),
            expected=to_json(first),
        )

    return test


@check(
    "compressor.windowed",
    component=_COMPRESSOR,
    claim=Claim.EXACT,
    clauses=("CMP-8",),
)
def windowed(context: CheckContext) -> Callable[[], None]:
    """A windowed compressor keeps the last max_items items and the summary, and rejects <= 0."""
    skip = _other_kind(context, _WINDOWED)
    if skip is not None:
        return skip

    @given(snapshot=_snapshots(), max_items=st.integers(1, 6))
    @example(snapshot=MemorySnapshot(items=("a", "b", "c"), summary="kept"), max_items=2)
    @example(snapshot=MemorySnapshot(items=("a", "b"), summary=None), max_items=2)
    def test(snapshot: MemorySnapshot, max_items: int) -> None:
        context.record(snapshot=snapshot, max_items=max_items)
        result = context.subject(max_items).compress(snapshot)
        expected = (
            snapshot
            if len(snapshot.items) <= max_items
            else MemorySnapshot(items=snapshot.items[-max_items:], summary=snapshot.summary)
        )
        context.expect(
            _identical(result, expected),
            f"expected {describe(to_json(expected))} but got {describe(to_json(result))}",
            returned=to_json(result),
            expected=to_json(expected),
        )
        for bad in (0, -1):
            try:
                context.factory(bad)
            except (ValueError, TypeError) as error:
                context.expect(
                    "max_items" in str(error),
                    f"the error for max_items={bad} does not name the field: {error}",
                )
            else:
                context.expect(condition=False, message=f"max_items={bad} was accepted")

    return test


class _RecordingPolicy:
    """A policy that answers scripted results (or raises) and records what it was asked."""

    def __init__(self, answers: list[CompactResult | Exception]) -> None:
        self.answers = answers
        self.compacted: list[MemorySnapshot] = []

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        del snapshot
        return False  # the adapter must compact anyway (CMP-6)

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        self.compacted.append(snapshot)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


_KEPT = MemorySnapshot(items=("recent",), summary="summary")
_ANSWERS = st.lists(st.sampled_from(["memory", "no-memory", "error"]), min_size=1, max_size=5)


@check(
    "compressor.policy-adapter",
    component=_COMPRESSOR,
    claim=Claim.EXACT,
    clauses=("CMP-6", "CMP-7"),
)
def policy_adapter(context: CheckContext) -> Callable[[], None]:
    """The adapter compacts on every call, answers the result's memory, remembers the result."""
    skip = _other_kind(context, _ADAPTER)
    if skip is not None:
        return skip

    @given(script=_ANSWERS)
    @example(script=["memory", "no-memory"])
    @example(script=["memory", "error"])
    def test(script: list[str]) -> None:
        context.record(script=script)
        try:
            context.factory(None)
        except (ValueError, TypeError):
            pass
        else:
            context.expect(condition=False, message="a compressor without a policy was built")
        results = {
            "memory": CompactResult(memory=_KEPT, summary="summary"),
            "no-memory": CompactResult(summary="nothing kept"),
        }
        answers: list[CompactResult | Exception] = [
            results[kind] if kind in results else RuntimeError("policy failed") for kind in script
        ]
        policy = _RecordingPolicy(list(answers))
        compressor = context.subject(policy)
        context.expect(
            compressor.get_last_result() is None,
            "get_last_result() before any compress is not null",
            clause="CMP-7",
            returned=compressor.get_last_result(),
            expected=None,
        )
        remembered: CompactResult | None = None
        for index, answer in enumerate(answers):
            given_snapshot = MemorySnapshot(items=(f"item-{index}",), summary=None)
            try:
                returned = compressor.compress(given_snapshot)
            except RuntimeError:
                context.expect(
                    isinstance(answer, Exception),
                    f"compress raised at call {index}",
                    clause="CMP-6",
                )
            else:
                context.expect(
                    isinstance(answer, CompactResult),
                    f"compress swallowed the policy's error at call {index}",
                    clause="CMP-6",
                )
                assert isinstance(answer, CompactResult)  # noqa: S101 - narrowed above
                want = answer.memory if answer.memory is not None else given_snapshot
                context.expect(
                    _identical(returned, want),
                    f"call {index}: expected {describe(to_json(want))} "
                    f"but got {describe(to_json(returned))}",
                    clause="CMP-6",
                    returned=to_json(returned),
                    expected=to_json(want),
                )
                remembered = answer
            last = compressor.get_last_result()
            context.expect(
                (last is None and remembered is None)
                or (
                    last is not None
                    and remembered is not None
                    and to_json(last) == to_json(remembered)
                ),
                f"after call {index} get_last_result() is {describe(last)}, "
                f"not {describe(remembered)}",
                clause="CMP-7",
                returned=last,
                expected=remembered,
            )
        context.expect(
            len(policy.compacted) == len(answers),
            f"the policy was asked {len(policy.compacted)} times for {len(answers)} compressions",
            clause="CMP-6",
            returned=len(policy.compacted),
            expected=len(answers),
        )

    return test


# -- found by mutation testing (docs/mutation.md) -------------------------------------------

#: Values of ``max_items`` that are no integer at all, beyond the 0 and -1 of
#: :func:`windowed`: an implementation that compares them with 0 before it checks their type
#: fails with an error about the comparison, not about the field.
_NOT_INTEGERS: tuple[object, ...] = ("3", None)


@check(
    "compressor.windowed-rejects",
    component=_COMPRESSOR,
    claim=Claim.EXACT,
    clauses=("CMP-8",),
)
def windowed_rejects(context: CheckContext) -> Callable[[], None]:
    """A windowed compressor refuses a ``max_items`` that is no integer, naming the field."""
    skip = _other_kind(context, _WINDOWED)
    if skip is not None:
        return skip

    def test() -> None:
        for bad in _NOT_INTEGERS:
            context.record(max_items=bad)
            try:
                context.factory(bad)
            except (ValueError, TypeError) as error:
                context.expect(
                    "max_items" in str(error),
                    f"the error for max_items={bad!r} does not name the field: {error}",
                )
            else:
                context.expect(condition=False, message=f"max_items={bad!r} was accepted")

    return test


#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = (pure, windowed, policy_adapter, windowed_rejects)
