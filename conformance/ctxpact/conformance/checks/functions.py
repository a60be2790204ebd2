"""Checks for ports of the spec's functions: sizes, the turn-boundary cut, files, rendering.

The subject is one object with a method per function (``approx_chars(item)``,
``turn_boundary_cut(items, naive_cut)``, ``extract_file_operations(items, reads)``,
``render_summary(summary)``), as :class:`~ctxpact.reference.SpecFunctions` is; a harness
serves it as a ``functions`` target (HRN-23). The generic check holds for any implementation:
each function answers a value of its kind and changes nothing it is given. The other checks
are ``exact``: the reference function is the oracle. Each runs the function's language-neutral
vectors as explicit examples, then generated inputs; a subject without the method (a harness
that answers ``skipped``) skips the check, so a port claims exactly the functions it has.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeGuard

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck, describe
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import file_tool_items, text_difference
from ctxpact.conformance.strategies import (
    adversarial_transcripts,
    json_values,
    structured_summaries,
    transcripts,
)
from ctxpact.conformance.vectors import vectors_for
from ctxpact.reference.compaction import (
    extract_file_operations,
    find_turn_boundary_cut,
    render_structured_summary,
)
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import JsonValue, StructuredSummary, from_json

_FUNCTIONS = Component.FUNCTIONS


def _method(context: CheckContext, name: str) -> Callable[..., Any]:
    subject = context.subject()
    method = getattr(subject, name, None)
    if not callable(method):
        raise SkipCheck(f"{type(subject).__name__} has no {name}")
    return method  # type: ignore[no-any-return] # the subject's own method


def _with_vectors(
    test: Callable[..., None], operation: str, arguments: Callable[[Any], dict[str, Any]]
) -> Callable[..., None]:
    # The vectors are the first, explicit examples; the reference agrees with every one of
    # them (tests/conformance/test_vectors.py), so it is the oracle for both.
    for vector in reversed(vectors_for(operation)):
        test = example(**arguments(vector.input))(test)
    return test


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _unchanged(context: CheckContext, name: str, given: object, before: object) -> None:
    context.expect(
        given == before,
        f"{name} changed the arguments it was given",
        clause="JSON-16",
        returned=given,
        expected=before,
    )


def _call_if_there(context: CheckContext, name: str, *args: object) -> tuple[bool, object]:
    # A function the subject lacks, or its harness answers skipped for, is not checked here.
    try:
        return True, _method(context, name)(*args)
    except SkipCheck:
        return False, None


@check(
    "functions.answers",
    component=_FUNCTIONS,
    claim=Claim.GENERIC,
    clauses=("JSON-16", "SIZE-1", "CUT-1", "FIL-1", "PRS-13"),
)
def answers(context: CheckContext) -> Callable[[], None]:
    """Each function answers a value of its kind and changes nothing it is given."""

    @given(items=adversarial_transcripts(), naive_cut=st.integers(-2, 12), reads=st.booleans())
    @example(
        items=["u", {"type": "message", "role": "user", "content": "x"}], naive_cut=1, reads=False
    )
    def test(items: list[JsonValue], naive_cut: int, reads: bool) -> None:
        context.record(items=items, naive_cut=naive_cut, reads=reads)
        before = copy.deepcopy(items)
        summary = StructuredSummary(goal="g", read_files=("a.py",), parsed=True, text="{}")
        answered = []
        for item in (*items[:2], "x"):
            there, size = _call_if_there(context, "approx_chars", item)
            if there:
                answered.append("approx_chars")
                context.expect(
                    _is_count(size) and size >= 0,
                    f"approx_chars answered {size!r}, not a count",
                    clause="SIZE-1",
                )
        cases: list[tuple[str, tuple[object, ...], Callable[[Any], bool], str, str]] = [
            (
                "turn_boundary_cut",
                (items, naive_cut),
                lambda cut: _is_count(cut) and 0 <= cut <= len(items),
                f"a cut between 0 and {len(items)}",
                "CUT-1",
            ),
            (
                "extract_file_operations",
                (items, reads),
                lambda files: (
                    isinstance(files, list)
                    and all(isinstance(path, str) for path in files)
                    and len(set(files)) == len(files)
                ),
                "a list of distinct paths",
                "FIL-1",
            ),
            (
                "render_summary",
                (summary,),
                lambda text: isinstance(text, str),
                "a string",
                "PRS-13",
            ),
        ]
        for name, args, fits, kind, clause in cases:
            there, found = _call_if_there(context, name, *args)
            if there:
                answered.append(name)
                context.expect(
                    bool(fits(found)),
                    f"{name} answered {describe(found)}, not {kind}",
                    clause=clause,
                )
        _unchanged(context, "a function", items, before)
        if not answered:
            raise SkipCheck("the subject has none of the spec's functions")

    return test


@check(
    "functions.approx-chars",
    component=_FUNCTIONS,
    claim=Claim.EXACT,
    clauses=("SIZE-1", "SIZE-2", "SIZE-3", "SIZE-4", "SIZE-5", "SIZE-6"),
)
def approx_chars_check(context: CheckContext) -> Callable[[], None]:
    """approx_chars measures every item as the spec does: code points of the compact JSON."""

    @given(
        item=json_values
        | transcripts(max_turns=2, max_steps=2).filter(bool).flatmap(st.sampled_from)
    )
    @example(item={"z": 1, "a": [1.0, -0.0, 2**60]})
    def test(item: JsonValue) -> None:
        context.record(item=item)
        expected = approx_chars(item)
        found = _method(context, "approx_chars")(copy.deepcopy(item))
        context.expect(
            _is_count(found) and found == expected,
            f"approx_chars({describe(item)}) is {found!r}, the spec gives {expected}",
            returned=found,
            expected=expected,
        )

    return _with_vectors(test, "approx_chars", lambda given: {"item": given["item"]})


@st.composite
def _cut_cases(draw: st.DrawFn) -> tuple[list[JsonValue], int]:
    items = draw(transcripts(max_turns=4, max_steps=2) | adversarial_transcripts())
    return items, draw(st.integers(-2, len(items) + 2))


@check(
    "functions.turn-boundary-cut",
    component=_FUNCTIONS,
    claim=Claim.EXACT,
    clauses=("CUT-1", "CUT-2", "CUT-3", "CUT-4", "CUT-5", "CUT-6"),
)
def turn_boundary_cut(context: CheckContext) -> Callable[[], None]:
    """The cut moves back to a turn boundary that separates no unit, as the spec's does."""

    @given(case=_cut_cases())
    @example(case=(["u", {"type": "function_call", "call_id": "c", "name": "ls"}], 1))
    def test(case: tuple[list[JsonValue], int]) -> None:
        items, naive_cut = case
        context.record(items=items, naive_cut=naive_cut)
        expected = find_turn_boundary_cut(items, naive_cut)
        found = _method(context, "turn_boundary_cut")(copy.deepcopy(items), naive_cut)
        context.expect(
            _is_count(found) and found == expected,
            f"the cut of {len(items)} items at naive cut {naive_cut} is {found!r}, the spec "
            f"gives {expected}",
            returned=found,
            expected=expected,
        )

    return _with_vectors(
        test, "turn_boundary_cut", lambda given: {"case": (given["items"], given["naiveCut"])}
    )


@check(
    "functions.file-operations",
    component=_FUNCTIONS,
    claim=Claim.EXACT,
    clauses=("FIL-1", "FIL-2", "FIL-3", "FIL-4", "FIL-5", "FIL-6", "FIL-7"),
)
def file_operations(context: CheckContext) -> Callable[[], None]:
    """extract_file_operations lists the files read, or modified, as the spec's does."""

    @given(items=file_tool_items() | adversarial_transcripts(), reads=st.booleans())
    @example(items=[], reads=True)
    def test(items: list[JsonValue], reads: bool) -> None:
        context.record(items=items, reads=reads)
        expected = extract_file_operations(items, reads=reads)
        found = _method(context, "extract_file_operations")(copy.deepcopy(items), reads)
        context.expect(
            isinstance(found, list) and found == expected,
            f"the files {'read' if reads else 'modified'} are {describe(found)}, the spec "
            f"gives {describe(expected)}",
            returned=found,
            expected=expected,
        )

    return _with_vectors(
        test,
        "extract_file_operations",
        lambda given: {"items": given["items"], "reads": given["reads"]},
    )


@check(
    "functions.render-summary",
    component=_FUNCTIONS,
    claim=Claim.EXACT,
    clauses=("PRS-13", "PRS-14"),
)
def render_summary(context: CheckContext) -> Callable[[], None]:
    """A structured summary renders to the spec's Markdown text, character for character."""

    @given(summary=structured_summaries)
    @example(summary=StructuredSummary(goal=" ", completed=("done",), parsed=True, text="{}"))
    def test(summary: StructuredSummary) -> None:
        context.record(summary=summary)
        expected = render_structured_summary(summary)
        found = _method(context, "render_summary")(summary)
        context.expect(
            isinstance(found, str) and found == expected,
            "the rendered summary is wrong: "
            + (text_difference(expected, found) if isinstance(found, str) else describe(found)),
            returned=found,
            expected=expected,
        )

    return _with_vectors(
        test, "render_summary", lambda given: {"summary": from_json(StructuredSummary, given)}
    )


#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    answers,
    approx_chars_check,
    turn_boundary_cut,
    file_operations,
    render_summary,
)
