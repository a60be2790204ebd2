"""Tier-1 (old tool results become placeholders) and Tier-2 (old reasoning is trimmed).

The plans only choose positions (a scan of a plain list, or what a ``SizedItems`` keeps); a
new item is built only when it is kept. The character stage measures new items from their
parts without building them, and each tier states a lower bound on the size of its new
items that is cheaper still. Nothing here mutates an item.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol, cast

from ctxpact.reference._items import FUNCTION_CALL_OUTPUT, REASONING, is_reasoning
from ctxpact.reference.projection._constants import (
    CALL_ID,
    CONTENT,
    NAME,
    OUTPUT,
    PLACEHOLDER_PREFIX,
    PLACEHOLDER_SUFFIX,
    REASONING_CLEARED_TEXT,
    REASONING_PAYLOAD_KEYS,
    SUMMARY,
    SUMMARY_TEXT,
    TEXT,
    TIER1_NOTE,
    TIER2_NOTE,
    TOOL_RESULT_PLACEHOLDER,
    TOOL_RESULT_PLACEHOLDER_BARE,
    TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY,
    TOOL_RESULT_PLACEHOLDER_NAME_ONLY,
    TYPE,
)
from ctxpact.reference.projection._size import approx_chars, json_length
from ctxpact.spec import (
    ContextBudget,
    JsonObject,
    JsonValue,
    ToolResultRef,
    compact_json,
    is_user_input,
    tool_calls,
    tool_results,
)

if TYPE_CHECKING:
    from ctxpact.reference.projection._source import Source


def is_placeholder_output(output: JsonValue) -> bool:
    """Whether *output* is a placeholder output (the forms of T1-6, as §1.4 defines them)."""
    return isinstance(output, str) and (
        output == TOOL_RESULT_PLACEHOLDER_BARE
        or (output.startswith(PLACEHOLDER_PREFIX) and output.endswith(PLACEHOLDER_SUFFIX))
    )


#: The tool name of a call id, or ``None`` when no call with that id has a name (T1-5).
NameOf = Callable[[str], str | None]

#: Tier-1's plan: for each position it replaces, the results it clears there, in order: one
#: ``None`` for a result item, the part indices for a result carrier (T1-9).
Tier1Plan = dict[int, tuple[int | None, ...]]


def plan_tier1(items: Sequence[JsonValue], keep_recent: int) -> Tier1Plan:
    """The positions whose tool results Tier-1 replaces, with the results it clears there.

    Every tool result counts towards the newest *keep_recent*, placeholders included, and each
    result part of a carrier counts as one (T1-2); an older result is replaced unless its
    output already is a placeholder (T1-3, DIF-4), so a projection's items project to
    themselves.
    """
    results: list[tuple[int, ToolResultRef]] = [
        (position, result)
        for position, item in enumerate(items)
        if isinstance(item, dict)
        for result in tool_results(item)
    ]
    plan: dict[int, list[int | None]] = {}
    for position, result in results[: max(0, len(results) - keep_recent)]:
        holder = result.holder(items[position])
        if not is_placeholder_output(holder.get(result.output_key)):
            plan.setdefault(position, []).append(result.part)
    return {position: tuple(parts) for position, parts in plan.items()}


def cleared_count(plan: Tier1Plan) -> int:
    """How many tool results a Tier-1 plan clears (the N of T1-7): parts count one by one."""
    return sum(map(len, plan.values()))


def plan_tier2(items: Sequence[JsonValue]) -> list[int]:
    """The ascending positions of the reasoning items that Tier-2 replaces.

    The boundary is the last user input item (a user item that delivers no tool result);
    without one nothing is trimmed (T2-2, DIF-5). Tier-1 never makes or unmakes a user input
    item, so the boundary is the same before and after it. Reasoning items already in the
    cleared form are left as they are.
    """
    boundary = next(
        (index for index in range(len(items) - 1, -1, -1) if is_user_input(items[index])),
        0,
    )
    return [
        index
        for index in range(boundary)
        if is_reasoning(items[index]) and not is_cleared_reasoning(_object(items[index]))
    ]


class ToolNames:
    """The tool name of a call id: the name of the last tool call with that id, anywhere.

    Tool calls are read with :func:`ctxpact.spec.tool_calls` (Chat ``tool_calls``, Responses
    ``function_call`` items, Anthropic ``tool_use`` parts); a call without a name names
    nothing. The answer is that of one pass in order in which a later call overwrites an
    earlier one, but the list is read backwards and only as far as a question needs, since
    the calls of the results a prompt keeps are usually recent.
    """

    def __init__(self, items: Sequence[JsonValue]) -> None:
        self._items = items
        self._unread = len(items)  # items[:_unread] are not read yet
        self._names: dict[str, str] = {}

    def __call__(self, call_id: str) -> str | None:
        """The name of *call_id*, or ``None`` when no call with that id has a name."""
        names = self._names
        while call_id not in names and self._unread:
            self._unread -= 1
            for call in reversed(list(tool_calls(self._items[self._unread]))):
                if call.call_id is not None and call.name is not None:
                    names.setdefault(call.call_id, call.name)
        return names.get(call_id)


class Tier1(Protocol):
    """What Tier-1 clears in one source list: the positions and, at each, the results."""

    @property
    def cleared(self) -> int:
        """How many tool results it clears (T1-7's N): the parts of a carrier one by one."""
        ...

    def __contains__(self, position: object) -> bool:
        """Whether it clears a tool result at *position*."""
        ...

    def parts(self, position: int) -> tuple[int | None, ...] | None:
        """The results it clears at *position* (as in :data:`Tier1Plan`), or ``None``."""
        ...

    def positions(self) -> Collection[int]:
        """Every position at which it clears a tool result."""
        ...

    def among(self, positions: Iterable[int]) -> set[int]:
        """The positions among *positions* at which it clears a tool result."""
        ...


class Tier2(Protocol):
    """What Tier-2 clears in one source list: the positions of the reasoning it trims."""

    @property
    def cleared(self) -> int:
        """How many reasoning items it clears (T2-7's N)."""
        ...

    def __contains__(self, position: object) -> bool:
        """Whether it clears the reasoning item at *position*."""
        ...

    def positions(self) -> Collection[int]:
        """Every position of a reasoning item it clears."""
        ...

    def among(self, positions: Iterable[int]) -> set[int]:
        """The positions among *positions* of reasoning items it clears."""
        ...


class PlannedTier1:
    """Tier-1 as a plan read off a scan of the list (:func:`plan_tier1`)."""

    __slots__ = ("_plan", "cleared")

    def __init__(self, plan: Tier1Plan) -> None:
        self._plan = plan
        self.cleared = cleared_count(plan)

    def __contains__(self, position: object) -> bool:
        return position in self._plan

    def parts(self, position: int) -> tuple[int | None, ...] | None:
        """The results cleared at *position*, or ``None``."""
        return self._plan.get(position)

    def positions(self) -> Collection[int]:
        """The positions of the plan."""
        return self._plan.keys()

    def among(self, positions: Iterable[int]) -> set[int]:
        """The positions of the plan among *positions*."""
        return set(filter(self._plan.__contains__, positions))


class PlannedTier2:
    """Tier-2 as the positions read off a scan of the list (:func:`plan_tier2`)."""

    __slots__ = ("_positions", "cleared")

    def __init__(self, positions: Collection[int]) -> None:
        self._positions = frozenset(positions)
        self.cleared = len(self._positions)

    def __contains__(self, position: object) -> bool:
        return position in self._positions

    def positions(self) -> Collection[int]:
        """The positions it clears."""
        return self._positions

    def among(self, positions: Iterable[int]) -> set[int]:
        """The positions it clears among *positions*."""
        return set(filter(self._positions.__contains__, positions))


#: Tier-1 when it does not run, and Tier-2 likewise.
NO_TIER1: Tier1 = PlannedTier1({})
NO_TIER2: Tier2 = PlannedTier2(())


class TierReplacements:
    """The new items of Tier-1 and Tier-2 at the positions their plans chose.

    A new item's size is computed from its parts (:meth:`size`) without building it: the
    character stage measures far more new items than a prompt keeps.
    """

    def __init__(
        self,
        items: Sequence[JsonValue],
        *,
        tier1: Tier1,
        tier2: Tier2,
        names: NameOf,
    ) -> None:
        self._items = items
        self._tier1 = tier1
        self._tier2 = tier2
        self._names = names
        self._parts: dict[int, tuple[int | None, ...] | None] = {}

    def __contains__(self, position: object) -> bool:
        return position in self._tier1 or position in self._tier2

    def _parts_at(self, position: int) -> tuple[int | None, ...] | None:
        # Asked for the floor, the size and the new item of one position: read it once.
        if position in self._parts:
            return self._parts[position]
        parts = self._parts[position] = self._tier1.parts(position)
        return parts

    def among(self, positions: Sequence[int]) -> set[int]:
        """The positions among *positions* that a tier replaces, read at once."""
        return self._tier1.among(positions) | self._tier2.among(positions)

    def floors(self) -> dict[int, int]:
        """:meth:`floor` of every position a tier replaces, read at once."""
        items = self._items
        found = dict.fromkeys(self._tier2.positions(), CLEARED_REASONING_FLOOR)
        for position in self._tier1.positions():
            found[position] = PLACEHOLDER_FLOOR if _is_responses(items[position]) else LABEL_FLOOR
        return found

    def floor(self, position: int) -> int:
        """A lower bound on the size of the new item the tier of *position* builds."""
        if position not in self._tier1:
            return CLEARED_REASONING_FLOOR
        # A Responses-style result is the whole item: its placeholder is a new small object.
        return PLACEHOLDER_FLOOR if _is_responses(self._items[position]) else LABEL_FLOOR

    def size(self, position: int) -> int:
        """:func:`approx_chars` of the new item for *position*, computed without building it."""
        item = self._items[position]
        parts = self._parts_at(position)
        if parts is None:
            return cleared_reasoning_size(item)
        return tool_result_placeholder_size(item, self._names, parts=parts)

    def build(self, position: int) -> JsonValue:
        """The placeholder or the cleared reasoning item for *position*."""
        item = self._items[position]
        parts = self._parts_at(position)
        if parts is None:
            return cleared_reasoning(item)
        return tool_result_placeholder(item, self._names, parts=parts)


def _is_responses(item: JsonValue) -> bool:
    return isinstance(item, dict) and item.get(TYPE) == FUNCTION_CALL_OUTPUT


def _label(call_id: JsonValue, own_name: JsonValue, name_of: NameOf) -> str:
    """T1-5, T1-6: the label for a result with this call id and this own ``name`` member."""
    name = name_of(call_id) if isinstance(call_id, str) else None
    if name is None and isinstance(own_name, str):
        name = own_name
    if isinstance(call_id, str):
        if name is None:
            return TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY.format(call_id=call_id)
        return TOOL_RESULT_PLACEHOLDER.format(name=name, call_id=call_id)
    return (
        TOOL_RESULT_PLACEHOLDER_BARE
        if name is None
        else (TOOL_RESULT_PLACEHOLDER_NAME_ONLY.format(name=name))
    )


def tool_result_placeholder(
    item: JsonValue,
    name_of: NameOf,
    *,
    parts: tuple[int | None, ...] = (None,),
) -> JsonObject:
    """The new item that replaces the tool result (or the result carrier) *item*.

    Implements T1-4 to T1-6 and T1-9. A Responses-style result becomes ``{type, call_id (only
    when the result has a string one), output: label}``; a Chat-style tool message keeps its
    members with ``content`` holding the label; a carrier keeps its members and its parts,
    each part listed in *parts* keeping its members with ``content`` holding the label. The
    tool name is the one *name_of* gives for the call id, else the result's own string
    ``name``; the label falls back to the call id, then to the bare form.
    """
    source = _object(item)
    if parts != (None,):
        content = list(cast("list[JsonValue]", source[CONTENT]))
        for part in parts:
            assert part is not None  # noqa: S101 - a carrier's plan lists part indices
            result = _object(content[part])
            content[part] = _with_content(result, result.get("tool_use_id"), name_of)
        carrier = dict(source)
        carrier[CONTENT] = content
        return carrier
    if not _is_responses(source):
        return _with_content(source, source.get("tool_call_id"), name_of)
    call_id = source.get(CALL_ID)
    placeholder: JsonObject = {TYPE: FUNCTION_CALL_OUTPUT}
    if isinstance(call_id, str):
        placeholder[CALL_ID] = call_id
    placeholder[OUTPUT] = _label(call_id, source.get(NAME), name_of)
    return placeholder


def _with_content(result: JsonObject, call_id: JsonValue, name_of: NameOf) -> JsonObject:
    """A copy of a Chat or Anthropic result whose ``content`` is its label (kept in place)."""
    placeholder = dict(result)
    placeholder[CONTENT] = _label(call_id, result.get(NAME), name_of)
    return placeholder


def cleared_reasoning(item: JsonValue) -> JsonObject:
    """The new item that replaces the reasoning item *item* (T2-6).

    The same keys in the same order without ``summary``, ``content``, ``text`` and
    ``encrypted_content``, then ``summary`` with one ``[reasoning cleared]`` text part, so it
    stays a valid Responses reasoning item (T2-6, DIF-5).
    """
    cleared = {
        key: value for key, value in _object(item).items() if key not in REASONING_PAYLOAD_KEYS
    }
    cleared[SUMMARY] = _cleared_summary()
    return cleared


# -- sizes of new items, from their parts ---------------------------------------------------
# Compact JSON text (JSON-6) of an object: "{", the members "name":value joined by ",", "}".
# So its length is 2, plus each member's quoted name, colon and value, plus a comma between
# two members. The functions below add up these lengths for the new items of the tiers, from
# the lengths of the members they keep; a test checks each against approx_chars(built).


def _object_length(members: Iterable[tuple[str, int]]) -> int:
    """The length of the compact text of an object whose members have these value lengths."""
    count = 0
    total = 2
    for name, value_length in members:
        total += json_length(name) + 1 + value_length
        count += 1
    return total + max(0, count - 1)


def _members_with(source: JsonObject, name: str, value_length: int) -> Iterator[tuple[str, int]]:
    """*source*'s members with *name* holding a value of *value_length* (added last if new)."""
    for key, value in source.items():
        yield key, value_length if key == name else json_length(value)
    if name not in source:
        yield name, value_length


def _with_content_size(result: JsonObject, call_id: JsonValue, name_of: NameOf) -> int:
    label = _label(call_id, result.get(NAME), name_of)
    return _object_length(_members_with(result, CONTENT, json_length(label)))


def tool_result_placeholder_size(
    item: JsonValue, name_of: NameOf, *, parts: tuple[int | None, ...] = (None,)
) -> int:
    """``approx_chars(tool_result_placeholder(item, name_of, parts=parts))``, without building it.

    The members the placeholder keeps are measured as they are, the label is measured as the
    text it is; the large output the placeholder drops is never written.
    """
    source = _object(item)
    if parts != (None,):
        content = cast("list[JsonValue]", source[CONTENT])
        replaced = frozenset(parts)
        lengths = [
            _with_content_size(_object(part), _object(part).get("tool_use_id"), name_of)
            if index in replaced
            else json_length(part)
            for index, part in enumerate(content)
        ]
        array = 2 + sum(lengths) + max(0, len(lengths) - 1)
        return _object_length(_members_with(source, CONTENT, array))
    if not _is_responses(source):
        return _with_content_size(source, source.get("tool_call_id"), name_of)
    call_id = source.get(CALL_ID)
    members = [(TYPE, _RESPONSES_TYPE_LENGTH)]
    if isinstance(call_id, str):
        members.append((CALL_ID, json_length(call_id)))
    members.append((OUTPUT, json_length(_label(call_id, source.get(NAME), name_of))))
    return _object_length(members)


def cleared_reasoning_size(item: JsonValue) -> int:
    """``approx_chars(cleared_reasoning(item))``, without building it (T2-6)."""
    return _object_length(
        [
            *(
                (key, json_length(value))
                for key, value in _object(item).items()
                if key not in REASONING_PAYLOAD_KEYS
            ),
            (SUMMARY, _CLEARED_SUMMARY_LENGTH),
        ]
    )


def _cleared_summary() -> list[JsonValue]:
    return [{TYPE: SUMMARY_TEXT, TEXT: REASONING_CLEARED_TEXT}]


def is_cleared_reasoning(item: JsonObject) -> bool:
    """Whether the reasoning item *item* is in cleared form (T2-4)."""
    return item.get(SUMMARY) == _cleared_summary() and REASONING_PAYLOAD_KEYS.isdisjoint(
        key for key in item if key != SUMMARY
    )


def _object(item: JsonValue) -> JsonObject:
    return item if isinstance(item, dict) else {}


_RESPONSES_TYPE_LENGTH = json_length(FUNCTION_CALL_OUTPUT)
_CLEARED_SUMMARY_LENGTH = json_length(_cleared_summary())
#: The size of the smallest Responses-style placeholder: the bare one, without ``call_id``.
PLACEHOLDER_FLOOR = approx_chars({TYPE: FUNCTION_CALL_OUTPUT, OUTPUT: TOOL_RESULT_PLACEHOLDER_BARE})
#: A lower bound for any placeholder of another shape: each holds at least the bare label.
LABEL_FLOOR = len(compact_json(TOOL_RESULT_PLACEHOLDER_BARE))
#: The size of the smallest cleared reasoning item: one with no other key than ``type``.
CLEARED_REASONING_FLOOR = approx_chars({TYPE: REASONING, SUMMARY: _cleared_summary()})


def plan_tiers(
    source: Source, budget: ContextBudget | None
) -> tuple[tuple[str, ...], TierReplacements | None]:
    """The tier notes and the replacements Tier-1 and Tier-2 make under *budget*.

    Implements T1-1, T1-7, T2-1 and T2-7: each tier runs when its budget field asks for it
    and adds its note when it replaced something; ``None`` when neither replaced anything.
    """
    if budget is None:
        return (), None
    notes: list[str] = []
    tier1, tier2 = NO_TIER1, NO_TIER2
    keep_recent = budget.max_recent_tool_results
    if keep_recent is not None:
        tier1 = source.tier1(keep_recent)
        if tier1.cleared:
            notes.append(TIER1_NOTE.format(cleared=tier1.cleared, kept=keep_recent))
    if budget.trim_old_reasoning:
        tier2 = source.tier2()
        if tier2.cleared:
            notes.append(TIER2_NOTE.format(cleared=tier2.cleared))
    if not notes:
        return (), None
    replacements = TierReplacements(
        source.items, tier1=tier1, tier2=tier2, names=source.tool_names()
    )
    return tuple(notes), replacements
