"""The parser checks catch deliberately wrong summary parsers, each for the reason it is wrong.

Each wrong parser wraps the reference ``parse_structured_summary`` and changes one thing; it
names the clause it breaks, the check that must catch it, and a phrase of the failure message.
"""

from __future__ import annotations

import ast
import contextlib
import json
import math
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from attrs import evolve, frozen

from ctxpact.conformance import (
    Claim,
    Component,
    Outcome,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance.checks import parser
from ctxpact.conformance.vectors import vectors_for
from ctxpact.reference.compaction import parse_structured_summary, render_structured_summary
from ctxpact.spec import StructuredSummary, compact_json, from_json, to_json

QUICK = profile_settings("quick")


def finding(message: str) -> str:
    """A failure message without Hypothesis's notes, which quote the example."""
    lines = message.split("\n")
    notes = [i for i, line in enumerate(lines) if line.startswith(("Fals", "Failing"))]
    return "\n".join(lines[: notes[0]] if notes else lines)


CLAIMS = frozenset({Claim.GENERIC, Claim.EXACT})
CHECKS = {check.id: check for check in parser.CHECKS}
_TRIM = "".join(chr(code) for code in range(0x21))
Parser = Callable[[str], Any]


def parse(text: str) -> StructuredSummary:
    return parse_structured_summary(text)


def raises_on_prose(text: str) -> StructuredSummary:
    if "{" not in text:
        raise ValueError("no JSON object in the answer")
    return parse(text)


def recursion_unguarded(text: str) -> StructuredSummary:
    with contextlib.suppress(ValueError):
        json.loads(text)
    return parse(text)


def utf8_only(text: str) -> StructuredSummary:
    return parse(text.encode("utf-8").decode("utf-8"))


def returns_a_document(text: str) -> object:
    return to_json(parse(text))


def unicode_strip(text: str) -> StructuredSummary:
    return parse(text.strip())


def parsed_without_object(text: str) -> StructuredSummary:
    return evolve(parse(text), parsed=True)


def whole_text_only(text: str) -> StructuredSummary:
    trimmed = text.strip(_TRIM)
    if trimmed.startswith("{") and trimmed.endswith("}"):
        return parse(text)
    return StructuredSummary(parsed=False, text=trimmed)


def _maximal_spans(text: str) -> list[tuple[int, int]]:
    """The maximal balanced ``{…}`` spans of PRS-4, by a plain scan."""
    openers: list[int] = []
    closed: list[tuple[int, int, int]] = []
    in_string = False
    index = max(text.find("{"), 0)
    while index < len(text):
        char = text[index]
        if in_string:
            if char == "\\":
                index += 1
            elif char == '"':
                in_string = False
        elif char == "{":
            openers.append(index)
        elif openers and char == "}":
            start = openers.pop()
            closed.append((start, index, openers[-1] if openers else -1))
        elif openers and char == '"':
            in_string = True
        index += 1
    unclosed = set(openers)
    return [(start, end) for start, end, parent in closed if parent == -1 or parent in unclosed]


def _lenient(span: str) -> str | None:
    """Python's own json.loads, which takes NaN and Infinity: the span as JSON without them."""
    try:
        value = json.loads(span)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    cleaned = {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in value.items()}
    return json.dumps(cleaned)


def _span_parser(
    load: Callable[[str], str | None], *, reverse: bool = False, spans: bool = True
) -> Callable[[str], StructuredSummary]:
    def parse_spans(text: str) -> StructuredSummary:
        trimmed = text.strip(_TRIM)
        first, last = trimmed.find("{"), trimmed.rfind("}")
        candidates = [(first, last)] if 0 <= first < last else []
        if spans:
            found = _maximal_spans(trimmed)
            candidates += list(reversed(found)) if reverse else found
        for start, end in candidates:
            loaded = load(trimmed[start : end + 1])
            if loaded is not None:
                return parse(loaded)
        return StructuredSummary(parsed=False, text=trimmed)

    return parse_spans


def _strict_span(span: str) -> str | None:
    return span if _is_object(span) else None


def _is_object(span: str) -> bool:
    try:
        value = json.loads(span, parse_constant=_reject)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict)


def _reject(name: str) -> object:
    raise ValueError(name)


#: ai4j: only the span from the first ``{`` to the last ``}`` is tried (DIF-10).
first_to_last_only = _span_parser(_strict_span, spans=False)
#: The maximal spans are tried from the last to the first.
last_object_first = _span_parser(_strict_span, reverse=True)
#: Python's json.loads: NaN and Infinity pass for numbers.
accepts_nan = _span_parser(_lenient)


def _reread(text: str, entries: Callable[[object], tuple[str, ...]]) -> StructuredSummary:
    result = parse(text)
    if not result.parsed:
        return result
    document = json.loads(result.text)
    return evolve(
        result,
        completed=entries(document.get("completed")),
        pending=entries(document.get("pending")),
        decisions=entries(document.get("decisions")),
        errors=entries(document.get("errors")),
        test_results=entries(document.get("testResults")),
        open_questions=entries(document.get("openQuestions")),
    )


def lists_only(text: str) -> StructuredSummary:
    def entries(value: object) -> tuple[str, ...]:
        if not isinstance(value, list):
            return ()
        return tuple(e.strip(_TRIM) for e in value if isinstance(e, str) and e.strip(_TRIM))

    return _reread(text, entries)


def keeps_blank_entries(text: str) -> StructuredSummary:
    def entries(value: object) -> tuple[str, ...]:
        members = value if isinstance(value, list) else [value]
        return tuple(str(m).strip(_TRIM) for m in members if m is not None)

    return _reread(text, entries)


def python_text_forms(text: str) -> StructuredSummary:
    def entries(value: object) -> tuple[str, ...]:
        members = value if isinstance(value, list) else [value]
        forms = (str(m).strip(_TRIM) for m in members if m is not None)
        return tuple(form for form in forms if form)

    return _reread(text, entries)


def case_insensitive_keys(text: str) -> StructuredSummary:
    result = parse(text)
    if not result.parsed:
        return result
    lowered = {key.lower(): value for key, value in json.loads(result.text).items()}
    pending = lowered.get("pending")
    if isinstance(pending, list):
        return evolve(result, pending=tuple(str(p) for p in pending if p))
    return result


def files_from_the_model(text: str) -> StructuredSummary:
    result = parse(text)
    if not result.parsed:
        return result
    document = json.loads(result.text)
    read = document.get("readFiles")
    return evolve(result, read_files=tuple(read) if isinstance(read, list) else ())


def accepts_single_quotes(text: str) -> StructuredSummary:
    result = parse(text)
    if result.parsed or "'" not in text:
        return result
    try:
        value = ast.literal_eval(text.strip(_TRIM))
    except (ValueError, SyntaxError):
        return result
    return parse(json.dumps(value)) if isinstance(value, dict) else result


def no_depth_limit(text: str) -> StructuredSummary:
    result = parse(text)
    if result.parsed:
        return result
    try:
        value = json.loads(text, parse_constant=_reject)
    except (ValueError, RecursionError):
        return result
    return StructuredSummary(text=compact_json(value)) if isinstance(value, dict) else result


def first_repeat_wins(text: str) -> StructuredSummary:
    result = parse(text)
    if not result.parsed:
        return result
    start = text.find("{")
    try:
        pairs = json.loads(
            text[start : text.rfind("}") + 1],
            object_pairs_hook=lambda items: dict(reversed(items)),
        )
    except ValueError:
        return result
    goal = pairs.get("goal")
    return evolve(result, goal=goal.strip(_TRIM) or None if isinstance(goal, str) else result.goal)


def floats_reformatted(text: str) -> StructuredSummary:
    result = parse(text)
    if not result.parsed:
        return result
    goal = result.goal
    try:
        number = float(goal) if goal is not None else None
    except ValueError:
        number = None
    return evolve(result, goal=repr(number)) if number is not None else result


def goal_untrimmed(text: str) -> StructuredSummary:
    result = parse(text)
    if not result.parsed:
        return result
    goal = json.loads(result.text).get("goal")
    return evolve(result, goal=goal) if isinstance(goal, str) and goal.strip(_TRIM) else result


def forged_null_list(text: str) -> StructuredSummary:
    result = parse(text)
    object.__setattr__(result, "completed", None)  # past the record's own validators
    return result


def ascii_text(text: str) -> StructuredSummary:
    result = parse(text)
    if not result.parsed:
        return result
    return evolve(result, text=json.dumps(json.loads(result.text), separators=(",", ":")))


def text_with_spaces(text: str) -> StructuredSummary:
    result = parse(text)
    if not result.parsed:
        return result
    return evolve(result, text=json.dumps(json.loads(result.text)))


def counts_closers_at_every_opener(text: str) -> StructuredSummary:
    """Asks, at every ``{``, whether a ``}`` follows by counting them all: quadratic (PRS-1)."""
    trimmed = text.strip(_TRIM)
    start = trimmed.find("{")
    while start != -1 and trimmed.count("}", start) > 0:
        start = trimmed.find("{", start + 1)
    return parse(text)


@frozen(kw_only=True)
class Wrong:
    """A wrong parser, the clause it breaks, the check that must say so and a phrase it says."""

    name: str
    breaks: str
    check_id: str
    reason: str
    parser: Parser = attrs.field(eq=False, repr=False)


ZOO = (
    Wrong(
        name="raises-on-prose",
        breaks="PRS-1",
        check_id="parser.never-raises",
        reason="the parser raised ValueError",
        parser=raises_on_prose,
    ),
    Wrong(
        name="recursion-unguarded",
        breaks="PRS-1",
        check_id="parser.never-raises",
        reason="the parser raised RecursionError",
        parser=recursion_unguarded,
    ),
    Wrong(
        name="utf8-only",
        breaks="PRS-1",
        check_id="parser.never-raises",
        reason="the parser raised UnicodeEncodeError",
        parser=utf8_only,
    ),
    Wrong(
        name="returns-a-document",
        breaks="PRS-1",
        check_id="parser.never-raises",
        reason="not a StructuredSummary",
        parser=returns_a_document,
    ),
    Wrong(
        name="unicode-strip",
        breaks="PRS-2",
        check_id="parser.raw-fallback",
        reason="PRS-2: trim removes U+0000 to U+0020 only",
        parser=unicode_strip,
    ),
    Wrong(
        name="parsed-without-object",
        breaks="PRS-5",
        check_id="parser.raw-fallback",
        reason="parsed is true",
        parser=parsed_without_object,
    ),
    Wrong(
        name="whole-text-only",
        breaks="PRS-3",
        check_id="parser.fences-and-prose",
        reason="wrapped as fence",
        parser=whole_text_only,
    ),
    Wrong(
        name="first-to-last-only",
        breaks="PRS-4",
        check_id="parser.fences-and-prose",
        reason="wrapped as braces-before",
        parser=first_to_last_only,
    ),
    Wrong(
        name="last-object-first",
        breaks="PRS-4",
        check_id="parser.differential",
        reason='$.goal is "second"',
        parser=last_object_first,
    ),
    Wrong(
        name="lists-only",
        breaks="PRS-9",
        check_id="parser.string-where-list",
        reason="a string where a list is asked gives one trimmed entry",
        parser=lists_only,
    ),
    Wrong(
        name="keeps-blank-entries",
        breaks="PRS-9",
        check_id="parser.string-where-list",
        reason="null entries and blank entries are skipped",
        parser=keeps_blank_entries,
    ),
    Wrong(
        name="case-insensitive-keys",
        breaks="PRS-7",
        check_id="parser.ignores-other-members",
        reason="keys are read exactly as written",
        parser=case_insensitive_keys,
    ),
    Wrong(
        name="files-from-the-model",
        breaks="PRS-12",
        check_id="parser.ignores-other-members",
        reason="took file lists from the model's answer",
        parser=files_from_the_model,
    ),
    Wrong(
        name="accepts-single-quotes",
        breaks="JSON-7",
        check_id="parser.strict-json",
        reason="which is not strict JSON",
        parser=accepts_single_quotes,
    ),
    Wrong(
        name="accepts-nan",
        breaks="JSON-7",
        check_id="parser.strict-json",
        reason="which is not strict JSON",
        parser=accepts_nan,
    ),
    Wrong(
        name="no-depth-limit",
        breaks="JSON-7",
        check_id="parser.strict-json",
        reason="nested 257 deep was parsed",
        parser=no_depth_limit,
    ),
    Wrong(
        name="first-repeat-wins",
        breaks="JSON-4",
        check_id="parser.strict-json",
        reason="the first position, the last value",
        parser=first_repeat_wins,
    ),
    Wrong(
        name="floats-reformatted",
        breaks="PRS-6",
        check_id="parser.differential",
        reason='$.goal is "1.5"',
        parser=floats_reformatted,
    ),
    Wrong(
        name="python-text-forms",
        breaks="PRS-8",
        check_id="parser.differential",
        reason="$.pending",
        parser=python_text_forms,
    ),
    Wrong(
        name="goal-untrimmed",
        breaks="PRS-10",
        check_id="parser.differential",
        reason='$.goal is "  G  "',
        parser=goal_untrimmed,
    ),
    Wrong(
        name="text-with-spaces",
        breaks="PRS-11",
        check_id="parser.differential",
        reason="$.text",
        parser=text_with_spaces,
    ),
    Wrong(
        name="ascii-text",
        breaks="JSON-6",
        check_id="parser.differential",
        reason="$.text",
        parser=ascii_text,
    ),
    Wrong(
        name="forged-null-list",
        breaks="JSON-14",
        check_id="parser.never-raises",
        reason="does not validate against its schema (JSON-14)",
        parser=forged_null_list,
    ),
    Wrong(
        name="vectors-first-to-last-only",
        breaks="PRS-4",
        check_id="parser.vectors",
        reason="parse-summary.prose-braces-before",
        parser=first_to_last_only,
    ),
    Wrong(
        name="vectors-accepts-nan",
        breaks="JSON-7",
        check_id="parser.vectors",
        reason="parse-summary.nan-is-not-json",
        parser=accepts_nan,
    ),
    Wrong(
        name="counts-closers-at-every-opener",
        breaks="PRS-1",
        check_id="parser.linear-time",
        reason="(PRS-1: the running time is linear in the input",
        parser=counts_closers_at_every_opener,
    ),
)
#: Members of checks added for the suite's power (issue 12) that no other check may catch.
ONLY_ITS_CHECK = frozenset({"counts-closers-at-every-opener"})

#: Clauses the parser checks cite that no wrong parser can break, with the reason.
NO_ZOO_MEMBER: dict[str, str] = {}


@pytest.mark.parametrize("wrong", ZOO, ids=lambda wrong: wrong.name)
def test_the_intended_check_fails_the_wrong_parser_for_its_reason(wrong: Wrong) -> None:
    result = run_check(
        CHECKS[wrong.check_id],
        factory=lambda: wrong.parser,
        claims=CLAIMS,
        settings=QUICK,
    )
    assert result.outcome is Outcome.FAIL, (result.outcome, result.message)
    assert wrong.reason in finding(result.message), result.message


@pytest.mark.parametrize(
    "wrong", [w for w in ZOO if w.name in ONLY_ITS_CHECK], ids=lambda wrong: wrong.name
)
def test_no_other_check_catches_the_member(wrong: Wrong) -> None:
    failed = [
        check.id
        for check in parser.CHECKS
        if check.id != wrong.check_id
        and run_check(check, factory=lambda: wrong.parser, claims=CLAIMS, settings=QUICK).outcome
        is not Outcome.PASS
    ]
    assert not failed, failed


def test_every_zoo_member_names_a_clause_its_check_cites() -> None:
    for wrong in ZOO:
        assert wrong.breaks in CHECKS[wrong.check_id].clauses, wrong.name


def test_every_breakable_clause_has_a_zoo_member() -> None:
    cited = {clause for check in parser.CHECKS for clause in check.clauses}
    broken = {wrong.breaks for wrong in ZOO}
    assert cited - broken - NO_ZOO_MEMBER.keys() == set()
    assert NO_ZOO_MEMBER.keys() <= cited


@pytest.mark.parametrize(
    "target",
    [t for t in reference_targets() if t.component is Component.SUMMARY_PARSER],
    ids=lambda target: target.name,
)
def test_every_parser_check_passes_on_the_reference(target: Any) -> None:
    for check in parser.CHECKS:
        result = run_check(
            check,
            factory=target.factory,
            claims=target.claims,
            settings=QUICK,
            options=target.options,
        )
        assert result.outcome is Outcome.PASS, (check.id, result.message, result.counterexample)


def test_a_generic_parser_skips_the_exact_checks() -> None:
    exact = [check for check in parser.CHECKS if check.claim is Claim.EXACT]
    assert exact
    for check in exact:
        result = run_check(
            check, factory=lambda: parse, claims=frozenset({Claim.GENERIC}), settings=QUICK
        )
        assert result.outcome is Outcome.SKIP


@pytest.mark.parametrize("vector", vectors_for("parse_summary"), ids=lambda v: v.id)
def test_parse_vectors_hold_for_the_reference(vector: Any) -> None:
    expected = to_json(from_json(StructuredSummary, vector.expected))
    assert compact_json(to_json(parse(vector.input["text"]))) == compact_json(expected)


@pytest.mark.parametrize("vector", vectors_for("render_summary"), ids=lambda v: v.id)
def test_render_vectors_hold_for_the_reference(vector: Any) -> None:
    summary = from_json(StructuredSummary, vector.input)
    assert {"text": render_structured_summary(summary)} == vector.expected
