"""Tool calls, tool results, and how they pair, in the three wire formats the spec knows.

Implements the definitions of SPEC.md §1.4 (tool call, tool result, result carrier, user input
item) and §1.5 (PAIR-1 .. PAIR-4: the call of a result, the results of a call, units). Every
rule reads a member only when its value has the JSON type the rule expects, so an odd item
is passed over, never an error.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from typing import Final

from attrs import frozen

from ctxpact.spec._json import JsonObject, JsonValue

FUNCTION_CALL: Final = "function_call"
FUNCTION_CALL_OUTPUT: Final = "function_call_output"
TOOL_USE: Final = "tool_use"
TOOL_RESULT: Final = "tool_result"
REASONING: Final = "reasoning"
TOOL_ROLE: Final = "tool"
USER_ROLE: Final = "user"


class Shape(enum.Enum):
    """The wire format a tool call or a tool result is written in (§1.4)."""

    RESPONSES = "responses"
    CHAT = "chat"
    ANTHROPIC = "anthropic"


@frozen(kw_only=True)
class ToolCallRef:
    """A tool call that an item declares (§1.4, rules (a) to (d)).

    ``call_id`` and ``name`` are ``None`` when the item holds no JSON string there;
    ``arguments`` is the raw argument source (JSON text, an object, or anything else, which
    readers ignore), ``None`` when the call has none.
    """

    call_id: str | None
    name: str | None
    arguments: JsonValue
    shape: Shape


@frozen(kw_only=True)
class ToolResultRef:
    """A tool result found in an item (§1.4): the item itself, or one of its content parts.

    ``part`` is the index of the result in the item's ``content`` array for an
    Anthropic-style result, ``None`` for a result that is the whole item. ``output_key`` is
    the member that holds what the tool returned: ``output`` (Responses) or ``content``.
    """

    call_id: str | None
    shape: Shape
    part: int | None

    @property
    def output_key(self) -> str:
        """The member of the result object that holds the tool's output."""
        return "output" if self.shape is Shape.RESPONSES else "content"

    def holder(self, item: JsonValue) -> JsonObject:
        """The JSON object of this result within *item* (the item, or its content part)."""
        assert isinstance(item, dict)  # noqa: S101 - a result is always found in an object
        if self.part is None:
            return item
        part = item["content"][self.part]  # type: ignore[index]  # checked when found
        assert isinstance(part, dict)  # noqa: S101
        return part


def _text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


def _arguments(source: JsonObject) -> JsonValue:
    arguments = source.get("arguments")
    return source.get("input") if arguments is None else arguments


def tool_calls(item: JsonValue) -> Iterator[ToolCallRef]:
    """Every tool call that *item* declares, in the order of §1.4.

    Responses-style ``{type: "function_call", call_id, name, arguments}`` items,
    Anthropic-style ``{type: "tool_use", id, name, input}`` parts, and Chat-style
    ``tool_calls[]`` entries (``id`` with ``name`` or ``function.name``, the arguments beside
    the name); ``content`` arrays are searched for parts of any of these shapes.
    """
    if not isinstance(item, dict):
        return
    kind = item.get("type")
    if kind == REASONING:
        return  # reasoning declares no tool call (§1.4)
    if kind == FUNCTION_CALL:
        yield ToolCallRef(
            call_id=_text(item.get("call_id")),
            name=_text(item.get("name")),
            arguments=_arguments(item),
            shape=Shape.RESPONSES,
        )
    elif kind == TOOL_USE:
        yield ToolCallRef(
            call_id=_text(item.get("id")),
            name=_text(item.get("name")),
            arguments=_arguments(item),
            shape=Shape.ANTHROPIC,
        )
    calls = item.get("tool_calls")
    if isinstance(calls, list):
        yield from _chat_calls(calls)
    content = item.get("content")
    if isinstance(content, list):
        for part in content:
            yield from tool_calls(part)


def _chat_calls(entries: list[JsonValue]) -> Iterator[ToolCallRef]:
    """Rule (c) of §1.4: the calls of a ``tool_calls`` array."""
    for call in entries:
        if not isinstance(call, dict):
            continue
        source = call
        name = _text(call.get("name"))
        function = call.get("function")
        if name is None and isinstance(function, dict):
            source = function
            name = _text(function.get("name"))
        yield ToolCallRef(
            call_id=_text(call.get("id")),
            name=name,
            arguments=_arguments(source),
            shape=Shape.CHAT,
        )


def tool_results(item: JsonValue) -> Iterator[ToolResultRef]:
    """Every tool result that *item* is or carries, in order (§1.4).

    A Responses-style ``function_call_output`` item, or a Chat-style tool message (``role``
    ``"tool"``), is one result; otherwise each ``tool_result`` part of the item's ``content``
    array is one (Anthropic-style, the item is then a *result carrier*).
    """
    if not isinstance(item, dict):
        return
    kind = item.get("type")
    if kind == REASONING:
        return  # reasoning is never a tool result and carries none (§1.4)
    if kind == FUNCTION_CALL_OUTPUT:
        yield ToolResultRef(call_id=_text(item.get("call_id")), shape=Shape.RESPONSES, part=None)
        return
    if item.get("role") == TOOL_ROLE:
        yield ToolResultRef(call_id=_text(item.get("tool_call_id")), shape=Shape.CHAT, part=None)
        return
    content = item.get("content")
    if isinstance(content, list):
        for index, part in enumerate(content):
            if isinstance(part, dict) and part.get("type") == TOOL_RESULT:
                yield ToolResultRef(
                    call_id=_text(part.get("tool_use_id")), shape=Shape.ANTHROPIC, part=index
                )


def is_result_item(item: JsonValue) -> bool:
    """Whether *item* is itself a tool result (Responses or Chat style)."""
    if not isinstance(item, dict) or item.get("type") == REASONING:
        return False
    return item.get("type") == FUNCTION_CALL_OUTPUT or item.get("role") == TOOL_ROLE


def holds_tool_result(item: JsonValue) -> bool:
    """Whether *item* is a tool result or carries one (§1.4)."""
    return next(tool_results(item), None) is not None


def is_user_item(item: JsonValue) -> bool:
    """§1.4 user item: a JSON object whose ``role`` is ``"user"`` (any ``type``)."""
    return isinstance(item, dict) and item.get("role") == USER_ROLE


def is_user_input(item: JsonValue) -> bool:
    """§1.4 user input item: a user item that neither is nor carries a tool result."""
    return is_user_item(item) and not holds_tool_result(item)


def is_reasoning(item: JsonValue) -> bool:
    """§1.4 reasoning item: a JSON object whose ``type`` is ``"reasoning"``."""
    return isinstance(item, dict) and item.get("type") == REASONING


def _is_function_call(item: JsonValue) -> bool:
    return isinstance(item, dict) and item.get("type") == FUNCTION_CALL


def joins_next(item: JsonValue, following: JsonValue) -> bool:
    """Whether a position holding *item* and the next one, holding *following*, are linked.

    PAIR-3 (b) and (c): two ``function_call`` items in a row (the parallel calls of one
    Responses step), or a reasoning item followed by a ``function_call`` item or an
    assistant message (the output it produced). Any other pair of neighbours is not linked.
    """
    if _is_function_call(following):
        return _is_function_call(item) or is_reasoning(item)
    return (
        is_reasoning(item) and isinstance(following, dict) and following.get("role") == "assistant"
    )


@frozen(kw_only=True)
class ResultLink:
    """One tool result of a list and the position of its call (PAIR-1), if it has one."""

    position: int
    result: ToolResultRef
    call: int | None


@frozen(kw_only=True)
class CallLink:
    """One tool call of a list and the positions of its results (PAIR-2)."""

    position: int
    call: ToolCallRef
    results: tuple[int, ...]

    @property
    def pending(self) -> bool:
        """Whether no result in the list answers this call."""
        return not self.results


@frozen(kw_only=True)
class Pairing:
    """How the tool calls and tool results of one list pair up (PAIR-1 .. PAIR-3).

    ``results`` and ``calls`` are in list order (and, within an item, in the order of §1.4).
    ``unit_of[p]`` is the smallest position of the unit of position ``p``; positions of one
    unit share it, so it names the unit.
    """

    results: tuple[ResultLink, ...]
    calls: tuple[CallLink, ...]
    unit_of: tuple[int, ...]

    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every unit as its ascending positions, ordered by their first position."""
        members: dict[int, list[int]] = {}
        for position, unit in enumerate(self.unit_of):
            members.setdefault(unit, []).append(position)
        return tuple(tuple(positions) for positions in members.values())

    def orphans(self) -> tuple[ResultLink, ...]:
        """The tool results that have no call (PAIR-1)."""
        return tuple(link for link in self.results if link.call is None)

    def pending(self) -> tuple[CallLink, ...]:
        """The tool calls that no result answers (PAIR-2)."""
        return tuple(link for link in self.calls if link.pending)


class _Units:
    """A union-find over positions; the representative of a set is its smallest position."""

    def __init__(self, count: int) -> None:
        self.parent = list(range(count))

    def find(self, position: int) -> int:
        parent = self.parent
        root = position
        while parent[root] != root:
            root = parent[root]
        while parent[position] != root:
            parent[position], position = root, parent[position]
        return root

    def join(self, left: int, right: int) -> None:
        first, second = self.find(left), self.find(right)
        if first != second:
            low, high = (first, second) if first < second else (second, first)
            self.parent[high] = low


def pairing(items: Sequence[JsonValue]) -> Pairing:
    """Pair the tool results of *items* with their calls and group the positions into units.

    Implements PAIR-1 to PAIR-3 in one pass (linear in the number of items and parts): a
    result's call is the latest earlier position that declares a tool call with the result's
    call id; a unit joins a call's position with its results' positions, consecutive
    ``function_call`` items (a run of parallel calls), and a reasoning item with a
    ``function_call`` item or an assistant message right after it.
    """
    count = len(items)
    units = _Units(count)
    latest: dict[str, int] = {}
    result_links: list[ResultLink] = []
    declared: list[tuple[int, ToolCallRef]] = []
    answered: dict[tuple[int, str], list[int]] = {}
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        for result in tool_results(item):
            call = latest.get(result.call_id) if result.call_id is not None else None
            result_links.append(ResultLink(position=position, result=result, call=call))
            if call is not None:
                assert result.call_id is not None  # noqa: S101 - a call needs an id
                answered.setdefault((call, result.call_id), []).append(position)
                units.join(call, position)
        for call_ref in tool_calls(item):
            declared.append((position, call_ref))
            if call_ref.call_id is not None:
                latest[call_ref.call_id] = position
        if position + 1 < count and joins_next(item, items[position + 1]):
            units.join(position, position + 1)
    call_links = tuple(
        CallLink(
            position=position,
            call=call_ref,
            results=tuple(answered.get((position, call_ref.call_id), ()))
            if call_ref.call_id is not None
            else (),
        )
        for position, call_ref in declared
    )
    return Pairing(
        results=tuple(result_links),
        calls=call_links,
        unit_of=tuple(units.find(position) for position in range(count)),
    )


__all__ = [
    "CallLink",
    "Pairing",
    "ResultLink",
    "Shape",
    "ToolCallRef",
    "ToolResultRef",
    "holds_tool_result",
    "is_reasoning",
    "is_result_item",
    "is_user_input",
    "is_user_item",
    "joins_next",
    "pairing",
    "tool_calls",
    "tool_results",
]
