"""Checks for context projectors: generic invariants, pair integrity, wire validity, exact.

Generic checks hold for any projector, whatever its algorithm (PRJ-6): they look only at
what §5.1, §5.2 and §6 promise; for a target that claims pair integrity the pinned-prefix
and newest-item checks read PAIR-6 and PAIR-7 in place of PRJ-10 and PRJ-11 (PAIR-5). The
pair-integrity check is for projectors that claim never to separate a tool call from its
results (PAIR-4), the wire-valid check for those that claim never to turn a list a provider
accepts into one it rejects (WIRE-18, ``options["providers"]``). Exact checks compare with
the reference (``DefaultContextProjector`` for a target whose options say
``{"tiers": False}``, ``PairSafeContextProjector`` for one whose options say
``{"pair_safe": True}``, ``TypeAwareContextProjector`` otherwise), run the vectors, and
restate the named invariants of §5.3, §5.4, §5.5, §7 and §8 one per check, so that a failure
names its clause.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from typing import Any, cast

import attrs
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck, SubjectError, describe
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._pairing import Pairs, broken_pairs, pairs
from ctxpact.conformance._registry import Builder, check
from ctxpact.conformance.checks._classics import claimed_providers, classic_cases, with_examples
from ctxpact.conformance.checks._projection_support import (
    NOTE_PATTERNS,
    Case,
    Expected,
    cases,
    expected_projection,
    identical,
    is_reasoning,
    is_tool_result,
    kept_positions,
    pair_cases,
    pinned_units,
    pinned_width,
    replaced_results,
    replacement_problem,
    represents,
    run_tiers,
    text,
    tier1_candidates,
    tool_calls,
    wire_cases,
)
from ctxpact.conformance.vectors import Vector, vectors_for
from ctxpact.reference.projection import (
    NEWEST_UNIT_DROPPED_NOTE,
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
    approx_chars,
)
from ctxpact.spec import (
    PROVIDERS,
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
    wire_problems,
)

Test = Callable[[], None]
OptionalCase = tuple[list[JsonValue], ContextBudget | None]


def generic(check_id: str, *clauses: str) -> Callable[[Builder], Check]:
    """Declare a check that holds for any projector (PRJ-6: generic)."""
    return check(check_id, component=Component.PROJECTOR, claim=Claim.GENERIC, clauses=clauses)


def exact(check_id: str, *clauses: str) -> Callable[[Builder], Check]:
    """Declare a check for a port of the spec's own algorithms (PRJ-6: default, type-aware)."""
    return check(check_id, component=Component.PROJECTOR, claim=Claim.EXACT, clauses=clauses)


#: Generated cases, built once, for targets with both tiers and for targets without: broken
#: transcripts for the checks that must hold on anything, well-paired ones with budgets at the
#: edges of their units for the checks of pair integrity, and both for the exact checks.
_CASES = {tiers: cases(tiers=tiers) for tiers in (True, False)}
_UNLIMITED = cases(tiers=True, limits=False)
_TIER1 = cases(tiers=True, keep_recent=True)
_TIER2 = cases(tiers=True, trim=True)
_PAIRS = {tiers: pair_cases(tiers=tiers) for tiers in (True, False)}
_MIXED = {tiers: st.one_of(_CASES[tiers], _PAIRS[tiers]) for tiers in (True, False)}
WireCase = tuple[str, list[JsonValue], ContextBudget]


def _tagged(provider: str, tiers: bool) -> st.SearchStrategy[WireCase]:
    def tag(case: Case) -> WireCase:
        return (provider, *case)

    return wire_cases(provider, tiers=tiers).map(tag)


_WIRE = {
    (provider, tiers): _tagged(provider, tiers) for provider in PROVIDERS for tiers in (True, False)
}


def _tiers(context: CheckContext) -> bool:
    """Whether the target has Tier-1 and Tier-2 (options ``{"tiers": False}`` says not)."""
    return bool(context.options.get("tiers", True))


def _pair_safe(context: CheckContext) -> bool:
    """Whether the target's exact algorithm is §5.5's (options ``{"pair_safe": True}``)."""
    return bool(context.options.get("pair_safe", False))


def _keeps_pairs(context: CheckContext) -> bool:
    """Whether the target claims pair integrity, so PAIR-6 and PAIR-7 apply (PAIR-5)."""
    return Claim.PAIR_INTEGRITY in context.claims


def _skip(reason: str) -> Test:
    def test() -> None:
        raise SkipCheck(reason)

    return test


#: Why a check of the tiers does not run for a target without them.
NO_TIERS = "the target has no tiers (options: tiers=False)"


def _for_target(context: CheckContext, budget: ContextBudget | None) -> ContextBudget | None:
    """*budget* with both tiers off when the target has none."""
    if budget is None or _tiers(context):
        return budget
    return attrs.evolve(budget, max_recent_tool_results=None, trim_old_reasoning=False)


def _project(
    context: CheckContext, items: Sequence[JsonValue], budget: ContextBudget | None
) -> ContextProjection:
    """Record the example, then project it with a fresh instance."""
    context.record(items=items, budget=budget)
    projector: ContextProjector = context.subject()
    return projector.project(items, budget)


def _reference(context: CheckContext) -> ContextProjector:
    if _pair_safe(context):
        return PairSafeContextProjector(tiers=_tiers(context))
    return TypeAwareContextProjector() if _tiers(context) else DefaultContextProjector()


def _expected(
    context: CheckContext, items: Sequence[JsonValue], budget: ContextBudget | None
) -> Expected:
    """The suite's own projection of *items* by the target's algorithm (§5.3, §5.4, §5.5)."""
    return expected_projection(items, budget, tiers=_tiers(context), pair_safe=_pair_safe(context))


def _report_difference(got: ContextReport, want: ContextReport) -> str | None:
    for field in attrs.fields(ContextReport):
        mine, theirs = getattr(got, field.name), getattr(want, field.name)
        if mine != theirs:
            name = camel_case(field.name)
            return f"report {name}: expected {describe(theirs)} but got {describe(mine)}"
    return None


def _item_difference(got: Sequence[object], want: Sequence[object]) -> str | None:
    for index, (mine, theirs) in enumerate(zip(got, want, strict=False)):
        if not identical(mine, theirs):
            return f"item {index}: expected {describe(theirs)} but got {describe(mine)}"
    if len(got) != len(want):
        return f"expected {len(want)} items but got {len(got)}: {describe(list(got))}"
    return None


def _expect_same(
    context: CheckContext,
    what: str,
    got: ContextProjection,
    want_items: Sequence[object],
    want_report: ContextReport,
) -> None:
    """Items identical (JSON-10) and reports equal, or a message naming the first difference."""
    problem = _item_difference(got.items, want_items) or _report_difference(got.report, want_report)
    context.expect(problem is None, f"{what}: {problem}")


def _kept(
    context: CheckContext, items: Sequence[JsonValue], projection: ContextProjection
) -> list[int]:
    kept, reason = kept_positions(items, projection.items, projection.report)
    context.expect(kept is not None, reason)
    assert kept is not None  # noqa: S101 - expect raised otherwise
    return kept


def _kept_exactly(
    context: CheckContext, items: Sequence[JsonValue], projection: ContextProjection
) -> list[int]:
    context.expect(
        projection.report.dropped_indices is not None,
        "an exact projector reports droppedIndices (RPT-8) but got null",
    )
    return _kept(context, items, projection)


# -- worked examples, shared by several checks' explicit examples -----------------------------


def items_of(*values: JsonValue) -> list[JsonValue]:
    """A list of items, typed as such (literals in examples need the context)."""
    return list(values)


def _tool_result(call_id: str, output: JsonValue) -> JsonValue:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def _message(role: str, text: str) -> JsonValue:
    return {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}


def _user(text: str) -> JsonValue:
    return _message("user", text)


# Explicit examples are built afresh for every run: a projector that mutates its input
# must not change the examples of the next run.


def tier1_example() -> list[JsonValue]:
    """§5.4's worked example (Tier-1 with K = 1)."""
    return [
        {
            "type": "message",
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "call-1",
                    "type": "function",
                    "function": {"name": "read", "arguments": '{"path":"a.txt"}'},
                }
            ],
        },
        _tool_result("call-1", "alpha"),
        {"type": "function_call", "call_id": "call-2", "name": "grep", "arguments": "{}"},
        {
            "type": "function_call_output",
            "call_id": "call-2",
            "output": "beta",
            "status": "completed",
        },
        _tool_result("orphan", "gamma"),
        {"type": "function_call_output", "output": "delta"},
        _tool_result("call-6", "[tool result cleared: x]"),
        _tool_result("call-7", "newest"),
    ]


def tier2_example() -> list[JsonValue]:
    """§8's worked example (Tier-2); ``[::2]`` leaves out its user item."""
    return [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "thinking about A"}],
            "encrypted_content": "gAAA",
        },
        _user("next"),
        {"type": "reasoning", "id": "rs_2", "summary": []},
    ]


def four_results() -> list[JsonValue]:
    """§5.3's last row: four 262-char tool results."""
    return [_tool_result(f"call-{i}", "x" * 200) for i in range(1, 5)]


def summary_and_tail() -> list[JsonValue]:
    """A pinned summary, a middle and a recent tail (§5.3's first row)."""
    return ["system-summary", "old-1", "old-2", "recent-1", "recent-2"]


def numbers() -> list[JsonValue]:
    """Values whose compact JSON text is subtle (JSON-5, JSON-6)."""
    return [1, 1.0, {"b": 1, "a": [None, -0.0]}, "\U0001f600", None, 1e16]


def passthrough() -> list[JsonValue]:
    """Items that are not objects, or objects no tier touches: they pass through (JSON-1)."""
    return [" padded text ", 1.0, {"b": 1, "a": [2, None]}, ["x", None], True, None, -0.0]


def paired() -> list[JsonValue]:
    """Two turns, each a call right before its result."""
    return [
        _user("go"),
        {"type": "function_call", "call_id": "c1", "name": "read_file", "arguments": "{}"},
        _tool_result("c1", "x" * 30),
        _user("again"),
        {"type": "function_call", "call_id": "c2", "name": "grep", "arguments": "{}"},
        _tool_result("c2", "y" * 30),
    ]


def reasoned() -> list[JsonValue]:
    """A reasoning item with the call it produced and its output: one unit of three (PAIR-3)."""
    return [
        _user("go"),
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "call_id": "c1", "name": "ls", "arguments": "{}"},
        _tool_result("c1", "a.py"),
        _user("thanks"),
    ]


def edge_names() -> list[JsonValue]:
    """Calls named ``""`` (a name), in CJK and with an astral character, with such call ids."""
    calls = [("", "呼-1"), ("読み込み", "🔧2"), ("🔧fix", "call-3")]
    items: list[JsonValue] = [_user("go")]
    for name, call_id in calls:
        items.append({"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"})
        items.append(_tool_result(call_id, f"output of {name or 'the nameless tool'}"))
    return items


def odd_call_ids() -> list[JsonValue]:
    """Tool results whose call_id is a number or null: no id (§1.4), so none on a placeholder."""
    return [
        _user("go"),
        {"type": "function_call_output", "call_id": 7, "output": "a numeric call id"},
        {"type": "function_call_output", "call_id": None, "output": "a null call id"},
        {"role": "tool", "tool_call_id": 8, "content": "a numeric tool_call_id"},
        _tool_result("call-9", "the newest"),
    ]


def carriers() -> list[JsonValue]:
    """Chat tool messages and an Anthropic carrier with two results and a text part between."""
    return [
        _user("go"),
        {
            "role": "assistant",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "alpha", "name": "read"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "grep", "input": {}},
                {"type": "tool_use", "id": "t2", "name": "ls", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "beta", "is_error": True},
                {"type": "text", "text": "between"},
                {
                    "type": "tool_result",
                    "tool_use_id": "t2",
                    "content": [{"type": "text", "text": "g"}],
                },
            ],
        },
        {"role": "tool", "tool_call_id": "c9"},
    ]


# -- generic checks -------------------------------------------------------------------------


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


def _kept_for(
    context: CheckContext,
    items: Sequence[JsonValue],
    projection: ContextProjection,
    *,
    latest: bool = False,
) -> set[int]:
    kept, reason = kept_positions(items, projection.items, projection.report, latest=latest)
    context.expect(kept is not None, reason)
    assert kept is not None  # noqa: S101 - expect raised otherwise
    return set(kept)


def _units_text(units: Sequence[Sequence[int]]) -> str:
    return ", ".join("{" + ", ".join(map(str, unit)) + "}" for unit in units)


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


# -- pair integrity and wire validity --------------------------------------------------------


def _pair_claim(check_id: str, *clauses: str) -> Callable[[Builder], Check]:
    return check(
        check_id, component=Component.PROJECTOR, claim=Claim.PAIR_INTEGRITY, clauses=clauses
    )


def _wire_claim(check_id: str, *clauses: str) -> Callable[[Builder], Check]:
    return check(check_id, component=Component.PROJECTOR, claim=Claim.WIRE_VALID, clauses=clauses)


def _classic_examples(limit: int | None = None) -> list[Case]:
    return [(items, budget) for _, items, budget in classic_cases(limit=limit)]


def _provider_words(items: Sequence[JsonValue], index: int) -> str:
    """What a provider answers about output item *index*, in its own words, if any does."""
    for provider in PROVIDERS:
        for problem in wire_problems(items, provider):
            if problem.position == index and problem.rule not in {"WIRE-2", "WIRE-3"}:
                return f"; {provider} answers {problem.message!r} ({problem.rule})"
    return ""


def _orphan_message(
    items: Sequence[JsonValue],
    projection: ContextProjection,
    kept: list[int],
    result: int,
    call: int,
) -> str:
    output = list(projection.items)
    if result in kept:
        index = kept.index(result)
        return (
            f"the tool result at {result} ({describe(items[result], 120)}) is kept but its call "
            f"at {call} ({describe(items[call], 120)}) was dropped" + _provider_words(output, index)
        )
    index = kept.index(call)
    return (
        f"the tool call at {call} ({describe(items[call], 120)}) is kept but its result at "
        f"{result} ({describe(items[result], 120)}) was dropped" + _provider_words(output, index)
    )


@_pair_claim("projector.pair-integrity", "PAIR-1", "PAIR-2", "PAIR-3", "PAIR-4", "PAIR-5", "PAIR-9")
def pair_integrity(context: CheckContext) -> Test:
    """A projection keeps every call with its results: no orphaned result, no lonely call.

    A tool result's call is the latest earlier item declaring a tool call with its call id,
    in any of the three shapes (PAIR-1); a result represented needs its call represented, and
    a call represented needs every result it has in the source (PAIR-4). Orphans and pending
    calls of the source constrain nothing (PAIR-9). Budgets are aimed at the units' edges.
    """

    @given(case=_PAIRS[_tiers(context)])
    @example(case=(paired(), ContextBudget(max_items=1)))
    @example(case=(paired(), ContextBudget(max_approx_chars=100)))
    @example(case=(tier1_example(), ContextBudget(max_items=3, max_recent_tool_results=0)))
    @example(case=(carriers(), ContextBudget(max_items=2)))
    @example(
        case=(
            [_tool_result("orphan", "lost"), *paired(), {"type": "function_call", "call_id": "p"}],
            ContextBudget(max_items=3),
        )
    )
    def test(case: Case) -> None:
        items, budget = case
        projection = _project(context, items, budget)
        pairing = pairs(items)
        kept = _kept(context, items, projection)
        broken = broken_pairs(pairing, kept)
        if broken and projection.report.dropped_indices is None:
            # Without droppedIndices, any reading of the output that keeps the pairs will do.
            latest = sorted(_kept_for(context, items, projection, latest=True))
            if not broken_pairs(pairing, latest):
                return
        for result, call in broken[:1]:
            context.expect(
                condition=False, message=_orphan_message(items, projection, kept, result, call)
            )

    return with_examples(test, "case", _classic_examples())


def _erring(reason: str) -> Test:
    """A test that errors: a claim that cannot be checked must not pass for a checked one."""

    def test() -> None:
        raise SubjectError(reason)

    return test


def wire_precondition(items: Sequence[JsonValue], provider: str) -> None:
    """WIRE-18's precondition, which the suite's inputs meet: *provider* accepts *items*."""
    problems = wire_problems(items, provider)
    if problems:
        message = f"the suite generated a list {provider} rejects ({problems[0]}): a suite bug"
        raise AssertionError(message)


@_wire_claim("projector.wire-valid", "WIRE-18", *(f"WIRE-{n}" for n in range(2, 17)))
def wire_valid(context: CheckContext) -> Test:
    """A list a provider accepts projects to one it accepts, for every claimed provider.

    The inputs are lists ``wire_problems`` finds nothing in for the provider (the claim's
    precondition, WIRE-18); the output must be one too, under every budget. A failure quotes
    the rule the output breaks in the provider's own words: the 400 it would cause.
    """
    providers = claimed_providers(context)
    if isinstance(providers, str):
        return _erring(providers)
    tiers = _tiers(context)

    @given(case=st.one_of(*(_WIRE[(provider, tiers)] for provider in providers)))
    def test(case: WireCase) -> None:
        provider, items, budget = case
        if provider not in providers:
            return
        wire_precondition(items, provider)
        projection = _project(context, items, budget)
        output = list(projection.items)
        problems = wire_problems(output, provider)
        context.expect(
            not problems,
            f"{provider} accepts the source list but not the output: "
            + "; ".join(
                f"{problem.rule} at output item {problem.position} "
                f"({describe(problem.item, 120)}): the API answers {problem.message!r}"
                for problem in problems[:3]
            ),
        )

    return with_examples(test, "case", classic_cases())


# -- exact semantics ------------------------------------------------------------------------

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


# -- state across calls (PRJ-4) ---------------------------------------------------------

#: How a caller changes its list between two projections: in place, the same list object.
_CHANGES = ("append a turn", "drop the oldest", "replace the newest", "edit an item")
_NEXT_TURN: JsonValue = {
    "type": "message",
    "role": "user",
    "content": [{"type": "input_text", "text": "and then?"}],
}


def _change_in_place(items: list[JsonValue], change: str) -> None:
    """Change *items* as a caller's memory changes between two turns, keeping the list."""
    if change == "append a turn" or not items:
        items.append(copy.deepcopy(_NEXT_TURN))
    elif change == "drop the oldest":
        del items[0]
    elif change == "replace the newest":
        items[-1] = {"type": "message", "role": "assistant", "content": "replaced"}
    else:
        edited = next((item for item in reversed(items) if isinstance(item, dict)), None)
        if edited is None:
            items[-1] = "edited"
        elif isinstance(edited.get("output"), str):
            edited["output"] = f"{edited['output']} (edited in place)"
        else:
            edited["x_edited"] = "in place"


@generic("projector.stateless", "PRJ-4")
def stateless(context: CheckContext) -> Test:
    """One instance, one list object changed in place between calls: a fresh instance's result.

    State kept across calls, or keyed by the identity of the list or the budget, shows as a
    second projection that differs from what a fresh projector makes of a copy of the list.
    """

    @given(case=_CASES[_tiers(context)], change=st.sampled_from(_CHANGES))
    @example(
        case=(tier1_example(), ContextBudget(max_recent_tool_results=1)), change="edit an item"
    )
    @example(
        case=(summary_and_tail(), ContextBudget(max_items=3, pinned_prefix_items=1)),
        change="append a turn",
    )
    @example(case=(["a", "b", "c"], ContextBudget(max_items=2)), change="replace the newest")
    @example(case=([], ContextBudget(max_items=0)), change="drop the oldest")
    def test(case: Case, change: str) -> None:
        source, budget = case
        items = copy.deepcopy(list(source))
        context.record(items=items, budget=budget, change=change)
        projector: ContextProjector = context.subject()
        projector.project(items, budget)
        _change_in_place(items, change)
        expected: ContextProjector = context.subject()
        want = expected.project(copy.deepcopy(items), attrs.evolve(budget))
        got = projector.project(items, budget)
        _expect_same(
            context,
            f"projecting the same list again after it was changed in place ({change}) "
            "differs from a fresh projector's projection (PRJ-4: whatever happened before, "
            "independent of object identity)",
            got,
            want.items,
            want.report,
        )

    return test


#: Every check of this module, in the order they run.
# -- found by mutation testing (docs/mutation.md) -------------------------------------------


def _split_unit() -> list[JsonValue]:
    """The newest unit is a call and its result with a user message between them (PAIR-3)."""
    return [
        _user("go"),
        {"type": "function_call", "call_id": "c1", "name": "read_file", "arguments": "{}"},
        _user("meanwhile"),
        _tool_result("c1", "done"),
    ]


def _unnamed_calls() -> list[JsonValue]:
    """Calls without a call id or without a name, and results without a call id (T1-5, T1-6).

    The last call of id ``d1`` has no name: the name is the one of the last call that has both
    (T1-5). The Chat tool message without a call id has the smallest placeholder of its shape.
    """
    return [
        {"type": "function_call", "name": "read", "arguments": "{}"},
        {"type": "function_call_output", "output": "a" * 20},
        {"type": "function_call", "call_id": "n1", "arguments": "{}"},
        _tool_result("n1", "b" * 20),
        {"type": "function_call", "call_id": "d1", "name": "grep", "arguments": "{}"},
        {"type": "function_call", "call_id": "d1", "arguments": "{}"},
        _tool_result("d1", "c" * 20),
        {"role": "tool", "content": "e" * 30},
        _tool_result("c9", "newest"),
    ]


def _single_part_carriers() -> list[JsonValue]:
    """Anthropic carriers of one tool result each: a placeholder's content is a one-part array."""
    return [
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "read", "input": {}}],
        },
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x" * 50}],
        },
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t2", "name": "grep", "input": {}}],
        },
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "y"}],
        },
    ]


#: The transcripts of :func:`boundaries`: plain texts, tool calls with their results in three
#: shapes, placeholders already there, reasoning, a unit split by another item, calls without
#: a name or an id, one-part carriers; short enough that every budget at a boundary of them
#: can be tried.
_BOUNDARY_TRANSCRIPTS: tuple[Callable[[], list[JsonValue]], ...] = (
    lambda: ["aa", "b", "cccc", "dd", "e"],
    summary_and_tail,
    paired,
    carriers,
    tier1_example,
    four_results,
    reasoned,
    _split_unit,
    _unnamed_calls,
    _single_part_carriers,
)


def _fits(sizes: Sequence[int]) -> set[int]:
    """Every character budget at which a prefix plus a suffix fits exactly, or misses by one."""
    count = len(sizes)
    heads = [sum(sizes[:i]) for i in range(count + 1)]
    tails = [sum(sizes[i:]) for i in range(count + 1)]
    exact = {head + tail for i, head in enumerate(heads) for tail in tails[i:]}
    return exact | {limit - 1 for limit in exact if limit > 0}


def _boundary_budgets(
    reference: ContextProjector, items: Sequence[JsonValue]
) -> list[ContextBudget]:
    """Budgets at every limit where an item fits exactly or misses by one character.

    The sizes are the items' as given (Tier-1 off) or as Tier-1 leaves them (keeping none,
    one, or more results than there are); the pinned prefix is 0 or 2, and the item limits
    go from 0 to all, alone and, one short of all, with each character limit.
    """
    budgets: list[ContextBudget] = []
    seen: set[tuple[int, ...]] = set()
    for recent in (None, 0, 1, 9):
        tiered = reference.project(items, ContextBudget(max_recent_tool_results=recent)).items
        sizes = tuple(approx_chars(item) for item in tiered)
        if recent is not None and sizes in seen:
            # Tier-1 clears nothing more here: the limits would repeat, the tier alone not.
            budgets.append(ContextBudget(max_recent_tool_results=recent))
            continue
        seen.add(sizes)
        limits = sorted(_fits(sizes))
        budgets.extend(
            ContextBudget(
                max_approx_chars=limit, pinned_prefix_items=pinned, max_recent_tool_results=recent
            )
            for limit in limits
            for pinned in (0, 2)
        )
        budgets.extend(
            ContextBudget(
                max_items=max(len(items) - 1, 1),
                max_approx_chars=limit,
                pinned_prefix_items=1,
                max_recent_tool_results=recent,
            )
            for limit in limits
        )
    budgets.extend(
        ContextBudget(max_items=limit, pinned_prefix_items=pinned)
        for limit in range(len(items) + 1)
        for pinned in range(3)
    )
    return budgets


@exact(
    "projector.exact.boundaries",
    "PRJ-15",
    "PRJ-16",
    "PRJ-18",
    "PRJ-20",
    "PRJ-21",
    "PRJ-22",
    "PRJ-23",
    "PRJ-32",
    "PRJ-33",
    "T1-1",
)
def boundaries(context: CheckContext) -> Test:
    """The reference's items and report at every limit that an item fits exactly.

    Each budget's ``maxApproxChars`` is a sum of the sizes of a prefix and a suffix of the items
    (as given, or as Tier-1 leaves them), or one less, so that some item fits with no character
    to spare or misses by one; each ``maxItems`` is a count from 0 to all. A stage that keeps an
    item only when it fits with room left, that counts one character off, or that skips on a
    lower bound of the size, gives another result at one of them.
    """
    reference = _reference(context)

    def test() -> None:
        for build in _BOUNDARY_TRANSCRIPTS:
            items = build()
            budgets = _boundary_budgets(reference, items)
            # Without tiers many budgets coincide: each distinct one is tried once.
            for target_budget in dict.fromkeys(_for_target(context, b) for b in budgets):
                want = reference.project(items, target_budget)
                got = _project(context, build(), target_budget)
                _expect_same(context, "compared with the reference", got, want.items, want.report)

    return test


CHECKS: tuple[Check, ...] = (
    result_type,
    document,
    order_preserving,
    no_mutation,
    deterministic,
    max_items,
    pinned_prefix,
    newest_item,
    report_consistency,
    size_vectors,
    budget_semantics,
    pair_integrity,
    wire_valid,
    differential,
    vectors,
    pair_safe_vectors,
    unit_stages,
    pair_safe_singletons,
    placeholders,
    tiers_off,
    tier2_scope,
    cleared_reasoning,
    notes,
    idempotence,
    tier_purity,
    stateless,
    boundaries,
)

__all__ = ["CHECKS"]
