"""The compact-policy base class and the two memory compressors (§9.1, §9.2)."""

from __future__ import annotations

import abc
import threading
from typing import Any

from attrs import Attribute, field, frozen

from ctxpact.reference._arguments import checked_snapshot
from ctxpact.spec import (
    CompactPolicy as CompactPolicyProtocol,
)
from ctxpact.spec import (
    CompactResult,
    InvalidValueError,
    MemorySnapshot,
)


class CompactPolicy(abc.ABC):
    """A base for compact policies: manual-only unless a subclass says otherwise.

    Implements CMP-1. :meth:`should_compact` answers ``False`` (the runtime never compacts
    on its own); :meth:`compact` is for the subclass. Satisfies the
    :class:`ctxpact.spec.CompactPolicy` protocol.
    """

    __slots__ = ()

    def should_compact(self, snapshot: MemorySnapshot) -> bool:  # noqa: ARG002 - the default ignores it
        """Whether the runtime should compact *snapshot* now: never, by default."""
        return False

    @abc.abstractmethod
    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """Compact *snapshot* and report what was kept and what was summarized."""


class CompactPolicyMemoryCompressor:
    """A memory compressor that runs a compact policy on every write.

    Implements CMP-6 and CMP-7. :meth:`compress` always calls ``policy.compact`` (it does not ask
    ``should_compact``), remembers the result for :meth:`get_last_result`, and returns the
    result's memory, or the snapshot it was given when the result has none. An error from the
    policy propagates and leaves the last result as it was.
    """

    __slots__ = ("_last_result", "_lock", "_policy")

    def __init__(self, policy: CompactPolicyProtocol) -> None:
        if not isinstance(policy, CompactPolicyProtocol):
            raise InvalidValueError(
                record=type(self).__name__,
                field="policy",
                expected="a CompactPolicy (with should_compact and compact)",
                actual=policy,
            )
        self._policy = policy
        self._last_result: CompactResult | None = None
        self._lock = threading.Lock()

    @property
    def policy(self) -> CompactPolicyProtocol:
        """The policy this compressor runs."""
        return self._policy

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        """Compact *snapshot* with the policy and return the memory to keep."""
        snapshot = checked_snapshot(f"{type(self).__name__}.compress", snapshot)
        with self._lock:
            result = self._policy.compact(snapshot)
            self._last_result = result
        return snapshot if result.memory is None else result.memory

    def get_last_result(self) -> CompactResult | None:
        """The result of the last :meth:`compress`, or ``None`` before the first."""
        return self._last_result

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._policy!r})"


def _positive(instance: object, attribute: Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected="a positive integer",
            actual=value,
        )


@frozen
class WindowedMemoryCompressor:
    """A memory compressor that keeps only the last *max_items* items.

    Implements CMP-8. *max_items* must be a positive integer
    (:class:`~ctxpact.spec.InvalidValueError`, a ``ValueError``, otherwise). A snapshot with
    at most *max_items* items is returned as it is; otherwise its last *max_items* items are
    kept with the summary unchanged. It never writes a summary.
    """

    max_items: int = field(validator=_positive)

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        """Keep the last ``max_items`` items of *snapshot*."""
        snapshot = checked_snapshot(f"{type(self).__name__}.compress", snapshot)
        if len(snapshot.items) <= self.max_items:
            return snapshot
        return MemorySnapshot(items=snapshot.items[-self.max_items :], summary=snapshot.summary)
