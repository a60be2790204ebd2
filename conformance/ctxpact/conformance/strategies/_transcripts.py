"""Agent transcripts, well-paired, provider-valid or broken, and budgets sized to them.

A transcript is a list of memory items as agents really write them: several turns of user
messages, assistant text, parallel tool calls in the three shapes the spec knows (Chat
``tool_calls``, Responses ``function_call`` items, Anthropic ``tool_use`` parts) answered
together in the same shapes (tool messages, ``function_call_output`` items, ``tool_result``
parts of a user message), reasoning items and system messages mid-history, CJK, emoji and
astral characters, empty, large and already-cleared outputs. :func:`transcripts` pairs every
call with its results, :func:`provider_transcripts` gives lists a provider's API accepts,
and :func:`adversarial_transcripts` the odd things a memory holds too: orphan results, calls
never answered, a user message between a call and its result, plain strings and numbers.
:func:`edge_budgets` aims the limits at the edges of the units (SPEC.md §1.5).
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from ctxpact.conformance._pairing import ANTHROPIC, CHAT, RESPONSES, SHAPES, pairs
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import ContextBudget, JsonObject, JsonValue

#: Tool names, including ones whose words a file tracker must not mistake for file tools.
TOOL_NAMES = (
    "read_file",
    "write_file",
    "edit",
    "grep",
    "ls",
    "bash",
    "run_tests",
    "search",
    "createFile",
    "readHTTPResource",
    "tools",
    "details",
    "format",
    "location",
    "view-image",
)
_ALPHABETS = (
    st.characters(codec="ascii", exclude_categories=["Cs", "Cc"]),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF),  # CJK
    st.characters(min_codepoint=0x1F300, max_codepoint=0x1F64F),  # emoji, astral
    st.characters(exclude_categories=["Cs"]),
)
#: Prose as memories hold it, in several scripts. Most text is drawn from here and the rest is
#: generated afresh: as telling for sizes and escapes, at a fraction of the cost.
_PROSE = (
    "",
    "ok",
    "Fix the build",
    "read src/app.py first, then run the tests",
    "日本語のテキスト",
    "🙂 done 🎉",
    "déjà vu",
    "line one\nline two",
    " padded ",
    '"quoted" \\ back\tslash',
    "\u2028 separator",
    "x" * 40,
)


def json_faithful(text: str) -> str:
    """Return *text* as it reads back from JSON.

    A high surrogate followed by a low one becomes the astral character they encode, as every
    JSON reader makes of them; lone surrogates stay. Text that crosses a process boundary (a
    harness) can only hold what JSON can carry, so the strategies generate only such text, and
    a check compares like with like.
    """
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


@functools.cache
def texts(*, max_size: int = 40) -> st.SearchStrategy[str]:
    """Short prose in one of several scripts, sometimes empty (at most *max_size* characters)."""
    pool = st.sampled_from([text for text in _PROSE if len(text) <= max_size])
    generated = st.one_of(*(st.text(alphabet, max_size=max_size) for alphabet in _ALPHABETS))
    return st.one_of(pool, pool, pool, generated)


_PLACEHOLDER_OUTPUTS = st.sampled_from(
    [
        "[tool result cleared]",
        "[tool result cleared: call-0]",
        "[tool result cleared: read_file(call-0)]",
        "[tool result cleared: read_file]",
    ]
)
_OUTPUT_KINDS = st.sampled_from(
    ["short", "short", "short", "empty", "null", "large", "placeholder"]
)
_REPEATS = st.integers(50, 200)


@st.composite
def _tool_outputs(draw: st.DrawFn) -> str | None:
    kind = draw(_OUTPUT_KINDS)
    if kind == "empty":
        return ""
    if kind == "null":
        return None
    if kind == "large":
        return draw(texts(max_size=20)) * draw(_REPEATS)
    if kind == "placeholder":
        return draw(_PLACEHOLDER_OUTPUTS)
    return draw(texts())


@functools.cache
def tool_outputs() -> st.SearchStrategy[str | None]:
    """A tool's output: usually short, sometimes empty, null, large, or already cleared."""
    return _tool_outputs()


def _text_part(text: str) -> JsonObject:
    return {"type": "input_text", "text": text}


def _message(role: str, text: str) -> JsonObject:
    return {"type": "message", "role": role, "content": [_text_part(text)]}


_ARGUMENT_KEYS = st.sampled_from(["path", "file", "filename", "filepath", "file_path", "query"])
_ARGUMENT_VALUES = st.sampled_from(
    ["src/app.py", "README.md", "/etc/hosts", "docs\\a.txt", "noslash", " ", "日本/語.txt"]
)
#: Names at the edges of §1.4 and §3: the empty name (``""`` is a name) and non-ASCII ones,
#: one outside the Basic Multilingual Plane, whose sizes count code points (SIZE-4).
EDGE_TOOL_NAMES = ("", "読み込み", "🔧fix", "naïve tool")
_TOOL_NAME = st.one_of(st.sampled_from(TOOL_NAMES), st.sampled_from(EDGE_TOOL_NAMES))
_CALL_COUNT = st.integers(1, 3)
_ROLL = st.integers(0, 9)


@st.composite
def _named_arguments(draw: st.DrawFn) -> tuple[str, JsonObject]:
    """A tool name and its arguments (a shell command for ``bash``, a path for the others)."""
    name = draw(_TOOL_NAME)
    if name == "bash":
        return name, {"command": draw(texts(max_size=20))}
    return name, {draw(_ARGUMENT_KEYS): draw(_ARGUMENT_VALUES)}


_NAMED_ARGUMENTS = _named_arguments()
#: The ways each shape of §1.4 writes its calls (Chat has the nested and the flat form).
_CALL_FORMS = {
    RESPONSES: st.just("responses"),
    CHAT: st.sampled_from(["chat", "chat-flat"]),
    ANTHROPIC: st.just("anthropic"),
}

Call = tuple[str, str, JsonObject]


def _declaration(form: str, calls: list[Call], text: str) -> list[JsonValue]:
    """The items that declare *calls* in one of the forms of §1.4."""
    if form == "responses":
        return [
            {"type": "function_call", "call_id": cid, "name": name, "arguments": json.dumps(args)}
            for cid, name, args in calls
        ]
    if form in {"chat", "chat-flat"}:
        entries: list[JsonValue] = [
            {
                "id": cid,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            if form == "chat"
            else {"id": cid, "name": name, "arguments": json.dumps(args)}
            for cid, name, args in calls
        ]
        return [{"type": "message", "role": "assistant", "tool_calls": entries}]
    parts: list[JsonValue] = [{"type": "text", "text": text}] if text else []
    parts.extend(
        {"type": "tool_use", "id": cid, "name": name, "input": args} for cid, name, args in calls
    )
    return [{"type": "message", "role": "assistant", "content": parts}]


def _answers(
    shape: str, answered: list[tuple[str, str | None]], trailing: str | None
) -> list[JsonValue]:
    """The results of a step in *shape*: items, or one carrier with a part per result."""
    if shape == RESPONSES:
        return [
            {"type": "function_call_output", "call_id": cid, "output": output}
            for cid, output in answered
        ]
    if shape == CHAT:
        return [
            {"role": "tool", "tool_call_id": cid, "content": output or ""}
            for cid, output in answered
        ]
    if not answered:
        return []
    parts: list[JsonValue] = [
        {"type": "tool_result", "tool_use_id": cid, "content": output or ""}
        for cid, output in answered
    ]
    if trailing is not None:
        parts.append({"type": "text", "text": trailing})
    return [{"type": "message", "role": "user", "content": parts}]


StepBuilder = Callable[[list[int], str], list[JsonValue]]
#: How a transcript's call ids begin: mostly ASCII, at times non-ASCII (an astral one
#: included) or digits only, so that sizes and placeholders meet ids in every script.
_CALL_ID_PREFIXES = st.sampled_from(["call-", "call-", "call-", "call_", "呼-", "🔧", ""])


@st.composite
def _step(
    draw: st.DrawFn,
    shapes: tuple[str, ...],
    *,
    crossed: bool,
    reasoning: bool,
    pending: bool,
) -> StepBuilder:
    """One model step: optional reasoning, 1-3 parallel calls in one shape, their results.

    The results of a step are answered together, right after the calls, in the calls' shape
    (or, with *crossed*, sometimes as Responses-style outputs: pairing is by call id). A
    *pending* step is the newest step of a run whose tools have not all run yet. What is drawn
    is a builder that numbers the calls from the transcript's counter.
    """
    note: JsonObject | None = None
    if reasoning and draw(st.booleans()):
        note = {"type": "reasoning", "summary": [{"type": "summary_text", "text": draw(texts())}]}
        if draw(st.booleans()):
            note["encrypted_content"] = draw(texts(max_size=16))
    named = [draw(_NAMED_ARGUMENTS) for _ in range(draw(_CALL_COUNT))]
    shape = draw(st.sampled_from(shapes))
    form = draw(_CALL_FORMS[shape])
    text = draw(texts(max_size=12))
    if pending:
        answered = [index for index in range(len(named)) if draw(st.booleans())]
    else:
        answered = list(range(len(named)))
        if draw(st.booleans()):
            answered.reverse()  # results pair by id, in any order within the step
    if crossed and draw(_ROLL) < 3:
        shape = RESPONSES
    outputs = [draw(tool_outputs()) for _ in answered]
    trailing = draw(st.none() | texts(max_size=12)) if shape == ANTHROPIC else None

    def build(counter: list[int], prefix: str) -> list[JsonValue]:
        items: list[JsonValue] = []
        if note is not None:
            items.append({"type": "reasoning", "id": f"rs_{counter[0]}", **note})
        ids = [f"{prefix}{counter[0] + index + 1}" for index in range(len(named))]
        counter[0] += len(named)
        calls = [(cid, name, args) for cid, (name, args) in zip(ids, named, strict=True)]
        items.extend(_declaration(form, calls, text))
        results = [(ids[index], output) for index, output in zip(answered, outputs, strict=True)]
        items.extend(_answers(shape, results, trailing))
        return items

    return build


@functools.cache
def _steps(
    shapes: tuple[str, ...], *, crossed: bool, reasoning: bool, pending: bool
) -> st.SearchStrategy[StepBuilder]:
    return _step(shapes, crossed=crossed, reasoning=reasoning, pending=pending)


@st.composite
def _transcripts(
    draw: st.DrawFn, max_turns: int, max_steps: int, shapes: tuple[str, ...], pending: bool
) -> list[JsonValue]:
    counter = [0]
    prefix = draw(_CALL_ID_PREFIXES)
    items: list[JsonValue] = []
    crossed = len(shapes) > 1
    reasoning = RESPONSES in shapes
    step = _steps(shapes, crossed=crossed, reasoning=reasoning, pending=False)
    if draw(st.booleans()):
        items.append(_message("system", draw(texts())))
    for _ in range(draw(st.integers(0, max_turns))):
        if draw(_ROLL) > 0:  # a turn almost always starts with the user
            items.append(_message("user", draw(texts())))
        for _ in range(draw(st.integers(0, max_steps))):
            items.extend(draw(step)(counter, prefix))
        if draw(st.booleans()):
            items.append(_message("assistant", draw(texts())))
    if pending and draw(st.booleans()):
        tail = _steps(shapes, crossed=crossed, reasoning=reasoning, pending=True)
        items.extend(draw(tail)(counter, prefix))
    return items


@functools.cache
def transcripts(
    *,
    max_turns: int = 4,
    max_steps: int = 3,
    shapes: tuple[str, ...] = SHAPES,
    pending: bool = False,
) -> st.SearchStrategy[list[JsonValue]]:
    """A whole agent transcript whose tool calls and results pair as providers require.

    Turns of user input, tool-calling steps and assistant answers; each step's parallel calls
    are answered together, right after them (PAIR-1 .. PAIR-3: every result has its call,
    every call its results). *shapes* chooses the wire formats of §1.4 (``"responses"``,
    ``"chat"``, ``"anthropic"``); with more than one, steps mix them, and a result is
    sometimes a Responses-style output whatever its call's shape. With *pending*, the
    transcript may end with a step whose calls are not all answered (the newest step before
    its tools ran). Reasoning items appear only where Responses items may. For a list that a
    provider's API accepts, see :func:`provider_transcripts`; for the odd and the broken, see
    :func:`adversarial_transcripts`.
    """
    unknown = set(shapes) - set(SHAPES)
    if not shapes or unknown:
        raise ValueError(f"Expected shapes among {', '.join(SHAPES)} but got {shapes!r}")
    return _transcripts(max_turns, max_steps, tuple(shapes), pending)


#: The providers of SPEC.md §1.6 and the shape of §1.4 each one speaks.
PROVIDER_SHAPES = {"openai-responses": RESPONSES, "openai-chat": CHAT, "anthropic": ANTHROPIC}


def provider_transcripts(
    provider: str, *, max_turns: int = 3, max_steps: int = 2
) -> st.SearchStrategy[list[JsonValue]]:
    """Transcripts that *provider*'s API accepts: ``wire_problems(items, provider)`` is empty.

    *provider* is ``"openai-responses"``, ``"openai-chat"`` or ``"anthropic"`` (SPEC.md §1.6).
    Every call is answered in the provider's own shape (no pending call: each provider
    rejects one, WIRE-5, WIRE-10, WIRE-13), Anthropic's results open the user turn after
    their calls, and reasoning items (Responses only) come right before the output they
    produced.
    """
    try:
        shape = PROVIDER_SHAPES[provider]
    except KeyError:
        known = ", ".join(PROVIDER_SHAPES)
        raise ValueError(f"Expected a provider among {known} but got {provider!r}") from None
    return transcripts(max_turns=max_turns, max_steps=max_steps, shapes=(shape,))


_ODD_ITEMS: tuple[JsonValue, ...] = (
    {"type": "function_call_output", "call_id": "orphan-1", "output": "lost"},
    {"type": "function_call_output", "output": "no call id"},
    {"role": "tool", "tool_call_id": "orphan-2", "content": "lost in chat"},
    {"role": "tool", "content": "a tool message without its id"},
    {
        "type": "message",
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "orphan-3", "content": "lost"}],
    },
    {"type": "function_call", "call_id": "never-answered", "name": "grep", "arguments": "{}"},
    # §1.4: an id is a string; a number or null is no id, whatever it looks like.
    {"type": "function_call", "call_id": 7, "name": "grep", "arguments": "{}"},
    {"type": "function_call_output", "call_id": 7, "output": "a numeric call id"},
    {"type": "function_call_output", "call_id": None, "output": "a null call id"},
    {"type": "reasoning", "id": "rs_x", "content": [{"type": "reasoning_text", "text": "raw"}]},
    {"role": "user", "content": "a chat-style user message"},
)


@st.composite
def _oddities(draw: st.DrawFn) -> JsonValue:
    """Something a real memory sometimes holds that is not a well-formed message."""
    oddity: JsonValue = draw(
        st.one_of(
            texts(),
            st.integers(-(2**31), 2**31),
            st.none(),
            st.sampled_from(_ODD_ITEMS).map(copy.deepcopy),
            st.builds(_message, st.just("system"), texts()),
        )
    )
    return oddity


_ODDITY = _oddities()
#: How :func:`adversarial_transcripts` breaks a list: insert an odd item or a user message
#: (between a call and its result, often), drop an item (an orphan or a call left pending),
#: move an item earlier (a result before its call), or repeat one (a result given twice).
_DAMAGE = st.lists(
    st.tuples(st.sampled_from(["odd", "user", "drop", "move", "repeat"]), st.integers(0, 2**16)),
    max_size=3,
)


@st.composite
def _adversarial(draw: st.DrawFn, max_turns: int, max_steps: int) -> list[JsonValue]:
    items = draw(transcripts(max_turns=max_turns, max_steps=max_steps, pending=True))
    for kind, where in draw(_DAMAGE):
        position = where % (len(items) + 1)
        if kind == "odd":
            items.insert(position, draw(_ODDITY))
        elif kind == "user":
            items.insert(position, _message("user", draw(texts(max_size=12))))
        elif items and kind == "drop":
            del items[position % len(items)]
        elif items and kind == "move":
            moved = items.pop(position % len(items))
            items.insert((where // 7) % (len(items) + 1), moved)
        elif items:
            items.insert(position, copy.deepcopy(items[position % len(items)]))
    return items


@functools.cache
def adversarial_transcripts(
    *, max_turns: int = 3, max_steps: int = 2
) -> st.SearchStrategy[list[JsonValue]]:
    """Transcripts as broken memories hold them, for checks that must not trip on anything.

    A transcript of :func:`transcripts` (all shapes, maybe a pending tail) damaged up to
    three times: odd items inserted (strings, numbers, null, orphan results in every shape,
    a call never answered, raw reasoning, system messages), a user message put between a call
    and its result, an item dropped (its call or results left alone), an item moved, an item
    repeated. Valid input for every component (PAIR-9), and often rejected by every provider.
    """
    return _adversarial(max_turns, max_steps)


def _limit(total: int) -> st.SearchStrategy[int | None]:
    return st.none() | st.integers(0, total + 2)


@st.composite
def budgets_for(draw: st.DrawFn, items: list[JsonValue], *, chars: int) -> ContextBudget:
    """A budget sized to a transcript of ``len(items)`` items and *chars* approximate chars."""
    return ContextBudget(
        max_items=draw(_limit(len(items))),
        max_approx_chars=draw(st.none() | st.integers(0, chars + 10)),
        pinned_prefix_items=draw(st.integers(0, 3)),
        max_recent_tool_results=draw(st.none() | st.integers(0, 5)),
        trim_old_reasoning=draw(st.booleans()),
    )


def unit_edges(items: list[JsonValue]) -> tuple[list[int], list[int], list[int]]:
    """The item limits, size limits and pins at the edges of the units of *items* (PAIR-3).

    Item limits: 0, 1, the list's length and one either side, each unit's item count and one
    either side, and every suffix length, those that cut inside a unit included. Size limits
    likewise, by approximate size (§3): 0, 1, the total, each unit's size, each suffix from a
    unit's start, and one either side of each. Pins: 0 to 3 and one position inside each
    unit of several items.
    """
    count = len(items)
    found = pairs(items)
    sizes = [approx_chars(item) for item in items]
    counts = {len(unit) for unit in found.units}
    limits = {0, 1, count - 1, count, count + 1}
    limits |= {c + d for c in counts for d in (-1, 0, 1)}
    limits |= {count - position for position in range(count)}
    total = sum(sizes)
    unit_sizes = {sum(sizes[p] for p in unit) for unit in found.units}
    suffixes = {sum(sizes[unit[0] :]) for unit in found.units}
    chars = {0, 1} | {s + d for s in {total, *unit_sizes, *suffixes} for d in (-1, 0, 1)}
    pins = {0, 1, 2, 3} | {unit[0] + 1 for unit in found.units if len(unit) > 1}
    return (
        sorted(v for v in limits if v >= 0),
        sorted(v for v in chars if v >= 0),
        sorted(pins),
    )


_EDGE_PARTS = st.tuples(
    st.integers(0, 2**16),
    st.integers(0, 2**16),
    st.integers(0, 2**16),
    st.sampled_from(["items", "chars", "both", "items", "none"]),
    st.none() | st.integers(0, 3),
    st.booleans(),
)


def draw_edge_budget(draw: st.DrawFn, items: list[JsonValue], *, tiers: bool) -> ContextBudget:
    """The body of :func:`edge_budgets`, for composites that have *items* at hand already."""
    limits, chars, pins = unit_edges(items)
    item_index, char_index, pin_index, which, keep, trim = draw(_EDGE_PARTS)
    return ContextBudget(
        max_items=limits[item_index % len(limits)] if which in {"items", "both"} else None,
        max_approx_chars=chars[char_index % len(chars)] if which in {"chars", "both"} else None,
        pinned_prefix_items=pins[pin_index % len(pins)] if pin_index % 3 == 0 else 0,
        max_recent_tool_results=keep if tiers else None,
        trim_old_reasoning=trim and tiers,
    )


@st.composite
def edge_budgets(draw: st.DrawFn, items: list[JsonValue], *, tiers: bool = True) -> ContextBudget:
    """A budget whose limits sit at the edges of the units of *items* (see :func:`unit_edges`).

    Where a pair-keeping projector must decide: a limit cutting inside a unit, exactly a
    unit's item count or size, one below, 0 and 1, and a pinned prefix ending inside a unit.
    With *tiers* false the tier fields stay unset.
    """
    return draw_edge_budget(draw, items, tiers=tiers)


_SUMMARY_KEYS = ("completed", "pending", "decisions", "errors", "testResults", "openQuestions")


@st.composite
def summary_objects(draw: st.DrawFn) -> dict[str, Any]:
    """A summarizer's JSON object, with the odd value types models produce."""
    entry = st.one_of(
        texts(max_size=20),
        st.integers(-5, 5),
        st.booleans(),
        st.none(),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
    )
    document: dict[str, Any] = {}
    if draw(st.booleans()):
        document["goal"] = draw(st.one_of(texts(), st.none(), st.integers(0, 9)))
    for key in _SUMMARY_KEYS:
        if draw(st.integers(0, 3)) > 0:
            document[key] = draw(
                st.one_of(
                    st.lists(entry, max_size=3),
                    texts(max_size=20),
                    st.none(),
                    st.integers(0, 9),
                    st.just({"nested": ["x"]}),
                )
            )
    if draw(st.booleans()):
        document["extraKey"] = draw(texts(max_size=10))
    return document


@st.composite
def model_outputs(draw: st.DrawFn) -> str:  # noqa: PLR0911 - one return per kind
    """What a summarizer model returns: JSON, fenced JSON, JSON in prose, or no JSON at all."""
    body = json.dumps(draw(summary_objects()), ensure_ascii=draw(st.booleans()))
    kind = draw(
        st.sampled_from(
            [
                "json",
                "fenced",
                "prose",
                "braces-in-prose",
                "garbage",
                "empty",
                "truncated",
                "two-objects",
                "string-literal",
            ]
        )
    )
    prose = draw(texts(max_size=30))
    if kind == "fenced":
        return f"```json\n{body}\n```"
    if kind == "prose":
        return f"{prose}\n{body}\n{draw(texts(max_size=20))}"
    if kind == "braces-in-prose":
        return f"Note {{see below}}: {body} (done {{ok}})"
    if kind == "garbage":
        return draw(st.text(max_size=60))
    if kind == "empty":
        return draw(st.sampled_from(["", " ", "\n\t"]))
    if kind == "truncated":
        return body[: max(1, len(body) // 2)]
    if kind == "two-objects":
        return f'{body} and also {{"goal": "second"}}'
    if kind == "string-literal":  # the whole answer one JSON string: no object (PRS-3)
        return json.dumps(body)
    return body
