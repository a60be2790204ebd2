"""Checks for summary parsers: forgiving, never raising, strict about JSON, exact.

The subject is the parse function itself (``str -> StructuredSummary``). Generic checks hold for
any forgiving parser; ``exact`` checks compare with the reference
:func:`~ctxpact.reference.compaction.parse_structured_summary`, run the ``parse_summary``
vectors, and render both results with the reference renderer to show what a difference does
to the summary a memory would store.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SkipCheck, describe
from ctxpact.conformance._model import Check, Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import (
    FIXED_OUTPUTS,
    first_difference,
    java_trim,
    text_difference,
)
from ctxpact.conformance.strategies import json_faithful, model_outputs, summary_objects, texts
from ctxpact.conformance.vectors import vectors_for
from ctxpact.reference.compaction import parse_structured_summary, render_structured_summary
from ctxpact.spec import (
    SchemaValidationError,
    StructuredSummary,
    from_json,
    to_json,
    validate,
)

_PARSER = Component.SUMMARY_PARSER
_LIST_KEYS = ("completed", "pending", "decisions", "errors", "testResults", "openQuestions")
_FIELDS = {
    "completed": "completed",
    "pending": "pending",
    "decisions": "decisions",
    "errors": "errors",
    "testResults": "test_results",
    "openQuestions": "open_questions",
}

# Any text: every code point including lone surrogates, JSON punctuation in bulk, and the
# adversarial shapes that break naive parsers (deep nesting, unterminated strings, brace soup).
_ANY_CHARACTER = st.one_of(
    st.characters(exclude_categories=()),
    st.characters(categories=["Cs"]),
    st.sampled_from('{}[]":,\\ \n\t0e-.'),
)
# Drawn as a list and joined, so that Hypothesis does not merge the alphabets (which would make a
# surrogate one code point in a million).
_SURROGATE_TEXT = st.lists(
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.sampled_from('{}[]":,\\ a'),
    max_size=20,
).map("".join)
_ANY_TEXT = (st.text(_ANY_CHARACTER, max_size=80) | _SURROGATE_TEXT).map(
    json_faithful
) | model_outputs()
# Kept to about 20,000 characters, far deeper than any decoder's recursion limit; the explicit
# examples go to 100,000.
_HUGE = (
    "[" * 20_000,
    "{" * 20_000,
    "{" * 10_000 + "}" * 10_000,
    '{"a":' * 4_000,
    '{"goal":"' + "\\" * 10_001,
    "{}" * 10_000,
    '{"a":' + "[" * 10_000 + "]" * 10_000 + "}",
    '{"' + "}" * 20_000,
    " {" * 5_000 + '"' + "} " * 5_000,
)


def _parse(context: CheckContext, text: str) -> Any:  # noqa: ANN401 - whatever the subject returns
    parser = context.subject()
    return parser(text)


def _summary(context: CheckContext, text: str) -> StructuredSummary:
    try:
        result = _parse(context, text)
    except Exception as error:  # noqa: BLE001 - any error is the finding
        context.expect(
            condition=False,
            message=f"the parser raised {type(error).__name__}: {error} on "
            f"{describe(text, 120)} (PRS-1: it never raises)",
            clause="PRS-1",
        )
    context.expect(
        isinstance(result, StructuredSummary),
        f"the parser returned a {type(result).__name__}, not a StructuredSummary (PRS-1)",
        clause="PRS-1",
    )
    assert isinstance(result, StructuredSummary)  # noqa: S101 - narrowed by the expectation
    return result


@check("parser.never-raises", component=_PARSER, claim=Claim.GENERIC, clauses=("PRS-1", "JSON-14"))
def never_raises(context: CheckContext) -> Callable[[], None]:
    """Any string gives a StructuredSummary whose document validates; the parser never raises.

    Lone surrogates, NUL, 100,000-deep nesting, unterminated strings and brace soup included.
    """

    @given(text=_ANY_TEXT | st.sampled_from(_HUGE))
    @example(text="\ud800{\udfff}")
    @example(text="[" * 100_000)
    @example(text='{"goal":"\\ud800"}')
    @example(text="{" * 50_000 + "}" * 50_000)
    def test(text: str) -> None:
        context.record(text=text if len(text) <= 1000 else f"{text[:200]}… ({len(text)} chars)")
        summary = _summary(context, text)
        try:
            validate(to_json(summary), "structured-summary")
        except (SchemaValidationError, TypeError, ValueError) as error:
            context.expect(
                condition=False,
                message=f"the summary does not validate against its schema (JSON-14): {error}",
                clause="JSON-14",
            )

    return test


def _no_object_texts() -> st.SearchStrategy[str]:
    """Texts in which no JSON object can start: no ``{``, or no ``}`` after it."""
    plain = st.text(_ANY_CHARACTER.filter(lambda char: char != "{"), max_size=60)
    unclosed = st.builds(
        lambda before, after: f"{before}{{{after}",
        plain,
        st.text(_ANY_CHARACTER.filter(lambda char: char != "}"), max_size=30),
    )
    padding = st.sampled_from(["", " ", "\n\t", "\x00 ", "\u3000", "\u00a0 "])
    return st.builds(lambda p, t, q: json_faithful(p + t + q), padding, plain | unclosed, padding)


@check(
    "parser.raw-fallback",
    component=_PARSER,
    claim=Claim.GENERIC,
    clauses=("PRS-2", "PRS-5"),
)
def raw_fallback(context: CheckContext) -> Callable[[], None]:
    """Text without a JSON object is kept as it is, trimmed, with parsed false and nothing else."""

    @given(text=_no_object_texts())
    @example(text="  no json here \n")
    @example(text="\u3000[1,2]\u00a0")
    @example(text="} nothing {")
    def test(text: str) -> None:
        context.record(text=text)
        summary = _summary(context, text)
        context.expect(
            not summary.parsed,
            f"parsed is true for {describe(text)}, which holds no JSON object (PRS-5)",
            clause="PRS-5",
            returned=summary.parsed,
            expected=False,
        )
        expected = java_trim(text)
        context.expect(
            summary.text == expected,
            f"text is {describe(summary.text)}; PRS-5 keeps the trimmed input {describe(expected)} "
            "(PRS-2: trim removes U+0000 to U+0020 only)",
            clause="PRS-5",
            returned=summary.text,
            expected=expected,
        )
        empty = StructuredSummary(parsed=False, text=summary.text)
        difference = first_difference(to_json(empty), to_json(summary))
        context.expect(
            difference is None,
            f"{difference} (PRS-5: goal null, every list empty)",
            clause="PRS-5",
            returned=to_json(summary),
            expected=to_json(empty),
        )

    return test


_PROSE = texts(max_size=30).filter(lambda text: "{" not in text)


@st.composite
def _wrapped(draw: st.DrawFn) -> tuple[str, str, str]:
    """A model's JSON object, bare and wrapped as models wrap it, with the wrapping's name."""
    body = json.dumps(draw(summary_objects()), ensure_ascii=draw(st.booleans()))
    kind = draw(
        st.sampled_from(
            ["fence", "fence-no-tag", "prose", "braces-before", "unclosed-before", "stray-after"]
        )
    )
    if kind == "fence":
        wrapped = f"```json\n{body}\n```"
    elif kind == "fence-no-tag":
        wrapped = f"\n```\n{body}\n```\n"
    elif kind == "prose":
        wrapped = f"{draw(_PROSE)}\n{body}\n{draw(texts(max_size=20))}"
    elif kind == "braces-before":
        wrapped = f"Here {{is}} the JSON: {body}"
    elif kind == "unclosed-before":
        wrapped = f"I think {{ see {body}"
    else:
        wrapped = f"{body} trailing }} (done {{ok}})"
    return body, wrapped, kind


@check(
    "parser.fences-and-prose",
    component=_PARSER,
    claim=Claim.GENERIC,
    clauses=("PRS-2", "PRS-3", "PRS-4"),
)
def fences_and_prose(context: CheckContext) -> Callable[[], None]:
    """An object in a code fence, between sentences or after stray braces parses as if bare."""

    @given(case=_wrapped())
    @example(
        case=('{"goal":"g","pending":"one"}', '```json\n{"goal":"g","pending":"one"}\n```', "fence")
    )
    @example(case=('{"goal":"x"}', 'Here {is} the JSON: {"goal":"x"}', "braces-before"))
    @example(case=('{"goal":"y"}', 'I think { see {"goal":"y"}', "unclosed-before"))
    @example(case=('{"goal": "a {b}"}', '{"goal": "a {b}"} trailing }', "stray-after"))
    def test(case: tuple[str, str, str]) -> None:
        body, wrapped, kind = case
        context.record(object=body, text=wrapped)
        bare = _summary(context, body)
        context.expect(
            bare.parsed,
            f"the bare JSON object {describe(body)} was not parsed (PRS-3)",
            clause="PRS-3",
            returned=to_json(bare),
        )
        found = _summary(context, wrapped)
        difference = first_difference(to_json(bare), to_json(found))
        context.expect(
            difference is None,
            f"the object wrapped as {kind} parses differently from the bare object (PRS-3, "
            f"PRS-4): {difference}",
            clause="PRS-4" if kind.startswith("fence") else "PRS-3",
            returned=to_json(found),
            expected=to_json(bare),
        )

    return test


_ENTRY_TEXT = st.one_of(
    texts(max_size=15),
    st.sampled_from(["", " ", "  padded  ", "\tx\n", "\u3000wide\u3000", "one"]),
)


@check(
    "parser.string-where-list",
    component=_PARSER,
    claim=Claim.GENERIC,
    clauses=("PRS-7", "PRS-9"),
)
def string_where_list(context: CheckContext) -> Callable[[], None]:
    """A string where a list is asked is one entry; arrays of strings keep their non-blank entries.

    Entries are trimmed with the spec's trim; null and blank entries are skipped.
    """

    @given(
        key=st.sampled_from(_LIST_KEYS),
        value=_ENTRY_TEXT | st.lists(_ENTRY_TEXT | st.none(), max_size=4) | st.none(),
    )
    @example(key="pending", value="one")
    @example(key="completed", value=["  a ", "", None, "  ", "b"])
    @example(key="errors", value="   ")
    def test(key: str, value: str | list[str | None] | None) -> None:
        text = json.dumps({key: value})
        context.record(text=text)
        summary = _summary(context, text)
        members = value if isinstance(value, list) else [value]
        expected = [java_trim(m) for m in members if m is not None and java_trim(m)]
        actual = list(getattr(summary, _FIELDS[key]))
        what = (
            "a string where a list is asked gives one trimmed entry"
            if isinstance(value, str)
            else ("null entries and blank entries are skipped, the others trimmed")
        )
        context.expect(
            actual == expected,
            f"{key}: {describe(value)} gave {describe(actual)}, expected {describe(expected)} "
            f"(PRS-9: {what})",
            clause="PRS-9",
            returned=actual,
            expected=expected,
        )
        for other, field in _FIELDS.items():
            if other != key:
                context.expect(
                    not getattr(summary, field),
                    f"{field} holds {describe(list(getattr(summary, field)))} though the object "
                    f"has no {other!r} member (PRS-7)",
                    clause="PRS-7",
                    returned=list(getattr(summary, field)),
                    expected=[],
                )

    return test


_OTHER_KEYS = (
    "readFiles",
    "modifiedFiles",
    "Pending",
    "COMPLETED",
    "error",
    "test_results",
    "goals",
)


@check(
    "parser.ignores-other-members",
    component=_PARSER,
    claim=Claim.GENERIC,
    clauses=("PRS-7", "PRS-12"),
)
def ignores_other_members(context: CheckContext) -> Callable[[], None]:
    """Members other than the seven keys, misspelt keys and the model's file lists are ignored."""

    @given(
        members=st.dictionaries(
            st.sampled_from(_OTHER_KEYS),
            st.lists(st.sampled_from(["a.py", "src/b.py", "x"]), min_size=1, max_size=3),
            min_size=1,
        )
    )
    @example(members={"readFiles": ["model/invented.py"], "modifiedFiles": ["b.py"]})
    @example(members={"Pending": ["x"]})
    def test(members: dict[str, list[str]]) -> None:
        text = json.dumps(members)
        context.record(text=text)
        summary = _summary(context, text)
        context.expect(
            not summary.read_files and not summary.modified_files,
            f"the parser took file lists from the model's answer {describe(text)}: readFiles "
            f"{describe(list(summary.read_files))}, modifiedFiles "
            f"{describe(list(summary.modified_files))} (PRS-12: file lists come from file "
            "tracking only)",
            clause="PRS-12",
            returned=to_json(summary),
        )
        for field in _FIELDS.values():
            context.expect(
                not getattr(summary, field),
                f"{field} holds {describe(list(getattr(summary, field)))} from {describe(text)}; "
                "keys are read exactly as written (PRS-7)",
                clause="PRS-7",
                returned=list(getattr(summary, field)),
                expected=[],
            )
        context.expect(
            summary.goal is None,
            f"goal is {summary.goal!r} from {describe(text)} (PRS-7)",
            clause="PRS-7",
            returned=summary.goal,
            expected=None,
        )

    return test


# -- exact ---------------------------------------------------------------------------------------

_NOT_STRICT = (
    "{{'goal': '{g}'}}",
    '{{"goal": "{g}",}}',
    '{{"goal": NaN}}',
    '{{"goal": Infinity}}',
    '{{"goal": -Infinity}}',
    '{{"goal": "{g}" /* note */}}',
    '{{"goal": "{g}" // note\n}}',
    '{{"goal": 01}}',
    '{{"goal": +1}}',
    '{{"goal": .5}}',
    '{{"goal": 1.}}',
    '{{"goal": 0x10}}',
    '{{"goal": "a\tb{g}"}}',
    '{{goal: "{g}"}}',
    '{{"goal": "\\x{g}"}}',
    '{{"goal": True}}',
    '{{"goal": undefined}}',
    '{{"goal": "{g}" "pending": []}}',
)


def _deep(depth: int) -> str:
    return '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)


@check(
    "parser.strict-json",
    component=_PARSER,
    claim=Claim.EXACT,
    clauses=("JSON-4", "JSON-7", "PRS-3", "PRS-11"),
)
def strict_json(context: CheckContext) -> Callable[[], None]:
    """Only strict JSON is an object: no lenient syntax, depth at most 256, last repeat wins.

    Escapes that produce lone surrogates are accepted; a repeated member keeps its first
    position and takes its last value.
    """
    goals = st.text(st.sampled_from("abc xyz"), min_size=1, max_size=8)

    @given(
        case=st.one_of(
            st.tuples(st.just("lenient"), st.sampled_from(_NOT_STRICT), goals),
            st.tuples(st.just("depth"), st.integers(250, 262).map(str), goals),
            st.tuples(st.just("repeat"), goals, goals),
            st.tuples(st.just("surrogate"), st.integers(0xD800, 0xDFFF).map(str), goals),
        )
    )
    @example(case=("lenient", "{{'goal': '{g}'}}", "x"))
    @example(case=("lenient", '{{"goal": NaN}}', "x"))
    @example(case=("depth", "257", "x"))
    @example(case=("depth", "256", "x"))
    @example(case=("repeat", "first", "last"))
    @example(case=("surrogate", str(0xD800), "x"))
    def test(case: tuple[str, str, str]) -> None:
        kind, first, second = case
        if kind == "lenient":
            text = first.replace("{g}", second).replace("{{", "{").replace("}}", "}")
            context.record(text=text)
            summary = _summary(context, text)
            context.expect(
                not summary.parsed,
                f"the parser accepted {describe(text)}, which is not strict JSON (JSON-7, PRS-3)",
                clause="JSON-7",
                returned=to_json(summary),
            )
        elif kind == "depth":
            depth = int(first)
            text = _deep(depth)
            context.record(text=f"{depth} nested objects")
            summary = _summary(context, text)
            context.expect(
                summary.parsed == (depth <= 256),
                f"an object nested {depth} deep was {'parsed' if summary.parsed else 'not parsed'}"
                " (JSON-7: nesting deeper than 256 is not parseable, 256 is)",
                clause="JSON-7",
                returned=summary.parsed,
                expected=depth <= 256,
            )
        elif kind == "repeat":
            text = (
                json.dumps({"goal": first})[:-1]
                + ', "pending": ["p"], "goal": '
                + json.dumps(second)
                + "}"
            )
            context.record(text=text)
            summary = _summary(context, text)
            expected_text = json.dumps(
                {"goal": second, "pending": ["p"]}, separators=(",", ":"), ensure_ascii=False
            )
            context.expect(
                summary.goal == (java_trim(second) or None) and summary.text == expected_text,
                f"for {describe(text)} goal is {summary.goal!r} and text {describe(summary.text)}; "
                f"JSON-4 gives goal {java_trim(second)!r} and text {describe(expected_text)} "
                "(the first position, the last value)",
                clause="JSON-4",
                returned={"goal": summary.goal, "text": summary.text},
                expected={"goal": java_trim(second) or None, "text": expected_text},
            )
        else:
            code = int(first)
            text = f'{{"goal":"{second}\\u{code:04x}"}}'
            context.record(text=text)
            summary = _summary(context, text)
            context.expect(
                summary.parsed and summary.goal == java_trim(f"{second}{chr(code)}"),
                f"the escape \\u{code:04x} (a lone surrogate) was not accepted: "
                f"{describe(to_json(summary))} (JSON-7)",
                clause="JSON-7",
                returned=to_json(summary),
            )

    return test


_TOKENS = st.sampled_from(
    ["1.50", "1e5", "-0", "1E+2", "0.0", "-0.0e0", "12345678901234567890", "2.5e-3"]
)


@st.composite
def _number_outputs(draw: st.DrawFn) -> str:
    """Objects whose numbers are written in forms a float round trip would change (PRS-6)."""
    goal = draw(_TOKENS)
    entries = draw(st.lists(_TOKENS, max_size=3))
    key = draw(st.sampled_from(_LIST_KEYS))
    return f'{{"goal": {goal}, "{key}": [{", ".join(entries)}], "n": {{"x": {draw(_TOKENS)}}}}}'


@check(
    "parser.differential",
    component=_PARSER,
    claim=Claim.EXACT,
    clauses=(
        "PRS-1",
        "PRS-2",
        "PRS-3",
        "PRS-4",
        "PRS-5",
        "PRS-6",
        "PRS-7",
        "PRS-8",
        "PRS-9",
        "PRS-10",
        "PRS-11",
        "JSON-6",
    ),
)
def differential(context: CheckContext) -> Callable[[], None]:
    """The parser gives the reference's summary on model outputs and on any text.

    Both summaries are also rendered with the reference renderer (PRS-13), to show what a
    difference does to the summary a memory would store.
    """

    @given(text=model_outputs() | _number_outputs() | _ANY_TEXT | st.sampled_from(FIXED_OUTPUTS))
    @example(text='{"goal": 1.50, "pending": [1e5, -0, true, {"a": 1}, ["x"]]}')
    @example(text='{"goal":"first"} and also {"goal":"second"}')
    @example(text='{"goal":"  G  ","completed":" one ","errors":[" e "]}')
    @example(text='{"goal" : "spaced" , "pending" : [ "p" ] }')
    @example(text='{"goal": "日本", "pending": ["é", "😀"]}')
    @example(text=json.dumps('{"goal": "inside a JSON string"}'))
    def test(text: str) -> None:
        context.record(text=text)
        expected = parse_structured_summary(text)
        actual = _summary(context, text)
        difference = first_difference(to_json(expected), to_json(actual))
        if difference is not None:
            rendered = render_structured_summary(expected)
            got = render_structured_summary(actual)
            effect = "" if rendered == got else "; rendered, " + text_difference(rendered, got)
            context.expect(
                condition=False,
                message=f"{difference} (PRS-1 to PRS-11){effect}",
                returned=to_json(actual),
                expected=to_json(expected),
            )

    return test


@check(
    "parser.vectors",
    component=_PARSER,
    claim=Claim.EXACT,
    clauses=(
        "PRS-2",
        "PRS-3",
        "PRS-4",
        "PRS-5",
        "PRS-6",
        "PRS-9",
        "PRS-10",
        "PRS-11",
        "JSON-4",
        "JSON-7",
    ),
)
def parse_vectors(context: CheckContext) -> Callable[[], None]:
    """Every parse_summary vector gives its expected summary."""

    def test() -> None:
        for vector in vectors_for("parse_summary"):
            context.record(vector=vector.document())
            actual = _summary(context, vector.input["text"])
            expected = to_json(from_json(StructuredSummary, vector.expected))
            difference = first_difference(expected, to_json(actual))
            context.expect(
                difference is None,
                f"vector {vector.id} ({vector.description}): {difference}",
                returned=to_json(actual),
                expected=expected,
            )

    return test


# -- running time (PRS-1) ---------------------------------------------------------------

#: Inputs that make a parser work hard, by name, as a function of their length: deep
#: balanced nesting, many invalid objects, a run of quotes, a run of escapes, brace soup. A
#: parser that rescans the rest of the text from every ``{`` is quadratic on each of them.
_PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "balanced nesting": lambda n: "{" * (n // 2) + "}" * (n // 2),
    "invalid objects": lambda n: "{x}" * (n // 3),
    "quotes": lambda n: "{" + '"' * n + "}",
    "escapes": lambda n: '{"goal":"' + "\\" * n + '"}',
    "openers then one close": lambda n: "{" * n + "}",
    "spaced soup": lambda n: " {" * (n // 4) + '"' + "} " * (n // 4),
}
#: Lengths grow by doubling from the first until one parse takes the floor's CPU time, or
#: the cap is reached.
_FIRST_LENGTH = 1_000
_LENGTH_CAP = 64_000
_TIME_FLOOR = 0.1
#: At the largest length, a parse quicker than this is linear enough whatever the ratio:
#: timer noise dominates, and no quadratic scan of 64,000 characters is so quick.
_NEGLIGIBLE = 0.01
#: The growth of the CPU time over a sixteenfold growth of the input: about 16 when linear,
#: about 256 when quadratic. Twice the linear growth is generous for a loaded 2-core machine
#: (CPU time, not wall time, and the best of three runs), and tight enough that a scan whose
#: quadratic part is as costly as its linear part at the largest length fails.
_GROWTH = 16
_RATIO_BOUND = 32.0


def _cpu_seconds(parse: Callable[[str], object], text: str, *, tries: int = 1) -> float:
    """The least CPU time of *tries* parses of *text* (each repeated for a few milliseconds)."""
    best = float("inf")
    for _ in range(tries):
        runs, start = 0, time.process_time()
        while True:
            parse(text)
            runs += 1
            spent = time.process_time() - start
            if spent >= 0.005 or runs >= 1_000:  # a few milliseconds
                break
        best = min(best, spent / runs)
    return best


@check("parser.linear-time", component=_PARSER, claim=Claim.GENERIC, clauses=("PRS-1",))
def linear_time(context: CheckContext) -> Callable[[], None]:
    """The parser's CPU time grows linearly with its input, on inputs that trip naive scans.

    A check of behaviour, not of speed: only the ratio of the times at two lengths counts.
    """

    def test() -> None:
        parser = context.subject()
        if type(parser).__module__.startswith("ctxpact.conformance.harness"):
            raise SkipCheck(
                f"{type(parser).__name__} parses in another process, whose CPU time this one "
                "cannot measure"
            )
        for name, build in _PATHOLOGICAL.items():
            length = _FIRST_LENGTH
            spent = _cpu_seconds(parser, build(length))
            while spent < _TIME_FLOOR and length * 2 <= _LENGTH_CAP:
                length *= 2
                spent = _cpu_seconds(parser, build(length))
            if spent < _NEGLIGIBLE:
                continue
            spent = _cpu_seconds(parser, build(length), tries=3)
            smaller = _cpu_seconds(parser, build(length // _GROWTH), tries=3)
            context.record(input=name, length=length, cpu_seconds=round(spent, 6))
            ratio = spent / max(smaller, 1e-9)
            context.expect(
                ratio <= _RATIO_BOUND,
                f"parsing {name} took {spent:.3f} s of CPU at {length} characters and "
                f"{smaller:.4f} s at {length // _GROWTH}: {ratio:.0f} times as long for "
                f"{_GROWTH} times the input (PRS-1: the running time is linear in the input; "
                f"at most {_RATIO_BOUND:.0f} times allowed)",
                clause="PRS-1",
                returned=round(ratio, 1),
                expected=f"at most {_RATIO_BOUND}",
            )

    return test


# -- found by mutation testing (docs/mutation.md) -------------------------------------------

#: Answers at the edges of the scan of PRS-3 and PRS-4, which model outputs seldom reach: a
#: character right after the last ``}``; a span followed by a character inside the
#: first-to-last span; a quote in the prose between two spans; a string that never closes, after
#: which no brace counts.
SCAN_EDGES = (
    '{"goal": "g"}.',
    '{"goal": "g"}x}',
    '{bad} "q" {"goal": "g"}',
    '{x} { " {}',
)


@check(
    "parser.scan-edges",
    component=_PARSER,
    claim=Claim.EXACT,
    clauses=("PRS-3", "PRS-4"),
)
def scan_edges(context: CheckContext) -> Callable[[], None]:
    """The parser gives the reference's summary at the edges of the span scan."""

    def test() -> None:
        for text in SCAN_EDGES:
            context.record(text=text)
            expected = parse_structured_summary(text)
            actual = _summary(context, text)
            difference = first_difference(to_json(expected), to_json(actual))
            context.expect(
                difference is None,
                f"on {describe(text)}: {difference} (PRS-3, PRS-4)",
                returned=to_json(actual),
                expected=to_json(expected),
            )

    return test


#: Every check of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    never_raises,
    raw_fallback,
    fences_and_prose,
    string_where_list,
    ignores_other_members,
    strict_json,
    differential,
    parse_vectors,
    linear_time,
    scan_edges,
)
