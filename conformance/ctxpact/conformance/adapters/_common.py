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

import bisect
import contextlib
import json
import logging
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
    tool_results,
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


@contextlib.contextmanager
def quiet_logs(name: str) -> Iterator[None]:
    """Keep what logger *name* writes off the terminal while a framework runs.

    A framework logs each summary it could not make or each window it could not trim; the
    checks make it do so on purpose, many times, and Python's last-resort handler would print
    every one to stderr.
    """
    logger = logging.getLogger(name)
    handler = logging.NullHandler()
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield
    finally:
        logger.propagate = propagate
        logger.removeHandler(handler)


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


def tool_result_item(call_id: str, output: JsonValue) -> JsonObject:
    """A Responses ``function_call_output`` item, members in the spec's order (§1.4)."""
    return {"type": TOOL_RESULT, "call_id": call_id, "output": output}


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


def item_role(item: JsonValue) -> str | None:
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


def item_text(item: JsonValue) -> str:
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


def tool_results_of(item: JsonValue) -> list[tuple[str, str]]:
    """(call id, output text) of each tool result *item* is or carries, in any wire format.

    A Responses ``function_call_output`` item and a Chat tool message (``role`` ``"tool"``)
    are one result each; an Anthropic result carrier gives one per ``tool_result`` part
    (§1.4). A call id that is not a string reads as ``""``; an output that is not a string
    becomes its compact JSON text.
    """
    found = []
    for result in tool_results(item):
        holder = result.holder(item)
        output = holder.get(result.output_key)
        found.append((result.call_id or "", _output_text(output)))
    return found


def standalone_results(item: JsonValue) -> list[tuple[str, str]]:
    """The results of *item* when it holds nothing else, as :func:`tool_results_of` gives them.

    A Responses result item, a Chat tool message, or an Anthropic carrier whose parts are
    all ``tool_result`` parts: a framework presents each as its tool-result message. Any
    other item gives ``[]`` (a carrier that also holds text is a user message).
    """
    if not isinstance(item, dict):
        return []
    parts = item.get("content")
    whole = item.get("type") == TOOL_RESULT or item.get("role") == "tool"
    carrier = (
        isinstance(parts, list)
        and bool(parts)
        and all(isinstance(part, dict) and part.get("type") == "tool_result" for part in parts)
    )
    return tool_results_of(item) if whole or carrier else []


def _output_text(output: JsonValue) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        texts = [part.get("text") if isinstance(part, dict) else None for part in output]
        if texts and all(isinstance(text, str) for text in texts):
            return "\n".join(str(text) for text in texts)
    return "" if output is None else compact_json(output)


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


def message_positions(messages: Sequence[object]) -> dict[int, int]:
    """Each presented message's identity mapped to the position of the item it stands for.

    Build it from the messages handed to the framework, one per item, before the framework
    runs; :func:`survivor_projection` reads it to tell survivors from inserted messages.
    """
    return {id(message): index for index, message in enumerate(messages)}


def survivor_projection(  # noqa: PLR0913 - the report's facts, each its own argument
    source: Sequence[JsonValue],
    kept: Sequence[M],
    index_of: Mapping[int, int],
    view: Callable[[M], JsonValue],
    *,
    item_limit_applied: bool,
    character_limit_applied: bool,
    notes: Sequence[str] = (),
    keep_inserted: bool = True,
) -> ContextProjection:
    """The projection of what a framework kept, with a report that is exact (PRJ-12).

    *source* are the items, *kept* the framework's messages after it ran and *index_of* the
    :func:`message_positions` of the messages it was given. A kept message found there
    stands for its original item (the item itself, by identity, never a conversion back); a
    message the framework made itself is shown through *view*, in place, or left out (with
    a note) when *keep_inserted* is false. The items are in the framework's order, so a
    framework that reorders is caught by the order-preserving check (PRJ-7). The report
    counts, sizes and lists the dropped positions; with an inserted message no position list
    can be exact and it carries none (a note counts the insertions). Linear in the number of
    items.
    """
    indices: list[int] = []
    output: list[JsonValue] = []
    made: list[JsonValue] = []
    all_notes = list(notes)
    for message in kept:
        index = index_of.get(id(message))
        if index is not None:
            indices.append(index)
            output.append(source[index])
        elif keep_inserted:
            made.append(view(message))
            output.append(made[-1])
        else:
            made.append(None)
    if made and not keep_inserted:
        all_notes.append(f"left out {len(made)} message(s) the framework inserted")
        made = []
    return build_projection(
        source,
        output,
        kept=indices,
        inserted=len(made),
        item_limit_applied=item_limit_applied,
        character_limit_applied=character_limit_applied,
        notes=all_notes,
    )


def matched_projection(
    source: Sequence[JsonValue],
    output: Sequence[JsonValue],
    *,
    item_limit_applied: bool,
    character_limit_applied: bool,
    notes: Sequence[str] = (),
) -> ContextProjection:
    """The projection of items a framework handed back as copies (stored and read back).

    Each output item stands for the next source item, in order, with the same compact JSON
    text, and the projection holds that source item; an output item that matches none is one
    the framework made or changed and is kept as the framework gave it, so the report
    carries no position list (PRJ-12) and the order and document checks judge it. Linear in
    the number of items (each text is looked up, not scanned for).
    """
    places: dict[str, list[int]] = {}
    for index, item in enumerate(source):
        places.setdefault(compact_json(item), []).append(index)
    cursor = 0
    kept: list[int] = []
    shown: list[JsonValue] = []
    inserted = 0
    for item in output:
        candidates = places.get(compact_json(item), [])
        found = bisect.bisect_left(candidates, cursor)
        if found == len(candidates):
            inserted += 1
            shown.append(item)
            continue
        kept.append(candidates[found])
        shown.append(source[candidates[found]])
        cursor = candidates[found] + 1
    return build_projection(
        source,
        shown,
        kept=kept,
        inserted=inserted,
        item_limit_applied=item_limit_applied,
        character_limit_applied=character_limit_applied,
        notes=notes,
    )


def unexpressible_note(budget: ContextBudget | None, *, ignored: Sequence[str]) -> tuple[str, ...]:
    """A report note naming the fields of *budget* in *ignored* that it sets.

    *ignored* are the budget fields (``maxApproxChars``, ``pinnedPrefixItems``, ...) the
    framework has no setting for; the note is empty when the budget sets none of them.
    """
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
    cleared: Sequence[int] = (),
) -> ContextProjection:
    """The projection of a selection: the report says what the selection did (PRJ-12).

    ``droppedIndices`` are the source positions not kept; when the framework inserted
    messages of its own, no position list can be exact (PRJ-7 does not hold), so the report
    leaves it out and a note counts the insertions. ``clearedIndices`` are *cleared*: the
    positions whose item the framework replaced (a cleared tool result), empty for an adapter
    that maps survivors back to the original items.
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
        cleared_indices=None if inserted else tuple(cleared),
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
        left_out = set(dropped)
        kept = [index for index in range(len(source)) if index not in left_out]
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
