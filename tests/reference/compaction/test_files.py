"""File tracking: tool classification by words, argument paths and file sections (FIL-n)."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.reference.compaction import (
    extract_file_operations,
    read_file_sections,
    render_structured_summary,
    tool_name_words,
)
from ctxpact.spec import JsonValue, StructuredSummary


def chat_call(name: str, arguments: JsonValue, call_id: str = "c1") -> JsonValue:
    """An assistant message with one Chat-style tool call (name under ``function``)."""
    return {
        "type": "message",
        "role": "assistant",
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        ],
    }


def files(name: str, arguments: JsonValue) -> tuple[list[str], list[str]]:
    items = [chat_call(name, arguments)]
    return (
        extract_file_operations(items, reads=True),
        extract_file_operations(items, reads=False),
    )


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("read_file", ("read", "file")),
        ("readFile", ("read", "file")),
        ("ReadFile", ("read", "file")),
        ("readHTTPFile", ("read", "http", "file")),
        ("XMLHttpRequest", ("xml", "http", "request")),
        ("fs.read-file now", ("fs", "read", "file", "now")),
        ("mcp__fs__write_file", ("mcp", "fs", "write", "file")),
        ("v2Read", ("v2", "read")),
        ("READ", ("read",)),
        ("__", ()),
        ("", ()),
        ("str_replace_based_edit_tool", ("str", "replace", "based", "edit", "tool")),
    ],
)
def test_tool_name_words(name: str, words: tuple[str, ...]) -> None:
    assert tool_name_words(name) == words


@pytest.mark.parametrize(
    ("name", "reads", "modifies"),
    [
        ("read_file", True, False),
        ("cat", True, False),
        ("grep", True, False),
        ("findFiles", True, False),
        ("ls", True, False),
        ("head", True, False),
        ("tail", True, False),
        ("less", True, False),
        ("view_file", True, False),
        ("readHTTPFile", True, False),
        ("write_file", False, True),
        ("str_replace_based_edit_tool", False, True),
        ("createFile", False, True),
        ("delete", False, True),
        ("mkdir", False, True),
        ("mv", False, True),
        ("rm", False, True),
        ("apply_patch", False, True),
        ("save", False, True),
        ("append-to-file", False, True),
        ("read_and_write", True, True),
        # ai4j's substring matching classified all of these as file tools.
        ("tools", False, False),
        ("list_tools", False, False),
        ("details", False, False),
        ("format", False, False),
        ("terminal", False, False),
        ("location", False, False),
        ("header", False, False),
        ("preview", False, False),
        ("reader", False, False),
        ("bash", False, False),
    ],
)
def test_classification_by_words(name: str, reads: bool, modifies: bool) -> None:
    read, modified = files(name, '{"path": "/src/a.py"}')
    assert read == (["/src/a.py"] if reads else [])
    assert modified == (["/src/a.py"] if modifies else [])


@pytest.mark.parametrize(
    "item",
    [
        # Chat: name under function, arguments beside it.
        chat_call("read_file", '{"path": "/a.py"}'),
        # Chat: flat name, arguments at call level (an object).
        {
            "role": "assistant",
            "tool_calls": [{"id": "c", "name": "cat", "arguments": {"file": "/a.py"}}],
        },
        # Chat: flat name, input at call level.
        {
            "role": "assistant",
            "tool_calls": [{"id": "c", "name": "cat", "input": {"path": "/a.py"}}],
        },
        # Responses function_call item.
        {"type": "function_call", "call_id": "c", "name": "read", "arguments": '{"path":"/a.py"}'},
        # Anthropic tool_use part inside content.
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "reading"},
                {"type": "tool_use", "id": "t", "name": "view", "input": {"file_path": "/a.py"}},
            ],
        },
    ],
    ids=["chat-function", "chat-flat-arguments", "chat-flat-input", "responses", "anthropic"],
)
def test_every_tool_call_shape_is_tracked(item: JsonValue) -> None:
    assert extract_file_operations([item], reads=True) == ["/a.py"]


def test_every_path_key_contributes_in_order() -> None:
    arguments: JsonValue = {
        "file_path": "/e.py",
        "filepath": "/d.py",
        "filename": "c.py",
        "file": "/b.py",
        "path": "/a.py",
        "other": "/x.py",
    }
    assert files("read", arguments)[0] == ["/a.py", "/b.py", "c.py", "/d.py", "/e.py"]


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("  /a.py  ", ["/a.py"]),
        ("C:\\dir\\file", ["C:\\dir\\file"]),
        ("README.md", ["README.md"]),
        ("src/", ["src/"]),
        ("Makefile", []),
        ("", []),
        ("   ", []),
        ("/a\n/b", []),
        (["/a.py"], []),
        (3, []),
        (None, []),
    ],
)
def test_path_values(value: JsonValue, kept: list[str]) -> None:
    assert files("read", {"path": value})[0] == kept


@pytest.mark.parametrize(
    "arguments",
    ["not json", "", '["/a.py"]', '"/a.py"', "{'path': '/a.py'}", '{"path": NaN}', 3, None, ["x"]],
)
def test_arguments_that_are_not_an_object_are_ignored(arguments: JsonValue) -> None:
    assert files("read", arguments) == ([], [])


def test_argument_json_with_a_huge_number_is_still_read() -> None:
    assert files("read", '{"n": ' + "9" * 5000 + ', "path": "/a.py"}')[0] == ["/a.py"]


def test_nameless_calls_and_non_objects_are_skipped() -> None:
    items: list[JsonValue] = [
        "read /a.py",
        None,
        3,
        {"tool_calls": [{"id": "c", "arguments": '{"path": "/a.py"}'}]},
        {"tool_calls": "nope"},
    ]
    assert extract_file_operations(items, reads=True) == []


def test_paths_are_deduplicated_in_first_seen_order() -> None:
    items = [
        chat_call("read", '{"path": "/b.py"}'),
        chat_call("cat", '{"path": "/a.py"}'),
        chat_call("read", '{"path": " /b.py "}'),
    ]
    assert extract_file_operations(items, reads=True) == ["/b.py", "/a.py"]


def test_items_are_not_mutated() -> None:
    items = [chat_call("read", {"path": " /b.py "})]
    before = json.dumps(items)
    extract_file_operations(items, reads=True)
    assert json.dumps(items) == before


# -- file sections -----------------------------------------------------------------------------


def test_sections_are_read_back_from_a_rendered_summary() -> None:
    rendered = render_structured_summary(
        StructuredSummary(
            goal="g",
            pending=("- /not/a/file.py",),
            read_files=("/a.py", "C:\\b.txt"),
            modified_files=("/c.py",),
        )
    )
    assert read_file_sections(rendered) == (["/a.py", "C:\\b.txt"], ["/c.py"])


def test_section_reader_is_tolerant() -> None:
    summary = (
        "prose\n"
        "  ## Files Read  \r\n"
        "- /a.py\r\n"
        "not an entry /x.py\n"
        "\n"
        "   -    /b.py   \n"
        "- Makefile\n"
        "-\n"
        "## Progress\n"
        "- /progress.py\n"
        "## Files Modified\n"
        "- /c.py\n"
        "## Files Read\n"
        "- /a.py\n"
        "- /d.py\n"
    )
    assert read_file_sections(summary) == (["/a.py", "/b.py", "/d.py"], ["/c.py"])


@pytest.mark.parametrize("summary", [None, "", "## Files Read", "## Files read\n- /a.py"])
def test_no_sections(summary: str | None) -> None:
    assert read_file_sections(summary) == ([], [])


PATHS = st.lists(
    st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=15).map(
        lambda text: "/" + text
    ),
    max_size=5,
)


@given(read=PATHS, modified=PATHS)
@example(read=["/a.py"], modified=["/## Files Read"])
@example(read=["/x\u2028y", "/\x85"], modified=[])
def test_tracked_paths_round_trip_through_the_rendered_summary(
    read: list[str], modified: list[str]
) -> None:
    # Paths as file tracking keeps them: trimmed, with a path character, no line feed.
    tracked_read = extract_file_operations(
        [chat_call("read", {"path": p}) for p in read], reads=True
    )
    tracked_modified = extract_file_operations(
        [chat_call("write", {"path": p}) for p in modified], reads=False
    )
    rendered = render_structured_summary(
        StructuredSummary(
            goal="g", read_files=tuple(tracked_read), modified_files=tuple(tracked_modified)
        )
    )
    assert read_file_sections(rendered) == (tracked_read, tracked_modified)


# -- SPEC.md worked examples -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "words", "reads", "modifies"),
    [
        ("read_file", ("read", "file"), True, False),
        ("readFile", ("read", "file"), True, False),
        ("readHTMLFile", ("read", "html", "file"), True, False),
        ("MultiEdit", ("multi", "edit"), False, True),
        ("LS", ("ls",), True, False),
        ("fs.read", ("fs", "read"), True, False),
        ("Read File", ("read", "file"), True, False),
        ("Grep", ("grep",), True, False),
        ("str_replace_based_edit_tool", ("str", "replace", "based", "edit", "tool"), False, True),
        ("apply_patch", ("apply", "patch"), False, True),
        ("NotebookEdit", ("notebook", "edit"), False, True),
        ("edit_and_read", ("edit", "and", "read"), True, True),
        ("list_tools", ("list", "tools"), False, False),
        ("get_details", ("get", "details"), False, False),
        ("format_code", ("format", "code"), False, False),
        ("fs/read", ("fs/read",), False, False),
        ("str_replace_editor", ("str", "replace", "editor"), False, False),
    ],
)
def test_spec_tool_name_table(
    name: str, words: tuple[str, ...], reads: bool, modifies: bool
) -> None:
    assert tool_name_words(name) == words
    read, modified = files(name, {"path": "/x.py"})
    assert (bool(read), bool(modified)) == (reads, modifies)


def test_arguments_nested_beyond_256_levels_are_not_parseable() -> None:
    def arguments(depth: int) -> str:
        return '{"path": "/a.py", "x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

    assert files("read", arguments(256))[0] == ["/a.py"]
    assert files("read", arguments(257))[0] == []
