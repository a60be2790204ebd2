"""What the projector checks share: the spec's rules read independently, and generated cases.

The functions here restate SPEC.md §1.4, §1.5, §5, §7 and §8 in the plainest form (one pass
per rule, no laziness, no shortcuts; calls, results and units come from the suite's own
:mod:`ctxpact.conformance._pairing`), so a check that uses them does not trust the reference
implementation's optimised code. Sizes are measured with the reference's
:func:`~ctxpact.reference.projection.approx_chars`, the suite's measuring stick (SIZE-1 .. SIZE-6).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

import attrs
from hypothesis import strategies as st

from ctxpact.conformance._context import describe
from ctxpact.conformance._pairing import (
    RESPONSES,
    TOOL_RESULT_PART,
    FoundResult,
    Pairs,
    is_carrier,
    is_reasoning,
    is_responses_result,
    is_result_item,
    is_user_input,
    is_user_item,
    member_is,
    pairs,
    string,
    tool_calls,
    tool_results,
)
from ctxpact.conformance.strategies import (
    adversarial_transcripts,
    provider_transcripts,
    transcripts,
)
from ctxpact.conformance.strategies._transcripts import draw_edge_budget
from ctxpact.reference.projection import (
    MAX_APPROX_CHARS_NOTE,
    MAX_ITEMS_NOTE,
    NEWEST_UNIT_DROPPED_NOTE,
    REASONING_CLEARED_TEXT,
    TIER1_NOTE,
    TIER2_NOTE,
    TOOL_RESULT_PLACEHOLDER,
    TOOL_RESULT_PLACEHOLDER_BARE,
    TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY,
    TOOL_RESULT_PLACEHOLDER_NAME_ONLY,
    approx_chars,
)
from ctxpact.spec import (
    PROVIDERS,
    ContextBudget,
    ContextReport,
    JsonObject,
    JsonValue,
    compact_json,
)

__all__ = [
    "is_reasoning",
    "is_user_input",
    "is_user_item",
    "pairs",
    "tool_calls",
    "tool_results",
]

#: §1.4: a placeholder output is exactly the bare label, or starts with this and ends with
#: ``]`` (the forms of T1-6).
PLACEHOLDER_OUTPUT_START: Final = "[tool result cleared: "
PLACEHOLDER_OUTPUT_END: Final = "]"
#: T2-4, T2-6: the ``summary`` of a cleared reasoning item.
CLEARED_SUMMARY: Final[JsonValue] = [{"type": "summary_text", "text": REASONING_CLEARED_TEXT}]
#: T2-6: the members a cleared reasoning item loses.
REASONING_PAYLOAD: Final = ("summary", "content", "text", "encrypted_content")
#: T2-4: the members a reasoning item in cleared form does not have.
CLEARED_FORM_ABSENT: Final = ("content", "text", "encrypted_content")

TOOL_RESULT: Final = "function_call_output"

#: RPT-6: the five note forms an exact projector writes, as patterns (decimal numbers only).
NOTE_PATTERNS: Final = {
    "tier1": re.compile(
        r"tier1 microcompact: cleared (0|[1-9]\d*) old tool result\(s\), "
        r"kept recent (0|[1-9]\d*)"
    ),
    "tier2": re.compile(r"tier2 reasoning-trim: cleared (0|[1-9]\d*) reasoning item\(s\)"),
    "items": re.compile(r"maxItems applied: (0|[1-9]\d*)"),
    "newest": re.compile(
        r"newest unit dropped: (0|[1-9]\d*) item\(s\) do not fit maxItems (0|[1-9]\d*)"
    ),
    "chars": re.compile(r"maxApproxChars applied: (0|[1-9]\d*)"),
}

Case = tuple[list[JsonValue], ContextBudget]


# -- JSON-10: identical and equal ---------------------------------------------------------


class NotJson:
    """Stands for a value that has no compact JSON text, so it is identical to nothing."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"<not JSON: {type(self.value).__name__}>"


def text(value: object) -> str | NotJson:
    """The compact JSON text of *value* (JSON-6), or a :class:`NotJson` marker."""
    try:
        return compact_json(value)  # type: ignore[arg-type]  # anything a projector returned
    except (TypeError, ValueError, RecursionError):
        return NotJson(value)


def identical(left: object, right: object) -> bool:
    """JSON-10: the compact JSON texts are the same string (never true for non-JSON)."""
    left_text, right_text = text(left), text(right)
    return isinstance(left_text, str) and left_text == right_text


def json_equal(left: object, right: object) -> bool:  # noqa: PLR0911 - one return per JSON type
    """JSON-10: the same JSON value ignoring member order (numbers by mathematical value)."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left is right
    if left is None or right is None:
        return left is None and right is None
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right  # Python compares int and float by exact value
    if isinstance(left, str) and isinstance(right, str):
        return left == right
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        return len(left) == len(right) and all(map(json_equal, left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(v, right[k]) for k, v in left.items())
    return False


# -- §1.4: the kinds of items ---------------------------------------------------------------


def is_tool_result(item: object) -> bool:
    """§1.4: whether *item* is a tool result or carries one, in any of the three shapes."""
    return bool(tool_results(item))


def call_id_of(item: object) -> str | None:
    """§1.4: the call id of a result item (``call_id`` or ``tool_call_id``), if a string."""
    found = tool_results(item)
    return found[0].call_id if len(found) == 1 and found[0].part is None else None


def is_placeholder_output(value: object) -> bool:
    """§1.4: ``[tool result cleared]``, or ``[tool result cleared: `` ... ``]``."""
    return isinstance(value, str) and (
        value == TOOL_RESULT_PLACEHOLDER_BARE
        or (value.startswith(PLACEHOLDER_OUTPUT_START) and value.endswith(PLACEHOLDER_OUTPUT_END))
    )


def is_placeholder_result(found: FoundResult) -> bool:
    """§1.4: a placeholder tool result, one whose output is a placeholder output."""
    return is_placeholder_output(found.holder.get(found.output_key))


def calls_of_results(items: Sequence[JsonValue]) -> dict[int, int]:
    """PAIR-1: for each position holding a tool result that has a call, its call's position.

    A carrier whose parts answer calls at several positions is listed with the latest.
    """
    found: dict[int, int] = {}
    for result, call in pairs(items).links():
        found[result] = max(call, found.get(result, call))
    return found


# -- §7 Tier-1 and §8 Tier-2 --------------------------------------------------------------


def tool_names(items: Sequence[JsonValue]) -> dict[str, str]:
    """T1-5: call id -> the name of the last tool call (in list order) with both."""
    # A later entry of the comprehension overwrites an earlier one: the last call wins.
    return {
        call_id: name
        for item in items
        for call_id, name in tool_calls(item)
        if call_id is not None and name is not None
    }


def placeholder_label(result: JsonObject, call_id: str | None, names: Mapping[str, str]) -> str:
    """T1-5, T1-6: the label of the placeholder of the tool result object *result*.

    *result* is the item or the result part, *call_id* its call id; the name is the last
    call's with that id, else the result's own string ``name``.
    """
    name = names.get(call_id) if call_id is not None else None
    if name is None:
        name = string(result.get("name"))
    if name is not None and call_id is not None:
        return TOOL_RESULT_PLACEHOLDER.format(name=name, call_id=call_id)
    if name is not None:
        return TOOL_RESULT_PLACEHOLDER_NAME_ONLY.format(name=name)
    if call_id is not None:
        return TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY.format(call_id=call_id)
    return TOOL_RESULT_PLACEHOLDER_BARE


def placeholder_of(found: FoundResult, names: Mapping[str, str]) -> JsonObject:
    """T1-4: the placeholder of one tool result, in its own shape.

    Responses: ``type``, then ``call_id`` when the result has a call id, then ``output``; the
    other members go. Chat and Anthropic: the result's members in their order with
    ``content`` holding the label (added last when missing); every other member stays.
    """
    label = placeholder_label(found.holder, found.call_id, names)
    if found.shape == RESPONSES:
        placeholder: JsonObject = {"type": TOOL_RESULT}
        if found.call_id is not None:
            placeholder["call_id"] = found.call_id
        placeholder["output"] = label
        return placeholder
    kept = dict(found.holder)
    kept["content"] = label
    return kept


def placeholder_item(item: JsonObject, names: Mapping[str, str]) -> JsonObject:
    """T1-4, T1-9: *item* with every tool result it is or carries replaced by its placeholder."""
    return tier1_item(item, [found.part for found in tool_results(item)], names)


def tier1_item(
    item: JsonObject, parts: Sequence[int | None], names: Mapping[str, str]
) -> JsonObject:
    """T1-4 for a result item (*parts* is ``[None]``), T1-9 for a carrier and its parts.

    A carrier becomes a new object with its members in their order, whose ``content`` is a
    new array of its parts in their order, the parts listed in *parts* standing as their
    placeholders and the others identical.
    """
    found = tool_results(item)
    if parts == [None]:
        return placeholder_of(found[0], names)
    by_part = {result.part: result for result in found}
    content = list(cast("list[JsonValue]", item["content"]))
    for part in parts:
        assert part is not None  # noqa: S101 - a carrier's results are parts
        content[part] = placeholder_of(by_part[part], names)
    carrier = dict(item)
    carrier["content"] = content
    return carrier


def is_cleared_form(item: JsonObject) -> bool:
    """T2-4: no ``content``, ``text`` or ``encrypted_content``; ``summary`` equal to the cleared."""
    return (
        not any(name in item for name in CLEARED_FORM_ABSENT)
        and "summary" in item
        and json_equal(item["summary"], CLEARED_SUMMARY)
    )


def cleared_item(item: JsonObject) -> JsonObject:
    """T2-6: the members but the payload, in their order, then the cleared ``summary``."""
    cleared: JsonObject = {k: v for k, v in item.items() if k not in REASONING_PAYLOAD}
    cleared["summary"] = copy.deepcopy(CLEARED_SUMMARY)
    return cleared


@attrs.frozen(kw_only=True)
class Tiers:
    """The working list after the tiers (PRJ-26), and what each tier did."""

    working: tuple[JsonValue, ...]
    tier1: tuple[int, ...] = ()  # positions Tier-1 replaced (T1-3, T1-9)
    tier1_count: int = 0  # the tool results Tier-1 replaced, parts one by one (T1-7)
    tier2: tuple[int, ...] = ()  # positions Tier-2 replaced (T2-5)
    boundary: int | None = None  # T2-2: the last user input item, when Tier-2 ran and found one
    notes: tuple[str, ...] = ()  # T1-7, T2-7: the tier notes, in order


def _object(item: JsonValue) -> JsonObject:
    assert isinstance(item, dict)  # noqa: S101 - the caller checked the kind of item
    return item


def tier1_candidates(working: Sequence[JsonValue], keep: int) -> list[tuple[int, FoundResult]]:
    """T1-2: the tool results of the list but the newest *keep*, with their positions."""
    results = [
        (position, found) for position, item in enumerate(working) for found in tool_results(item)
    ]
    return results[: max(0, len(results) - keep)]


def _tier1(working: list[JsonValue], keep: int) -> tuple[list[int], int]:
    """T1-2 to T1-6 and T1-9 in place on *working*: the positions replaced, and the count."""
    names = tool_names(working)
    chosen: dict[int, list[int | None]] = {}
    for position, found in tier1_candidates(working, keep):
        if not is_placeholder_result(found):
            chosen.setdefault(position, []).append(found.part)
    for position, parts in chosen.items():
        working[position] = tier1_item(_object(working[position]), parts, names)
    return sorted(chosen), sum(map(len, chosen.values()))


def tier2_boundary(working: Sequence[JsonValue]) -> int | None:
    """T2-2: the position of the last user input item, or ``None`` when there is none."""
    inputs = [i for i, item in enumerate(working) if is_user_input(item)]
    return inputs[-1] if inputs else None


def _tier2(working: list[JsonValue]) -> tuple[int | None, list[int]]:
    """T2-2 to T2-6 in place on *working*: the boundary and the positions replaced."""
    boundary = tier2_boundary(working)
    if boundary is None:
        return None, []
    replaced = [
        p
        for p in range(boundary)
        if is_reasoning(working[p]) and not is_cleared_form(_object(working[p]))
    ]
    for position in replaced:
        working[position] = cleared_item(_object(working[position]))
    return boundary, replaced


def run_tiers(items: Sequence[JsonValue], budget: ContextBudget | None) -> Tiers:
    """PRJ-26, §7, §8: Tier-1 then Tier-2 on a working copy of *items*."""
    working = list(items)
    notes: list[str] = []
    tier1: list[int] = []
    count = 0
    tier2: list[int] = []
    boundary = None
    if budget is not None and budget.max_recent_tool_results is not None:
        tier1, count = _tier1(working, budget.max_recent_tool_results)
        if count:
            notes.append(TIER1_NOTE.format(cleared=count, kept=budget.max_recent_tool_results))
    if budget is not None and budget.trim_old_reasoning:
        boundary, tier2 = _tier2(working)
        if tier2:
            notes.append(TIER2_NOTE.format(cleared=len(tier2)))
    return Tiers(
        working=tuple(working),
        tier1=tuple(tier1),
        tier1_count=count,
        tier2=tuple(tier2),
        boundary=boundary,
        notes=tuple(notes),
    )


# -- §5.3: the item stage and the character stage ------------------------------------------


def item_stage(count: int, max_items: int, pinned: int) -> list[int]:
    """PRJ-15: the indices (of *count* items) that the item stage returns."""
    if count <= max_items:
        return list(range(count))
    if max_items == 0:
        return []
    head = min(pinned, max_items, count)
    tail = max_items - head
    return [*range(head), *range(count - tail, count)]


def char_stage(sizes: Sequence[int], max_chars: int, pinned: int) -> list[int]:
    """PRJ-18 to PRJ-22: the indices (into *sizes*) that the character stage returns."""
    count = len(sizes)
    if sum(sizes) <= max_chars:
        return list(range(count))
    if max_chars == 0:
        return []
    used = 0
    prefix_count = min(pinned, count)
    prefix: list[int] = []
    for index in range(prefix_count):
        if not prefix or used + sizes[index] <= max_chars:
            prefix.append(index)
            used += sizes[index]
    tail: list[int] = []
    for index in range(count - 1, prefix_count - 1, -1):
        if not tail or used + sizes[index] <= max_chars:
            tail.append(index)
            used += sizes[index]
    return prefix + sorted(tail)


# -- §5.5: the unit stages -------------------------------------------------------------------


def pinned_units(pairing: Pairs, pinned: int) -> list[tuple[int, ...]]:
    """PAIR-6: the units holding one of the first min(P, n) positions, in list order."""
    return [unit for unit in pairing.units if unit[0] < pinned]


def pinned_width(pairing: Pairs, pinned: int, max_items: int | None) -> int:
    """PAIR-7: w, the items of the pinned units taken in list order, each while it fits."""
    taken = 0
    for unit in pinned_units(pairing, pinned):
        if max_items is None or taken + len(unit) <= max_items:
            taken += len(unit)
    return taken


def _recency(units: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """PRJ-31: units by their greatest position, the newest first."""
    return sorted(units, key=lambda unit: unit[-1], reverse=True)


@attrs.frozen(kw_only=True)
class UnitStage:
    """What a unit stage of §5.5 returned: the units taken (list order) and whether it applied."""

    units: tuple[tuple[int, ...], ...]
    applied: bool
    newest_dropped: bool = False  # PRJ-32: the note's condition


def unit_item_stage(pairing: Pairs, max_items: int, pinned: int) -> UnitStage:
    """PRJ-32: pinned units in list order, then the others newest first, each while it fits."""
    everything = pairing.units
    count = len(pairing.unit_of)
    if count <= max_items:
        return UnitStage(units=everything, applied=False)
    if max_items == 0:
        return UnitStage(units=(), applied=True)
    left = max_items
    taken: list[tuple[int, ...]] = []
    for unit in pinned_units(pairing, pinned):
        if len(unit) <= left:
            taken.append(unit)
            left -= len(unit)
    after_prefix = left
    for unit in _recency([unit for unit in everything if unit[0] >= pinned]):
        if len(unit) <= left:
            taken.append(unit)
            left -= len(unit)
    newest = pairing.newest()
    dropped = newest[0] >= pinned and newest not in taken and after_prefix >= 1
    return UnitStage(units=tuple(sorted(taken)), applied=True, newest_dropped=dropped)


def unit_char_stage(
    received: Sequence[tuple[int, ...]], sizes: Sequence[int], max_chars: int, pinned: int
) -> UnitStage:
    """PRJ-33: like PRJ-20 and PRJ-21, by whole units; *sizes* are the working items' sizes."""

    def size(unit: tuple[int, ...]) -> int:
        return sum(sizes[p] for p in unit)

    total = sum(map(size, received))
    if total <= max_chars:
        return UnitStage(units=tuple(received), applied=False)
    if max_chars == 0:
        return UnitStage(units=(), applied=bool(received))
    used = 0
    taken: list[tuple[int, ...]] = []
    prefix = [unit for unit in received if unit[0] < pinned]
    tail = _recency([unit for unit in received if unit[0] >= pinned])
    for units in (prefix, tail):
        first = True
        for unit in units:
            if first or used + size(unit) <= max_chars:
                taken.append(unit)
                used += size(unit)
                first = False
    kept = tuple(sorted(taken))
    applied = sum(map(len, kept)) < sum(map(len, received)) or used < total
    return UnitStage(units=kept, applied=applied)


@attrs.frozen(kw_only=True)
class Expected:
    """What an exact projector returns for one source list and budget, per the spec."""

    items: tuple[JsonValue, ...]
    report: ContextReport
    tiers: Tiers


def _default_stages(
    working: Sequence[JsonValue], budget: ContextBudget, notes: list[str]
) -> tuple[list[int], bool, bool]:
    """§5.3's item stage then character stage: the positions kept and both flags."""
    pinned = budget.pinned_prefix_items
    positions = list(range(len(working)))
    item_applied = char_applied = False
    if budget.max_items is not None:
        kept = item_stage(len(positions), budget.max_items, pinned)
        item_applied = len(kept) < len(positions)
        positions = [positions[i] for i in kept]
        if item_applied:
            notes.append(MAX_ITEMS_NOTE.format(max_items=budget.max_items))
    if budget.max_approx_chars is not None:
        sizes = [approx_chars(working[p]) for p in positions]
        kept = char_stage(sizes, budget.max_approx_chars, pinned)
        kept_size = sum(sizes[i] for i in kept)
        char_applied = len(kept) < len(positions) or kept_size < sum(sizes)
        positions = [positions[i] for i in kept]
        if char_applied:
            notes.append(MAX_APPROX_CHARS_NOTE.format(max_approx_chars=budget.max_approx_chars))
    return positions, item_applied, char_applied


def _unit_stages(
    items: Sequence[JsonValue],
    working: Sequence[JsonValue],
    budget: ContextBudget,
    notes: list[str],
) -> tuple[list[int], bool, bool]:
    """§5.5's unit item stage then unit character stage: positions kept and both flags."""
    pinned = budget.pinned_prefix_items
    pairing = pairs(items)  # PRJ-30: the tiers keep the units of the source list
    units: Sequence[tuple[int, ...]] = pairing.units
    item_applied = char_applied = False
    if budget.max_items is not None:
        stage = unit_item_stage(pairing, budget.max_items, pinned)
        units, item_applied = stage.units, stage.applied
        if item_applied:
            notes.append(MAX_ITEMS_NOTE.format(max_items=budget.max_items))
        if stage.newest_dropped:
            notes.append(
                NEWEST_UNIT_DROPPED_NOTE.format(
                    items=len(pairing.newest()), max_items=budget.max_items
                )
            )
    if budget.max_approx_chars is not None:
        sizes = [approx_chars(item) for item in working]
        stage = unit_char_stage(units, sizes, budget.max_approx_chars, pinned)
        units, char_applied = stage.units, stage.applied
        if char_applied:
            notes.append(MAX_APPROX_CHARS_NOTE.format(max_approx_chars=budget.max_approx_chars))
    return sorted(p for unit in units for p in unit), item_applied, char_applied


def expected_projection(
    items: Sequence[JsonValue],
    budget: ContextBudget | None,
    *,
    tiers: bool,
    pair_safe: bool = False,
) -> Expected:
    """The exact projection of §5.3, §5.4 or §5.5.

    ``tiers=False`` is DefaultContextProjector (or the pair-safe projector without tiers,
    whose budget's tier fields are then ignored), ``tiers=True`` TypeAwareContextProjector
    (or the pair-safe projector with them); ``pair_safe`` chooses the unit stages of §5.5.
    """
    tiered = run_tiers(items, budget) if tiers else Tiers(working=tuple(items))
    working = tiered.working
    notes = list(tiered.notes)
    if budget is None:
        positions, item_applied, char_applied = list(range(len(working))), False, False
    elif pair_safe:
        positions, item_applied, char_applied = _unit_stages(items, working, budget, notes)
    else:
        positions, item_applied, char_applied = _default_stages(working, budget, notes)
    replaced = set(tiered.tier1) | set(tiered.tier2)
    output = tuple(working[p] for p in positions)
    report = ContextReport(
        source_item_count=len(items),
        projected_item_count=len(output),
        dropped_item_count=len(items) - len(output),
        source_approx_chars=sum(map(approx_chars, items)),
        projected_approx_chars=sum(map(approx_chars, output)),
        item_limit_applied=item_applied,
        character_limit_applied=char_applied,
        notes=tuple(notes),
        dropped_indices=tuple(sorted(set(range(len(items))) - set(positions))),
        cleared_indices=tuple(p for p in positions if p in replaced),
    )
    return Expected(items=output, report=report, tiers=tiered)


# -- PRJ-7, PRJ-8: representation ----------------------------------------------------------


def _keeps_id(
    source: JsonObject, output: JsonObject, member: str, *, verbatim: bool = False
) -> str | None:
    """PRJ-8: *output* has *member* exactly when *source*'s is a string, with that value.

    With *verbatim* (a Chat tool message, an Anthropic part) the member may also stay exactly
    as the source has it: T1-4 keeps every member of those, a non-string id included, which
    the letter of PRJ-8 (b) and (c) forbids; the suite accepts both readings.
    """
    if verbatim and (
        (member not in source and member not in output)
        or (member in source and member in output and identical(output[member], source[member]))
    ):
        return None
    value = string(source.get(member))
    if value is None and member in output:
        return f"the replacement has {member} but the source has no string {member}"
    if value is not None and not identical(output.get(member), value):
        return f"the replacement must keep {member} {value!r}"
    return None


def _result_replacement(source: JsonObject, output: object) -> str | None:
    """PRJ-8 (a) and (b): a result item by a result item of the same shape and call id."""
    if is_responses_result(source):
        if not member_is(output, "type", TOOL_RESULT):
            return "a Responses-style tool result may only be replaced by a function_call_output"
        return _keeps_id(source, _object(cast("JsonValue", output)), "call_id")
    if not (member_is(output, "role", "tool") and not member_is(output, "type", TOOL_RESULT)):
        return "a Chat-style tool message may only be replaced by a tool message"
    return _keeps_id(source, _object(cast("JsonValue", output)), "tool_call_id", verbatim=True)


def _carrier_replacement(source: JsonObject, output: object) -> str | None:  # noqa: PLR0911 - one per rule
    """PRJ-8 (c): the same members in order, identical but ``content``, parts by placeholders."""
    if not isinstance(output, dict) or list(output) != list(source):
        return "a result carrier's replacement keeps its member names in their order"
    for name, value in source.items():
        if name != "content" and not identical(output[name], value):
            return f"a result carrier's replacement keeps its member {name} identical"
    parts = cast("list[JsonValue]", source["content"])
    new_parts = output["content"]
    if not isinstance(new_parts, list) or len(new_parts) != len(parts):
        return "a result carrier's replacement keeps a content array as long as the source's"
    for index, (part, new) in enumerate(zip(parts, new_parts, strict=True)):
        if identical(part, new):
            continue
        if not member_is(part, "type", TOOL_RESULT_PART):
            return f"content[{index}] is not a tool_result part, so it must stay identical"
        if not member_is(new, "type", TOOL_RESULT_PART):
            return f"content[{index}] may only be replaced by a tool_result part"
        problem = _keeps_id(_object(part), _object(new), "tool_use_id", verbatim=True)
        if problem is not None:
            return f"content[{index}]: {problem}"
    return None


def _reasoning_replacement(source: JsonObject, output: object) -> str | None:
    """PRJ-8 (d): a reasoning item by a reasoning item with the same ``id`` member."""
    if not is_reasoning(output):
        return "a reasoning item may only be replaced by a reasoning item"
    replaced = _object(cast("JsonValue", output))
    if "id" in source and ("id" not in replaced or not identical(replaced["id"], source["id"])):
        return "the replacement must keep the reasoning item's id"
    return None


def replacement_problem(source: object, output: object) -> str | None:
    """PRJ-8: why *output* may not replace *source*, or ``None`` when it may.

    A source that is of several kinds (a reasoning item that is also a tool message, say)
    may be replaced as any of them.
    """
    if not isinstance(source, dict):
        return "only tool results, result carriers and reasoning items may be replaced"
    problems = []
    if is_result_item(source):
        problems.append(_result_replacement(source, output))
    elif is_carrier(source):
        problems.append(_carrier_replacement(source, output))
    if is_reasoning(source):
        problems.append(_reasoning_replacement(source, output))
    if not problems:
        return "only tool results, result carriers and reasoning items may be replaced"
    if None in problems:
        return None
    return "; ".join(cast("list[str]", problems))


def replaced_results(source: object, output: object) -> int:
    """How many of *source*'s tool results *output* replaces (T1-7 counts parts one by one)."""
    if identical(source, output):
        return 0
    if is_result_item(source):
        return 1
    if is_carrier(source) and isinstance(output, dict) and isinstance(output.get("content"), list):
        parts = cast("list[JsonValue]", _object(cast("JsonValue", source))["content"])
        new_parts = cast("list[JsonValue]", output["content"])
        return sum(
            1
            for found in tool_results(source)
            if found.part is not None
            and found.part < len(new_parts)
            and not identical(parts[found.part], new_parts[found.part])
        )
    return 0


def represents(source: object, output: object) -> bool:
    """PRJ-7: *output* is identical to *source* or an allowed replacement of it."""
    return identical(source, output) or replacement_problem(source, output) is None


Match = Callable[[int, int], bool]


def embed(count: int, output_count: int, match: Match) -> list[int] | int:
    """The earliest source positions that output items match, in order.

    ``match(k, j)`` says whether output item k may stand at source position j. Taking the
    earliest match for each output item never rules out a later one, so this finds an
    order-preserving selection whenever one exists; otherwise it returns the index of the
    first output item that has no place.
    """
    found: list[int] = []
    position = 0
    for k in range(output_count):
        while position < count and not match(k, position):
            position += 1
        if position == count:
            return k
        found.append(position)
        position += 1
    return found


def kept_positions(
    source: Sequence[object],
    output: Sequence[object],
    report: ContextReport,
    *,
    latest: bool = False,
) -> tuple[list[int] | None, str]:
    """The source positions the output items represent (PRJ-7), or ``None`` and why not.

    When the report carries ``droppedIndices`` they fix the positions (RPT-7); otherwise,
    with ``clearedIndices``, a position is cleared exactly when its output item is not
    identical; without either, the earliest order-preserving selection stands for them (the
    latest, with *latest*: the reading most favourable to a rule about the newest items).
    """
    if latest and report.dropped_indices is None:
        count = len(source)
        flipped = attrs.evolve(
            report,
            cleared_indices=None
            if report.cleared_indices is None
            else tuple(count - 1 - p for p in report.cleared_indices),
        )
        backwards, _ = kept_positions(source[::-1], output[::-1], flipped)
        if backwards is not None:
            return sorted(count - 1 - p for p in backwards), ""
    dropped = report.dropped_indices
    if dropped is not None:
        excluded = set(dropped)
        kept = [p for p in range(len(source)) if p not in excluded]
        if len(kept) != len(output):
            return None, (
                f"droppedIndices {list(dropped)} leave {len(kept)} of the {len(source)} source "
                f"items but the output has {len(output)}"
            )
        return kept, ""
    cleared = None if report.cleared_indices is None else set(report.cleared_indices)

    def match(k: int, j: int) -> bool:
        same = identical(source[j], output[k])
        if cleared is not None and same == (j in cleared):
            return False
        return same or replacement_problem(source[j], output[k]) is None

    found = embed(len(source), len(output), match)
    if isinstance(found, int):
        return None, (
            f"output item {found} ({describe(output[found])}) represents no source item after "
            "those before it: the output is not an order-preserving selection of the source"
        )
    return found, ""


# -- generated cases ------------------------------------------------------------------------


def _items(text: str) -> tuple[JsonValue, ...]:
    return tuple(json.loads(text))


#: Tool results and calls at the edges of §1.4 and §7, in all three shapes: placeholders
#: (with other members, and a look-alike that is none), numeric and missing call ids, a
#: result's own name, a later call renaming an id, a nameless call, an Anthropic part with an
#: empty name, a tool result that is also a user item, a tool message without content, a
#: carrier with text between its results (and one that is no user message), a tool message
#: whose content holds result parts (they are not results: the message is the result).
TOOL_EDGES: Final = _items(
    """[
    {"type": "function_call_output", "call_id": "call-1",
     "output": "[tool result cleared: read_file(call-1)]", "status": "completed"},
    {"type": "function_call_output", "output": "[tool result cleared]"},
    {"type": "function_call_output", "call_id": "call-2", "output": "[tool result cleared: x]"},
    {"type": "function_call_output", "call_id": "call-5", "output": "[tool result cleared (old)]"},
    {"type": "function_call_output", "call_id": 7, "output": "numeric call id"},
    {"type": "function_call_output", "name": "grep", "output": "named, without call id"},
    {"type": "function_call_output", "call_id": "call-1", "name": "own", "output": "x",
     "status": "completed"},
    {"type": "function_call_output", "call_id": "call-3", "output": {"rows": [1, 1.0]}},
    {"type": "function_call_output", "call_id": "call-4", "output": "no call declares me"},
    {"role": "user", "type": "function_call_output", "call_id": "call-2", "output": "u"},
    {"role": "tool", "tool_call_id": "call-2", "content": "[tool result cleared: x]"},
    {"role": "tool", "tool_call_id": 7, "content": "numeric tool_call_id", "name": "own"},
    {"content": "content first", "role": "tool", "tool_call_id": "call-1", "extra": [1.0]},
    {"role": "tool", "tool_call_id": "call-3"},
    {"role": "tool", "tool_call_id": "call-4",
     "content": [{"type": "tool_result", "tool_use_id": "call-1", "content": "inner"}]},
    {"type": "message", "role": "user", "id": "msg_1", "content": [
        {"type": "tool_result", "tool_use_id": "call-2", "content": "part"},
        {"type": "text", "text": "between"},
        {"type": "tool_result", "content": "[tool result cleared]"},
        {"type": "tool_result", "tool_use_id": "call-1", "is_error": true,
         "content": [{"type": "text", "text": "x"}]},
        {"type": "tool_result", "tool_use_id": 5}]},
    {"type": "message", "role": "assistant",
     "content": [{"type": "tool_result", "tool_use_id": "call-3"}, "not a part"]},
    {"type": "function_call", "call_id": "call-1", "name": "renamed", "arguments": "{}"},
    {"type": "message", "role": "assistant",
     "content": [{"type": "tool_use", "id": "call-2", "name": ""}]},
    {"type": "message", "role": "assistant", "tool_calls": [
        {"id": "call-3", "function": {"name": "view-image"}},
        {"id": "call-3", "name": 5}, "not a call"]}
]"""
)
#: Reasoning items at the edges of §8, and user items that move its boundary (or do not: a
#: message that only delivers tool results is no user input item, T2-2).
REASONING_EDGES: Final = _items(
    """[
    {"type": "reasoning", "id": "rs_c",
     "summary": [{"type": "summary_text", "text": "[reasoning cleared]"}]},
    {"type": "reasoning", "summary": [{"text": "[reasoning cleared]", "type": "summary_text"}],
     "id": "rs_d"},
    {"type": "reasoning", "id": "rs_e",
     "summary": [{"type": "summary_text", "text": "[reasoning cleared]"}],
     "encrypted_content": "gAAA"},
    {"status": "completed", "type": "reasoning", "text": "raw", "id": 3},
    {"type": "reasoning", "id": "rs_f", "summary": [{"type": "summary_text", "text": "plan"}],
     "encrypted_content": "gBBB", "status": "completed"},
    {"type": "reasoning", "role": "user", "summary": []},
    {"type": "message", "role": "user", "content": "a chat-style user message"},
    {"role": "user", "content": [{"type": "input_text", "text": "typeless user item"}]},
    {"type": "message", "role": "user",
     "content": [{"type": "tool_result", "tool_use_id": "call-1", "content": "no boundary"}]},
    {"role": "user", "type": "function_call_output", "call_id": "call-9", "output": "neither"}
]"""
)
#: Values whose compact JSON text is subtle (JSON-5, JSON-6, SIZE-1 .. SIZE-6), and odd messages.
VALUE_EDGES: Final = _items(
    r"""[
    {"type": "message", "role": "system",
     "content": [{"type": "input_text", "text": "mid-history system"}]},
    1, 1.0, -0.0, 1e16, 1.5e300, 12345678901234567890123, null, true, "", " padded ",
    "\ud83d\ude00 astral \u00e9", "line\nbreak\u0001", ["a", null, "b"],
    {"z": 1, "a": [1.0, {"\u00e9": null}], "s": "\u2028/\\\""}
]"""
)
ADVERSARIAL_ITEMS: Final = TOOL_EDGES + REASONING_EDGES + VALUE_EDGES


def _insertions(pool: tuple[JsonValue, ...], count: int) -> st.SearchStrategy[Any]:
    # Built once per pool: a strategy built inside a composite is validated at every draw.
    return st.lists(
        st.tuples(st.integers(0, 40), st.sampled_from(pool).map(copy.deepcopy)),
        max_size=count,
    )


_INSERTIONS = {
    "any": _insertions(ADVERSARIAL_ITEMS, 3),
    "tier1": _insertions(TOOL_EDGES, 4),
    "tier2": _insertions(REASONING_EDGES, 4),
}
_ADVERSARIAL = adversarial_transcripts(max_turns=3, max_steps=2)
#: Well-paired transcripts in all shapes, a pending step at the tail at times, and, one
#: time in five, a broken one: pair integrity is judged relative to its source (PAIR-9).
_PAIRED = st.one_of(
    transcripts(max_turns=3, max_steps=2, pending=True),
    transcripts(max_turns=3, max_steps=2, pending=True),
    transcripts(max_turns=3, max_steps=2, pending=True),
    transcripts(max_turns=3, max_steps=2, pending=True),
    _ADVERSARIAL,
)
_WIRE = {provider: provider_transcripts(provider) for provider in PROVIDERS}
_SMALL_K = st.integers(0, 3)
# The ranges of budgets_for (maxItems up to n + 2, maxApproxChars up to the size + 10,
# a pin up to 3, K up to 5), drawn from strategies built once and scaled to the case: the
# same budgets, at a fraction of the cost of building strategies at every draw.
_SCALED = st.none() | st.integers(0, 2**16)
_BUDGET_PARTS = st.tuples(
    _SCALED, _SCALED, st.integers(0, 3), st.none() | st.integers(0, 5), st.booleans()
)


def _budget(draw: st.DrawFn, count: int, size: int) -> ContextBudget:
    items, chars, pinned, keep, trim = draw(_BUDGET_PARTS)
    return ContextBudget(
        max_items=None if items is None else items % (count + 3),
        max_approx_chars=None if chars is None else chars % (size + 11),
        pinned_prefix_items=pinned,
        max_recent_tool_results=keep,
        trim_old_reasoning=trim,
    )


@st.composite
def cases(
    draw: st.DrawFn,
    *,
    tiers: bool,
    keep_recent: bool = False,
    trim: bool = False,
    limits: bool = True,
) -> Case:
    """A broken transcript with a few adversarial items mixed in, and a budget sized to it.

    For the checks that must hold on anything (PAIR-9): ``tiers=False`` leaves both tiers off
    (for a target without them); ``keep_recent`` and ``trim`` force Tier-1 and Tier-2 on and
    mix in items at their edges; ``limits=False`` leaves both limits unset.
    """
    focus = "tier1" if keep_recent else "tier2" if trim else "any"
    # A deep copy: some strategies hand out the same object twice, and a projector that
    # mutates its input must not change the next example.
    items: list[JsonValue] = copy.deepcopy(draw(_ADVERSARIAL))
    for position, extra in draw(_INSERTIONS[focus]):
        items.insert(min(position, len(items)), extra)
    if draw(st.booleans()):
        budget = _budget(draw, len(items), sum(map(approx_chars, items)))
    else:
        budget = draw_edge_budget(draw, items, tiers=True)
    changes: dict[str, Any] = {}
    if not tiers:
        changes.update(max_recent_tool_results=None, trim_old_reasoning=False)
    else:
        if keep_recent and budget.max_recent_tool_results is None:
            changes["max_recent_tool_results"] = draw(_SMALL_K)
        if trim:
            changes["trim_old_reasoning"] = True
    if not limits:
        changes.update(max_items=None, max_approx_chars=None)
    return items, attrs.evolve(budget, **changes)


@st.composite
def pair_cases(draw: st.DrawFn, *, tiers: bool) -> Case:
    """A well-paired transcript (at times a broken one) and a budget at the edges of its units.

    For the checks of pair integrity (PAIR-4 .. PAIR-7): limits that cut inside a unit, that
    equal a unit's item count or size or one less, 0 and 1, pins that end inside a unit.
    """
    items: list[JsonValue] = copy.deepcopy(draw(_PAIRED))
    return items, draw_edge_budget(draw, items, tiers=tiers)


@st.composite
def wire_cases(draw: st.DrawFn, provider: str, *, tiers: bool) -> Case:
    """A list *provider* accepts (WIRE-18's precondition) and a budget at its units' edges."""
    items: list[JsonValue] = copy.deepcopy(draw(_WIRE[provider]))
    return items, draw_edge_budget(draw, items, tiers=tiers)
