"""The suite's own reading of SPEC.md §1.4 and §1.5: tool calls, tool results, pairing, units.

The checks judge implementations by these functions, so they are written from the spec's
text in the plainest form (one pass per rule, no laziness) and never call
:mod:`ctxpact.spec`'s or :mod:`ctxpact.reference`'s pairing, which are among the code the
suite judges. Every rule reads a member only when its value has the JSON type the rule
names, so an odd item is passed over, never an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from attrs import frozen

from ctxpact.spec import JsonObject, JsonValue

#: The three shapes of §1.4, by the name the suite reports them with.
RESPONSES: Final = "responses"
CHAT: Final = "chat"
ANTHROPIC: Final = "anthropic"
SHAPES: Final = (RESPONSES, CHAT, ANTHROPIC)

FUNCTION_CALL: Final = "function_call"
FUNCTION_CALL_OUTPUT: Final = "function_call_output"
TOOL_USE: Final = "tool_use"
TOOL_RESULT_PART: Final = "tool_result"
REASONING: Final = "reasoning"


def string(value: object) -> str | None:
    """*value* when it is a JSON string, else ``None`` (§1.4: an id counts only then)."""
    return value if isinstance(value, str) else None


def member_is(item: object, name: str, value: str) -> bool:
    """§1.4: "*name* is *value*": a JSON object whose member *name* is that JSON string."""
    return isinstance(item, dict) and string(item.get(name)) == value


@frozen(kw_only=True)
class DeclaredCall:
    """A tool call that a value declares (§1.4 rules (a) to (d)).

    ``holder`` is the argument holder of §1.4; ``call_id`` and ``name`` are ``None`` when the
    value holds no JSON string there.
    """

    call_id: str | None
    name: str | None
    holder: JsonObject
    shape: str


def declared_calls(value: object) -> Iterator[DeclaredCall]:
    """§1.4 rules (a) to (d): the tool calls *value* declares, in their order."""
    if not isinstance(value, dict):
        return
    kind = value.get("type")
    if kind == REASONING:
        return  # §1.4: a reasoning item declares no tool call, and rule (d) skips it
    if kind == FUNCTION_CALL:
        yield DeclaredCall(
            call_id=string(value.get("call_id")),
            name=string(value.get("name")),
            holder=value,
            shape=RESPONSES,
        )
    elif kind == TOOL_USE:
        yield DeclaredCall(
            call_id=string(value.get("id")),
            name=string(value.get("name")),
            holder=value,
            shape=ANTHROPIC,
        )
    entries = value.get("tool_calls")
    if isinstance(entries, list):
        yield from _chat_calls(entries)
    content = value.get("content")
    if isinstance(content, list):
        for part in content:
            yield from declared_calls(part)


def _chat_calls(entries: list[Any]) -> Iterator[DeclaredCall]:
    """§1.4 rule (c): each JSON object of a ``tool_calls`` array."""
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        holder, name = entry, string(entry.get("name"))
        function = entry.get("function")
        if name is None and isinstance(function, dict):
            holder, name = function, string(function.get("name"))
        yield DeclaredCall(call_id=string(entry.get("id")), name=name, holder=holder, shape=CHAT)


def tool_calls(value: object) -> Iterator[tuple[str | None, str | None]]:
    """The (id, name) of each tool call *value* declares, in order (§1.4)."""
    for call in declared_calls(value):
        yield call.call_id, call.name


@frozen(kw_only=True)
class FoundResult:
    """A tool result of §1.4: a result item (``part`` ``None``) or a part of a carrier.

    ``holder`` is the JSON object that is the result (the item, or the part); its output is
    the member ``output_key`` of that object.
    """

    part: int | None
    shape: str
    call_id: str | None
    holder: JsonObject

    @property
    def output_key(self) -> str:
        """``output`` for a Responses-style result, ``content`` for the other two shapes."""
        return "output" if self.shape == RESPONSES else "content"


def is_responses_result(item: object) -> bool:
    """§1.4 (a): a JSON object whose ``type`` is ``"function_call_output"``."""
    return member_is(item, "type", FUNCTION_CALL_OUTPUT)


def is_chat_result(item: object) -> bool:
    """§1.4 (b): otherwise, a JSON object whose ``role`` is ``"tool"`` (a tool message)."""
    return not is_responses_result(item) and member_is(item, "role", "tool")


def is_result_item(item: object) -> bool:
    """A tool result of shape (a) or (b): the item itself is the result."""
    return not is_reasoning(item) and (is_responses_result(item) or is_chat_result(item))


def tool_results(item: object) -> list[FoundResult]:
    """§1.4: the tool results *item* is or carries, in order (a reasoning item has none)."""
    if not isinstance(item, dict) or is_reasoning(item):
        return []
    if is_responses_result(item):
        call_id = string(item.get("call_id"))
        return [FoundResult(part=None, shape=RESPONSES, call_id=call_id, holder=item)]
    if is_chat_result(item):
        call_id = string(item.get("tool_call_id"))
        return [FoundResult(part=None, shape=CHAT, call_id=call_id, holder=item)]
    content = item.get("content")
    if not isinstance(content, list):
        return []
    return [
        FoundResult(
            part=index, shape=ANTHROPIC, call_id=string(part.get("tool_use_id")), holder=part
        )
        for index, part in enumerate(content)
        if member_is(part, "type", TOOL_RESULT_PART)
    ]


def is_carrier(item: object) -> bool:
    """§1.4: an item that holds results of shape (c), not being a result item itself."""
    return not is_result_item(item) and bool(tool_results(item))


def is_user_item(item: object) -> bool:
    """§1.4 user item: a JSON object whose ``role`` is ``"user"`` (its ``type`` unexamined)."""
    return member_is(item, "role", "user")


def is_user_input(item: object) -> bool:
    """§1.4 user input item: a user item that is neither a result item nor a carrier."""
    return is_user_item(item) and not tool_results(item)


def is_reasoning(item: object) -> bool:
    """§1.4 reasoning item: a JSON object whose ``type`` is ``"reasoning"``."""
    return member_is(item, "type", REASONING)


@frozen(kw_only=True)
class ResultLink:
    """A tool result at ``position`` (and ``part``) with its call's position, or ``None``."""

    position: int
    part: int | None
    call_id: str | None
    call: int | None


@frozen(kw_only=True)
class CallLink:
    """A tool call at ``position`` with the positions of its results (PAIR-2)."""

    position: int
    call_id: str | None
    name: str | None
    results: tuple[int, ...]

    @property
    def pending(self) -> bool:
        """PAIR-2: no id, or no result."""
        return not self.results


@frozen(kw_only=True)
class Pairs:
    """How the calls and results of one list pair up, and its units (PAIR-1 .. PAIR-3)."""

    results: tuple[ResultLink, ...]
    calls: tuple[CallLink, ...]
    #: each unit as its ascending positions, the units ordered by their first position
    units: tuple[tuple[int, ...], ...]
    #: for each position, the index (into ``units``) of its unit
    unit_of: tuple[int, ...]

    def orphans(self) -> tuple[ResultLink, ...]:
        """PAIR-1: the tool results without a call."""
        return tuple(link for link in self.results if link.call is None)

    def pending(self) -> tuple[CallLink, ...]:
        """PAIR-2: the tool calls without an id or without a result."""
        return tuple(link for link in self.calls if link.pending)

    def links(self) -> list[tuple[int, int]]:
        """The (result position, call position) of every result that has a call."""
        return [(link.position, link.call) for link in self.results if link.call is not None]

    def newest(self) -> tuple[int, ...]:
        """PAIR-3: the newest unit, the unit of the last position (empty for no items)."""
        return self.units[self.unit_of[-1]] if self.unit_of else ()

    def separates(self, cut: int) -> bool:
        """PAIR-3: whether a cut at *cut* leaves some unit on both sides."""
        return any(unit[0] < cut <= unit[-1] for unit in self.units)


def _joins_next(item: object, following: object) -> bool:
    """PAIR-3 (b) and (c): a run of ``function_call`` items, or reasoning and its output."""
    if member_is(following, "type", FUNCTION_CALL):
        return member_is(item, "type", FUNCTION_CALL) or is_reasoning(item)
    return is_reasoning(item) and member_is(following, "role", "assistant")


def _links(items: Sequence[JsonValue]) -> tuple[list[ResultLink], list[CallLink]]:
    """PAIR-1 and PAIR-2: every result with its call, every call with its results."""
    latest: dict[str, int] = {}
    results: list[ResultLink] = []
    declared: list[tuple[int, DeclaredCall]] = []
    for position, item in enumerate(items):
        # PAIR-1: the call comes strictly before, so an item's results are read first.
        for found in tool_results(item):
            call = latest.get(found.call_id) if found.call_id is not None else None
            results.append(
                ResultLink(position=position, part=found.part, call_id=found.call_id, call=call)
            )
        for declared_call in declared_calls(item):
            declared.append((position, declared_call))
            if declared_call.call_id is not None:
                latest[declared_call.call_id] = position
    answers: dict[tuple[int, str | None], list[int]] = {}
    for link in results:
        if link.call is not None:
            answers.setdefault((link.call, link.call_id), []).append(link.position)
    calls = [
        CallLink(
            position=position,
            call_id=call.call_id,
            name=call.name,
            results=tuple(
                answers.get((position, call.call_id), ()) if call.call_id is not None else ()
            ),
        )
        for position, call in declared
    ]
    return results, calls


def _units(
    items: Sequence[JsonValue], results: Sequence[ResultLink]
) -> tuple[list[tuple[int, ...]], list[int]]:
    """PAIR-3: the positions joined by the links, each unit in ascending order."""
    edges: dict[int, set[int]] = {position: set() for position in range(len(items))}
    joined = [(link.position, link.call) for link in results if link.call is not None]
    joined += [
        (position, position + 1)
        for position in range(len(items) - 1)
        if _joins_next(items[position], items[position + 1])
    ]
    for left, right in joined:
        edges[left].add(right)
        edges[right].add(left)
    unit_of = [-1] * len(items)
    units: list[tuple[int, ...]] = []
    for start in range(len(items)):
        if unit_of[start] != -1:
            continue
        members, frontier = {start}, [start]
        while frontier:
            for linked in edges[frontier.pop()] - members:
                members.add(linked)
                frontier.append(linked)
        for member in members:
            unit_of[member] = len(units)
        units.append(tuple(sorted(members)))
    return units, unit_of


def pairs(items: Sequence[JsonValue]) -> Pairs:
    """PAIR-1 .. PAIR-3 for *items*: each result's call, each call's results, the units."""
    results, calls = _links(items)
    units, unit_of = _units(items, results)
    return Pairs(
        results=tuple(results), calls=tuple(calls), units=tuple(units), unit_of=tuple(unit_of)
    )


def broken_pairs(pairing: Pairs, kept: Sequence[int]) -> list[tuple[int, int]]:
    """PAIR-4: the (result, call) links of which exactly one side is in *kept*."""
    chosen = set(kept)
    return [
        (result, call) for result, call in pairing.links() if (result in chosen) != (call in chosen)
    ]
