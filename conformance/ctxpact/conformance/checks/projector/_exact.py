"""Exact projector checks: the spec's own algorithms, compared with the reference.

A differential check and the vectors (§5.3, §5.4, §5.5: PRJ-13 .. PRJ-35), and the named
invariants of the units (PRJ-30 .. PRJ-35), Tier-1 (T1-1 .. T1-9), Tier-2 (T2-1 .. T2-7) and the
notes (RPT-6), one per check, so that a failure names its clause.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence

import attrs
from hypothesis import example, given

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._pairing import pairs
from ctxpact.conformance.checks._projection_support import (
    Case,
    Expected,
    identical,
    is_reasoning,
    is_tool_result,
    run_tiers,
    tier1_candidates,
    tool_calls,
)
from ctxpact.conformance.checks.projector._common import (
    _CASES,
    _MIXED,
    _TIER1,
    _TIER2,
    _UNLIMITED,
    NO_TIERS,
    OptionalCase,
    Test,
    _expect_same,
    _expected,
    _for_target,
    _item_difference,
    _kept_exactly,
    _pair_safe,
    _project,
    _reference,
    _skip,
    _tiers,
    _units_text,
    exact,
)
from ctxpact.conformance.checks.projector._examples import (
    _tool_result,
    _user,
    carriers,
    edge_names,
    four_results,
    items_of,
    paired,
    reasoned,
    summary_and_tail,
    tier1_example,
    tier2_example,
)
from ctxpact.conformance.vectors import Vector, vectors_for
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
)
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextProjector,
    JsonValue,
    from_json,
)

_PROJECTION_CLAUSES = tuple(f"PRJ-{n}" for n in range(13, 29))
_PAIR_SAFE_CLAUSES = tuple(f"PRJ-{n}" for n in range(30, 36))


@exact(
    "projector.exact.differential",
    *_PROJECTION_CLAUSES,
    *_PAIR_SAFE_CLAUSES,
    *(f"RPT-{n}" for n in range(2, 9)),
    *(f"T1-{n}" for n in range(1, 10)),
    *(f"T2-{n}" for n in range(1, 8)),
    "JSON-3",
    "JSON-10",
)
def differential(context: CheckContext) -> Test:
    """Identical items and an equal report to the reference's, on generated transcripts.

    The reference is the target's algorithm: DefaultContextProjector (``tiers=False``),
    PairSafeContextProjector (``pair_safe=True``, with or without tiers), otherwise
    TypeAwareContextProjector.
    """
    reference = _reference(context)

    @given(case=_MIXED[_tiers(context)])
    @example(case=(paired(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(carriers(), ContextBudget(max_recent_tool_results=1, max_approx_chars=300)))
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(["AA", "B" * 10, "D" * 6], ContextBudget(max_approx_chars=9)))
    @example(case=(["P" * 10, "a", "bb"], ContextBudget(max_approx_chars=5, pinned_prefix_items=1)))
    @example(case=(four_results(), ContextBudget(max_approx_chars=600, max_recent_tool_results=1)))
    @example(case=(tier1_example(), ContextBudget(max_recent_tool_results=1, max_items=5)))
    @example(case=(tier2_example(), ContextBudget(trim_old_reasoning=True)))
    @example(case=(list("abcde"), ContextBudget(max_items=0)))
    @example(case=(["a", "bb"], ContextBudget(max_approx_chars=0)))
    @example(case=(["", None], ContextBudget(max_approx_chars=0)))
    @example(case=(["x" * 20], ContextBudget(max_approx_chars=5)))
    @example(
        case=(["a", "b" * 6, "c", "d"], ContextBudget(max_approx_chars=5, pinned_prefix_items=3))
    )
    @example(case=(["AA", "B" * 10, "D" * 6], ContextBudget(max_items=2, max_approx_chars=9)))
    @example(case=(["a", None, "b"], None))
    def test(case: OptionalCase) -> None:
        items, budget = case
        target_budget = _for_target(context, budget)
        want = reference.project(items, target_budget)
        got = _project(context, items, target_budget)
        _expect_same(context, "compared with the reference", got, want.items, want.report)

    return test


def _expect_vector(context: CheckContext, vector: Vector) -> None:
    """Project a ``project`` or ``project_pair_safe`` vector: identical items, equal report."""
    raw = vector.input.get("budget")
    budget = None if raw is None else from_json(ContextBudget, raw)
    want = from_json(ContextProjection, vector.expected)
    context.record(vector=vector.document())
    projector: ContextProjector = context.subject()
    got = projector.project(copy.deepcopy(vector.input["items"]), budget)
    _expect_same(
        context, f"vector {vector.id} ({vector.description})", got, want.items, want.report
    )


_VECTOR_CLAUSES = (
    "PRJ-8",
    *_PROJECTION_CLAUSES,
    "PRJ-29",
    *(f"RPT-{n}" for n in range(2, 9)),
    *(f"T1-{n}" for n in range(1, 10)),
    *(f"T2-{n}" for n in range(1, 8)),
    "SIZE-2",
    "BUD-5",
    "JSON-3",
    "JSON-5",
)


def _single_units(items: Sequence[JsonValue]) -> bool:
    """PRJ-35's condition: every unit of *items* is a single position."""
    return all(len(unit) == 1 for unit in pairs(items).units)


@exact("projector.exact.vectors", *_VECTOR_CLAUSES, "PRJ-35")
def vectors(context: CheckContext) -> Test:
    """Every ``project`` vector: identical items and an equal report (tier cases need tiers).

    A pair-safe target runs the vectors whose units are single positions, where it equals
    the default and type-aware projectors (PRJ-35).
    """

    def test() -> None:
        tiers = _tiers(context)
        for vector in vectors_for("project"):
            if vector.features and not tiers:
                continue
            if _pair_safe(context) and not _single_units(vector.input["items"]):
                continue
            _expect_vector(context, vector)

    return test


#: Why a check of §5.5 does not run for a target whose algorithm is another.
NOT_PAIR_SAFE = "the target's algorithm is not PairSafeContextProjector's (options: pair_safe)"


def _runs_with(vector: Vector, tiers: bool) -> bool:
    """Whether a ``project_pair_safe`` vector applies to a target with or without tiers."""
    if bool(vector.input["tiers"]) == tiers:
        return True
    raw = vector.input.get("budget") or {}
    return raw.get("maxRecentToolResults") is None and not raw.get("trimOldReasoning")


@exact(
    "projector.exact.pair-safe-vectors",
    *_PAIR_SAFE_CLAUSES,
    "PAIR-3",
    "PAIR-4",
    "PAIR-6",
    "PAIR-7",
    "PAIR-9",
    "RPT-6",
    "T1-4",
)
def pair_safe_vectors(context: CheckContext) -> Test:
    """Every ``project_pair_safe`` vector: identical items and an equal report.

    For a target whose options say ``pair_safe``; a vector of the other tier setting runs
    when its budget asks for no tier.
    """
    if not _pair_safe(context):
        return _skip(NOT_PAIR_SAFE)

    def test() -> None:
        tiers = _tiers(context)
        for vector in vectors_for("project_pair_safe"):
            if not _runs_with(vector, tiers):
                continue
            _expect_vector(context, vector)

    return test


@exact("projector.exact.unit-stages", "PRJ-30", "PRJ-31", "PRJ-32", "PRJ-33", "PRJ-34", "PAIR-3")
def unit_stages(context: CheckContext) -> Test:
    """The unit item and character stages keep exactly the units §5.5 keeps, with its report.

    Compared with the suite's own reading of §5.5 (not the reference): the pinned units in
    list order, then the others newest first, each whole and only while it fits maxItems;
    then the same by size, the first pinned unit and the newest unit always; the dropped
    positions, both flags and the notes (``newest unit dropped: ...`` included).
    """
    if not _pair_safe(context):
        return _skip(NOT_PAIR_SAFE)

    @given(case=_MIXED[_tiers(context)])
    @example(case=(paired(), ContextBudget(max_items=1)))
    @example(case=(paired(), ContextBudget(max_items=3, pinned_prefix_items=2)))
    @example(case=(paired(), ContextBudget(max_items=2, pinned_prefix_items=3)))
    @example(case=(paired(), ContextBudget(max_approx_chars=250, pinned_prefix_items=1)))
    @example(case=(carriers(), ContextBudget(max_items=4, max_approx_chars=200)))
    @example(case=(reasoned(), ContextBudget(max_items=3)))
    def test(case: Case) -> None:
        items, budget = case
        target_budget = _for_target(context, budget)
        projection = _project(context, items, target_budget)
        want = _expected(context, items, target_budget).report
        got = projection.report
        for name in (
            "droppedIndices",
            "itemLimitApplied",
            "characterLimitApplied",
            "notes",
            "clearedIndices",
            "projectedApproxChars",
        ):
            mine, theirs = getattr(got, _snake(name)), getattr(want, _snake(name))
            context.expect(
                mine == theirs,
                f"report {name}: §5.5 gives {describe(theirs)} but the target reports "
                f"{describe(mine)} (units {_units_text(pairs(items).units)})",
            )

    return test


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@exact("projector.exact.pair-safe-singletons", "PRJ-35", "PRJ-28")
def pair_safe_singletons(context: CheckContext) -> Test:
    """Where every unit is one position, the pair-safe projector is the type-aware one.

    With tiers it returns exactly TypeAwareContextProjector's projection, without them
    DefaultContextProjector's (PRJ-35): items identical, reports equal.
    """
    if not _pair_safe(context):
        return _skip(NOT_PAIR_SAFE)
    reference = TypeAwareContextProjector() if _tiers(context) else DefaultContextProjector()

    @given(case=_CASES[_tiers(context)])
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(summary_and_tail(), ContextBudget(max_approx_chars=10, pinned_prefix_items=1)))
    @example(case=(four_results(), ContextBudget(max_approx_chars=600, max_recent_tool_results=1)))
    def test(case: Case) -> None:
        items, budget = case
        singles = [item for item in items if not _declares_calls(item)]  # results orphaned
        if not _single_units(singles):
            return
        target_budget = _for_target(context, budget)
        want = reference.project(singles, target_budget)
        got = _project(context, singles, target_budget)
        _expect_same(context, "on a list of single-position units", got, want.items, want.report)

    return test


def _declares_calls(item: JsonValue) -> bool:
    return next(iter(tool_calls(item)), None) is not None


def _expect_tiered(  # noqa: PLR0913 - the example, the expectation and how to read it
    context: CheckContext,
    items: Sequence[JsonValue],
    projection: ContextProjection,
    expected: Expected,
    *,
    select: Callable[[int], bool],
    explain: Callable[[int], str],
) -> None:
    """Each represented source position that *select* picks holds the spec's tiered item."""
    kept = _kept_exactly(context, items, projection)
    for index, position in enumerate(kept):
        if not select(position):
            continue
        want, got = expected.tiers.working[position], projection.items[index]
        context.expect(
            identical(got, want),
            f"{explain(position)}: expected {describe(want)} but got {describe(got)}",
        )


def _unlimited(budget: ContextBudget) -> bool:
    return budget.max_items is None and budget.max_approx_chars is None


@exact(
    "projector.exact.placeholders",
    "T1-2",
    "T1-3",
    "T1-4",
    "T1-5",
    "T1-6",
    "T1-9",
    "PRJ-26",
    "JSON-3",
)
def placeholders(context: CheckContext) -> Test:
    """Tier-1 keeps the newest K tool results verbatim and replaces older ones in place.

    In every shape: an older Responses result becomes ``{type, call_id (if a string),
    output: label}``; an older Chat tool message keeps its members, ``role`` and
    ``tool_call_id`` included, with ``content`` holding the label; an older Anthropic
    ``tool_result`` part likewise, inside a copy of its carrier whose other parts stay
    identical. The label is T1-6's (the name of the last tool call with the call id, else the
    result's own ``name``); an older result that already is a placeholder stays as it is.
    """
    if not _tiers(context):
        return _skip(NO_TIERS)

    @given(case=_TIER1)
    @example(case=(tier1_example(), ContextBudget(max_recent_tool_results=1)))
    @example(case=(edge_names(), ContextBudget(max_recent_tool_results=0)))
    @example(case=(four_results(), ContextBudget(max_recent_tool_results=1, max_approx_chars=600)))
    @example(case=(carriers(), ContextBudget(max_recent_tool_results=0)))
    @example(case=(carriers(), ContextBudget(max_recent_tool_results=2)))
    @example(
        case=(
            [_tool_result("c1", "[tool result cleared (old)]"), _tool_result("c2", "new")],
            ContextBudget(max_recent_tool_results=1),
        )
    )
    @example(
        case=(
            [
                {"type": "function_call", "call_id": "c", "name": "first"},
                _tool_result("c", "old"),
                {"type": "function_call", "call_id": "c", "name": "last"},
                _tool_result("c", "new"),
            ],
            ContextBudget(max_recent_tool_results=0),
        )
    )
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        expected = _expected(context, items, budget)
        keep = budget.max_recent_tool_results
        tier1 = set(expected.tiers.tier1)
        older = {p for p, _ in tier1_candidates(items, keep or 0)} if keep is not None else set()
        results = [p for p, item in enumerate(items) if is_tool_result(item)]

        def explain(position: int) -> str:
            if position in tier1:
                return f"tool result {position} is not among the newest {keep}"
            if position in older:
                return f"tool result {position} already holds a placeholder: left as it is"
            return f"tool result {position} is among the newest {keep}: verbatim"

        if _unlimited(budget):
            context.expect(
                len(projection.items) == len(items),
                f"Tier-1 replaces in place: expected all {len(items)} items but got "
                f"{len(projection.items)}",
            )
        _expect_tiered(
            context, items, projection, expected, select=results.__contains__, explain=explain
        )

    return test


@exact("projector.exact.tier1-off", "PRJ-28", "PRJ-30", "T1-1", "T2-1", "BUD-5")
def tiers_off(context: CheckContext) -> Test:
    """With the tiers unset, or replacing nothing, the result is the tierless projector's.

    DefaultContextProjector's for a type-aware target (PRJ-28), PairSafeContextProjector's
    without tiers for a pair-safe one (PRJ-30).
    """
    if not _tiers(context):
        return _skip(f"{NO_TIERS}; the differential check compares it with DefaultContextProjector")
    default: ContextProjector = (
        PairSafeContextProjector(tiers=False) if _pair_safe(context) else DefaultContextProjector()
    )

    @given(case=_MIXED[True])
    @example(case=(four_results(), ContextBudget(max_approx_chars=600)))
    @example(case=(tier2_example()[::2], ContextBudget(trim_old_reasoning=True)))
    @example(case=(four_results(), ContextBudget(max_recent_tool_results=4, max_items=3)))
    @example(case=(tier2_example(), ContextBudget(max_items=3)))
    def test(case: Case) -> None:
        items, budget = case
        plain = attrs.evolve(budget, max_recent_tool_results=None, trim_old_reasoning=False)
        want = default.project(items, plain)
        got = _project(context, items, plain)
        _expect_same(context, "with both tiers unset", got, want.items, want.report)
        tiered = run_tiers(items, budget)
        if not tiered.tier1 and not tiered.tier2:
            want = default.project(items, budget)
            got = _project(context, items, budget)
            _expect_same(context, "with tiers that replace nothing", got, want.items, want.report)
        want = default.project(items, None)
        got = _project(context, items, None)
        _expect_same(context, "without a budget", got, want.items, want.report)

    return test


@exact("projector.exact.tier2-scope", "T2-1", "T2-2", "T2-3", "T2-5")
def tier2_scope(context: CheckContext) -> Test:
    """Tier-2 clears only reasoning items before the last user input item, and only once."""
    if not _tiers(context):
        return _skip(NO_TIERS)

    @given(case=_TIER2)
    @example(case=(tier2_example(), ContextBudget(trim_old_reasoning=True)))
    @example(case=(tier2_example()[::2], ContextBudget(trim_old_reasoning=True)))
    @example(
        case=(
            [
                {"type": "reasoning", "id": "r", "summary": [], "encrypted_content": "e"},
                {"type": "function_call_output", "role": "user", "call_id": "c", "output": "o"},
                {"type": "reasoning", "id": "s", "summary": []},
                _tool_result("d", "p"),
            ],
            ContextBudget(trim_old_reasoning=True, max_recent_tool_results=1),
        )
    )
    @example(
        case=(
            items_of(
                _user("go"),
                {"type": "reasoning", "id": "r", "summary": [], "encrypted_content": "e"},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]},
            ),
            ContextBudget(trim_old_reasoning=True),
        )
    )
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        expected = _expected(context, items, budget)
        boundary, tier2 = expected.tiers.boundary, set(expected.tiers.tier2)

        def explain(position: int) -> str:
            if boundary is None:
                return (
                    f"item {position}: there is no user input item (a message that only "
                    "delivers tool results is none), so Tier-2 changes nothing"
                )
            if position in tier2:
                return f"reasoning item {position} is before the last user input item ({boundary})"
            if position >= boundary:
                return (
                    f"item {position} is at or after the last user input item ({boundary}): "
                    "the current turn stays as it is"
                )
            return f"item {position} is not a reasoning item, or is already cleared: untouched"

        tier1 = set(expected.tiers.tier1)
        kept = _kept_exactly(context, items, projection)
        for index, position in enumerate(kept):
            if position in tier1:
                continue
            want, got = expected.tiers.working[position], projection.items[index]
            if position in tier2:
                context.expect(
                    not identical(got, items[position]),
                    f"{explain(position)}: expected it cleared but it came out verbatim",
                )
            else:
                context.expect(
                    identical(got, want),
                    f"{explain(position)}: expected {describe(want)} but got {describe(got)}",
                )

    return test


@exact("projector.exact.cleared-reasoning", "T2-4", "T2-6", "JSON-3")
def cleared_reasoning(context: CheckContext) -> Test:
    """A cleared reasoning item keeps its other members in order, then the one-part summary.

    ``summary``, ``content``, ``text`` and ``encrypted_content`` go; ``summary`` comes last as
    ``[{"type":"summary_text","text":"[reasoning cleared]"}]``. An item already in that form
    (no payload member, an equal summary) is left as it is.
    """
    if not _tiers(context):
        return _skip(NO_TIERS)

    @given(case=_TIER2)
    @example(case=(tier2_example(), ContextBudget(trim_old_reasoning=True)))
    @example(
        case=(
            items_of(
                {
                    "status": "done",
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": "[reasoning cleared]"}],
                    "encrypted_content": "e",
                    "id": "r",
                },
                {
                    "type": "reasoning",
                    "summary": [{"text": "[reasoning cleared]", "type": "summary_text"}],
                },
                _user("u"),
            ),
            ContextBudget(trim_old_reasoning=True),
        )
    )
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        expected = _expected(context, items, budget)
        tier2 = set(expected.tiers.tier2)
        boundary = expected.tiers.boundary

        def select(position: int) -> bool:
            return is_reasoning(items[position]) and boundary is not None and position < boundary

        def explain(position: int) -> str:
            source = items[position]
            if position not in tier2:
                return f"reasoning item {position} is already in cleared form: left as it is"
            kept_payload = [
                name
                for name in ("content", "text", "encrypted_content")
                if isinstance(source, dict) and name in source
            ]
            return f"reasoning item {position} (payload {kept_payload}) becomes its cleared item"

        _expect_tiered(context, items, projection, expected, select=select, explain=explain)

    return test


@exact(
    "projector.exact.notes",
    "RPT-6",
    "T1-7",
    "T2-7",
    "PRJ-16",
    "PRJ-23",
    "PRJ-27",
    "PRJ-32",
    "PRJ-34",
    "PAIR-7",
)
def notes(context: CheckContext) -> Test:
    """Exactly the spec's notes, in order: Tier-1, Tier-2, maxItems, newest unit, maxApproxChars.

    Tier-1's count counts the result parts of a carrier one by one (T1-7); the note of the
    newest unit is the pair-safe projector's (PRJ-32).
    """

    @given(case=_MIXED[_tiers(context)])
    @example(case=(paired(), ContextBudget(max_items=1)))
    @example(case=(carriers(), ContextBudget(max_recent_tool_results=0)))
    @example(case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)))
    @example(case=(["a", "bb"], ContextBudget(max_approx_chars=0)))
    @example(
        case=(
            tier1_example() + tier2_example(),
            ContextBudget(
                max_recent_tool_results=1,
                trim_old_reasoning=True,
                max_items=4,
                max_approx_chars=300,
            ),
        )
    )
    @example(case=(["x" * 20], ContextBudget(max_approx_chars=5)))
    @example(
        case=(
            items_of(
                {
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": "[reasoning cleared]"}],
                },
                {"type": "reasoning", "summary": [{"type": "summary_text", "text": "why"}]},
                _user("go on"),
            ),
            ContextBudget(trim_old_reasoning=True),
        )
    )
    def test(case: Case) -> None:
        items, budget = case
        target_budget = _for_target(context, budget)
        projection = _project(context, items, target_budget)
        want = _expected(context, items, target_budget).report.notes
        got = projection.report.notes
        context.expect(
            tuple(got) == want,
            f"expected notes {describe(list(want))} but got {describe(list(got))}",
        )

    return test


@exact("projector.exact.idempotence", "PRJ-29", "T1-3", "T2-5")
def idempotence(context: CheckContext) -> Test:
    """Projecting a projection again, without limits, changes nothing and adds no tier note.

    PRJ-29 holds only when maxItems and maxApproxChars are unset (the character stage is not
    idempotent with two or more pinned items); other cases pass unchecked.
    """
    if not _tiers(context):
        return _skip(f"{NO_TIERS}; without limits the default projector returns its input")

    @given(case=_UNLIMITED)
    @example(case=(tier1_example(), ContextBudget(max_recent_tool_results=1)))
    @example(case=(carriers(), ContextBudget(max_recent_tool_results=0, trim_old_reasoning=True)))
    @example(
        case=(
            tier1_example() + tier2_example(),
            ContextBudget(max_recent_tool_results=0, trim_old_reasoning=True),
        )
    )
    def test(case: Case) -> None:
        items, budget = case
        if not _unlimited(budget):
            return
        first = _project(context, items, budget)
        projector: ContextProjector = context.subject()
        second = projector.project(list(first.items), budget)
        problem = _item_difference(second.items, first.items)
        context.expect(problem is None, f"projecting the projection again: {problem}")
        tier_notes = [n for n in second.report.notes if n.startswith(("tier1 ", "tier2 "))]
        context.expect(
            not tier_notes,
            f"projecting the projection again reported {describe(tier_notes)}; placeholders "
            "and cleared reasoning are left as they are and not counted",
        )

    return test


@exact("projector.exact.tier-purity", "T1-8", "T1-9", "T2-3", "PRJ-3", "PRJ-5", "PRJ-26")
def tier_purity(context: CheckContext) -> Test:
    """The tiers replace only tool results, result carriers and reasoning items, in place.

    The other items, tool calls included, come out identical to the source (the output MAY
    share them, PRJ-5). Without limits the output has exactly the source's length.
    """
    if not _tiers(context):
        return _skip(f"{NO_TIERS}; the differential check shows it replaces nothing")

    @given(case=_CASES[True])
    @example(case=(tier1_example(), ContextBudget(max_recent_tool_results=0)))
    @example(case=(tier2_example(), ContextBudget(trim_old_reasoning=True)))
    @example(case=(carriers(), ContextBudget(max_recent_tool_results=0)))
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        kept = _kept_exactly(context, items, projection)
        for index, position in enumerate(kept):
            source, got = items[position], projection.items[index]
            replaceable = is_tool_result(source) or is_reasoning(source)
            context.expect(
                replaceable or identical(source, got),
                f"item {position} ({describe(source)}) may not change but came out as "
                f"{describe(got)}",
            )
        if _unlimited(budget):
            context.expect(
                len(projection.items) == len(items),
                f"without limits every item stays: expected {len(items)} items but got "
                f"{len(projection.items)}",
            )

    return test
