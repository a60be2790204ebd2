"""The edge inventory: for each clause that decides an edge value, where the suite reaches it.

An *edge* is a value a clause decides on purpose and an implementation easily gets wrong:
empty, blank, null, non-ASCII, non-string, numeric, equal to a limit, zero, one, huge. Each
row says which clause decides it, which strategy generates it (so that generated examples
reach it with real probability) and which check pins it with an explicit example (so that it
is reached in every profile, ``quick``, ``default`` and ``thorough`` alike, whatever the
derandomised generation happens to draw). ``reached`` tells, from the JSON form of an
explicit example's arguments, whether that example holds the edge; a row without it is
pinned by a check that is a plain test, which runs the same in every profile.

A clause *names an edge* when its text matches :data:`EDGE_TERMS`; the suite's own tests
require every such clause to have a row here, and every row's check to carry the example.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from attrs import field, frozen

from ctxpact.spec import JsonValue

#: The words by which a clause of spec/SPEC.md names an edge value.
EDGE_TERMS = re.compile(
    r"\bblank\b|\bcode points?\b|non-ASCII|non-string|not a string|`\"\"`|empty string"
    r"|other than a (?:boolean|bool)|something other than|whose value is a string"
    r"|if either flag is true",
    re.IGNORECASE,
)
#: What Java's ``String.trim`` removes (§1.4): a string of only these is blank.
_TRIMMED = "".join(chr(code) for code in range(0x21))

Reached = Callable[[JsonValue], bool]


@frozen(kw_only=True)
class Edge:
    """One edge value: the clause deciding it, its strategy, and the check that pins it."""

    clause: str
    edge: str
    strategy: str
    check: str
    reached: Reached | None = field(default=None, eq=False, repr=False)


def _walk(value: JsonValue) -> Iterator[JsonValue]:
    yield value
    if isinstance(value, dict):
        for key, member in value.items():
            yield key
            yield from _walk(member)
    elif isinstance(value, list):
        for member in value:
            yield from _walk(member)


def _strings(value: JsonValue) -> Iterator[str]:
    return (found for found in _walk(value) if isinstance(found, str))


def _objects(value: JsonValue) -> Iterator[dict[str, JsonValue]]:
    return (found for found in _walk(value) if isinstance(found, dict))


def any_string(test: Callable[[str], bool]) -> Reached:
    """Reached when some string of the example (a member name too) passes *test*."""
    return lambda value: any(test(text) for text in _strings(value))


def member(name: str, test: Callable[[JsonValue], bool]) -> Reached:
    """Reached when some object of the example has member *name* whose value passes *test*."""
    return lambda value: any(name in found and test(found[name]) for found in _objects(value))


def non_ascii(text: str) -> bool:
    """Whether *text* holds a code point beyond ASCII."""
    return any(ord(char) > 0x7F for char in text)


def astral(text: str) -> bool:
    """Whether *text* holds a code point beyond the Basic Multilingual Plane."""
    return any(ord(char) > 0xFFFF for char in text)


def blank(value: JsonValue) -> bool:
    """A non-empty string of only U+0000 .. U+0020 (§1.4: blank, though not empty)."""
    return isinstance(value, str) and value != "" and not value.strip(_TRIMMED)


def _limit_equals_length(value: JsonValue) -> bool:
    for found in _objects(value):
        items, budget = found.get("case"), None
        if isinstance(items, list) and len(items) == 2 and isinstance(items[1], dict):
            items, budget = items
        if isinstance(items, list) and isinstance(budget, dict):
            return budget.get("maxItems") == len(items)
    return False


def _compacts_with_memory(keeps: JsonValue) -> bool:
    return isinstance(keeps, list) and any(keep is not None for keep in keeps)


def _not_a_bool(value: JsonValue) -> bool:
    return any(
        found.get("where") == "should_compact" and not isinstance(found.get("answer"), bool)
        for found in _objects(value)
        if "answer" in found
    )


def _not_a_result(value: JsonValue) -> bool:
    return any(found.get("where") == "compact" and "answer" in found for found in _objects(value))


#: The inventory, by clause in the order of spec/SPEC.md.
EDGES: tuple[Edge, ...] = (
    Edge(
        clause="JSON-6",
        edge="non-ASCII text, written as it is in compact JSON text",
        strategy="texts() (CJK, emoji, astral), transcripts() tool names and call ids",
        check="projector.report",
        reached=any_string(non_ascii),
    ),
    Edge(
        clause="JSON-9",
        edge="a set, bytes, NaN: values that are not JSON (shown by their Python form)",
        strategy="memory.non-json-rejected's non-JSON values",
        check="memory.non-json-rejected",
        reached=any_string(lambda text: text.startswith(("{1", "b'")) or "nan" in text),
    ),
    Edge(
        clause="JSON-10",
        edge="non-ASCII member names and values, identical only code point by code point",
        strategy="json_values, transcripts()",
        check="memory.json-fidelity",
        reached=any_string(non_ascii),
    ),
    Edge(
        clause="SIZE-1",
        edge="a string with an astral character (one code point, two UTF-16 units)",
        strategy="texts() (emoji), EDGE_TOOL_NAMES, call-id prefixes",
        check="projector.report",
        reached=any_string(astral),
    ),
    Edge(
        clause="SIZE-2",
        edge="non-ASCII text inside an object, counted by code points",
        strategy="transcripts() tool names and call ids",
        check="projector.size-vectors",
    ),
    Edge(
        clause="SIZE-4",
        edge="an astral tool name and call id inside a placeholder, each counted 1",
        strategy="EDGE_TOOL_NAMES, call-id prefixes",
        check="projector.report",
        reached=member("call_id", lambda call_id: isinstance(call_id, str) and astral(call_id)),
    ),
    Edge(
        clause="PRJ-8",
        edge="a tool result whose call_id is a number: its placeholder has no call_id",
        strategy="TOOL_EDGES, adversarial_transcripts() odd items",
        check="projector.order-preserving",
        reached=member("call_id", lambda call_id: isinstance(call_id, int)),
    ),
    Edge(
        clause="PRJ-12",
        edge="maxItems equal to the list's length: nothing dropped, no flag",
        strategy="edge_budgets() (the list's length among the item limits)",
        check="projector.report",
        reached=_limit_equals_length,
    ),
    Edge(
        clause="T1-5",
        edge='the empty tool name ("" is a name)',
        strategy="EDGE_TOOL_NAMES, TOOL_EDGES",
        check="projector.exact.placeholders",
        reached=member("name", lambda name: name == ""),
    ),
    Edge(
        clause="T1-5",
        edge="a non-ASCII tool name and call id in the placeholder text",
        strategy="EDGE_TOOL_NAMES, call-id prefixes",
        check="projector.exact.placeholders",
        reached=member("call_id", lambda call_id: isinstance(call_id, str) and non_ascii(call_id)),
    ),
    Edge(
        clause="CMP-12",
        edge="a blank previous summary (no Existing summary line)",
        strategy="previous summaries of the structured policy's snapshots",
        check="compaction.structured.differential",
        reached=member("summary", blank),
    ),
    Edge(
        clause="CMP-13",
        edge="a blank previous summary (nothing nested)",
        strategy="previous summaries of the structured policy's snapshots",
        check="compaction.structured.differential",
        reached=member("summary", blank),
    ),
    Edge(
        clause="CMP-17",
        edge="a blank snapshot summary",
        strategy="snapshots' summaries from texts()",
        check="compaction.summary",
        reached=member("summary", blank),
    ),
    Edge(
        clause="LLM-1",
        edge="a null model name, read as the empty string",
        strategy="the construction cases of the check",
        check="compaction.llm.requires-client",
    ),
    Edge(
        clause="LLM-8",
        edge="a blank previous summary (no Previous summary: part)",
        strategy="previous_summaries()",
        check="compaction.llm.prompt",
        reached=member("summary", blank),
    ),
    Edge(
        clause="LLM-11",
        edge="a blank outputText: a failed call",
        strategy="failing_answers()",
        check="compaction.llm.fallback",
        reached=member("output", blank),
    ),
    Edge(
        clause="FIL-6",
        edge="a path member that is empty or blank once trimmed, or not a string: ignored",
        strategy="file vectors",
        check="compaction.llm.file-vectors",
    ),
    Edge(
        clause="FIL-3",
        edge="a tool name with separators from U+0000 to U+0020 and non-ASCII words",
        strategy="EDGE_TOOL_NAMES, the file tracker's names",
        check="compaction.llm.file-vectors",
    ),
    Edge(
        clause="PRS-3",
        edge="a whole answer that is a JSON string literal: no object",
        strategy='model_outputs() kind "string-literal"',
        check="parser.differential",
        reached=any_string(lambda text: text.startswith('"{') and text.endswith('}"')),
    ),
    Edge(
        clause="PRS-13",
        edge="a blank goal and blank entries, left out of the rendered summary",
        strategy="render vectors",
        check="compaction.llm.render-vectors",
    ),
    Edge(
        clause="MEM-3",
        edge="the empty string as user input (a message) and null (nothing)",
        strategy="the check's inputs",
        check="memory.user-input",
        reached=any_string(lambda text: text == ""),
    ),
    Edge(
        clause="MEM-7",
        edge="a blank summary: no system message",
        strategy="snapshots' summaries from texts()",
        check="memory.summary-message",
        reached=member("summary", blank),
    ),
    Edge(
        clause="MEM-15",
        edge="a blank session id, rejected at construction",
        strategy="the construction cases of the check",
        check="memory.table-construction",
    ),
    Edge(
        clause="SES-1",
        edge="a session id with spaces and a tab inside (not blank, kept as it is)",
        strategy="session_snapshots",
        check="store.round-trip",
        reached=member("sessionId", lambda text: isinstance(text, str) and "\t" in text),
    ),
    Edge(
        clause="SES-2",
        edge="a fresh session id is a non-empty string",
        strategy="the sessions the check opens",
        check="runtime.session-ids",
    ),
    Edge(
        clause="SES-13",
        edge="a non-ASCII session id in the file name, as UTF-8 bytes",
        strategy="session ids of the check",
        check="store.file-names",
        reached=any_string(non_ascii),
    ),
    Edge(
        clause="SES-17",
        edge='a blank session id (" ", NUL, a line feed), refused by every store',
        strategy="the refusals of the check",
        check="store.session-id-rule",
    ),
    Edge(
        clause="RUN-7",
        edge="a blank call id from the model: NUL (blank under Java's trim)",
        strategy="runtime.loop._CALL_IDS",
        check="runtime.tool-call-ids",
        reached=member("callId", lambda call_id: call_id == "\x00"),
    ),
    Edge(
        clause="RUN-7",
        edge="a numeric call id in a memory item: no id",
        strategy="runtime.loop._MEMORY_IDS",
        check="runtime.tool-call-ids",
        reached=member("call_id", lambda call_id: isinstance(call_id, int)),
    ),
    Edge(
        clause="RUN-11",
        edge="a compact result whose summary differs from memory.summary: memory gets the latter",
        strategy="the scripted policy's results",
        check="runtime.auto-compaction",
        reached=member("keeps", _compacts_with_memory),
    ),
    Edge(
        clause="RUN-12",
        edge="should_compact answering something other than a bool",
        strategy="runtime.auto_compaction._WRONG_DECISIONS",
        check="runtime.compaction-wrong-answers",
        reached=_not_a_bool,
    ),
    Edge(
        clause="RUN-12",
        edge="compact returning something other than a CompactResult",
        strategy="runtime.auto_compaction._WRONG_RESULTS",
        check="runtime.compaction-wrong-answers",
        reached=_not_a_result,
    ),
)

#: Clauses whose text names an edge that no check can pin, with the reason.
EDGE_EXEMPT: dict[str, str] = {}
