"""Generic projector checks: what any projector promises, whatever its algorithm (PRJ-6).

The result type, the JSON document, order, no mutation, determinism, ``maxItems``, the
pinned prefix and the newest item (PRJ-1 .. PRJ-12; PAIR-6 and PAIR-7 in place of PRJ-10 and
PRJ-11 for a target that claims pair integrity, PAIR-5), the report (RPT-1 .. RPT-9), sizes
(SIZE-1 .. SIZE-6) and the budget's validation (BUD-1 .. BUD-7).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Any, cast

import attrs
from hypothesis import example, given

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._pairing import Pairs, pairs
from ctxpact.conformance.checks._classics import with_examples
from ctxpact.conformance.checks._projection_support import (
    NOTE_PATTERNS,
    Case,
    identical,
    is_reasoning,
    kept_positions,
    pinned_units,
    pinned_width,
    replaced_results,
    replacement_problem,
    represents,
    text,
)
from ctxpact.conformance.checks.projector._common import (
    _CASES,
    _MIXED,
    OptionalCase,
    Test,
    _classic_examples,
    _expect_same,
    _keeps_pairs,
    _kept,
    _kept_for,
    _project,
    _tiers,
    _units_text,
    generic,
)
from ctxpact.conformance.checks.projector._examples import (
    _message,
    _user,
    carriers,
    edge_names,
    four_results,
    numbers,
    odd_call_ids,
    paired,
    passthrough,
    summary_and_tail,
    tier1_example,
    tier2_example,
)
from ctxpact.conformance.vectors import vectors_for
from ctxpact.reference.projection import (
    NEWEST_UNIT_DROPPED_NOTE,
    approx_chars,
)
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextProjector,
    ContextReport,
    CtxpactError,
    InvalidValueError,
    JsonValue,
    SchemaValidationError,
    camel_case,
    from_json,
    load_schema,
    to_json,
    violations,
)


@generic("projector.result-type", "PRJ-1", "RPT-1", "RPT-9")
def result_type(context: CheckContext) -> Test:
    """A projection is a ContextProjection with a frozen report, for a list or a tuple."""

    @given(case=_CASES[_tiers(context)])
    @example(case=([], None))
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    def test(case: OptionalCase) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        context.expect(
            isinstance(projection, ContextProjection),
            f"expected a ContextProjection but got {type(projection).__name__}",
        )
        report = projection.report
        context.expect(
            isinstance(report, ContextReport),
            f"expected a ContextReport (never null) but got {type(report).__name__}",
        )
        try:
            report.notes = ("changed",)  # type: ignore[misc]  # must fail: the report is frozen
        except attrs.exceptions.FrozenInstanceError:
            pass
        else:
            context.expect(condition=False, message="the report can be changed after the fact")
        projector: ContextProjector = context.subject()
        as_tuple = projector.project(tuple(items), budget)
        _expect_same(context, "a tuple of the same items", as_tuple, projection.items, report)

    return test


@generic("projector.document", "JSON-12", "JSON-13", "JSON-14", "JSON-15")
def document(context: CheckContext) -> Test:
    """The projection's JSON document validates against context-projection.schema.json."""

    @given(case=_CASES[_tiers(context)])
    @example(case=(numbers(), ContextBudget(max_items=4)))
    @example(case=(tier1_example(), ContextBudget(max_recent_tool_results=1)))
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        report = projection.report
        try:
            plain = ContextProjection(
                items=projection.items,
                report=ContextReport(**attrs.asdict(report, recurse=False)),
            )
            written = to_json(plain)
        except (CtxpactError, TypeError, ValueError) as error:
            context.expect(condition=False, message=f"the projection has no JSON document: {error}")
            return
        found = violations(written, "context-projection")
        context.expect(
            not found,
            "the document breaks context-projection.schema.json: "
            + "; ".join(f"{v.path}: {v.message}" for v in found),
        )
        written_report = written["report"]
        assert isinstance(written_report, dict)  # noqa: S101 - the schema said so
        for member, value in (
            ("droppedIndices", report.dropped_indices),
            ("clearedIndices", report.cleared_indices),
        ):
            if value is None:
                context.expect(
                    written_report.get(member) is None,
                    f"{member} is not reported, so it must be absent or null, never "
                    f"{describe(written_report.get(member))}",
                )
        read = from_json(ContextProjection, written)
        _expect_same(context, "the projection read back", read, projection.items, report)

    return test


@generic("projector.order-preserving", "PRJ-7", "PRJ-8", "JSON-1", "JSON-3", "JSON-5", "JSON-10")
def order_preserving(context: CheckContext) -> Test:
    """The output is an order-preserving selection of the source, with allowed replacements.

    Every output item is identical (JSON-10: same compact JSON text, so member order and
    ``1`` versus ``1.0`` count) to its source item, or replaces a tool result or a reasoning
    item as PRJ-8 allows. With ``droppedIndices`` the source positions are the ones not
    listed; without, any order-preserving selection will do.
    """

    @given(case=_CASES[_tiers(context)])
    @example(case=(numbers(), ContextBudget(max_items=5, pinned_prefix_items=1)))
    @example(case=(passthrough(), ContextBudget(max_items=6, pinned_prefix_items=1)))
    # A character limit that binds nothing: all seven items stay, the newest included.
    @example(case=(passthrough(), ContextBudget(max_approx_chars=1_000)))
    @example(case=(["b", "a", "b"], ContextBudget(max_approx_chars=2)))
    @example(case=(tier1_example(), ContextBudget(max_recent_tool_results=0, max_items=6)))
    @example(case=(tier2_example(), ContextBudget(trim_old_reasoning=True)))
    @example(case=(carriers(), ContextBudget(max_recent_tool_results=0)))
    @example(case=(odd_call_ids(), ContextBudget(max_recent_tool_results=0)))
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        output = projection.items
        kept = _kept(context, items, projection)
        for index, position in enumerate(kept):
            source, item = items[position], output[index]
            if identical(source, item):
                continue
            problem = replacement_problem(source, item)
            context.expect(
                problem is None,
                f"output item {index} stands for source item {position} ({describe(source)}) "
                f"but is {describe(item)}: {problem}",
            )

    return test


@generic("projector.no-mutation", "PRJ-2", "PRJ-3", "JSON-16", "BUD-6", "BUD-7")
def no_mutation(context: CheckContext) -> Test:
    """Projecting changes neither the source list, nor any item at any depth, nor the budget."""

    @given(case=_CASES[_tiers(context)])
    @example(case=(tier1_example(), ContextBudget(max_recent_tool_results=0, max_items=4)))
    @example(case=(tier2_example(), ContextBudget(trim_old_reasoning=True, max_approx_chars=90)))
    @example(case=(numbers(), ContextBudget(max_items=2)))
    def test(case: Case) -> None:
        items, budget = case
        before = [text(item) for item in items]
        identities = [id(item) for item in items]
        fields = describe(budget)
        _project(context, items, budget)
        context.expect(
            len(items) == len(before),
            f"the source list changed length from {len(before)} to {len(items)}",
        )
        for position, (item, was) in enumerate(zip(items, before, strict=True)):
            context.expect(
                text(item) == was,
                f"source item {position} changed from {was} to {describe(item)}",
            )
        context.expect(
            [id(item) for item in items] == identities,
            "the source list now holds other objects than the caller's",
        )
        context.expect(
            describe(budget) == fields,
            f"the budget changed from {fields} to {describe(budget)}",
        )

    return test


@generic("projector.deterministic", "PRJ-4", "BUD-6")
def deterministic(context: CheckContext) -> Test:
    """The same source list and an equal budget give identical items and an identical report.

    Again on the same instance after another projection, and on a fresh instance, with a
    deep copy of the items and an equal but distinct budget.
    """

    @given(case=_CASES[_tiers(context)])
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(tier1_example(), ContextBudget(max_recent_tool_results=1)))
    def test(case: Case) -> None:
        items, budget = case
        context.record(items=items, budget=budget)
        projector: ContextProjector = context.subject()
        first = projector.project(items, budget)
        projector.project(items[::-1], ContextBudget(max_items=1))
        again = projector.project(copy.deepcopy(items), attrs.evolve(budget))
        _expect_same(context, "projecting again", again, first.items, first.report)
        fresh: ContextProjector = context.subject()
        other = fresh.project(copy.deepcopy(items), attrs.evolve(budget))
        _expect_same(context, "a fresh projector", other, first.items, first.report)

    return test


@generic("projector.max-items", "PRJ-9")
def max_items(context: CheckContext) -> Test:
    """The projection never carries more than maxItems items."""

    @given(case=_CASES[_tiers(context)])
    @example(case=(["a", "b", "c"], ContextBudget(max_items=2)))
    @example(case=(["a"], ContextBudget(max_items=0)))
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=5)))
    @example(
        case=([_message("system", "rules")], ContextBudget(max_items=0, pinned_prefix_items=1))
    )
    @example(case=([_user("go"), _message("assistant", "ok")], ContextBudget(max_items=1)))
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        if budget.max_items is not None:
            context.expect(
                len(projection.items) <= budget.max_items,
                f"expected at most maxItems {budget.max_items} items but got "
                f"{len(projection.items)}",
            )

    return test


def _pinned_units_problem(
    pairing: Pairs, budget: ContextBudget, count: int, kept: set[int]
) -> str | None:
    """PAIR-6: the pinned units (or the unit of position 0) that must be represented and are not."""
    pinned, limit, chars = budget.pinned_prefix_items, budget.max_items, budget.max_approx_chars
    units = pinned_units(pairing, pinned)
    required: list[tuple[int, ...]] = []
    if chars is None and (limit is None or sum(map(len, units)) <= limit):
        required = list(units)
    first = pairing.units[pairing.unit_of[0]] if count else ()
    if (
        pinned >= 1
        and count >= 1
        and (limit is None or len(first) <= limit)
        and (chars is None or chars >= 1)
        and first not in required
    ):
        required.append(first)
    missing = [unit for unit in required if not set(unit) <= kept]
    if not missing:
        return None
    return (
        f"pinned units {_units_text(missing)} are not represented whole (pinnedPrefixItems "
        f"{pinned}, maxItems {describe(limit)}, maxApproxChars {describe(chars)}; the pinned "
        f"units are {_units_text(units)}): PAIR-6"
    )


@generic("projector.pinned-prefix", "PRJ-10", "PAIR-5", "PAIR-6")
def pinned_prefix(context: CheckContext) -> Test:
    """The pinned prefix is represented as far as maxItems allows; the first pinned item always.

    For a target that claims pair integrity the rule is PAIR-6's: the units holding the
    pinned positions, whole, as far as maxItems allows, and the unit of the first item.
    """

    @given(case=_MIXED[_tiers(context)])
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(["P" * 10, "a", "bb"], ContextBudget(max_approx_chars=5, pinned_prefix_items=1)))
    @example(case=(list("abcde"), ContextBudget(max_items=3, pinned_prefix_items=5)))
    @example(case=(paired(), ContextBudget(max_items=4, pinned_prefix_items=2)))
    @example(case=(paired(), ContextBudget(max_approx_chars=10, pinned_prefix_items=2)))
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        if _keeps_pairs(context):
            kept = _kept_for(context, items, projection)
            problem = _pinned_units_problem(pairs(items), budget, len(items), kept)
            context.expect(
                problem is None,
                f"{problem}; the output is {describe(list(projection.items))}",
                clause="PAIR-6",
            )
            return
        count, pinned, limit = len(items), budget.pinned_prefix_items, budget.max_items
        chars = budget.max_approx_chars
        if chars is None:
            protected = min(pinned, count, count if limit is None else limit)
        elif chars >= 1 and pinned >= 1 and count >= 1 and (limit is None or limit >= 1):
            protected = 1
        else:
            return
        output = projection.items
        dropped = projection.report.dropped_indices
        if dropped is None:
            # Then output item k must stand for source item k, for each protected k.
            missing = [
                k
                for k in range(protected)
                if k >= len(output) or not represents(items[k], output[k])
            ]
        else:
            missing = sorted(set(range(protected)) & set(dropped))
        context.expect(
            not missing,
            f"pinned source items {missing} are missing (pinnedPrefixItems {pinned}, maxItems "
            f"{describe(limit)}, maxApproxChars {describe(chars)}): the output is "
            f"{describe(list(output))}",
            clause="PRJ-10",
        )

    return with_examples(test, "case", _classic_examples())


def _newest_unit_problem(
    context: CheckContext,
    items: Sequence[JsonValue],
    budget: ContextBudget,
    projection: ContextProjection,
) -> str | None:
    """PAIR-7: the newest unit kept, or dropped whole, and the note when it had to go."""
    if not items:
        return None
    pairing = pairs(items)
    newest = pairing.newest()
    pinned, limit, chars = budget.pinned_prefix_items, budget.max_items, budget.max_approx_chars
    if newest[0] < pinned:
        return None  # a pinned unit: PAIR-6's
    kept = _kept_for(context, items, projection, latest=True)
    represented, dropped = set(newest) <= kept, not set(newest) & kept
    width = pinned_width(pairing, pinned, limit)
    room = None if limit is None else limit - width
    unit = f"the newest unit {_units_text([newest])} ({len(newest)} item(s))"
    if not (represented or dropped):
        part = sorted(set(newest) & kept)
        return f"{unit} is kept only in part ({part}): PAIR-7 keeps or drops it whole"
    fits = room is None or len(newest) <= room
    if not represented and fits and (chars is None or chars > 0):
        return (
            f"{unit} was dropped although it fits maxItems {describe(limit)} beside the "
            f"{width} item(s) of the pinned units taken: PAIR-7"
        )
    if dropped and room is not None and not fits and room >= 1:
        note = NEWEST_UNIT_DROPPED_NOTE.format(items=len(newest), max_items=limit)
        if note not in projection.report.notes:
            return (
                f"{unit} does not fit maxItems {limit} beside the {width} item(s) of the pinned "
                f"units and was dropped, where a single item would have fit, but the note "
                f"{note!r} is missing from {describe(list(projection.report.notes))}: PAIR-7"
            )
    return None


@generic("projector.newest-item", "PRJ-11", "PAIR-5", "PAIR-7")
def newest_item(context: CheckContext) -> Test:
    """The newest item is represented unless the budget pins all it allows or allows nothing.

    For a target that claims pair integrity the rule is PAIR-7's: the newest unit, whole,
    unless it does not fit beside the pinned units; dropped, it goes whole, with the note
    ``newest unit dropped: N item(s) do not fit maxItems M`` when one item would have fit.
    """

    @given(case=_MIXED[_tiers(context)])
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(["AA", "B" * 10, "D" * 6], ContextBudget(max_approx_chars=9)))
    @example(case=(["x" * 20, "y" * 20], ContextBudget(max_approx_chars=5, pinned_prefix_items=1)))
    @example(case=(paired(), ContextBudget(max_items=1)))
    @example(case=(paired(), ContextBudget(max_items=2, pinned_prefix_items=1)))
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        if _keeps_pairs(context):
            problem = _newest_unit_problem(context, items, budget, projection)
            context.expect(
                problem is None,
                f"{problem}; the output is {describe(list(projection.items))}",
                clause="PAIR-7",
            )
            return
        count, pinned, limit = len(items), budget.pinned_prefix_items, budget.max_items
        chars = budget.max_approx_chars
        if not (
            count > pinned and (limit is None or limit > pinned) and (chars is None or chars > 0)
        ):
            return
        output = projection.items
        last = count - 1
        if projection.report.dropped_indices is None:
            context.expect(
                bool(output) and represents(items[last], output[-1]),
                f"expected the newest source item {describe(items[last])} last in the output "
                f"but the output is {describe(list(output))}",
                clause="PRJ-11",
            )
            return
        context.expect(
            last not in set(projection.report.dropped_indices),
            f"the newest source item {last} ({describe(items[last])}) was dropped",
            clause="PRJ-11",
        )

    return with_examples(test, "case", _classic_examples())


def _note_problems(  # noqa: PLR0911, C901 - one return per finding
    items: Sequence[JsonValue],
    budget: ContextBudget,
    projection: ContextProjection,
    replaced: dict[str, int],
) -> str:
    """RPT-6: notes in the five reserved forms mean what they say, at most once each."""
    report = projection.report
    prefixes = {
        "tier1": "tier1 microcompact: ",
        "tier2": "tier2 reasoning-trim: ",
        "items": "maxItems applied: ",
        "newest": "newest unit dropped: ",
        "chars": "maxApproxChars applied: ",
    }
    seen: set[str] = set()
    for note in report.notes:
        kind = next((k for k, prefix in prefixes.items() if note.startswith(prefix)), None)
        if kind is None:
            continue
        match = NOTE_PATTERNS[kind].fullmatch(note)
        if match is None:
            return f"note {note!r} starts like a reserved note but is not in its exact form"
        if kind in seen:
            return f"the {kind} note appears twice: {describe(list(report.notes))}"
        seen.add(kind)
        number = int(match.group(1))
        if kind == "items" and (number != budget.max_items or not report.item_limit_applied):
            return (
                f"note {note!r} but maxItems is {describe(budget.max_items)} and "
                f"itemLimitApplied is {describe(report.item_limit_applied)}"
            )
        if kind == "newest":
            problem = _newest_note_problem(items, budget, projection, note, match)
            if problem:
                return problem
        if kind == "chars" and (
            number != budget.max_approx_chars or not report.character_limit_applied
        ):
            return (
                f"note {note!r} but maxApproxChars is {describe(budget.max_approx_chars)} and "
                f"characterLimitApplied is {describe(report.character_limit_applied)}"
            )
        if kind == "tier1" and int(match.group(2)) != budget.max_recent_tool_results:
            return (
                f"note {note!r} but maxRecentToolResults is "
                f"{describe(budget.max_recent_tool_results)}"
            )
        if kind in ("tier1", "tier2") and (number == 0 or number < replaced[kind]):
            return f"note {note!r} but the output holds {replaced[kind]} replaced item(s)"
    return ""


def _newest_note_problem(
    items: Sequence[JsonValue],
    budget: ContextBudget,
    projection: ContextProjection,
    note: str,
    match: re.Match[str],
) -> str:
    """RPT-6, PAIR-7: ``newest unit dropped: N ... M`` names the newest unit, which is gone."""
    newest = pairs(items).newest()
    limit = int(match.group(2))
    if limit != budget.max_items or not projection.report.item_limit_applied:
        return (
            f"note {note!r} but maxItems is {describe(budget.max_items)} and itemLimitApplied "
            f"is {describe(projection.report.item_limit_applied)}"
        )
    if int(match.group(1)) != len(newest):
        return (
            f"note {note!r} but the newest unit {_units_text([newest])} has {len(newest)} item(s)"
        )
    kept, _ = kept_positions(items, projection.items, projection.report, latest=True)
    if kept is not None and set(newest) & set(kept):
        return f"note {note!r} but the newest unit {_units_text([newest])} is represented"
    return ""


def _index_problems(name: str, indices: Sequence[int], count: int) -> str:
    if list(indices) != sorted(set(indices)):
        return f"{name} {list(indices)} are not ascending without repetition"
    if indices and not 0 <= indices[-1] < count:
        return f"{name} {list(indices)} name positions outside the {count} source items"
    return ""


@generic(
    "projector.report",
    "PRJ-12",
    "RPT-2",
    "RPT-3",
    "RPT-4",
    "RPT-5",
    "RPT-6",
    "RPT-7",
    "RPT-8",
    "SIZE-1",
    "SIZE-2",
    "SIZE-3",
    "SIZE-4",
    "SIZE-5",
    "SIZE-6",
    "JSON-6",
)
def report_consistency(context: CheckContext) -> Test:
    """The report agrees with the output: counts, sizes by approx_chars, flags, notes, indices."""

    @given(case=_MIXED[_tiers(context)])
    @example(case=(["AA", "B" * 10, "D" * 6], ContextBudget(max_approx_chars=9)))
    @example(case=(["a", "b", "c"], ContextBudget(max_items=3, max_approx_chars=9)))
    @example(case=(edge_names(), ContextBudget(max_recent_tool_results=0, max_items=4)))
    @example(case=(["x" * 20], ContextBudget(max_approx_chars=5)))
    @example(case=(four_results(), ContextBudget(max_approx_chars=600, max_recent_tool_results=1)))
    @example(case=(numbers(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(tier2_example(), ContextBudget(trim_old_reasoning=True, max_items=2)))
    @example(case=(paired(), ContextBudget(max_items=1)))
    @example(case=(carriers(), ContextBudget(max_recent_tool_results=0)))
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        report, output = projection.report, projection.items
        count = len(items)
        for name, got, want in (
            ("sourceItemCount", report.source_item_count, count),
            ("projectedItemCount", report.projected_item_count, len(output)),
            ("droppedItemCount", report.dropped_item_count, count - len(output)),
            ("sourceApproxChars", report.source_approx_chars, sum(map(approx_chars, items))),
            ("projectedApproxChars", report.projected_approx_chars, sum(map(approx_chars, output))),
        ):
            context.expect(got == want, f"report {name}: expected {want} but got {got}")
        context.expect(
            budget.max_items is not None or not report.item_limit_applied,
            "itemLimitApplied is true but maxItems is unset",
        )
        context.expect(
            budget.max_approx_chars is not None or not report.character_limit_applied,
            "characterLimitApplied is true but maxApproxChars is unset",
        )
        context.expect(
            not (report.item_limit_applied or report.character_limit_applied)
            or report.dropped_item_count > 0,
            "a limit flag is true but no item was dropped",
        )
        for name, indices in (
            ("droppedIndices", report.dropped_indices),
            ("clearedIndices", report.cleared_indices),
        ):
            if indices is not None:
                problem = _index_problems(name, indices, count)
                context.expect(not problem, problem)
        if report.dropped_indices is not None:
            context.expect(
                len(report.dropped_indices) == report.dropped_item_count,
                f"droppedIndices {list(report.dropped_indices)} do not number "
                f"droppedItemCount {report.dropped_item_count}",
            )
        if report.dropped_indices is not None and report.cleared_indices is not None:
            both = set(report.dropped_indices) & set(report.cleared_indices)
            context.expect(not both, f"positions {sorted(both)} are both dropped and cleared")
        kept = _kept(context, items, projection)
        replaced = [p for i, p in enumerate(kept) if not identical(items[p], output[i])]
        for index, position in enumerate(kept):
            unfit = replacement_problem(items[position], output[index])
            context.expect(
                identical(items[position], output[index]) or unfit is None,
                f"output item {index} cannot stand for source item {position}: {unfit}",
            )
        if report.cleared_indices is not None:
            context.expect(
                list(report.cleared_indices) == replaced,
                f"clearedIndices: expected {replaced} (the represented positions whose output "
                f"item is a replacement) but got {list(report.cleared_indices)}",
            )
        counts = {
            "tier1": sum(replaced_results(items[p], output[i]) for i, p in enumerate(kept)),
            "tier2": sum(is_reasoning(items[p]) for p in replaced),
        }
        problem = _note_problems(items, budget, projection, counts)
        context.expect(not problem, problem)

    return test


@generic(
    "projector.size-vectors",
    "SIZE-1",
    "SIZE-2",
    "SIZE-3",
    "SIZE-4",
    "SIZE-5",
    "SIZE-6",
    "JSON-3",
    "JSON-5",
    "JSON-6",
    "RPT-2",
    "RPT-3",
)
def size_vectors(context: CheckContext) -> Test:
    """The report measures every approx_chars vector exactly (one item, then all together)."""

    def test() -> None:
        vectors = vectors_for("approx_chars")
        projector: ContextProjector = context.subject()
        for vector in vectors:
            item, size = vector.input["item"], vector.expected["size"]
            context.record(vector=vector.document())
            projection = projector.project([item], None)
            context.expect(
                projection.report.source_approx_chars == size,
                f"vector {vector.id} ({vector.description}): expected sourceApproxChars "
                f"{size} for {describe(item)} but got {projection.report.source_approx_chars}",
            )
            if len(projection.items) == 1 and identical(projection.items[0], item):
                context.expect(
                    projection.report.projected_approx_chars == size,
                    f"vector {vector.id}: expected projectedApproxChars {size} for "
                    f"{describe(item)} but got {projection.report.projected_approx_chars}",
                )
            if isinstance(item, list):
                held = cast("JsonValue", tuple(item))
                as_tuple = projector.project([held], None).report.source_approx_chars
                context.expect(
                    as_tuple == size,
                    f"vector {vector.id}: the same array held as a tuple measures {as_tuple}, "
                    f"not {size}",
                )
        items = [vector.input["item"] for vector in vectors]
        total = sum(vector.expected["size"] for vector in vectors)
        context.record(items=items)
        measured = projector.project(items, None).report.source_approx_chars
        context.expect(
            measured == total,
            f"all approx_chars vectors together: expected sourceApproxChars {total} (the sum) "
            f"but got {measured}",
        )

    return test


#: JSON-15: what a reader takes for an absent member of a budget document.
_BUDGET_DEFAULTS: dict[str, JsonValue] = {
    name: member.get("default")
    for name, member in cast(
        "dict[str, dict[str, JsonValue]]", load_schema("context-budget")["properties"]
    ).items()
}
_BUDGET_FIELDS = (
    "max_items",
    "max_approx_chars",
    "pinned_prefix_items",
    "max_recent_tool_results",
)


def _budget_validation_problem() -> str:
    """BUD-3, BUD-4: budgets with a negative or non-integer field never exist."""
    for name in _BUDGET_FIELDS:
        for wrong in (-1, True):
            try:
                ContextBudget(**cast("dict[str, Any]", {name: wrong}))
            except InvalidValueError as error:
                if name not in str(error) or str(wrong) not in str(error):
                    return f"the error for {name}={wrong!r} does not name both: {error}"
            else:
                return f"ContextBudget({name}={wrong!r}) was accepted"
        member = camel_case(name)
        try:
            from_json(ContextBudget, {member: -1})
        except SchemaValidationError as error:
            if f"$.{member}" not in str(error):
                return f"reading {member}: -1 failed without naming $.{member}: {error}"
        else:
            return f"a budget document with {member}: -1 was read"
    try:
        ContextBudget(trim_old_reasoning=1)  # type: ignore[arg-type]  # the wrong type on purpose
    except InvalidValueError:
        return ""
    return "ContextBudget(trim_old_reasoning=1) was accepted"


@generic("projector.budget", "BUD-1", "BUD-2", "BUD-3", "BUD-4", "BUD-5", "BUD-6", "JSON-12")
def budget_semantics(context: CheckContext) -> Test:
    """No budget is the default budget, and a budget read from its sparse document is the same.

    The sparse document leaves out every member holding its default (BUD-2); the budget read
    back is an equal but distinct value, which must project identically (BUD-6). Budgets with
    a negative or mistyped field are rejected before any projector sees them (BUD-3, BUD-4).
    """
    validation = _budget_validation_problem()

    @given(case=_CASES[_tiers(context)])
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(tier1_example(), ContextBudget()))
    def test(case: Case) -> None:
        items, budget = case
        context.expect(not validation, validation)
        none = _project(context, items, None)
        projector: ContextProjector = context.subject()
        defaults = projector.project(items, ContextBudget())
        _expect_same(
            context, "ContextBudget() against no budget", defaults, none.items, none.report
        )
        written = to_json(budget)
        sparse = {k: v for k, v in written.items() if not identical(v, _BUDGET_DEFAULTS.get(k))}
        read = from_json(ContextBudget, sparse)
        context.expect(read == budget, f"{describe(sparse)} reads as {read}, not {budget}")
        first = projector.project(items, budget)
        again = context.subject().project(items, read)
        _expect_same(
            context, f"the budget read from {describe(sparse)}", again, first.items, first.report
        )

    return test
