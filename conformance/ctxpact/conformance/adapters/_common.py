"""What every framework adapter shares: its errors, item shapes, and building honest reports.

An adapter converts in two ways. The *faithful* conversions (``to_<framework>`` and
``from_<framework>``) accept only what comes back identical and reject the rest with
:class:`UnsupportedItemError` or :class:`UnsupportedMessageError`. The *presentation* used by
the wrapped trimmers turns every item into exactly one framework message (faithfully when it
can, otherwise as the nearest stand-in), runs the framework's own trimmer, and maps the
surviving messages back to the original items by identity, so the suite judges what the
framework really does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Final, NoReturn, TypeVar, cast

from ctxpact.conformance._context import describe
from ctxpact.reference.projection import total_approx_chars
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextReport,
    CtxpactError,
    JsonObject,
    JsonValue,
    compact_json,
)

#: The member values of the item shapes the spec names (§1.4).
MESSAGE: Final = "message"
TOOL_RESULT: Final = "function_call_output"
FUNCTION_CALL: Final = "function_call"
REASONING: Final = "reasoning"
TOOL_USE: Final = "tool_use"
INPUT_TEXT: Final = "input_text"

M = TypeVar("M")


class MissingFrameworkError(CtxpactError, ImportError):
    """An adapter module was imported without the framework it adapts.

    Reads like ``ctxpact.conformance.adapters.langchain needs langchain-core: pip install
    'ctxpact[langchain]'``.
    """

    def __init__(self, *, module: str, distribution: str, extra: str) -> None:
        self.distribution = distribution
        self.extra = extra
        super().__init__(
            f"{module} needs {distribution}, which is not installed: "
            f"pip install 'ctxpact[{extra}]'",
            name=module,
        )


class UnsupportedItemError(CtxpactError, ValueError):
    """An item that a framework's messages cannot carry without loss.

    Carries the item's position, the framework and the reason; reads like ``Expected an item
    LangChain can carry but got {"type":"function_call_output",...} at $[3]: output is null``.
    """

    def __init__(self, *, index: int, item: object, framework: str, reason: str) -> None:
        self.index = index
        self.item = item
        self.framework = framework
        self.reason = reason
        super().__init__(
            f"Expected an item {framework} can carry but got {describe(item, 120)} "
            f"at $[{index}]: {reason}"
        )


class UnsupportedMessageError(CtxpactError, ValueError):
    """A framework message that ctxpact items cannot carry without loss.

    Reads like ``Expected a LangChain message ctxpact can carry but got FunctionMessage at
    [2]: ...``.
    """

    def __init__(self, *, index: int, message: object, framework: str, reason: str) -> None:
        self.index = index
        self.message = message
        self.framework = framework
        self.reason = reason
        super().__init__(
            f"Expected a {framework} message ctxpact can carry but got "
            f"{type(message).__name__} at [{index}]: {reason}"
        )


class Unsupported(Exception):  # noqa: N818 - internal signal, re-raised with the index
    """Raised by one item's or message's converter; the list converter adds the index."""


def fail(reason: str) -> NoReturn:
    """Reject the item or message being converted, for *reason*."""
    raise Unsupported(reason)


def convert_all(
    values: Sequence[object],
    convert: Callable[[int, object], M],
    error: Callable[[int, object, str], CtxpactError],
) -> list[M]:
    """Convert each value in order; the first rejection becomes *error* with its index."""
    converted: list[M] = []
    for index, value in enumerate(values):
        try:
            converted.append(convert(index, value))
        except Unsupported as reason:
            raise error(index, value, str(reason)) from None
    return converted


# -- the faithful shapes -----------------------------------------------------------------


def members(item: object, required: Sequence[str], optional: Sequence[str] = ()) -> JsonObject:
    """*item* as a JSON object with exactly the *required* members and some *optional* ones."""
    if not isinstance(item, dict):
        fail(f"a {type(item).__name__} is not a message; only JSON objects are")
    missing = [name for name in required if name not in item]
    if missing:
        fail(f"members {missing} are missing")
    extra = [name for name in item if name not in required and name not in optional]
    if extra:
        fail(f"members {extra} are not carried")
    return item


def string(value: object, what: str) -> str:
    """*value* when it is a string; otherwise the item is rejected naming *what*."""
    if not isinstance(value, str):
        fail(f"{what} is {compact_json_or_repr(value)}, not a string")
    return value


def text_parts(content: object, what: str = "content") -> list[str]:
    """The texts of a content array made only of ``{"type":"input_text","text":...}`` parts."""
    if not isinstance(content, list):
        fail(f"{what} is not an array of input_text parts")
    texts = []
    for position, part in enumerate(content):
        if not (
            isinstance(part, dict)
            and list(part) == ["type", "text"]
            and part["type"] == INPUT_TEXT
            and isinstance(part["text"], str)
        ):
            fail(
                f"{what}[{position}] is {compact_json_or_repr(part)}, not "
                '{"type":"input_text","text":...}'
            )
        texts.append(part["text"])
    return texts


def input_text(text: str) -> JsonObject:
    """One ``input_text`` content part (§1.4)."""
    return {"type": INPUT_TEXT, "text": text}


def message_item(role: str, content: JsonValue) -> JsonObject:
    """A message item with its members in the spec's order: type, role, content."""
    return {"type": MESSAGE, "role": role, "content": content}


def chat_tool_call(entry: object, position: int) -> tuple[str, str, str]:
    """The (id, name, arguments) of a Chat Completions tool call, exactly in that shape."""
    if not (
        isinstance(entry, dict)
        and list(entry) == ["id", "type", "function"]
        and entry["type"] == "function"
        and isinstance(entry["function"], dict)
        and list(entry["function"]) == ["name", "arguments"]
    ):
        fail(
            f"tool_calls[{position}] is not in the Chat Completions shape "
            '{"id","type":"function","function":{"name","arguments"}}'
        )
    function = entry["function"]
    assert isinstance(function, dict)  # noqa: S101 - checked just above; narrows for mypy
    return (
        string(entry["id"], f"tool_calls[{position}].id"),
        string(function["name"], f"tool_calls[{position}].function.name"),
        string(function["arguments"], f"tool_calls[{position}].function.arguments"),
    )


def chat_tool_call_item(call_id: str, name: str, arguments: str) -> JsonObject:
    """A Chat Completions tool call, members in the API's order."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def parse_arguments(arguments: str, what: str) -> JsonObject:
    """The JSON object that an arguments text holds (strict JSON: no NaN or Infinity)."""
    try:
        value = json.loads(arguments, parse_constant=_no_constants)
    except ValueError:
        fail(f"{what} is not JSON text")
    if not isinstance(value, dict):
        fail(f"{what} is JSON but not a JSON object")
    return value


def compact_json_or_repr(value: object) -> str:
    """Compact JSON text of *value*, or its ``repr`` when it is not a JSON value."""
    try:
        return compact_json(cast("JsonValue", value))
    except (TypeError, ValueError):
        return repr(value)


# -- the presentation: what a stand-in message is built from -----------------------------


def role_of(item: JsonValue) -> str | None:
    """The item's ``role`` when it is a string."""
    if isinstance(item, dict):
        role = item.get("role")
        if isinstance(role, str):
            return role
    return None


def is_tool_result(item: JsonValue) -> bool:
    """§1.4: a JSON object whose ``type`` is ``function_call_output``."""
    return isinstance(item, dict) and item.get("type") == TOOL_RESULT


def is_reasoning(item: JsonValue) -> bool:
    """§1.4: a JSON object whose ``type`` is ``reasoning``."""
    return isinstance(item, dict) and item.get("type") == REASONING


def visible_text(item: JsonValue) -> str:
    """The text a stand-in message shows: a message's texts, else the item's JSON text."""
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        content = item.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            texts: list[str] = []
            for part in content:
                text = part.get("text") if isinstance(part, dict) else None
                if isinstance(text, str):
                    texts.append(text)
            if texts:
                return "\n".join(texts)
    return "" if item is None else compact_json(item)


def _text_of(value: JsonValue) -> str:
    if isinstance(value, str):
        return value
    return "{}" if value is None else compact_json(value)


def declared_calls(item: JsonValue) -> Iterator[tuple[str, str, str]]:
    """§1.4 rules (a) to (d): (id, name, arguments text) of each tool call *item* declares.

    A missing id or name becomes ``""``; arguments that are not a string become their
    compact JSON text (``{}`` when absent).
    """
    if not isinstance(item, dict):
        return
    kind = item.get("type")
    if kind == FUNCTION_CALL:
        yield _str(item.get("call_id")), _str(item.get("name")), _text_of(item.get("arguments"))
    elif kind == TOOL_USE:
        yield _str(item.get("id")), _str(item.get("name")), _text_of(item.get("input"))
    calls = item.get("tool_calls")
    if isinstance(calls, list):
        for entry in calls:
            if not isinstance(entry, dict):
                continue
            holder = entry
            function = entry.get("function")
            if not isinstance(entry.get("name"), str) and isinstance(function, dict):
                holder = function
            yield _str(entry.get("id")), _str(holder.get("name")), _text_of(holder.get("arguments"))
    content = item.get("content")
    if isinstance(content, list):
        for part in content:
            yield from declared_calls(part)


def _str(value: JsonValue) -> str:
    return value if isinstance(value, str) else ""


def arguments_or_empty(arguments: str) -> JsonObject:
    """A stand-in's arguments: the JSON object the text holds, or ``{}``."""
    try:
        return parse_arguments(arguments, "arguments")
    except Unsupported:
        return {}


def tool_output_text(item: JsonObject) -> str:
    """A tool result's output as text: the string itself, else its JSON text."""
    output = item.get("output")
    return output if isinstance(output, str) else _text_of(output) if output is not None else ""


# -- reports -----------------------------------------------------------------------------


def positions(messages: Sequence[object]) -> dict[int, int]:
    """Each presented message's identity mapped to the position of the item it stands for."""
    return {id(message): index for index, message in enumerate(messages)}


def survivors(
    kept: Sequence[M], index_of: Mapping[int, int]
) -> tuple[list[int], list[tuple[int, M]]]:
    """Source positions of the kept messages, and the messages the framework inserted.

    Inserted messages are returned with their position in *kept*. The positions are in the
    framework's order, as it kept them: a framework that reorders shows up as such in the
    projection, for the order-preserving check (PRJ-7) to find.
    """
    indices: list[int] = []
    inserted: list[tuple[int, M]] = []
    for position, message in enumerate(kept):
        index = index_of.get(id(message))
        if index is None:
            inserted.append((position, message))
        else:
            indices.append(index)
    return indices, inserted


def project_survivors(  # noqa: PLR0913 - the report's facts, each its own argument
    source: Sequence[JsonValue],
    kept: Sequence[M],
    index_of: Mapping[int, int],
    view: Callable[[M], JsonValue],
    *,
    item_limit_applied: bool,
    character_limit_applied: bool,
    notes: list[str],
    keep_inserted: bool = True,
) -> ContextProjection:
    """The projection of what a framework kept.

    The original items of its survivors, in its order, with the messages it inserted shown
    through *view* (or left out, with a note, when *keep_inserted* is false).
    """
    indices, inserted = survivors(kept, index_of)
    if inserted and not keep_inserted:
        notes.append(f"left out {len(inserted)} message(s) the framework inserted")
        inserted = []
    output: list[JsonValue] = [source[index] for index in indices]
    for position, message in inserted:
        output.insert(position, view(message))
    return build_projection(
        source,
        output,
        kept=indices,
        inserted=len(inserted),
        item_limit_applied=item_limit_applied,
        character_limit_applied=character_limit_applied,
        notes=notes,
    )


def budget_note(budget: ContextBudget | None, *, ignored: Sequence[str]) -> tuple[str, ...]:
    """A note naming the budget fields the framework has no setting for (and so ignores)."""
    if budget is None:
        return ()
    values = {
        "maxItems": budget.max_items,
        "maxApproxChars": budget.max_approx_chars,
        "pinnedPrefixItems": budget.pinned_prefix_items or None,
        "maxRecentToolResults": budget.max_recent_tool_results,
        "trimOldReasoning": budget.trim_old_reasoning or None,
    }
    unused = [name for name in ignored if values[name] is not None]
    if not unused:
        return ()
    return (f"not expressible in this framework, ignored: {', '.join(unused)}",)


def build_projection(  # noqa: PLR0913 - every field of the report is its own fact
    items: Sequence[JsonValue],
    output: Sequence[JsonValue],
    *,
    kept: Sequence[int],
    inserted: int,
    item_limit_applied: bool,
    character_limit_applied: bool,
    notes: Sequence[str],
) -> ContextProjection:
    """The projection of a selection: the report says what the selection did (PRJ-12).

    ``droppedIndices`` are the source positions not kept; when the framework inserted
    messages of its own, no position list can be exact (PRJ-7 does not hold), so the report
    leaves it out and a note counts the insertions. ``clearedIndices`` is empty: an adapter
    maps survivors back to the original items and never replaces one.
    """
    count = len(items)
    dropped = sorted(set(range(count)) - set(kept))
    all_notes = list(notes)
    if inserted:
        all_notes.append(f"the framework inserted {inserted} message(s) of its own")
    report = ContextReport(
        source_item_count=count,
        projected_item_count=len(output),
        dropped_item_count=max(0, count - len(output)),
        source_approx_chars=total_approx_chars(items),
        projected_approx_chars=total_approx_chars(output),
        item_limit_applied=item_limit_applied and count > len(output),
        character_limit_applied=character_limit_applied and count > len(output),
        notes=tuple(all_notes),
        dropped_indices=None if inserted else tuple(dropped),
        cleared_indices=None if inserted else (),
    )
    return ContextProjection(items=tuple(output), report=report)


# -- the other direction: a ctxpact projection mapped back onto framework messages -------


def represented(
    source: Sequence[JsonValue], projection: ContextProjection
) -> list[tuple[int, JsonValue]]:
    """For each output item, the source position it represents (PRJ-7) and the item.

    Uses ``droppedIndices`` when the report carries them; otherwise aligns by identity and
    then by equal JSON text, in order. A projection that cannot be aligned raises
    :class:`ProjectionAlignmentError`: the adapter never guesses.
    """
    output = list(projection.items)
    dropped = projection.report.dropped_indices
    if dropped is not None:
        kept = [index for index in range(len(source)) if index not in set(dropped)]
        if len(kept) == len(output):
            return list(zip(kept, output, strict=True))
    pairs: list[tuple[int, JsonValue]] = []
    cursor = 0
    for position, item in enumerate(output):
        while cursor < len(source) and not same_item(source[cursor], item):
            cursor += 1
        if cursor == len(source):
            raise ProjectionAlignmentError(position=position, item=item)
        pairs.append((cursor, item))
        cursor += 1
    return pairs


def same_item(left: JsonValue, right: JsonValue) -> bool:
    if left is right:
        return True
    try:
        return compact_json(left) == compact_json(right)
    except (TypeError, ValueError):
        return False


class ProjectionAlignmentError(CtxpactError, ValueError):
    """A projector's output could not be matched to the messages it came from."""

    def __init__(self, *, position: int, item: object) -> None:
        self.position = position
        super().__init__(
            f"Expected output item {position} to represent a source item (PRJ-7) but got "
            f"{describe(item, 120)}, which matches none after the previous one, and the report "
            "carries no droppedIndices to align by"
        )
