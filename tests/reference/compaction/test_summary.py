"""The forgiving summary parser and the Markdown rendering (PRS-n, departure 7)."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference.compaction import (
    parse_structured_summary,
    render_structured_summary,
)
from ctxpact.spec import StructuredSummary

CONTRACT_OUTPUT = (
    '{"goal":"Implement the login flow","completed":["Added LoginController","Wired the form"],'
    '"pending":["Add tests"],"decisions":["Use JWT sessions"],"errors":["mvn test: 3 failures"],'
    '"testResults":["17 passed, 3 failed"],"openQuestions":["Refresh-token expiry?"]}'
)
CONTRACT_RENDERING = """## Goal
Implement the login flow

## Progress
- Added LoginController
- Wired the form

## Pending
- Add tests

## Key Decisions
- Use JWT sessions

## Errors
- mvn test: 3 failures

## Test Results
- 17 passed, 3 failed

## Open Questions
- Refresh-token expiry?"""

CONTRACT_SUMMARY = StructuredSummary(
    goal="Implement the login flow",
    completed=("Added LoginController", "Wired the form"),
    pending=("Add tests",),
    decisions=("Use JWT sessions",),
    errors=("mvn test: 3 failures",),
    test_results=("17 passed, 3 failed",),
    open_questions=("Refresh-token expiry?",),
    parsed=True,
    text=CONTRACT_OUTPUT,
)


def test_contract_example_parses_to_every_field() -> None:
    assert parse_structured_summary(CONTRACT_OUTPUT) == CONTRACT_SUMMARY


def test_contract_example_renders_byte_for_byte() -> None:
    assert render_structured_summary(parse_structured_summary(CONTRACT_OUTPUT)) == (
        CONTRACT_RENDERING
    )


@pytest.mark.parametrize(
    "answer",
    [
        f"```json\n{CONTRACT_OUTPUT}\n```",
        f"```\n{CONTRACT_OUTPUT}\n```\n",
        f"Here is the summary you asked for:\n{CONTRACT_OUTPUT}\nHope this helps.",
        f"   \n\t{CONTRACT_OUTPUT}  \n",
    ],
    ids=["json-fence", "bare-fence", "prose-around", "whitespace"],
)
def test_fences_prose_and_whitespace_around_the_object_are_tolerated(answer: str) -> None:
    assert parse_structured_summary(answer) == CONTRACT_SUMMARY


@pytest.mark.parametrize(
    "answer",
    [
        # ai4j fails here: the span from the first "{" to the last "}" is not JSON.
        'Use {braces} for blocks. {"goal": "ship it"}',
        '{"goal": "ship it"} and then a stray {placeholder} after.',
        'Closing } first, then {"goal": "ship it"} and } more.',
        # An unclosed stray "{" does not hide the object that follows it.
        'Remember the { key. {"goal": "ship it"}',
        'Remember the { key. {"goal": "ship it"} and { another',
        # Braces and quotes inside JSON strings do not count.
        'Note {x}: {"goal": "ship it", "pending": ["a } b", "c \\" { d"]}',
    ],
)
def test_stray_braces_in_prose_still_find_the_first_object(answer: str) -> None:
    summary = parse_structured_summary(answer)
    assert summary.parsed
    assert summary.goal == "ship it"


def test_braces_and_escapes_inside_strings_are_kept() -> None:
    summary = parse_structured_summary(
        'Note {x}: {"goal": "ship it", "pending": ["a } b", "c \\" { d"]}'
    )
    assert summary.pending == ("a } b", 'c " { d')


def test_the_first_object_in_order_wins() -> None:
    summary = parse_structured_summary('prose {"goal": "one"} more {"goal": "two"}')
    assert summary.goal == "one"


def test_a_span_that_is_not_an_object_is_skipped() -> None:
    summary = parse_structured_summary('{not json} {"goal": "two"}')
    assert summary.goal == "two"


def test_string_where_a_list_was_asked_for_becomes_one_entry() -> None:
    summary = parse_structured_summary(
        '{"completed": "  did it  ", "pending": "", "decisions": {"a": 1}, "errors": 3}'
    )
    assert summary.completed == ("did it",)
    assert summary.pending == ()
    assert summary.decisions == ('{"a":1}',)
    assert summary.errors == ("3",)


def test_list_members_are_rendered_trimmed_and_kept_when_not_empty() -> None:
    summary = parse_structured_summary(
        '{"completed": [1, 1.5, true, false, null, {"a": [1, null]}, [1, "x"], "  y  ", "", " "]}'
    )
    assert summary.completed == ("1", "1.5", "true", "false", '{"a":[1,null]}', '[1,"x"]', "y")


def test_numbers_are_rendered_exactly_as_written() -> None:
    huge = "1" * 5000
    summary = parse_structured_summary(
        f'{{"testResults": [1.50, 1e2, -0, 2E-3, {huge}], "goal": 1.0}}'
    )
    assert summary.test_results == ("1.50", "1e2", "-0", "2E-3", huge)
    assert summary.goal == "1.0"


def test_non_ascii_is_kept_and_control_characters_escaped_in_json_text() -> None:
    summary = parse_structured_summary('{"completed": [{"k": "é\\n漢"}]}')
    assert summary.completed == ('{"k":"é\\n漢"}',)


@pytest.mark.parametrize(
    ("goal_json", "goal"),
    [
        ('"  Build it  "', "Build it"),
        ('"   "', None),
        ('""', None),
        ("null", None),
        ("42", "42"),
        ("true", "true"),
        ('{"a": "b"}', '{"a":"b"}'),
        ('["x"]', '["x"]'),
    ],
)
def test_goal(goal_json: str, goal: str | None) -> None:
    assert parse_structured_summary(f'{{"goal": {goal_json}}}').goal == goal


def test_missing_goal_is_none() -> None:
    assert parse_structured_summary('{"completed": ["x"]}').goal is None


def test_keys_are_case_sensitive_and_others_ignored() -> None:
    summary = parse_structured_summary(
        '{"Completed": ["x"], "notes": ["y"], "readFiles": ["/a.py"], "modifiedFiles": ["/b.py"]}'
    )
    assert summary == StructuredSummary(
        parsed=True,
        text='{"Completed":["x"],"notes":["y"],"readFiles":["/a.py"],"modifiedFiles":["/b.py"]}',
    )


def test_duplicate_keys_keep_the_last_value() -> None:
    assert parse_structured_summary('{"goal": "a", "goal": "b"}').goal == "b"


def test_parsed_text_is_the_objects_compact_json() -> None:
    summary = parse_structured_summary('x { "goal" : "g" ,\n "n" : [ 1 , 2.0 ] } y')
    assert summary.text == '{"goal":"g","n":[1,2.0]}'


@pytest.mark.parametrize(
    "answer",
    [
        "The agent fixed the build.",
        "  The agent fixed the build.\n\n",
        "no braces at all",
        "} backwards {",
        "{ not json }",
        '{"goal": NaN}',
        '{"goal": Infinity}',
        '{"goal": -Infinity}',
        '["a", "b"]',
        "{'goal': 'single quotes'}",
        '{"goal": "literal\nnewline"}',
        "",
        "   ",
    ],
)
def test_without_an_object_the_trimmed_text_is_kept(answer: str) -> None:
    summary = parse_structured_summary(answer)
    assert summary == StructuredSummary(parsed=False, text=answer.strip(" \n"))


def test_java_trim_only_strips_up_to_u0020() -> None:
    summary = parse_structured_summary("\u3000 prose \x00\x1f")
    assert summary.text == "\u3000 prose"


@pytest.mark.parametrize(
    "answer",
    [
        "{" * 100_000,
        "}" * 100_000,
        "{" * 50_000 + "}" * 50_000,
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        "[" * 100_000 + "]" * 100_000,
        '{"a": [' + "[" * 100_000 + "]" * 100_000 + "]}",
        '{"a": "' + "\\" * 100_001 + '"}',
        '{"' * 100_000,
        "{\ud800}",
        '{"goal": "\ud800\udfff"}',
        "{" + "x" * 1_000_000 + "}",
    ],
    ids=[
        "opens",
        "closes",
        "nested-empty",
        "nested-objects",
        "nested-arrays",
        "deep-inside-object",
        "backslashes",
        "open-strings",
        "lone-surrogate-garbage",
        "lone-surrogates-in-string",
        "megabyte",
    ],
)
def test_adversarial_inputs_never_raise(answer: str) -> None:
    summary = parse_structured_summary(answer)
    assert isinstance(render_structured_summary(summary), str)


def test_deep_nesting_inside_a_value_is_not_an_object() -> None:
    answer = '{"a":' * 50_000 + "1" + "}" * 50_000
    assert parse_structured_summary(answer) == StructuredSummary(parsed=False, text=answer)


def test_lone_surrogates_survive_parsing_and_rendering() -> None:
    summary = parse_structured_summary('{"goal": "\ud800", "pending": ["\\udfff"]}')
    assert summary.goal == "\ud800"
    assert summary.pending == ("\udfff",)
    assert render_structured_summary(summary) == "## Goal\n\ud800\n\n## Pending\n- \udfff"


BRACE_SOUP = st.text(alphabet=st.sampled_from('{}[]":,\\ ax1\n\ud800'), max_size=200)
ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()))


@given(text=ANY_TEXT | BRACE_SOUP)
@example(text="")
@example(text='{"a": {"b": }')
@example(text='{"\\"}')
@example(text='{"goal": "x"} {')
@example(text='\ud800{"goal": "\udfff"}')
def test_parser_and_renderer_never_raise(text: str) -> None:
    summary = parse_structured_summary(text)
    assert isinstance(render_structured_summary(summary), str)
    if not summary.parsed:
        assert summary.text == text.strip("".join(chr(code) for code in range(0x21)))


ENTRY = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=20)
PROSE = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="{}"), max_size=40
)


@given(
    before=PROSE,
    after=PROSE,
    goal=ENTRY,
    pending=st.lists(ENTRY, max_size=4),
)
@example(before="", after="", goal="g", pending=[])
@example(before='say "', after="}", goal="}{", pending=['"', "\\"])
def test_an_object_inside_prose_is_found(
    before: str, after: str, goal: str, pending: list[str]
) -> None:
    answer = before + json.dumps({"goal": goal, "pending": pending}) + after
    summary = parse_structured_summary(answer)
    assert summary.parsed
    blank = "".join(chr(code) for code in range(0x21))
    assert summary.goal == (goal.strip(blank) or None)
    assert summary.pending == tuple(entry.strip(blank) for entry in pending if entry.strip(blank))


# -- rendering ---------------------------------------------------------------------------------


def test_only_non_empty_sections_are_rendered() -> None:
    summary = StructuredSummary(goal=None, pending=("a",), open_questions=("b", "c"))
    assert render_structured_summary(summary) == "## Pending\n- a\n\n## Open Questions\n- b\n- c"


def test_goal_alone() -> None:
    assert render_structured_summary(StructuredSummary(goal="  g  ")) == "## Goal\ng"


@pytest.mark.parametrize("answer", ["{}", '{"goal":""}', '{"goal": "  ", "pending": []}'])
def test_nothing_to_render_gives_the_objects_json_text(answer: str) -> None:
    expected = json.dumps(json.loads(answer), separators=(",", ":"))
    assert render_structured_summary(parse_structured_summary(answer)) == expected


def test_unparsed_text_renders_as_is() -> None:
    summary = parse_structured_summary("  The agent fixed the build.  ")
    assert render_structured_summary(summary) == "The agent fixed the build."


def test_file_sections_follow_the_seven_sections() -> None:
    summary = StructuredSummary(
        goal="g",
        errors=("e",),
        read_files=("/a.py", "b.txt"),
        modified_files=("/c.py",),
    )
    assert render_structured_summary(summary) == (
        "## Goal\ng\n\n## Errors\n- e\n\n## Files Read\n- /a.py\n- b.txt\n\n"
        "## Files Modified\n- /c.py"
    )


def test_file_sections_follow_unparsed_text() -> None:
    summary = StructuredSummary(parsed=False, text="prose", modified_files=("/c.py",))
    assert render_structured_summary(summary) == "prose\n\n## Files Modified\n- /c.py"


def test_file_sections_follow_the_json_text_fallback() -> None:
    summary = StructuredSummary(parsed=True, text="{}", read_files=("/a.py",))
    assert render_structured_summary(summary) == "{}\n\n## Files Read\n- /a.py"


def test_file_sections_alone() -> None:
    summary = StructuredSummary(parsed=False, text="", read_files=("/a.py",))
    assert render_structured_summary(summary) == "## Files Read\n- /a.py"


# -- SPEC.md worked examples and JSON-7 --------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "parsed", "rendered"),
    [
        ('```json\n{"goal":"g","pending":"one"}\n```', True, "## Goal\ng\n\n## Pending\n- one"),
        ('Here {is} the JSON: {"goal":"x"}', True, "## Goal\nx"),
        ('{"goal": "a {b}"} trailing }', True, "## Goal\na {b}"),
        ('I think { see {"goal":"y"}', True, "## Goal\ny"),
        ('{"x": NaN} {"goal":"y"}', True, "## Goal\ny"),
        ('{"a":1}', True, '{"a":1}'),
        ("{}", True, "{}"),
        ('{"goal":"  "}', True, '{"goal":"  "}'),
        ('{"goal":42}', True, "## Goal\n42"),
        ("no json here", False, "no json here"),
        ("[1,2]", False, "[1,2]"),
    ],
)
def test_spec_rendering_table(answer: str, parsed: bool, rendered: str) -> None:
    summary = parse_structured_summary(answer)
    assert summary.parsed is parsed
    assert render_structured_summary(summary) == rendered


def test_spec_rendering_with_file_lists() -> None:
    prose = StructuredSummary(
        parsed=False, text="plain prose", read_files=("/a/b.py",), modified_files=("c.txt",)
    )
    assert render_structured_summary(prose) == (
        "plain prose\n\n## Files Read\n- /a/b.py\n\n## Files Modified\n- c.txt"
    )
    goal = StructuredSummary(
        goal="G", text='{"goal":"G"}', read_files=("/a/b.py",), modified_files=("c.txt",)
    )
    assert render_structured_summary(goal) == (
        "## Goal\nG\n\n## Files Read\n- /a/b.py\n\n## Files Modified\n- c.txt"
    )


def test_spec_list_coercion_example() -> None:
    summary = parse_structured_summary(
        '{"pending": [1, 1.5, true, null, "  ", {"a":1}, ["x"]], "completed": "one"}'
    )
    assert summary.pending == ("1", "1.5", "true", '{"a":1}', '["x"]')
    assert summary.completed == ("one",)


def nested(depth: int) -> str:
    """An object whose innermost point is enclosed by *depth* arrays and objects."""
    return '{"goal": "deep", "x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def test_nesting_up_to_256_levels_is_strict_json() -> None:
    summary = parse_structured_summary(nested(256))
    assert summary.goal == "deep"


def test_nesting_beyond_256_levels_is_not_parseable() -> None:
    assert parse_structured_summary(nested(257)).parsed is False
    # The span rule then finds the same span again, which is still too deep.
    assert parse_structured_summary("prose " + nested(300)).parsed is False
