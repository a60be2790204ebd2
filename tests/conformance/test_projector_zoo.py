"""The zoo: deliberately wrong projectors, each failing its intended check for the right reason.

Every member is tiny: the reference with one thing perturbed (its input, its output, one
output item, its report, or one stage). The ``@wrong`` decorator registers it with the check
that must catch it, the clauses it breaks and a phrase the failure message must contain, so
a member failing for an unrelated reason (or crashing the suite) does not count. A coverage
test asserts that every clause the projector checks cite is broken by some member, or is
exempt with a reason.
"""

# Members override the base's methods and keep their signatures, used or not.
# ruff: noqa: ARG002

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar, cast

import attrs
import pytest

from ctxpact.conformance import Claim, Outcome, profile_settings, run_check
from ctxpact.conformance._pairing import (
    Pairs,
    is_carrier,
    is_reasoning,
    is_user_input,
    member_is,
    pairs,
    tool_calls,
)
from ctxpact.conformance.checks import projector as checks
from ctxpact.conformance.checks._projection_support import (
    UnitStage,
    char_stage,
    cleared_item,
    identical,
    is_cleared_form,
    is_tool_result,
    item_stage,
    pinned_units,
    placeholder_label,
    run_tiers,
    unit_char_stage,
    unit_item_stage,
)
from ctxpact.reference.projection import (
    NEWEST_UNIT_DROPPED_NOTE,
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
    approx_chars,
)
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextProjector,
    ContextReport,
    JsonValue,
    compact_json,
)

QUICK = profile_settings("quick")
EXACT = frozenset({Claim.GENERIC, Claim.EXACT})
NO_TIERS: Mapping[str, Any] = {"tiers": False}
DIFFERENTIAL = "projector.exact.differential"

Items = Sequence[JsonValue]
Budget = ContextBudget | None
T = TypeVar("T")


@attrs.frozen(kw_only=True)
class Wrong:
    """One wrong projector: what must catch it, what it breaks, and the telling phrase."""

    name: str
    factory: Callable[[], Any]
    check: str
    breaks: tuple[str, ...]
    reason: str
    claims: frozenset[Claim] = EXACT
    options: Mapping[str, Any] = attrs.field(factory=dict)


ZOO: list[Wrong] = []


def wrong(
    check: str,
    *breaks: str,
    reason: str,
    name: str | None = None,
    claims: frozenset[Claim] = EXACT,
    options: Mapping[str, Any] | None = None,
) -> Callable[[T], T]:
    """Register the decorated factory as a member caught by *check*, breaking *breaks*."""

    def register(factory: T) -> T:
        label = name or re.sub(r"(?<!^)(?=[A-Z])", "-", getattr(factory, "__name__", "")).lower()
        ZOO.append(
            Wrong(
                name=label,
                factory=cast("Callable[[], Any]", factory),
                check=check,
                breaks=breaks,
                reason=reason,
                claims=claims,
                options=options or {},
            )
        )
        return factory

    return register


def stage(*breaks: str) -> Callable[[T], T]:
    """A wrong default-level projector that the differential check catches."""
    return wrong(DIFFERENTIAL, *breaks, reason="compared with the reference", options=NO_TIERS)


# -- building blocks ------------------------------------------------------------------------


def _kept(items: Items, projection: ContextProjection) -> list[int]:
    dropped = set(projection.report.dropped_indices or ())
    return [p for p in range(len(items)) if p not in dropped]


def _with_report(projection: ContextProjection, **changes: Any) -> ContextProjection:
    return attrs.evolve(projection, report=attrs.evolve(projection.report, **changes))


def _replaced(source: JsonValue, output: JsonValue) -> bool:
    # The reference hands back the caller's objects for the items it does not replace.
    return source is not output


def _object(value: JsonValue) -> dict[str, JsonValue]:
    assert isinstance(value, dict)
    return value


class Perturbed:
    """The reference, with its input, its output or each output item changed."""

    base: ClassVar[ContextProjector] = TypeAwareContextProjector()

    def project(self, items: Items, budget: Budget) -> ContextProjection:
        items, budget = self.before(list(items), budget)
        return self.after(items, budget, self.base.project(items, budget))

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        return items, budget

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        kept = _kept(items, projection)
        output = [self.each(items[p], o) for p, o in zip(kept, projection.items, strict=True)]
        return attrs.evolve(projection, items=tuple(output))

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        return output


class Staged:
    """A default projector (§5.3) whose stages a member can swap for wrong ones."""

    chars_first: ClassVar[bool] = False
    truthy: ClassVar[bool] = False  # `if budget.max_items:`, the classic bug

    def item_stage(self, count: int, limit: int, pinned: int) -> list[int]:
        return item_stage(count, limit, pinned)

    def char_stage(self, sizes: Sequence[int], limit: int, pinned: int) -> list[int]:
        return char_stage(sizes, limit, pinned)

    def project(self, items: Items, budget: Budget) -> ContextProjection:
        positions = list(range(len(items)))
        notes: list[str] = []
        flags = {"item": False, "char": False}
        pinned = 0 if budget is None else budget.pinned_prefix_items
        limits = (None, None) if budget is None else (budget.max_items, budget.max_approx_chars)

        def run(kind: str, limit: int | None) -> None:
            nonlocal positions
            if limit is None or (self.truthy and not limit):
                return
            if kind == "item":
                chosen = self.item_stage(len(positions), limit, pinned)
                note = f"maxItems applied: {limit}"
            else:
                sizes = [approx_chars(items[p]) for p in positions]
                chosen = self.char_stage(sizes, limit, pinned)
                note = f"maxApproxChars applied: {limit}"
            if len(chosen) < len(positions):
                flags[kind] = True
                notes.append(note)
            positions = [positions[i] for i in chosen]

        order = [("char", limits[1]), ("item", limits[0])]
        for kind, limit in order if self.chars_first else order[::-1]:
            run(kind, limit)
        return projection_of(items, positions, [items[p] for p in positions], notes=notes, **flags)


def projection_of(
    items: Items,
    kept: Sequence[int],
    output: Sequence[JsonValue],
    *,
    notes: Sequence[str] = (),
    item: bool = False,
    char: bool = False,
) -> ContextProjection:
    """A projection of *output* (standing for source positions *kept*) with a true report."""
    return ContextProjection(
        items=tuple(output),
        report=ContextReport(
            source_item_count=len(items),
            projected_item_count=len(output),
            dropped_item_count=len(items) - len(output),
            source_approx_chars=sum(map(approx_chars, items)),
            projected_approx_chars=sum(map(approx_chars, output)),
            item_limit_applied=item,
            character_limit_applied=char,
            notes=tuple(notes),
            dropped_indices=tuple(p for p in range(len(items)) if p not in set(kept)),
            cleared_indices=tuple(
                p for p, o in zip(kept, output, strict=True) if _replaced(items[p], o)
            ),
        ),
    )


def _greedy(
    sizes: Sequence[int], limit: int, pinned: int, *, prefix_stops: bool, tail_stops: bool
) -> list[int]:
    """PRJ-20 and PRJ-21 without their special cases, optionally stopping at the first misfit."""
    used = 0
    prefix: list[int] = []
    tail: list[int] = []
    head = min(pinned, len(sizes))
    for taken, stops, indices in (
        (prefix, prefix_stops, range(head)),
        (tail, tail_stops, range(len(sizes) - 1, head - 1, -1)),
    ):
        for index in indices:
            if taken and used + sizes[index] > limit:
                if stops:
                    break
                continue
            taken.append(index)
            used += sizes[index]
    return prefix + sorted(tail)


# -- generic: result, document, representation -----------------------------------------------


@wrong("projector.result-type", "PRJ-1", "RPT-1", reason="expected a ContextProjection")
class ReturnsADocument:
    """Returns the projection's JSON document instead of the record."""

    def project(self, items: Items, budget: Budget) -> object:
        return {"items": list(items), "report": None}


@wrong("projector.document", "JSON-14", reason="has no JSON document")
class NanFloats(Perturbed):
    """Turns every float item into NaN, which no document can hold."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        return float("nan") if isinstance(output, float) else output


@wrong("projector.order-preserving", "PRJ-7", reason="stands for source item")
class Reorders(Perturbed):
    """Returns the selection newest first."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return attrs.evolve(projection, items=projection.items[::-1])


@wrong("projector.order-preserving", "PRJ-7", reason="but the output has")
class DuplicatesNewest(Perturbed):
    """Repeats the newest output item."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return attrs.evolve(projection, items=(*projection.items, *projection.items[-1:]))


@wrong("projector.order-preserving", "PRJ-8", reason="must keep call_id")
class DropsCallId(Perturbed):
    """Builds placeholders without the call_id."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_tool_result(source)):
            return output
        return {k: v for k, v in _object(output).items() if k != "call_id"}


@wrong(
    "projector.order-preserving",
    "JSON-1",
    "PRJ-8",
    reason="only tool results, result carriers and reasoning",
)
class StripsStrings(Perturbed):
    """Trims string items, which must pass through unchanged."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        return output.strip() if isinstance(output, str) else output


@wrong(
    "projector.order-preserving",
    "JSON-5",
    reason="only tool results, result carriers and reasoning",
)
class WholeNumbers(Perturbed):
    """Writes 1.0 as 1: a different item."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if isinstance(output, float) and output.is_integer():
            return int(output)
        return output


@wrong(
    "projector.order-preserving",
    "JSON-3",
    "JSON-10",
    reason="only tool results, result carriers and reasoning",
)
class SortsMembers(Perturbed):
    """Sorts the members of object items: equal, but not identical."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        return dict(sorted(output.items())) if isinstance(output, dict) else output


# -- generic: purity, determinism, limits -----------------------------------------------------


@wrong("projector.no-mutation", "PRJ-3", "JSON-16", reason="source item")
class MutatesInput(Perturbed):
    """Marks every object it was given."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        for item in items:
            if isinstance(item, dict):
                item["_seen"] = True
        return projection


@wrong("projector.no-mutation", "BUD-6", reason="the budget changed")
class MutatesBudget(Perturbed):
    """Bumps the budget's pin after use: a budget is an immutable value."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        if budget is not None:
            object.__setattr__(budget, "pinned_prefix_items", budget.pinned_prefix_items + 1)
        return projection


@wrong("projector.deterministic", "PRJ-4", reason="projecting again: report notes")
class Nondeterministic(Perturbed):
    """Numbers its projections in a note."""

    def __init__(self) -> None:
        self.calls = itertools.count()

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        notes = (*projection.report.notes, f"projection {next(self.calls)}")
        return _with_report(projection, notes=notes)


@wrong("projector.max-items", "PRJ-9", reason="expected at most maxItems")
class IgnoresMaxItems(Perturbed):
    """Never applies maxItems."""

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        return items, budget and attrs.evolve(budget, max_items=None)


@wrong("projector.pinned-prefix", "PRJ-10", reason="pinned source items [0] are missing")
class DropsPinnedPrefix(Perturbed):
    """Ignores pinnedPrefixItems."""

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        return items, budget and attrs.evolve(budget, pinned_prefix_items=0)


@wrong("projector.newest-item", "PRJ-11", reason="the newest source item")
class DropsNewest(Staged):
    """Keeps a tail that ends one item early."""

    def item_stage(self, count: int, limit: int, pinned: int) -> list[int]:
        kept = item_stage(count, limit, pinned)
        head = min(pinned, limit, count)
        if len(kept) in (count, head):
            return kept
        return kept[:head] + [p - 1 for p in kept[head:]]


@wrong("projector.budget", "BUD-5", reason="ContextBudget() against no budget")
class NoBudgetIsALimit(Perturbed):
    """Applies a default item limit when no budget is given."""

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        return items, ContextBudget(max_items=2) if budget is None else budget


@wrong(
    "projector.pair-integrity",
    reason="is kept but its",
    name="orphans-tool-results",
    claims=frozenset({Claim.GENERIC, Claim.PAIR_INTEGRITY}),
)
def _reference_default() -> ContextProjector:
    """The reference itself: its maxItems tail may start right after a call."""
    return DefaultContextProjector()


# -- generic: the report ----------------------------------------------------------------------


@wrong("projector.report", "PRJ-12", "RPT-4", reason="report droppedItemCount")
class DroppedCountOffByOne(Perturbed):
    """Counts one dropped item too many."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return _with_report(projection, dropped_item_count=projection.report.dropped_item_count + 1)


@wrong("projector.report", "RPT-2", "PRJ-27", reason="report sourceApproxChars")
class SourceFiguresAfterTiers(Perturbed):
    """ai4j (DIF-16): measures the source after the tiers replaced items."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        working = run_tiers(items, budget).working
        return _with_report(projection, source_approx_chars=sum(map(approx_chars, working)))


@wrong("projector.report", "RPT-3", reason="report projectedApproxChars")
class ProjectedSizeOfSources(Perturbed):
    """Measures the kept source items instead of their replacements."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        size = sum(approx_chars(items[p]) for p in _kept(items, projection))
        return _with_report(projection, projected_approx_chars=size)


@wrong("projector.report", "RPT-5", reason="a limit flag is true but no item was dropped")
class CharFlagWhenOver(Perturbed):
    """Sets characterLimitApplied whenever the source exceeds the limit."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        limit = None if budget is None else budget.max_approx_chars
        over = limit is not None and sum(map(approx_chars, items)) > limit
        flag = over or projection.report.character_limit_applied
        return _with_report(projection, character_limit_applied=flag)


@wrong("projector.report", "RPT-7", reason="cannot stand for source item")
class ShiftedDroppedIndices(Perturbed):
    """Reports droppedIndices one position too far."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        dropped = projection.report.dropped_indices or ()
        if not dropped or dropped[-1] + 1 >= len(items):
            return projection
        return _with_report(projection, dropped_indices=tuple(p + 1 for p in dropped))


@wrong("projector.report", "RPT-7", reason="clearedIndices: expected")
class EmptyClearedIndices(Perturbed):
    """Claims it replaced nothing."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return _with_report(projection, cleared_indices=())


@wrong("projector.report", "RPT-6", reason="maxItems applied: 7")
class ReservedNoteMisused(Perturbed):
    """Writes a maxItems note with a number that is not the budget's."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return _with_report(projection, notes=(*projection.report.notes, "maxItems applied: 7"))


class Resized(Perturbed):
    """Reports sizes by another measure than approx_chars."""

    def measure(self, item: JsonValue) -> int:
        return approx_chars(item)

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return _with_report(
            projection,
            source_approx_chars=sum(map(self.measure, items)),
            projected_approx_chars=sum(map(self.measure, projection.items)),
        )


def _text_of(item: JsonValue) -> str:
    return item if isinstance(item, str) else "" if item is None else compact_json(item)


@wrong("projector.report", "SIZE-2", "JSON-6", reason="report sourceApproxChars")
class JavaSizes(Resized):
    """ai4j (DIF-1): the length of the value's toString form."""

    def measure(self, item: JsonValue) -> int:
        return 0 if item is None else len(str(item))


@wrong("projector.size-vectors", "SIZE-1", reason="expected sourceApproxChars")
class QuotedStrings(Resized):
    """Measures strings with their quotes."""

    def measure(self, item: JsonValue) -> int:
        return 0 if item is None else len(compact_json(item))


@wrong("projector.size-vectors", "SIZE-3", reason="expected sourceApproxChars 0")
class NullCountsFour(Resized):
    """Measures a null item as the text null."""

    def measure(self, item: JsonValue) -> int:
        return 4 if item is None else approx_chars(item)


@wrong("projector.size-vectors", "SIZE-4", reason="expected sourceApproxChars")
class Utf16Sizes(Resized):
    """Counts UTF-16 code units, so an astral character counts 2."""

    def measure(self, item: JsonValue) -> int:
        return len(_text_of(item).encode("utf-16-le")) // 2


@wrong("projector.size-vectors", "SIZE-5", reason="expected sourceApproxChars")
class ArraysSummed(Resized):
    """Measures an array item as the sum of its elements."""

    def measure(self, item: JsonValue) -> int:
        return sum(map(approx_chars, item)) if isinstance(item, list) else approx_chars(item)


@wrong("projector.size-vectors", "SIZE-6", reason="expected sourceApproxChars")
class WordCount(Resized):
    """Counts words, like a tokenizer would, instead of code points."""

    def measure(self, item: JsonValue) -> int:
        return len(_text_of(item).split())


@wrong("projector.size-vectors", "JSON-6", reason="expected sourceApproxChars")
class AsciiEscapedSizes(Resized):
    """Measures JSON text with non-ASCII characters escaped."""

    def measure(self, item: JsonValue) -> int:
        if isinstance(item, str) or item is None:
            return approx_chars(item)
        return len(json.dumps(item, separators=(",", ":"), ensure_ascii=True))


# -- exact: the stages of §5.3 --------------------------------------------------------------


@stage("PRJ-13")
class CharsBeforeItems(Staged):
    """Runs the character stage before the item stage."""

    chars_first = True


@stage("PRJ-14", "PRJ-17")
class TruthyLimits(Staged):
    """Reads a limit of 0 as unset."""

    truthy = True


@stage("PRJ-15")
class OldestTail(Staged):
    """Keeps the oldest unpinned items instead of the newest."""

    def item_stage(self, count: int, limit: int, pinned: int) -> list[int]:
        kept = item_stage(count, limit, pinned)
        head = min(pinned, limit, count)
        return kept[:head] + list(range(head, len(kept)))


@stage("PRJ-18")
class StrictlyBelow(Staged):
    """Keeps the input only when it is strictly below the limit."""

    def char_stage(self, sizes: Sequence[int], limit: int, pinned: int) -> list[int]:
        if sum(sizes) < limit:
            return list(range(len(sizes)))
        if limit == 0:
            return []
        return _greedy(sizes, limit, pinned, prefix_stops=False, tail_stops=False)


@stage("PRJ-19")
class ZeroNotSpecial(Staged):
    """Runs the greedy passes for a limit of 0 instead of keeping nothing."""

    def char_stage(self, sizes: Sequence[int], limit: int, pinned: int) -> list[int]:
        if sum(sizes) <= limit:
            return list(range(len(sizes)))
        return _greedy(sizes, limit, pinned, prefix_stops=False, tail_stops=False)


@stage("PRJ-20")
class PrefixPassStops(Staged):
    """Stops the prefix pass at the first pinned item that does not fit."""

    def char_stage(self, sizes: Sequence[int], limit: int, pinned: int) -> list[int]:
        if sum(sizes) <= limit or limit == 0:
            return char_stage(sizes, limit, pinned)
        return _greedy(sizes, limit, pinned, prefix_stops=True, tail_stops=False)


@stage("PRJ-21")
@wrong(
    "projector.exact.vectors",
    "PRJ-21",
    reason="vector project.char-stage-gap",
    name="contiguous-tail-in-vectors",
    options=NO_TIERS,
)
class ContiguousTail(Staged):
    """Stops the tail pass at the first item that does not fit: a tail without gaps."""

    def char_stage(self, sizes: Sequence[int], limit: int, pinned: int) -> list[int]:
        if sum(sizes) <= limit or limit == 0:
            return char_stage(sizes, limit, pinned)
        return _greedy(sizes, limit, pinned, prefix_stops=False, tail_stops=True)


@stage("PRJ-22")
class NeverOverBudget(Staged):
    """Drops the newest items until the output fits, which the spec never does."""

    def char_stage(self, sizes: Sequence[int], limit: int, pinned: int) -> list[int]:
        kept = char_stage(sizes, limit, pinned)
        while kept and sum(sizes[i] for i in kept) > limit:
            kept = kept[:-1]
        return kept


@stage("PRJ-24")
class DropsNullsWithoutBudget(Staged):
    """Without a budget, leaves out null items."""

    def project(self, items: Items, budget: Budget) -> ContextProjection:
        if budget is not None:
            return super().project(items, budget)
        kept = [p for p, item in enumerate(items) if item is not None]
        return projection_of(items, kept, [items[p] for p in kept])


@stage("RPT-8")
class NoDroppedIndices(Perturbed):
    """Leaves droppedIndices out, as ai4j's reports do; exact projectors report them."""

    base = DefaultContextProjector()

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return _with_report(projection, dropped_indices=None)


@stage("PRJ-25")
class NoClearedIndices(Perturbed):
    """Leaves clearedIndices out, where the default projector reports an empty array."""

    base = DefaultContextProjector()

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return _with_report(projection, cleared_indices=None)


# -- exact: notes ---------------------------------------------------------------------------


class Renoted(Perturbed):
    """Rewrites each note."""

    def note(self, note: str) -> str:
        return note

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return _with_report(projection, notes=tuple(map(self.note, projection.report.notes)))


@wrong("projector.exact.notes", "PRJ-16", "RPT-6", reason="expected notes")
class ItemsNoteText(Renoted):
    """Writes "maxItems applied 3" without the colon."""

    def note(self, note: str) -> str:
        return note.replace("maxItems applied: ", "maxItems applied ")


@wrong("projector.exact.notes", "PRJ-23", reason="expected notes")
class CharsNoteText(Renoted):
    """Writes max_approx_chars for maxApproxChars."""

    def note(self, note: str) -> str:
        return note.replace("maxApproxChars", "max_approx_chars")


@wrong("projector.exact.notes", "T2-7", reason="expected notes")
class Tier2NoteText(Renoted):
    """Writes "reasoning items" for "reasoning item(s)"."""

    def note(self, note: str) -> str:
        return note.replace("reasoning item(s)", "reasoning items")


@wrong("projector.exact.notes", "RPT-6", "PRJ-27", reason="expected notes")
class LimitNotesFirst(Perturbed):
    """Puts the limit notes before the tier notes."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        notes = sorted(projection.report.notes, key=lambda n: not n.startswith("max"))
        return _with_report(projection, notes=tuple(notes))


@wrong("projector.exact.notes", "T1-7", reason="expected notes")
class Tier1CountsPlaceholders(Perturbed):
    """Counts every older tool result, placeholders included, in the Tier-1 note."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        keep = 0 if budget is None else budget.max_recent_tool_results or 0
        older = max(0, sum(map(is_tool_result, items)) - keep)
        notes = [
            re.sub(r"cleared \d+ old", f"cleared {older} old", n) for n in projection.report.notes
        ]
        return _with_report(projection, notes=tuple(notes))


@wrong("projector.exact.notes", "T2-5", reason="expected notes")
class RecountsClearedReasoning(Perturbed):
    """ai4j (DIF-5): counts reasoning already in cleared form again."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        tiers = run_tiers(items, budget)
        boundary = tiers.boundary or 0
        again = sum(is_reasoning(items[p]) and p not in tiers.tier2 for p in range(boundary))
        notes = [
            re.sub(
                r"cleared (\d+) reasoning", lambda m: f"cleared {int(m[1]) + again} reasoning", n
            )
            for n in projection.report.notes
        ]
        return _with_report(projection, notes=tuple(notes))


# -- exact: Tier-1 --------------------------------------------------------------------------


@wrong("projector.exact.placeholders", "T1-2", reason="is not among the newest")
class KeepsOneMore(Perturbed):
    """Keeps K + 1 tool results verbatim."""

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        if budget is None or budget.max_recent_tool_results is None:
            return items, budget
        return items, attrs.evolve(
            budget, max_recent_tool_results=budget.max_recent_tool_results + 1
        )


@wrong("projector.exact.placeholders", "T1-3", reason="already holds a placeholder")
@wrong(
    "projector.exact.idempotence",
    "PRJ-29",
    reason="projecting the projection again reported",
    name="counts-placeholders-again",
)
class RelabelsPlaceholders(Perturbed):
    """ai4j (DIF-4): an older placeholder gets a fresh label, and is counted."""

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        # A trailing space hides the placeholder from the reference, which then relabels it.
        self.source = list(items)
        return [self._hidden(item) for item in items], budget

    @staticmethod
    def _hidden(item: JsonValue) -> JsonValue:
        output = item.get("output") if isinstance(item, dict) else None
        if is_tool_result(item) and isinstance(output, str) and output.startswith("[tool result"):
            return {**_object(item), "output": output + " "}
        return item

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        kept = _kept(items, projection)
        output = [
            self.source[p] if o is items[p] else o
            for p, o in zip(kept, projection.items, strict=True)
        ]
        return attrs.evolve(projection, items=tuple(output))


@wrong("projector.exact.placeholders", "T1-3", reason="is not among the newest")
class LookAlikePlaceholders(Perturbed):
    """Takes any output starting "[tool result cleared" for a placeholder, and leaves it."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_tool_result(source)):
            return output
        old = _object(source).get("output")
        loose = isinstance(old, str) and old.startswith("[tool result cleared") and old[-1:] == "]"
        return source if loose else output


@wrong("projector.exact.placeholders", "T1-4", reason="is not among the newest")
class KeepsOtherMembers(Perturbed):
    """Keeps status, name and the other members of a cleared tool result."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_tool_result(source)):
            return output
        return {**_object(output), **{k: v for k, v in _object(source).items() if k != "output"}}


@wrong("projector.exact.placeholders", "JSON-3", "T1-4", reason="is not among the newest")
class OutputBeforeCallId(Perturbed):
    """Builds placeholders as type, output, call_id."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_tool_result(source)):
            return output
        built = _object(output)
        return {"type": built["type"], "output": built["output"], **built}


@wrong("projector.exact.placeholders", "T1-5", reason="is not among the newest")
class FirstCallNames(Perturbed):
    """Names a call id after the first call with it, not the last."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        self.names: dict[str, str] = {}
        for item in items:
            for call_id, name in tool_calls(item):
                if call_id is not None and name is not None:
                    self.names.setdefault(call_id, name)
        return super().after(items, budget, projection)

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_tool_result(source)):
            return output
        label = placeholder_label(_object(source), _object(source).get("call_id"), self.names)  # type: ignore[arg-type]
        return {**_object(output), "output": label}


@wrong("projector.exact.placeholders", "T1-6", reason="is not among the newest")
class LabelFormat(Perturbed):
    """Writes name/call-id where the label has name(call-id)."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_tool_result(source)):
            return output
        label = re.sub(r"^(\[.*: .*)\((.*)\)\]$", r"\1/\2]", str(_object(output)["output"]))
        return {**_object(output), "output": label}


@wrong("projector.exact.placeholders", "PRJ-26", reason="Tier-1 replaces in place")
class Tier1Drops(Perturbed):
    """Drops old tool results instead of replacing them."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        pairs = [
            (p, o)
            for p, o in zip(_kept(items, projection), projection.items, strict=True)
            if not (is_tool_result(items[p]) and _replaced(items[p], o))
        ]
        output = [o for _, o in pairs]
        return projection_of(items, [p for p, _ in pairs], output, notes=projection.report.notes)


@wrong("projector.exact.tier1-off", "T1-1", "PRJ-28", reason="with both tiers unset")
class Tier1ByDefault(Perturbed):
    """Runs Tier-1 with K = 0 when maxRecentToolResults is unset."""

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        if budget is None or budget.max_recent_tool_results is not None:
            return items, budget
        return items, attrs.evolve(budget, max_recent_tool_results=0)


@wrong("projector.exact.tier-purity", "T1-8", reason="may not change")
class ClearsCallArguments(Perturbed):
    """Also clears the arguments of Responses-style tool calls."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if isinstance(output, dict) and output.get("type") == "function_call":
            return {**output, "arguments": ""}
        return output


# -- exact: Tier-2 --------------------------------------------------------------------------


@wrong("projector.exact.tier1-off", "T2-1", reason="with both tiers unset")
class Tier2ByDefault(Perturbed):
    """Trims old reasoning even when trimOldReasoning is false."""

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        return items, budget and attrs.evolve(budget, trim_old_reasoning=True)


class TrimsEverything(Perturbed):
    """Clears every reasoning item before the reference runs, when Tier-2 is on."""

    def trims(self, items: Items) -> bool:
        return True

    def before(self, items: list[JsonValue], budget: Budget) -> tuple[list[JsonValue], Budget]:
        if budget is None or not budget.trim_old_reasoning or not self.trims(items):
            return items, budget
        return [
            cleared_item(_object(item))
            if is_reasoning(item) and not is_cleared_form(_object(item))
            else item
            for item in items
        ], budget


@wrong("projector.exact.tier2-scope", "T2-2", reason="there is no user input item")
class TrimsWithoutUser(TrimsEverything):
    """ai4j (DIF-5): without a user item, trims every reasoning item."""

    def trims(self, items: Items) -> bool:
        return not any(map(is_user_input, items))


@wrong("projector.exact.tier2-scope", "T2-3", reason="at or after the last user input item")
class TrimsCurrentTurn(TrimsEverything):
    """Trims the reasoning of the current turn too."""


@wrong("projector.exact.cleared-reasoning", "T2-4", reason="becomes its cleared item")
class SummaryOnlyClearedForm(Perturbed):
    """Takes an item with the cleared summary for cleared, encrypted_content and all."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_reasoning(source)):
            return output
        rest = {k: v for k, v in _object(source).items() if k != "encrypted_content"}
        return source if is_cleared_form(rest) else output


@wrong("projector.exact.cleared-reasoning", "T2-6", reason="becomes its cleared item")
class KeepsEncryptedContent(Perturbed):
    """ai4j (DIF-5): keeps encrypted_content in a cleared reasoning item."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_reasoning(source)):
            return output
        if "encrypted_content" not in _object(source):
            return output
        rest = {k: v for k, v in _object(output).items() if k != "summary"}
        secret = _object(source)["encrypted_content"]
        return {**rest, "encrypted_content": secret, "summary": _object(output)["summary"]}


@wrong("projector.exact.cleared-reasoning", "JSON-3", reason="becomes its cleared item")
class SummaryFirst(Perturbed):
    """Puts summary first in a cleared reasoning item."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_reasoning(source)):
            return output
        return {"summary": _object(output)["summary"], **_object(output)}


# -- pair integrity, wire validity and the pair-safe algorithm ---------------------------------

PAIRS = frozenset({Claim.GENERIC, Claim.PAIR_INTEGRITY})
WIRE = frozenset({Claim.GENERIC, Claim.WIRE_VALID})
PAIR_SAFE: Mapping[str, Any] = {"pair_safe": True}


def _wire(*providers: str) -> Mapping[str, Any]:
    return {"providers": providers}


class PairSafePerturbed(Perturbed):
    """The pair-safe reference, with its input, its output or each output item changed."""

    base: ClassVar[ContextProjector] = PairSafeContextProjector()


class Reselected(PairSafePerturbed):
    """The pair-safe reference, keeping another selection of positions with a true report."""

    def reselect(self, items: Items, budget: Budget, kept: list[int]) -> list[int]:
        return kept

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        kept = _kept(items, projection)
        by_position = dict(zip(kept, projection.items, strict=True))
        chosen = self.reselect(items, budget, kept)
        output = [by_position.get(p, items[p]) for p in chosen]
        return projection_of(
            items,
            chosen,
            output,
            notes=self.renote(items, budget, chosen, projection.report.notes),
            item=projection.report.item_limit_applied,
            char=projection.report.character_limit_applied,
        )

    def renote(
        self, items: Items, budget: Budget, chosen: list[int], notes: Sequence[str]
    ) -> Sequence[str]:
        return notes


def _is_chat_call(item: JsonValue) -> bool:
    return isinstance(item, dict) and item.get("role") == "assistant" and "tool_calls" in item


@wrong("projector.pair-integrity", "PAIR-4", "PAIR-5", reason="is kept but its", claims=PAIRS)
class OrphansChatToolMessages(Reselected):
    """Drops the assistant message of a kept Chat unit that is neither pinned nor the newest."""

    only = True

    def reselect(self, items: Items, budget: Budget, kept: list[int]) -> list[int]:
        if budget is None or budget.max_items is None or len(kept) == len(items):
            return kept
        newest = set(pairs(items).newest())
        pinned = budget.pinned_prefix_items
        doomed = [p for p in kept if _is_chat_call(items[p]) and p not in newest and p >= pinned]
        return [p for p in kept if p not in doomed[:1]]


@wrong(
    "projector.pair-integrity",
    "PAIR-4",
    "PAIR-2",
    reason="is kept but its",
    claims=PAIRS,
)
class KeepsCallsDropsResults(Reselected):
    """Drops the last result of a kept call that has several, the call kept (PAIR-4 (b))."""

    def reselect(self, items: Items, budget: Budget, kept: list[int]) -> list[int]:
        if budget is None or budget.max_items is None or len(kept) == len(items):
            return kept
        for call in pairs(items).calls:
            results = [p for p in call.results if p in kept]
            if call.position in kept and len(results) > 0 and call.position != results[-1]:
                return [p for p in kept if p != results[-1]]
        return kept


class _ShapeBlind(PairSafePerturbed):
    """The pair-safe reference that does not see one shape's results (ai4j, DIF-24)."""

    def disguise(self, item: JsonValue) -> JsonValue:
        return item

    def project(self, items: Items, budget: Budget) -> ContextProjection:
        source = list(items)
        seen = [self.disguise(item) for item in source]
        projection = self.base.project(seen, budget)
        kept = _kept(seen, projection)
        output = [
            source[p] if identical(seen[p], o) else o
            for p, o in zip(kept, projection.items, strict=True)
        ]
        return projection_of(
            source,
            kept,
            output,
            notes=projection.report.notes,
            item=projection.report.item_limit_applied,
            char=projection.report.character_limit_applied,
        )


@wrong("projector.pair-integrity", "PAIR-1", reason="is kept but its", claims=PAIRS)
class ChatResultsAreNoResults(_ShapeBlind):
    """Pairs only Responses and Anthropic results: a Chat tool message is a message to it."""

    def disguise(self, item: JsonValue) -> JsonValue:
        if isinstance(item, dict) and item.get("role") == "tool" and item.get("type") is None:
            return {**item, "role": "tool-message"}
        return item


@wrong("projector.pair-integrity", "PAIR-9", reason="orphan", claims=PAIRS)
class RefusesOrphans(PairSafePerturbed):
    """Raises on a source list that already holds an orphan result."""

    def project(self, items: Items, budget: Budget) -> ContextProjection:
        if pairs(items).orphans():
            raise ValueError("refusing a list with an orphan tool result")
        return super().project(items, budget)


@wrong(
    "projector.newest-item",
    "PAIR-7",
    reason="is kept only in part",
    claims=PAIRS,
    name="keeps-the-last-of-the-newest-calls",
)
class KeepsTheLastOfTheNewestCalls(Reselected):
    """Of the newest unit's parallel Responses calls, keeps only the last, with its output."""

    only = True

    def reselect(self, items: Items, budget: Budget, kept: list[int]) -> list[int]:
        newest = pairs(items).newest()
        # Only under a limit: with none, no budget and the default one agree (projector.budget).
        if budget is None or (budget.max_items is None and budget.max_approx_chars is None):
            return kept
        if not newest or not set(newest) <= set(kept) or newest[0] < budget.pinned_prefix_items:
            return kept
        calls = [c for c in pairs(items).calls if c.position in newest and c.results]
        if len(calls) < 2 or not all(
            member_is(items[c.position], "type", "function_call") for c in calls
        ):
            return kept
        gone = {p for c in calls[:-1] for p in (c.position, *c.results)}
        return [p for p in kept if p not in gone]


@wrong(
    "projector.newest-item",
    "PAIR-7",
    "RPT-6",
    reason="is missing from",
    claims=PAIRS,
)
class DropsTheNewestUnitSilently(PairSafePerturbed):
    """Drops a newest unit that does not fit without the note that says so."""

    only = True

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        notes = [n for n in projection.report.notes if not n.startswith("newest unit dropped")]
        return _with_report(projection, notes=tuple(notes))


@wrong(
    "projector.pinned-prefix",
    "PAIR-6",
    reason="are not represented whole",
    claims=PAIRS,
)
class DropsPinnedReasoning(Reselected):
    """Keeps a pinned call with its result but drops the reasoning item that produced it."""

    only = True

    def reselect(self, items: Items, budget: Budget, kept: list[int]) -> list[int]:
        pinned = 0 if budget is None else budget.pinned_prefix_items
        return [p for p in kept if not (p < pinned and is_reasoning(items[p]))]


@wrong("projector.report", "RPT-6", "PAIR-7", reason="is represented", claims=PAIRS)
class NotesANewestUnitItKept(PairSafePerturbed):
    """Writes the note of a dropped newest unit whenever maxItems applied."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        report = projection.report
        if budget is None or budget.max_items is None or not report.item_limit_applied:
            return projection
        if any(n.startswith("newest unit dropped") for n in report.notes):
            return projection
        note = NEWEST_UNIT_DROPPED_NOTE.format(
            items=len(pairs(items).newest()), max_items=budget.max_items
        )
        return _with_report(projection, notes=(*report.notes, note))


class _Rewired(PairSafePerturbed):
    """The pair-safe reference whose output goes through one more (wrong) step."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        return output

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return attrs.evolve(projection, items=tuple(self.rewire(list(projection.items))))


# Wire validity: each member breaks one provider's rule first, in its own words.


@wrong(
    "projector.wire-valid",
    "WIRE-18",
    "WIRE-4",
    reason="No tool call found for function call output",
    claims=WIRE,
    options=_wire("openai-responses"),
    name="responses-orphans-under-max-items",
)
def _default_for_responses() -> ContextProjector:
    """The default projector claiming wire validity for Responses: its tail orphans outputs."""
    return DefaultContextProjector()


@wrong(
    "projector.wire-valid",
    "WIRE-18",
    "WIRE-10",
    reason="must be followed by tool messages responding to each",
    claims=WIRE,
    options=_wire("openai-chat"),
    name="chat-orphans-under-max-items",
)
def _default_for_chat() -> ContextProjector:
    """The default projector claiming wire validity for Chat: a pin may end inside a step."""
    return DefaultContextProjector()


@wrong(
    "projector.wire-valid",
    "WIRE-18",
    "WIRE-13",
    reason="ids were found without `tool_result` blocks immediately after",
    claims=WIRE,
    options=_wire("anthropic"),
    name="anthropic-orphans-under-max-items",
)
def _default_for_anthropic() -> ContextProjector:
    """The default projector claiming wire validity for Anthropic: a pin may end inside a step."""
    return DefaultContextProjector()


@wrong(
    "projector.wire-valid",
    "WIRE-8",
    reason="must be a response to a preceeding message",
    claims=WIRE,
    options=_wire("openai-chat"),
)
class DropsTheFirstCallOfATurn(_Rewired):
    """Leaves out an assistant message with tool calls right after a user message."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        gone = {
            i
            for i in range(1, len(output))
            if _is_chat_call(output[i]) and member_is(output[i - 1], "role", "user")
        }
        return [o for i, o in enumerate(output) if i not in gone]


@wrong(
    "projector.wire-valid",
    "WIRE-12",
    "WIRE-14",
    reason="unexpected `tool_use_id` found",
    claims=WIRE,
    options=_wire("anthropic"),
)
class DropsTheToolUseAfterAUser(_Rewired):
    """Leaves out a tool_use message after a user message: that carrier joins the user's turn."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        def uses_tools(item: JsonValue) -> bool:
            content = item.get("content") if isinstance(item, dict) else None
            return isinstance(content, list) and any(
                member_is(part, "type", "tool_use") for part in content
            )

        gone = {
            i
            for i in range(1, len(output))
            if uses_tools(output[i]) and member_is(output[i - 1], "role", "user")
        }
        return [o for i, o in enumerate(output) if i not in gone]


@wrong(
    "projector.wire-valid",
    "WIRE-5",
    reason="No tool output found for function call",
    claims=WIRE,
    options=_wire("openai-responses"),
)
class DropsTheLastOutput(_Rewired):
    """Leaves out the last function_call_output of the output."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        last = [i for i, o in enumerate(output) if member_is(o, "type", "function_call_output")]
        return [o for i, o in enumerate(output) if i not in last[-1:]]


@wrong(
    "projector.wire-valid",
    "WIRE-6",
    reason="was provided without its required following item",
    claims=WIRE,
    options=_wire("openai-responses"),
)
class DropsTheCallAfterReasoning(_Rewired):
    """Leaves out the item right after each reasoning item."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        after = {i + 1 for i, o in enumerate(output) if is_reasoning(o)}
        return [o for i, o in enumerate(output) if i not in after]


@wrong(
    "projector.wire-valid",
    "WIRE-7",
    "WIRE-16",
    reason="Duplicate item found with id",
    claims=WIRE,
    options=_wire("openai-responses"),
)
class RepeatsReasoning(_Rewired):
    """Writes each reasoning item twice."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        return [twice for o in output for twice in ([o, o] if is_reasoning(o) else [o])]


@wrong(
    "projector.wire-valid",
    "WIRE-9",
    reason="not found in 'tool_calls' of previous message",
    claims=WIRE,
    options=_wire("openai-chat"),
)
class MergesToolSteps(_Rewired):
    """Leaves out an assistant message with tool calls right after another step's results."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        merged = {
            i
            for i in range(1, len(output))
            if _is_chat_call(output[i]) and member_is(output[i - 1], "role", "tool")
        }
        return [o for i, o in enumerate(output) if i not in merged]


@wrong(
    "projector.wire-valid",
    "WIRE-10",
    reason="must be followed by tool messages responding to each",
    claims=WIRE,
    options=_wire("openai-chat"),
)
class DropsTheNewestToolMessage(_Rewired):
    """Leaves out the last tool message."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        tools = [i for i, o in enumerate(output) if member_is(o, "role", "tool")]
        return [o for i, o in enumerate(output) if i not in tools[-1:]]


@wrong(
    "projector.wire-valid",
    "WIRE-11",
    reason="Duplicate value for 'tool_call_id'",
    claims=WIRE,
    options=_wire("openai-chat"),
)
class RepeatsToolMessages(_Rewired):
    """Writes each tool message twice."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        return [t for o in output for t in ([o, o] if member_is(o, "role", "tool") else [o])]


@wrong(
    "projector.wire-valid",
    "WIRE-13",
    reason="ids were found without `tool_result` blocks immediately after",
    claims=WIRE,
    options=_wire("anthropic"),
)
class DropsTheNewestCarrier(_Rewired):
    """Leaves out the last user message that carries tool results."""

    def rewire(self, output: list[JsonValue]) -> list[JsonValue]:
        carriers = [i for i, o in enumerate(output) if is_carrier(o)]
        return [o for i, o in enumerate(output) if i not in carriers[-1:]]


@wrong(
    "projector.wire-valid",
    "WIRE-15",
    reason="follows a `tool_use` block",
    claims=WIRE,
    options=_wire("anthropic"),
)
class TextAfterToolUse(PairSafePerturbed):
    """Appends a text part after the tool_use parts of each assistant message."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        content = output.get("content") if isinstance(output, dict) else None
        if not (member_is(output, "role", "assistant") and isinstance(content, list)):
            return output
        if not any(member_is(part, "type", "tool_use") for part in content):
            return output
        return {**_object(output), "content": [*content, {"type": "text", "text": "and so"}]}


@wrong(
    "projector.wire-valid",
    "WIRE-2",
    "PRJ-8",
    reason="is not part of the openai-chat format",
    claims=WIRE,
    options=_wire("openai-chat"),
)
class ResponsesPlaceholdersEverywhere(PairSafePerturbed):
    """Tier-1 replaces a Chat tool message by a Responses placeholder (ai4j's only shape)."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and member_is(source, "role", "tool")):
            return output
        return {
            "type": "function_call_output",
            "call_id": _object(source).get("tool_call_id"),
            "output": "[tool result cleared]",
        }


@wrong(
    "projector.wire-valid",
    "WIRE-3",
    reason="must have a 'tool_call_id'",
    claims=WIRE,
    options=_wire("openai-chat"),
    name="tier1-drops-tool-call-id-on-the-wire",
)
@wrong("projector.order-preserving", "PRJ-8", "T1-4", reason="must keep tool_call_id")
class Tier1DropsToolCallId(Perturbed):
    """Tier-1 builds Chat placeholders without tool_call_id."""

    base: ClassVar[ContextProjector] = PairSafeContextProjector()

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and member_is(source, "role", "tool")):
            return output
        return {k: v for k, v in _object(output).items() if k != "tool_call_id"}


@wrong("projector.order-preserving", "T1-9", "PRJ-8", reason="keeps a content array as long")
class Tier1RewritesCarriers(Perturbed):
    """Tier-1 replaces a whole carrier's content by its cleared results, dropping the text."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if not (_replaced(source, output) and is_carrier(source)):
            return output
        parts = cast("list[JsonValue]", _object(output)["content"])
        kept = [p for p in parts if member_is(p, "type", "tool_result")]
        return {**_object(output), "content": kept}


@wrong("projector.exact.placeholders", "T1-2", "T1-4", reason="is not among the newest")
class Tier1ClearsResponsesOnly(Perturbed):
    """ai4j (DIF-24): Tier-1 clears only function_call_output items."""

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if _replaced(source, output) and not member_is(source, "type", "function_call_output"):
            return source if not is_reasoning(source) else output
        return output


@wrong("projector.exact.notes", "T1-7", "T1-9", reason="expected notes")
class Tier1CountsCarriers(Perturbed):
    """Counts a carrier once in the Tier-1 note, however many of its parts it cleared."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        tiers = run_tiers(items, budget)
        notes = [
            re.sub(r"cleared \d+ old", f"cleared {len(tiers.tier1)} old", n)
            for n in projection.report.notes
        ]
        return _with_report(projection, notes=tuple(notes))


# The pair-safe algorithm (§5.5).


@wrong(
    "projector.exact.unit-stages",
    "PRJ-30",
    "PRJ-32",
    reason="§5.5 gives",
    options=PAIR_SAFE,
    name="type-aware-for-pair-safe",
)
def _type_aware_for_pair_safe() -> ContextProjector:
    """The type-aware projector claiming the pair-safe algorithm: it selects items, not units."""
    return TypeAwareContextProjector()


class StagedUnits:
    """A pair-safe projector (§5.5) from the suite's own pieces, whose stages a member swaps."""

    def pairing(self, items: Items) -> Pairs:
        return pairs(items)

    def unit_item(self, pairing: Pairs, limit: int, pinned: int) -> UnitStage:
        return unit_item_stage(pairing, limit, pinned)

    def unit_char(
        self, received: Sequence[tuple[int, ...]], sizes: Sequence[int], limit: int, pinned: int
    ) -> UnitStage:
        return unit_char_stage(received, sizes, limit, pinned)

    def project(self, items: Items, budget: Budget) -> ContextProjection:
        tiers = run_tiers(items, budget)
        working, notes = tiers.working, list(tiers.notes)
        pairing = self.pairing(items)
        units: Sequence[tuple[int, ...]] = pairing.units
        flags = {"item": False, "char": False}
        if budget is not None and budget.max_items is not None:
            stage = self.unit_item(pairing, budget.max_items, budget.pinned_prefix_items)
            units, flags["item"] = stage.units, stage.applied
            if stage.applied:
                notes.append(f"maxItems applied: {budget.max_items}")
            if stage.newest_dropped:
                notes.append(
                    NEWEST_UNIT_DROPPED_NOTE.format(
                        items=len(pairing.newest()), max_items=budget.max_items
                    )
                )
        if budget is not None and budget.max_approx_chars is not None:
            sizes = [approx_chars(item) for item in working]
            stage = self.unit_char(
                units, sizes, budget.max_approx_chars, budget.pinned_prefix_items
            )
            units, flags["char"] = stage.units, stage.applied
            if stage.applied:
                notes.append(f"maxApproxChars applied: {budget.max_approx_chars}")
        kept = sorted(p for unit in units for p in unit)
        return projection_of(items, kept, [working[p] for p in kept], notes=notes, **flags)


@wrong("projector.exact.unit-stages", "PRJ-31", "PAIR-3", reason="§5.5 gives", options=PAIR_SAFE)
class UnitsWithoutReasoning(StagedUnits):
    """Builds units without joining reasoning to the output after it (PAIR-3 (c))."""

    def pairing(self, items: Items) -> Pairs:
        return pairs([{**_object(i), "type": "note"} if is_reasoning(i) else i for i in items])


@wrong("projector.exact.unit-stages", "PRJ-32", reason="§5.5 gives", options=PAIR_SAFE)
class PinnedUnitsNewestFirst(StagedUnits):
    """Takes the pinned units newest first in the item stage's prefix pass."""

    def unit_item(self, pairing: Pairs, limit: int, pinned: int) -> UnitStage:
        stage = unit_item_stage(pairing, limit, pinned)
        if not stage.applied or limit == 0:
            return stage
        left, taken = limit, []
        prefix = sorted(pinned_units(pairing, pinned), key=lambda unit: unit[-1], reverse=True)
        others = sorted(
            (unit for unit in pairing.units if unit[0] >= pinned),
            key=lambda unit: unit[-1],
            reverse=True,
        )
        for unit in (*prefix, *others):
            if len(unit) <= left:
                taken.append(unit)
                left -= len(unit)
        return attrs.evolve(stage, units=tuple(sorted(taken)))


@wrong("projector.exact.unit-stages", "PRJ-33", reason="§5.5 gives", options=PAIR_SAFE)
class UnitTailStopsAtAMisfit(StagedUnits):
    """Stops the character stage's tail pass at the first unit that does not fit."""

    def unit_char(
        self, received: Sequence[tuple[int, ...]], sizes: Sequence[int], limit: int, pinned: int
    ) -> UnitStage:
        stage = unit_char_stage(received, sizes, limit, pinned)
        if not stage.applied:
            return stage
        tail = sorted((u for u in received if u[0] >= pinned), key=lambda u: u[-1], reverse=True)
        stop = next((u for u in tail if u not in stage.units), None)
        gone = set() if stop is None else {u for u in tail if u[-1] < stop[-1]}
        return attrs.evolve(stage, units=tuple(u for u in stage.units if u not in gone))


@wrong(
    "projector.exact.pair-safe-singletons",
    "PRJ-35",
    reason="on a list of single-position units",
    options=PAIR_SAFE,
)
class FirstPinnedUnitOnlyIfItFits(StagedUnits):
    """Takes the first pinned unit in the character stage only when it fits (PRJ-20 says always)."""

    def unit_char(
        self, received: Sequence[tuple[int, ...]], sizes: Sequence[int], limit: int, pinned: int
    ) -> UnitStage:
        stage = unit_char_stage(received, sizes, limit, pinned)
        first = next((u for u in received if u[0] < pinned), None)
        if not stage.applied or first is None or sum(sizes[p] for p in first) <= limit:
            return stage
        return attrs.evolve(stage, units=tuple(u for u in stage.units if u != first))


@wrong("projector.exact.unit-stages", "PRJ-34", reason="§5.5 gives", options=PAIR_SAFE)
class PairSafeWithoutIndices(PairSafePerturbed):
    """Leaves droppedIndices out of the pair-safe report."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        return _with_report(projection, dropped_indices=None)


@wrong(
    "projector.exact.pair-safe-vectors",
    "PRJ-32",
    "PAIR-7",
    reason="vector project-pair-safe.",
    options=PAIR_SAFE,
)
class NewestUnitNoteWithoutCount(PairSafePerturbed):
    """Writes the newest unit's note without the number of its items."""

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        notes = [re.sub(r"dropped: \d+ item", "dropped: item", n) for n in projection.report.notes]
        return _with_report(projection, notes=tuple(notes))


# -- edge values of the generic report and placeholders ------------------------------------


@wrong(
    "projector.report",
    "PRJ-12",
    reason="a limit flag is true but no item was dropped",
    claims=frozenset({Claim.GENERIC}),
)
class ItemFlagAtTheLimit(Perturbed):
    """Sets itemLimitApplied when the list holds maxItems items or more: one too early."""

    only = True

    def after(
        self, items: Items, budget: Budget, projection: ContextProjection
    ) -> ContextProjection:
        limit = None if budget is None else budget.max_items
        flag = limit is not None and len(items) >= limit
        return _with_report(
            projection, item_limit_applied=flag or projection.report.item_limit_applied
        )


@wrong(
    "projector.order-preserving",
    "PRJ-8",
    reason="the replacement has call_id but the source has no string call_id",
    claims=frozenset({Claim.GENERIC}),
)
class PlaceholderKeepsAnyCallId(Perturbed):
    """Copies a tool result's call_id onto its placeholder whatever its type (7 stays 7)."""

    only = True

    def each(self, source: JsonValue, output: JsonValue) -> JsonValue:
        if _replaced(source, output) and isinstance(source, dict) and isinstance(output, dict):
            call_id = source.get("call_id")
            if "call_id" in source and not isinstance(call_id, str):
                return {**output, "call_id": call_id}
        return output


# -- state across calls ------------------------------------------------------------------


@wrong(
    "projector.stateless",
    "PRJ-4",
    reason="differs from a fresh projector's projection",
    claims=frozenset({Claim.GENERIC}),
)
class RemembersTheLastCall:
    """Returns its last projection again when handed the same list and budget objects."""

    only = True

    def __init__(self) -> None:
        self._base = TypeAwareContextProjector()
        self._last: tuple[Items, Budget, ContextProjection] | None = None

    def project(self, items: Items, budget: Budget) -> ContextProjection:
        if self._last is not None and self._last[0] is items and self._last[1] is budget:
            return self._last[2]
        projection = self._base.project(items, budget)
        self._last = (items, budget, projection)
        return projection


#: Clauses cited by projector checks that no wrong projector can break, and why.
# -- found by mutation testing (docs/mutation.md) --------------------------------------------


@wrong(
    "projector.exact.boundaries", "PRJ-20", reason="compared with the reference", options=NO_TIERS
)
class PinnedFitWithRoomToSpare(Staged):
    """Takes a later pinned item only when it fits with a character to spare."""

    def char_stage(self, sizes: Sequence[int], limit: int, pinned: int) -> list[int]:
        if sum(sizes) <= limit or limit == 0:
            return char_stage(sizes, limit, pinned)
        count = len(sizes)
        prefix_count = min(pinned, count)
        used = 0
        prefix: list[int] = []
        for index in range(prefix_count):
            if not prefix or used + sizes[index] < limit:
                prefix.append(index)
                used += sizes[index]
        tail: list[int] = []
        for index in range(count - 1, prefix_count - 1, -1):
            if not tail or used + sizes[index] <= limit:
                tail.append(index)
                used += sizes[index]
        return prefix + sorted(tail)


EXEMPT: dict[str, str] = {
    "PRJ-2": "a projector is handed no memory; what it is handed is covered by PRJ-3",
    "PRJ-5": "a permission to share items (and a MUST on callers), not a duty of projectors",
    "RPT-9": "ContextReport is a frozen record of ctxpact.spec; a projector cannot thaw it",
    "BUD-1": "the budget's fields are those of ctxpact.spec.ContextBudget, not the projector's",
    "BUD-2": "reading a budget document is ctxpact.spec's converter, not the projector",
    "BUD-3": "ContextBudget's validators reject mistyped fields before a projector sees them",
    "BUD-4": "ContextBudget's validators reject negative fields before a projector sees them",
    "BUD-7": "a projector is handed no memory; the budget it reads is covered by BUD-6",
    "JSON-12": "the document's member names are written by ctxpact.spec.to_json",
    "JSON-13": "the schema files belong to ctxpact.spec",
    "JSON-15": "absent or null extensions are written by ctxpact.spec.to_json",
}


def _projector_clauses() -> set[str]:
    return {clause for check in checks.CHECKS for clause in check.clauses}


def _broken() -> set[str]:
    return {clause for member in ZOO for clause in member.breaks}


def test_every_cited_clause_is_broken_by_some_member_or_exempt() -> None:
    missing = _projector_clauses() - _broken() - EXEMPT.keys()
    assert not missing, f"no wrong projector breaks {sorted(missing)}"


def test_exemptions_are_current() -> None:
    assert not EXEMPT.keys() & _broken(), "an exempt clause is broken by a member after all"
    assert EXEMPT.keys() <= _projector_clauses(), "an exemption names a clause no check cites"


def test_every_member_names_a_projector_check_and_a_unique_name() -> None:
    assert {member.check for member in ZOO} <= {check.id for check in checks.CHECKS}
    names = [member.name for member in ZOO]
    assert len(names) == len(set(names))


def test_every_projector_check_has_a_member() -> None:
    caught = {member.check for member in ZOO}
    unguarded = {check.id for check in checks.CHECKS} - caught
    assert not unguarded, f"no wrong projector fails {sorted(unguarded)}"


#: The members that only their intended check may catch: one for each check of pair
#: integrity, as the target claims it (generic and pair integrity), so that each of those
#: checks is shown to find what the others miss.
ONLY = [member for member in ZOO if getattr(member.factory, "only", False)]


def test_every_check_of_pair_integrity_has_a_member_only_it_catches() -> None:
    pair_checks = {"projector.pair-integrity", "projector.pinned-prefix", "projector.newest-item"}
    assert pair_checks <= {member.check for member in ONLY}


@pytest.mark.parametrize("member", ONLY, ids=lambda member: member.name)
def test_no_other_claimed_check_catches_the_member(member: Wrong) -> None:
    failed = [
        found.id
        for found in checks.CHECKS
        if found.id != member.check
        and found.claim in member.claims
        and run_check(
            found,
            factory=member.factory,
            claims=member.claims,
            settings=QUICK,
            options=member.options,
        ).outcome
        is not Outcome.PASS
    ]
    assert not failed, failed


@pytest.mark.parametrize("member", ZOO, ids=lambda member: member.name)
def test_the_intended_check_fails_for_the_stated_reason(member: Wrong) -> None:
    found = {check.id: check for check in checks.CHECKS}[member.check]
    result = run_check(
        found,
        factory=member.factory,
        claims=member.claims,
        settings=QUICK,
        options=member.options,
    )
    assert result.outcome is Outcome.FAIL, result.message
    assert member.reason in result.message, result.message
    assert result.counterexample is not None
