"""What the projector checks share: the spec's rules read independently, and generated cases.

The functions here restate SPEC.md §1.4, §5, §7 and §8 in the plainest form (one pass per
rule, no laziness, no shortcuts), so a check that uses them does not trust the reference
implementation's optimised code. Sizes are measured with the reference's
:func:`~ctxpact.reference.projection.approx_chars`, the suite's measuring stick (SIZE-1 .. SIZE-6).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

import attrs
from hypothesis import strategies as st

from ctxpact.conformance._context import describe
from ctxpact.conformance.strategies import transcripts
from ctxpact.reference.projection import (
    MAX_APPROX_CHARS_NOTE,
    MAX_ITEMS_NOTE,
    REASONING_CLEARED_TEXT,
    TIER1_NOTE,
    TIER2_NOTE,
    TOOL_RESULT_PLACEHOLDER,
    TOOL_RESULT_PLACEHOLDER_BARE,
    TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY,
    TOOL_RESULT_PLACEHOLDER_NAME_ONLY,
    approx_chars,
)
from ctxpact.spec import ContextBudget, ContextReport, JsonObject, JsonValue, compact_json

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
REASONING: Final = "reasoning"

#: RPT-6: the four note forms an exact projector writes, as patterns (decimal numbers only).
NOTE_PATTERNS: Final = {
    "tier1": re.compile(
        r"tier1 microcompact: cleared (0|[1-9]\d*) old tool result\(s\), "
        r"kept recent (0|[1-9]\d*)"
    ),
    "tier2": re.compile(r"tier2 reasoning-trim: cleared (0|[1-9]\d*) reasoning item\(s\)"),
    "items": re.compile(r"maxItems applied: (0|[1-9]\d*)"),
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


def _string(value: object) -> str | None:
    return value if isinstance(value, str) else None


def member_is(item: object, name: str, value: str) -> bool:
    """§1.4: "*name* is *value*": a JSON object whose member *name* is that JSON string."""
    return isinstance(item, dict) and _string(item.get(name)) == value


def is_tool_result(item: object) -> bool:
    """§1.4 tool result: a JSON object whose ``type`` is ``"function_call_output"``."""
    return member_is(item, "type", TOOL_RESULT)


def is_reasoning(item: object) -> bool:
    """§1.4 reasoning item: a JSON object whose ``type`` is ``"reasoning"``."""
    return member_is(item, "type", REASONING)


def is_user_item(item: object) -> bool:
    """§1.4 user item: a JSON object whose ``role`` is ``"user"``."""
    return member_is(item, "role", "user")


def call_id_of(item: object) -> str | None:
    """§1.4: a tool result's call id, its ``call_id`` when that is a string."""
    return _string(item.get("call_id")) if isinstance(item, dict) else None


def is_placeholder_output(value: object) -> bool:
    """§1.4: ``[tool result cleared]``, or ``[tool result cleared: `` ... ``]``."""
    return isinstance(value, str) and (
        value == TOOL_RESULT_PLACEHOLDER_BARE
        or (value.startswith(PLACEHOLDER_OUTPUT_START) and value.endswith(PLACEHOLDER_OUTPUT_END))
    )


def tool_calls(value: object) -> Iterator[tuple[str | None, str | None]]:
    """§1.4 rules (a) to (d): the (id, name) of each tool call *value* declares, in order."""
    if not isinstance(value, dict):
        return
    kind = value.get("type")
    if kind == "function_call":
        yield _string(value.get("call_id")), _string(value.get("name"))
    elif kind == "tool_use":
        yield _string(value.get("id")), _string(value.get("name"))
    calls = value.get("tool_calls")
    if isinstance(calls, list | tuple):
        for entry in calls:
            if not isinstance(entry, dict):
                continue
            name = _string(entry.get("name"))
            function = entry.get("function")
            if name is None and isinstance(function, dict):
                name = _string(function.get("name"))
            yield _string(entry.get("id")), name
    content = value.get("content")
    if isinstance(content, list | tuple):
        for part in content:
            yield from tool_calls(part)


def calls_of_results(items: Sequence[JsonValue]) -> dict[int, int]:
    """CUT-4: for each tool result position r that has a call, the position d of its call.

    The call is the latest position d < r whose item declares a tool call with r's call id.
    """
    latest: dict[str, int] = {}
    pairs: dict[int, int] = {}
    for position, item in enumerate(items):
        call_id = call_id_of(item) if is_tool_result(item) else None
        if call_id is not None and call_id in latest:
            pairs[position] = latest[call_id]
        for found, _ in tool_calls(item):
            if found is not None:
                latest[found] = position
    return pairs


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


def placeholder_label(result: JsonObject, names: Mapping[str, str]) -> str:
    """T1-5, T1-6: the label of the placeholder of tool result *result*."""
    call_id = call_id_of(result)
    name = names.get(call_id) if call_id is not None else None
    if name is None:
        name = _string(result.get("name"))
    if name is not None and call_id is not None:
        return TOOL_RESULT_PLACEHOLDER.format(name=name, call_id=call_id)
    if name is not None:
        return TOOL_RESULT_PLACEHOLDER_NAME_ONLY.format(name=name)
    if call_id is not None:
        return TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY.format(call_id=call_id)
    return TOOL_RESULT_PLACEHOLDER_BARE


def placeholder_item(result: JsonObject, names: Mapping[str, str]) -> JsonObject:
    """T1-4: ``type``, then ``call_id`` when the result has a call id, then ``output``."""
    placeholder: JsonObject = {"type": TOOL_RESULT}
    call_id = call_id_of(result)
    if call_id is not None:
        placeholder["call_id"] = call_id
    placeholder["output"] = placeholder_label(result, names)
    return placeholder


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
    tier1: tuple[int, ...] = ()  # positions Tier-1 replaced (T1-3)
    tier2: tuple[int, ...] = ()  # positions Tier-2 replaced (T2-5)
    boundary: int | None = None  # T2-2: the last user item, when Tier-2 ran and found one
    notes: tuple[str, ...] = ()  # T1-7, T2-7: the tier notes, in order


def _object(item: JsonValue) -> JsonObject:
    assert isinstance(item, dict)  # noqa: S101 - the caller checked the kind of item
    return item


def _tier1(working: list[JsonValue], keep: int) -> list[int]:
    """T1-2 to T1-6 in place on *working*: the positions replaced."""
    results = [i for i, item in enumerate(working) if is_tool_result(item)]
    candidates = results[: max(0, len(results) - keep)]
    names = tool_names(working)
    replaced = [
        p for p in candidates if not is_placeholder_output(_object(working[p]).get("output"))
    ]
    for position in replaced:
        working[position] = placeholder_item(_object(working[position]), names)
    return replaced


def _tier2(working: list[JsonValue]) -> tuple[int | None, list[int]]:
    """T2-2 to T2-6 in place on *working*: the boundary and the positions replaced."""
    users = [i for i, item in enumerate(working) if is_user_item(item)]
    if not users:
        return None, []
    boundary = users[-1]
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
    tier2: list[int] = []
    boundary = None
    if budget is not None and budget.max_recent_tool_results is not None:
        tier1 = _tier1(working, budget.max_recent_tool_results)
        if tier1:
            notes.append(TIER1_NOTE.format(cleared=len(tier1), kept=budget.max_recent_tool_results))
    if budget is not None and budget.trim_old_reasoning:
        boundary, tier2 = _tier2(working)
        if tier2:
            notes.append(TIER2_NOTE.format(cleared=len(tier2)))
    return Tiers(
        working=tuple(working),
        tier1=tuple(tier1),
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


@attrs.frozen(kw_only=True)
class Expected:
    """What an exact projector returns for one source list and budget, per the spec."""

    items: tuple[JsonValue, ...]
    report: ContextReport
    tiers: Tiers


def expected_projection(
    items: Sequence[JsonValue], budget: ContextBudget | None, *, tiers: bool
) -> Expected:
    """The exact projection of §5.3 (``tiers=False``) or §5.4 (``tiers=True``)."""
    tiered = run_tiers(items, budget) if tiers else Tiers(working=tuple(items))
    working = tiered.working
    pinned = 0 if budget is None else budget.pinned_prefix_items
    notes = list(tiered.notes)
    positions = list(range(len(working)))
    item_applied = char_applied = False
    if budget is not None and budget.max_items is not None:
        kept = item_stage(len(positions), budget.max_items, pinned)
        item_applied = len(kept) < len(positions)
        positions = [positions[i] for i in kept]
        if item_applied:
            notes.append(MAX_ITEMS_NOTE.format(max_items=budget.max_items))
    if budget is not None and budget.max_approx_chars is not None:
        sizes = [approx_chars(working[p]) for p in positions]
        kept = char_stage(sizes, budget.max_approx_chars, pinned)
        kept_size = sum(sizes[i] for i in kept)
        char_applied = len(kept) < len(positions) or kept_size < sum(sizes)
        positions = [positions[i] for i in kept]
        if char_applied:
            notes.append(MAX_APPROX_CHARS_NOTE.format(max_approx_chars=budget.max_approx_chars))
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


def replacement_problem(source: object, output: object) -> str | None:  # noqa: PLR0911 - one per rule
    """PRJ-8: why *output* may not replace *source*, or ``None`` when it may."""
    if is_tool_result(source):
        if not is_tool_result(output):
            return "a tool result may only be replaced by a tool result"
        assert isinstance(source, dict)  # noqa: S101 - is_tool_result said so
        assert isinstance(output, dict)  # noqa: S101
        call_id = call_id_of(source)
        if call_id is None and "call_id" in output:
            return "the replacement has a call_id but the source has no string call_id"
        if call_id is not None and not identical(output.get("call_id"), call_id):
            return f"the replacement must keep call_id {call_id!r}"
        return None
    if is_reasoning(source):
        if not is_reasoning(output):
            return "a reasoning item may only be replaced by a reasoning item"
        assert isinstance(source, dict)  # noqa: S101 - is_reasoning said so
        assert isinstance(output, dict)  # noqa: S101
        if "id" in source and ("id" not in output or not identical(output["id"], source["id"])):
            return "the replacement must keep the reasoning item's id"
        return None
    return "only tool results and reasoning items may be replaced"


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
    source: Sequence[object], output: Sequence[object], report: ContextReport
) -> tuple[list[int] | None, str]:
    """The source positions the output items represent (PRJ-7), or ``None`` and why not.

    When the report carries ``droppedIndices`` they fix the positions (RPT-7); otherwise,
    with ``clearedIndices``, a position is cleared exactly when its output item is not
    identical; without either, the earliest order-preserving selection stands for them.
    """
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


#: Tool results and calls at the edges of §1.4 and §7: placeholders (with other members, and
#: a look-alike that is none),
#: numeric and missing call ids, a result's own name, a later call renaming an id, a nameless
#: call, an Anthropic part with an empty name, a tool result that is also a user item.
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
    {"type": "function_call", "call_id": "call-1", "name": "renamed", "arguments": "{}"},
    {"type": "message", "role": "assistant",
     "content": [{"type": "tool_use", "id": "call-2", "name": ""}]},
    {"type": "message", "role": "assistant", "tool_calls": [
        {"id": "call-3", "function": {"name": "view-image"}},
        {"id": "call-3", "name": 5}, "not a call"]}
]"""
)
#: Reasoning items at the edges of §8, and user items that move its boundary.
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
    {"role": "user", "content": [{"type": "input_text", "text": "typeless user item"}]}
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
_TRANSCRIPTS = transcripts(max_turns=3, max_steps=2)
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
def cases(  # noqa: PLR0913 - each switch is a separate focus of one check
    draw: st.DrawFn,
    *,
    tiers: bool,
    keep_recent: bool = False,
    trim: bool = False,
    limits: bool = True,
    cut_pairs: bool = False,
) -> Case:
    """A transcript with a few adversarial items mixed in, and a budget sized to it.

    ``tiers=False`` leaves both tiers off (for a target without them); ``keep_recent`` and
    ``trim`` force Tier-1 and Tier-2 on and mix in items at their edges; ``limits=False``
    leaves both limits unset; ``cut_pairs`` often sets ``maxItems`` so that the kept tail
    starts right at a tool result whose call comes before it.
    """
    focus = "tier1" if keep_recent else "tier2" if trim else "any"
    # A deep copy: some strategies hand out the same object twice, and a projector that
    # mutates its input must not change the next example.
    items: list[JsonValue] = copy.deepcopy(draw(_TRANSCRIPTS))
    for position, extra in draw(_INSERTIONS[focus]):
        items.insert(min(position, len(items)), extra)
    budget = _budget(draw, len(items), sum(map(approx_chars, items)))
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
    results = sorted(calls_of_results(items))
    if cut_pairs and results and draw(st.booleans()):
        cut = draw(st.sampled_from(results))
        changes.update(max_items=len(items) - cut, pinned_prefix_items=0)
    return items, attrs.evolve(budget, **changes)
