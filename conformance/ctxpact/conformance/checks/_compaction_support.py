"""What the compaction and parser checks share: a scripted model, item readings, inputs.

The item readings (user input items, tool calls and results in every shape, units) are the
suite's own, from :mod:`ctxpact.conformance._pairing`, written from SPEC.md independently of
the reference, so that the invariants the checks state in their own words (no orphaned tool
result, the cut on a user input item) do not lean on the code they judge.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator, Sequence
from typing import cast

from attrs import frozen
from hypothesis import strategies as st

from ctxpact.conformance._context import describe
from ctxpact.conformance._pairing import is_user_input, pairs
from ctxpact.conformance.strategies import (
    TOOL_NAMES,
    adversarial_transcripts,
    model_outputs,
    texts,
    transcripts,
)
from ctxpact.spec import (
    JsonObject,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    compact_json,
)

# -- the scripted model ------------------------------------------------------------------------


class ScriptedModelError(RuntimeError):
    """What the scripted model raises when its script says the call fails."""


@frozen(kw_only=True)
class ModelAnswer:
    """One scripted reply: a result with ``output`` as its text, no result at all, or an error."""

    output: str | None = None
    raises: bool = False
    no_result: bool = False

    @property
    def failed(self) -> bool:
        """Whether the spec counts this reply as a failed call (LLM-11)."""
        return self.raises or self.no_result or self.output is None or not java_trim(self.output)

    def document(self) -> JsonValue:
        """The reply as JSON, for a counterexample."""
        if self.raises:
            return {"raises": "ScriptedModelError"}
        if self.no_result:
            return {"result": None}
        return {"outputText": self.output}

    def describe(self) -> str:
        """How the reply reads in a failure message."""
        if self.raises:
            return "the model raised an error"
        if self.no_result:
            return "the model returned no result"
        if self.output is None:
            return "the model's result has no output text"
        return f"the model answered {describe(self.output, 120)}"


def said(text: str | None) -> ModelAnswer:
    """A reply whose output text is *text*."""
    return ModelAnswer(output=text)


RAISES = ModelAnswer(raises=True)
NO_RESULT = ModelAnswer(no_result=True)
#: A well-formed answer, for checks that are not about the answer.
PLAIN_ANSWER = said('{"goal":"Keep going","pending":["Finish the task"],"decisions":["Stay calm"]}')


class ScriptedModelClient:
    """A model client that records every prompt and answers from a script, in order.

    When the script runs out, the last answer repeats; an empty script answers
    :data:`PLAIN_ANSWER`.
    """

    def __init__(self, answers: Sequence[ModelAnswer] = ()) -> None:
        self.answers = tuple(answers) or (PLAIN_ANSWER,)
        self.prompts: list[ModelPrompt] = []

    def create(self, prompt: ModelPrompt) -> ModelResult:
        """Record *prompt* and reply as the script says."""
        self.prompts.append(prompt)
        answer = self.answers[min(len(self.prompts), len(self.answers)) - 1]
        if answer.raises:
            raise ScriptedModelError("the scripted model failed on purpose")
        if answer.no_result:
            return cast("ModelResult", None)  # a misbehaving client; LLM-11 says what it means
        return ModelResult(output_text=answer.output)


@contextlib.contextmanager
def quiet_reference_logs() -> Iterator[None]:
    """Keep the reference's warning about a failed summary call off the terminal.

    The reference logs the error of a failed model call (the checks make many on purpose); with
    no handler configured, Python's last-resort handler would print each to stderr.
    """
    logger = logging.getLogger("ctxpact")
    handler = logging.NullHandler()
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield
    finally:
        logger.propagate = propagate
        logger.removeHandler(handler)


# -- items, read as SPEC.md §1.4 says --------------------------------------------------------

_TRIMMED = "".join(chr(code) for code in range(0x21))


def java_trim(text: str) -> str:
    """The spec's trim (§1.4): code points U+0000 to U+0020 at both ends, nothing else."""
    return text.strip(_TRIMMED)


def separated_units(items: Sequence[JsonValue], cut: int) -> list[tuple[int, ...]]:
    """PAIR-3: the units of *items* that a cut at *cut* leaves on both sides (CUT-3, CUT-4)."""
    return [unit for unit in pairs(items).units if unit[0] < cut <= unit[-1]]


def greatest_user_input(items: Sequence[JsonValue], naive_cut: int) -> int | None:
    """CUT-3: the greatest i in [1, naive_cut] holding a user input item, separating no unit."""
    pairing = pairs(items)
    for position in range(min(naive_cut, len(items) - 1), 0, -1):
        if is_user_input(items[position]) and not pairing.separates(position):
            return position
    return None


def kept_positions(
    snapshot: Sequence[JsonValue], memory: Sequence[JsonValue], *, latest: bool = False
) -> list[int]:
    """CMP-15: where the memory's kept items (those identical to a snapshot item) sit.

    The earliest order-preserving placement of the kept items among the snapshot's (the
    latest, with *latest*: snapshots may repeat an item); a kept item with no place after the
    one before it is left out (the kept items are then out of order, which the check of
    CMP-15 reports).
    """
    if latest:
        count = len(snapshot)
        backwards = kept_positions(snapshot[::-1], memory[::-1])
        return sorted(count - 1 - position for position in backwards)
    texts = [compact_json(item) for item in snapshot]
    known = set(texts)
    found: list[int] = []
    position = 0
    for item in memory:
        text = compact_json(item)
        if text not in known:
            continue
        while position < len(texts) and texts[position] != text:
            position += 1
        if position < len(texts):
            found.append(position)
            position += 1
    return found


def items_text(items: Sequence[JsonValue]) -> str:
    """The compact JSON text of a list of items, to compare lists for identity (JSON-10)."""
    return compact_json(list(items))


def snapshot_text(snapshot: MemorySnapshot) -> str:
    """The compact JSON text of a snapshot's items and summary, to detect any change."""
    return compact_json({"items": list(snapshot.items), "summary": snapshot.summary})


def user(text: str) -> JsonObject:
    """A user message with one ``input_text`` part."""
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def assistant(text: str) -> JsonObject:
    """An assistant text message: no tool call, not a user item, not a tool result."""
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text}],
    }


def tool_result(call_id: str, output: str = "ok") -> JsonObject:
    """A tool result for *call_id*."""
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def chat_call(call_id: str, name: str, arguments: JsonObject) -> JsonObject:
    """An assistant message declaring one Chat-style tool call."""
    return {
        "type": "message",
        "role": "assistant",
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


# -- comparing documents -----------------------------------------------------------------------


def first_difference(  # noqa: PLR0911 - one return per kind of difference
    expected: JsonValue, actual: JsonValue, path: str = "$"
) -> str | None:
    """Where two JSON documents first differ (member order and number form count), or ``None``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if list(expected) != list(actual):
            return f"{path} has members {list(actual)} where {list(expected)} were expected"
        for key, value in expected.items():
            found = first_difference(value, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            found = first_difference(left, right, f"{path}[{index}]")
            if found:
                return found
        return None
    if compact_json(expected) == compact_json(actual):
        return None
    return f"{path} is {describe(actual)} but the spec gives {describe(expected)}"


def text_difference(expected: str, actual: str) -> str:
    """The first line where two texts differ, quoted, for a failure message."""
    expected_lines, actual_lines = expected.split("\n"), actual.split("\n")
    for number, (left, right) in enumerate(zip(expected_lines, actual_lines, strict=False), 1):
        if left != right:
            return f"line {number} is {describe(right, 160)}, expected {describe(left, 160)}"
    if len(expected_lines) != len(actual_lines):
        return (
            f"it has {len(actual_lines)} lines, expected {len(expected_lines)} "
            f"(expected {describe(expected, 200)}, got {describe(actual, 200)})"
        )
    return "they differ"


# -- inputs ------------------------------------------------------------------------------------

#: Tool names of SPEC.md §12 and FIL-3 beside the transcripts' own: words, not substrings.
FILE_TOOL_NAMES = (
    *TOOL_NAMES,
    "Grep",
    "str_replace_based_edit_tool",
    "apply_patch",
    "NotebookEdit",
    "edit_and_read",
    "list_tools",
    "get_details",
    "format_code",
    "fs/read",
    "readHTMLFile",
    "MultiEdit",
    "LS",
    "fs.read",
    "Read File",
    "header",
    "preview",
    "terminal",
    "str_replace_editor",
    "readFile",
    "cat",
    "mkdir",
    "Rm",
)
_PATH_KEYS = ("path", "file", "filename", "filepath", "file_path", "Path", "query")
_PATH_VALUES = (
    "src/app.py",
    "README.md",
    "/etc/hosts",
    "docs\\a.txt",
    "noslash",
    " ",
    "  spaced/out.txt  ",
    "multi\nline.txt",
    "日本/語.txt",
    "\u00a0nbsp/kept.txt",
    ".env",
)


@st.composite
def _arguments(draw: st.DrawFn) -> JsonValue:
    """Arguments as models write them: JSON text, an object, or something unreadable."""
    members: JsonObject = {}
    for key in draw(st.lists(st.sampled_from(_PATH_KEYS), min_size=1, max_size=3, unique=True)):
        members[key] = draw(st.sampled_from(_PATH_VALUES) | st.integers(0, 9) | st.none())
    form = draw(st.sampled_from(["text", "text", "object", "broken", "array", "null"]))
    if form == "object":
        return members
    if form == "broken":
        return json.dumps(members)[:-1] + ",}"
    if form == "array":
        return json.dumps([members])
    if form == "null":
        return None
    return json.dumps(members, ensure_ascii=draw(st.booleans()))


@st.composite
def file_tool_items(draw: st.DrawFn) -> list[JsonValue]:
    """One step of file-tool calls in any shape of §1.4, with their results."""
    names = draw(st.lists(st.sampled_from(FILE_TOOL_NAMES), min_size=1, max_size=3))
    shape = draw(st.sampled_from(["chat", "chat-flat", "responses", "anthropic", "input"]))
    call_ids = [f"f{draw(st.integers(0, 10**6))}-{index}" for index in range(len(names))]
    items: list[JsonValue] = []
    if shape in {"chat", "chat-flat"}:
        entries: list[JsonValue] = []
        for call_id, name in zip(call_ids, names, strict=True):
            arguments = draw(_arguments())
            if shape == "chat":
                entries.append(
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": arguments},
                    }
                )
            else:
                entries.append({"id": call_id, "name": name, "arguments": arguments})
        items.append({"type": "message", "role": "assistant", "tool_calls": entries})
    elif shape in {"responses", "input"}:
        for call_id, name in zip(call_ids, names, strict=True):
            call: JsonObject = {"type": "function_call", "call_id": call_id, "name": name}
            key = "input" if shape == "input" else "arguments"
            call[key] = draw(_arguments())
            items.append(call)
    else:
        parts: list[JsonValue] = [{"type": "output_text", "text": "working"}]
        parts.extend(
            {"type": "tool_use", "id": call_id, "name": name, "input": draw(_arguments())}
            for call_id, name in zip(call_ids, names, strict=True)
        )
        items.append({"type": "message", "role": "assistant", "content": parts})
    items.extend(tool_result(call_id) for call_id in call_ids if draw(st.booleans()))
    return items


#: Well-paired transcripts, a broken one at times: the cut must be right on either.
_LLM_TRANSCRIPTS = st.one_of(
    transcripts(max_turns=2, max_steps=2, pending=True),
    transcripts(max_turns=2, max_steps=2, pending=True),
    adversarial_transcripts(max_turns=2, max_steps=2),
)


@st.composite
def llm_items(draw: st.DrawFn, *, max_items: int, file_tools: bool = True) -> list[JsonValue]:
    """A transcript longer than *max_items* items, often with file tools."""
    items = draw(_LLM_TRANSCRIPTS)
    if file_tools:
        for _ in range(draw(st.integers(0, 2))):
            position = draw(st.integers(0, len(items)))
            items[position:position] = draw(file_tool_items())
    while len(items) <= max_items:
        items.append(draw(st.sampled_from([user("next"), assistant("more")])))
    return items


_SECTION_LINES = (
    "## Files Read",
    "## Files Modified",
    "  ## Files Read  ",
    "## Files read",
    "## Other",
    "## Pending",
    "- a/b.py",
    "-  spaced.txt ",
    "- noslash",
    "-x.py",
    "- docs\\e.md",
    "* star/item.py",
    "- /src/a.py",
    "prose line",
    "",
)


@st.composite
def previous_summaries(draw: st.DrawFn) -> str | None:
    """A memory's summary before compaction: none, blank, prose, or one with file sections."""
    kind = draw(st.sampled_from(["none", "none", "blank", "prose", "rendered", "sections"]))
    if kind == "none":
        return None
    if kind == "blank":
        return draw(st.sampled_from(["", " ", "\n\t ", "\x00"]))
    if kind == "prose":
        return draw(texts())
    if kind == "rendered":
        paths = st.lists(st.sampled_from(["a/b.py", "/src/a.py", "c.txt", "d\\e.md"]), max_size=3)
        read, modified = draw(paths), draw(paths)
        lines = [f"## Goal\n{draw(texts(max_size=12))}", "", "## Pending", "- follow up"]
        if read:
            lines += ["", "## Files Read", *(f"- {path}" for path in dict.fromkeys(read))]
        if modified:
            lines += ["", "## Files Modified", *(f"- {path}" for path in dict.fromkeys(modified))]
        return "\n".join(lines)
    return "\n".join(draw(st.lists(st.sampled_from(_SECTION_LINES), min_size=1, max_size=10)))


def llm_snapshots(max_items: int, *, file_tools: bool = True) -> st.SearchStrategy[MemorySnapshot]:
    """Snapshots for an LLM policy keeping *max_items* items."""
    return st.builds(
        MemorySnapshot,
        items=llm_items(max_items=max_items, file_tools=file_tools),
        summary=previous_summaries(),
    )


#: Answers of every kind the issue names: JSON, fenced, prose around it, strings where lists are
#: asked, numbers and booleans, nested values, garbage and answers that are nearly blank.
FIXED_OUTPUTS = (
    (
        '{"goal":"Implement the login flow","completed":["Added LoginController"],'
        '"pending":["Add tests"],"decisions":["Use JWT sessions"],'
        '"errors":["mvn test: 3 failures"],"testResults":["17 passed, 3 failed"],'
        '"openQuestions":["Refresh-token expiry?"]}'
    ),
    '```json\n{"goal":"g","pending":"one"}\n```',
    'Here is the summary:\n{"goal": "x", "errors": "make failed"}\nHope that helps {really}.',
    'Here {is} the JSON: {"completed": [1, 1.50, true, null, "  ", {"a": 1}, ["x"]]}',
    '{"goal": 42, "testResults": [1e5, -0], "decisions": {"use": "JWT"}}',
    '{"goal":"  ","readFiles":["model/invented.py"]}',
    "I could not summarize this conversation.",
    "{not json at all}",
    "\u3000",
    "{}",
)
#: Answers that make the call a failed one (LLM-11).
FAILING_ANSWERS = (
    RAISES,
    NO_RESULT,
    said(None),
    said(""),
    said(" "),
    said("\n\t \r"),
    said("\x00\x1f "),
)


def successful_answers() -> st.SearchStrategy[ModelAnswer]:
    """Answers that are not failed calls: generated model outputs and the fixed cases."""
    outputs = model_outputs() | st.sampled_from(FIXED_OUTPUTS)
    return outputs.filter(lambda text: bool(java_trim(text))).map(said)


def failing_answers() -> st.SearchStrategy[ModelAnswer]:
    """Answers that are failed calls (LLM-11)."""
    return st.sampled_from(FAILING_ANSWERS)
