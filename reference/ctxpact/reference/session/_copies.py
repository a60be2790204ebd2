"""Copies of records that share no mutable object with the original.

The records are frozen, but the JSON items inside them are dicts and lists; a copy keeps a
hook, a listener or a caller from reaching into a session's state through them (EVT-7,
EVT-8, MEM-12).
"""

from __future__ import annotations

from attrs import evolve

from ctxpact.spec import (
    CompactResult,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    copy_json,
)


def _items(items: tuple[JsonValue, ...]) -> tuple[JsonValue, ...]:
    return tuple(copy_json(item, f"$.items[{index}]") for index, item in enumerate(items))


def detached_snapshot(snapshot: MemorySnapshot) -> MemorySnapshot:
    """A deep copy of *snapshot*."""
    return evolve(snapshot, items=_items(snapshot.items))


def detached_result(result: CompactResult) -> CompactResult:
    """A deep copy of *result* (only its memory holds mutable items)."""
    if result.memory is None:
        return result
    return evolve(result, memory=detached_snapshot(result.memory))


def detached(payload: object) -> object:
    """A deep copy of an event payload when it carries JSON items; other payloads as they are."""
    if isinstance(payload, MemorySnapshot):
        return detached_snapshot(payload)
    if isinstance(payload, CompactResult):
        return detached_result(payload)
    if isinstance(payload, ModelPrompt):
        return evolve(payload, items=_items(payload.items))
    if isinstance(payload, ModelResult):
        return evolve(payload, memory_items=_items(payload.memory_items))
    if isinstance(payload, dict | list):
        # The user's input or a tool's arguments: JSON a hook could otherwise change in place.
        return copy_json(payload)
    return payload
