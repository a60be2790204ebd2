"""What each provider's API rejects about tool calls and their results, as data (§1.6).

:func:`wire_problems` reads a list of items as one provider would receive it and returns
every rule the list breaks, each with the position, the item and the error text the provider
answers. Only the pairing and ordering rules of WIRE-2 .. WIRE-16 are checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from attrs import field, frozen

from ctxpact.spec._errors import CtxpactError
from ctxpact.spec._json import JsonObject, JsonValue
from ctxpact.spec._pairing import (
    FUNCTION_CALL,
    FUNCTION_CALL_OUTPUT,
    REASONING,
    TOOL_RESULT,
    TOOL_ROLE,
    TOOL_USE,
    Shape,
    ToolResultRef,
    is_reasoning,
    tool_results,
)

OPENAI_RESPONSES: Final = "openai-responses"
OPENAI_CHAT: Final = "openai-chat"
ANTHROPIC: Final = "anthropic"
#: The providers :func:`wire_problems` knows, in the order of §1.6.
PROVIDERS: Final = (OPENAI_RESPONSES, OPENAI_CHAT, ANTHROPIC)

# The provider's own words (WIRE-3 .. WIRE-16); fields are filled with str.format.
MISSING_RESPONSES_CALL_ID: Final = "Missing required parameter: 'input[{position}].call_id'."
MISSING_CHAT_CALL_ID: Final = (
    "Missing required parameter: 'messages[{position}].tool_calls[{index}].id'."
)
MISSING_TOOL_CALL_ID: Final = (
    "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'."
)
MISSING_TOOL_USE_ID: Final = "messages.{position}.content.{part}.id: Field required"
MISSING_TOOL_USE_ID_OF_RESULT: Final = (
    "messages.{position}.content.{part}.tool_use_id: Field required"
)
NO_TOOL_CALL_FOUND: Final = "No tool call found for function call output with call_id {call_id}."
NO_TOOL_OUTPUT_FOUND: Final = "No tool output found for function call {call_id}."
REASONING_WITHOUT_FOLLOWER: Final = (
    "Item '{id}' of type 'reasoning' was provided without its required following item."
)
DUPLICATE_ITEM: Final = (
    "Duplicate item found with id {id}. Remove duplicate items from your input and try again."
)
TOOL_MESSAGE_WITHOUT_CALLS: Final = (
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message"
    " with 'tool_calls'."
)
TOOL_CALL_ID_NOT_FOUND: Final = (
    "Invalid parameter: 'tool_call_id' of '{call_id}' not found in 'tool_calls' of previous"
    " message."
)
TOOL_CALLS_UNANSWERED: Final = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to"
    " each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
)
DUPLICATE_TOOL_CALL_ID: Final = (
    "Invalid parameter: Duplicate value for 'tool_call_id' of '{call_id}', in"
    " messages[{first}] and messages[{second}]."
)
TOOL_USE_UNANSWERED: Final = (
    "messages.{position}: `tool_use` ids were found without `tool_result` blocks immediately"
    " after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the"
    " next message."
)
UNEXPECTED_TOOL_USE_ID: Final = (
    "messages.{position}.content.{part}: unexpected `tool_use_id` found in `tool_result`"
    " blocks: {call_id}. Each `tool_result` block must have a corresponding `tool_use` block"
    " in the previous message."
)
TOOL_USE_NOT_LAST: Final = (
    "messages.{position}.content.{part}: a block of type {kind} follows a `tool_use` block in the"
    " assistant turn, so its `tool_use` ids were found without `tool_result` blocks"
    " immediately after"
)
DUPLICATE_TOOL_USE: Final = "messages.{position}.content.{part}: `tool_use` ids must be unique"
DUPLICATE_TOOL_RESULT: Final = (
    "messages.{position}.content.{part}: each tool_use must have a single result. Found"
    " multiple `tool_result` blocks with id: {call_id}"
)
#: WIRE-2: what each provider takes instead of a foreign tool call or result.
FOREIGN_SHAPE: Final = "{what} is not part of the {provider} format, which takes {takes}"
_TAKES: Final = {
    OPENAI_RESPONSES: "function_call and function_call_output items",
    OPENAI_CHAT: "tool_calls on assistant messages and messages with role 'tool'",
    ANTHROPIC: "tool_use parts in assistant messages and tool_result parts in user messages",
}
_SHAPE_NAMES: Final = {
    Shape.RESPONSES: "Responses-style",
    Shape.CHAT: "Chat-style",
    Shape.ANTHROPIC: "Anthropic-style",
}
_ASSISTANT: Final = "assistant"
_USER: Final = "user"
_CLAUSE_NUMBER = re.compile(r"[0-9]+$")


class WireProblemError(CtxpactError, ValueError):
    """:func:`wire_problems` was asked about a provider it does not know, or about no list."""


@frozen(kw_only=True)
class WireProblem:
    """One rule of §1.6 that a list of items breaks for one provider (WIRE-1).

    ``position`` is the item's index in the list and ``part`` the index of the content part
    the problem concerns, or ``None`` for the item as a whole; ``message`` is the error text
    the provider answers (or, for WIRE-2, what it takes instead).
    """

    rule: str
    provider: str
    position: int
    part: int | None
    item: JsonValue = field(eq=False, repr=False)
    message: str

    @property
    def path(self) -> str:
        """The JSON path of what the problem concerns: ``$[3]`` or ``$[3].content[1]``."""
        where = f"$[{self.position}]"
        return where if self.part is None else f"{where}.content[{self.part}]"

    def __str__(self) -> str:
        return f"{self.path}: {self.message} ({self.rule}, {self.provider})"


@frozen(kw_only=True)
class _Call:
    """A tool call with where it sits: the part of the item, and how deep."""

    call_id: str | None
    shape: Shape
    part: int | None
    depth: int
    index: int  # the position among the tool_calls entries of its holder


def _located_calls(value: JsonValue, part: int | None, depth: int) -> Iterator[_Call]:
    """The tool calls of §1.4 in their order, with the part and the depth each sits at."""
    if not isinstance(value, dict):
        return
    kind = value.get("type")
    if kind == REASONING:
        return  # reasoning declares no tool call (§1.4)
    if kind == FUNCTION_CALL:
        yield _Call(
            call_id=_text(value.get("call_id")),
            shape=Shape.RESPONSES,
            part=part,
            depth=depth,
            index=0,
        )
    elif kind == TOOL_USE:
        yield _Call(
            call_id=_text(value.get("id")), shape=Shape.ANTHROPIC, part=part, depth=depth, index=0
        )
    calls = value.get("tool_calls")
    if isinstance(calls, list):
        for index, entry in enumerate(calls):
            if isinstance(entry, dict):
                yield _Call(
                    call_id=_text(entry.get("id")),
                    shape=Shape.CHAT,
                    part=part,
                    depth=depth,
                    index=index,
                )
    content = value.get("content")
    if isinstance(content, list):
        for index, element in enumerate(content):
            yield from _located_calls(element, index if depth == 0 else part, depth + 1)


def _text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


def _role(item: JsonObject) -> JsonValue:
    return item.get("role")


class _Findings:
    """The problems found so far, for one list and one provider."""

    def __init__(self, items: Sequence[JsonValue], provider: str) -> None:
        self.items = items
        self.provider = provider
        self.found: list[WireProblem] = []

    def add(self, rule: str, position: int, part: int | None, message: str) -> None:
        self.found.append(
            WireProblem(
                rule=rule,
                provider=self.provider,
                position=position,
                part=part,
                item=self.items[position],
                message=message,
            )
        )

    def sorted(self) -> tuple[WireProblem, ...]:
        def key(problem: WireProblem) -> tuple[int, int, int]:
            number = _CLAUSE_NUMBER.search(problem.rule)
            part = -1 if problem.part is None else problem.part
            return problem.position, part, int(number.group()) if number else 0

        return tuple(sorted(self.found, key=key))


def _proper_call(call: _Call, item: JsonObject, provider: str) -> bool:
    if provider == OPENAI_RESPONSES:
        return call.shape is Shape.RESPONSES and call.depth == 0
    if provider == OPENAI_CHAT:
        return call.shape is Shape.CHAT and call.depth == 0 and _role(item) == _ASSISTANT
    return call.shape is Shape.ANTHROPIC and call.depth == 1 and _role(item) == _ASSISTANT


def _proper_result(result: ToolResultRef, item: JsonObject, provider: str) -> bool:
    if provider == OPENAI_RESPONSES:
        return result.shape is Shape.RESPONSES
    if provider == OPENAI_CHAT:
        return result.shape is Shape.CHAT
    return result.shape is Shape.ANTHROPIC and _role(item) == _USER


@frozen(kw_only=True)
class _Scan:
    """The provider's own tool calls and results of a list, with the positions they sit at."""

    calls: tuple[tuple[int, _Call], ...]
    results: tuple[tuple[int, ToolResultRef], ...]


def _scan(findings: _Findings) -> _Scan:
    """WIRE-2 and WIRE-3, and the calls and results the other rules look at."""
    provider = findings.provider
    calls: list[tuple[int, _Call]] = []
    results: list[tuple[int, ToolResultRef]] = []
    for position, item in enumerate(findings.items):
        if not isinstance(item, dict):
            continue
        for call in _located_calls(item, None, 0):
            if not _proper_call(call, item, provider):
                what = f"a {_SHAPE_NAMES[call.shape]} tool call"
                findings.add("WIRE-2", position, call.part, _foreign(what, provider))
            elif call.call_id is None:
                findings.add("WIRE-3", position, call.part, _missing_call_id(call, position))
            else:
                calls.append((position, call))
        for result in tool_results(item):
            if not _proper_result(result, item, provider):
                what = f"a {_SHAPE_NAMES[result.shape]} tool result"
                findings.add("WIRE-2", position, result.part, _foreign(what, provider))
            elif result.call_id is None:
                findings.add("WIRE-3", position, result.part, _missing_result_id(result, position))
            else:
                results.append((position, result))
    return _Scan(calls=tuple(calls), results=tuple(results))


def _foreign(what: str, provider: str) -> str:
    return FOREIGN_SHAPE.format(what=what, provider=provider, takes=_TAKES[provider])


def _missing_call_id(call: _Call, position: int) -> str:
    if call.shape is Shape.RESPONSES:
        return MISSING_RESPONSES_CALL_ID.format(position=position)
    if call.shape is Shape.CHAT:
        return MISSING_CHAT_CALL_ID.format(position=position, index=call.index)
    return MISSING_TOOL_USE_ID.format(position=position, part=call.part)


def _missing_result_id(result: ToolResultRef, position: int) -> str:
    if result.shape is Shape.RESPONSES:
        return MISSING_RESPONSES_CALL_ID.format(position=position)
    if result.shape is Shape.CHAT:
        return MISSING_TOOL_CALL_ID
    return MISSING_TOOL_USE_ID_OF_RESULT.format(position=position, part=result.part)


def _responses(findings: _Findings, scan: _Scan) -> None:
    """WIRE-4 .. WIRE-7."""
    _responses_pairs(findings, scan)
    _responses_items(findings)


def _responses_pairs(findings: _Findings, scan: _Scan) -> None:
    """WIRE-4 and WIRE-5: outputs without their call, calls without their output."""
    events: list[tuple[int, int, str]] = [(p, 1, c.call_id or "") for p, c in scan.calls]
    events += [(p, 0, r.call_id or "") for p, r in scan.results]
    # Results of an item are read before its calls (PAIR-1: the call comes strictly before).
    latest: dict[str, int] = {}
    answered: set[tuple[int, str]] = set()
    for position, kind, call_id in sorted(events):
        if kind == 1:
            latest[call_id] = position
        elif call_id in latest:
            answered.add((latest[call_id], call_id))
        else:
            findings.add("WIRE-4", position, None, NO_TOOL_CALL_FOUND.format(call_id=call_id))
    for position, call in scan.calls:
        call_id = call.call_id or ""
        if (position, call_id) not in answered:
            findings.add("WIRE-5", position, None, NO_TOOL_OUTPUT_FOUND.format(call_id=call_id))


def _responses_items(findings: _Findings) -> None:
    """WIRE-6 and WIRE-7: reasoning without its output, items with a repeated id."""
    items = findings.items
    seen: set[str] = set()
    for position, item in enumerate(items):
        item_id = _text(item.get("id")) if isinstance(item, dict) else None
        if item_id is None:
            continue
        if is_reasoning(item) and not _produced_output(items, position + 1):
            findings.add("WIRE-6", position, None, REASONING_WITHOUT_FOLLOWER.format(id=item_id))
        if item_id in seen:
            findings.add("WIRE-7", position, None, DUPLICATE_ITEM.format(id=item_id))
        seen.add(item_id)


def _produced_output(items: Sequence[JsonValue], position: int) -> bool:
    if position >= len(items):
        return False
    follower = items[position]
    return isinstance(follower, dict) and (
        follower.get("type") == FUNCTION_CALL or _role(follower) == _ASSISTANT
    )


class _ChatRuns:
    """WIRE-8 .. WIRE-11: the runs of tool messages after assistant messages with tool calls."""

    def __init__(self, findings: _Findings, scan: _Scan) -> None:
        self.findings = findings
        self.calls_at: dict[int, list[str]] = {}
        for position, call in scan.calls:
            self.calls_at.setdefault(position, []).append(call.call_id or "")
        self.answers_at = {position: result.call_id for position, result in scan.results}
        self.head: int | None = None  # the assistant message whose run is open
        self.answered: dict[str, int] = {}

    def run(self) -> None:
        for position, item in enumerate(self.findings.items):
            if _is_tool_message(item):
                self.answer(position)
                continue
            self.close()
            self.head = position if _opens_run(item) else None
        self.close()

    def answer(self, position: int) -> None:
        findings, head, call_id = self.findings, self.head, self.answers_at.get(position)
        if head is None:
            findings.add("WIRE-8", position, None, TOOL_MESSAGE_WITHOUT_CALLS)
        elif call_id is None:
            return  # WIRE-3 said so
        elif call_id not in self.calls_at.get(head, []):
            findings.add("WIRE-9", position, None, TOOL_CALL_ID_NOT_FOUND.format(call_id=call_id))
        elif call_id in self.answered:
            message = DUPLICATE_TOOL_CALL_ID.format(
                call_id=call_id, first=self.answered[call_id], second=position
            )
            findings.add("WIRE-11", position, None, message)
        else:
            self.answered[call_id] = position

    def close(self) -> None:
        head = self.head
        if head is not None:
            calls = self.calls_at.get(head, [])
            missing = [call_id for call_id in calls if call_id not in self.answered]
            if missing:
                message = TOOL_CALLS_UNANSWERED.format(ids=", ".join(dict.fromkeys(missing)))
                self.findings.add("WIRE-10", head, None, message)
        self.head, self.answered = None, {}


def _is_tool_message(item: JsonValue) -> bool:
    return (
        isinstance(item, dict)
        and item.get("type") not in (FUNCTION_CALL_OUTPUT, REASONING)
        and _role(item) == TOOL_ROLE
    )


def _opens_run(item: JsonValue) -> bool:
    if not isinstance(item, dict) or _role(item) != _ASSISTANT:
        return False
    calls = item.get("tool_calls")
    return isinstance(calls, list) and bool(calls)


@frozen(kw_only=True)
class _Block:
    position: int
    part: int | None
    kind: str  # the block's type: "tool_use", "tool_result", "text", ...
    call_id: str | None


@frozen(kw_only=True)
class _Turn:
    role: str
    blocks: tuple[_Block, ...]


def _turns(findings: _Findings, scan: _Scan) -> list[_Turn]:
    """WIRE-12: the messages, merged into turns of one role, with their blocks."""
    call_ids = {(p, c.part): c.call_id for p, c in scan.calls}
    result_ids = {(p, r.part): r.call_id for p, r in scan.results}
    turns: list[tuple[str, list[_Block]]] = []
    for position, item in enumerate(findings.items):
        if not isinstance(item, dict):
            continue
        role = _role(item)
        if role not in (_USER, _ASSISTANT):
            continue
        assert isinstance(role, str)  # noqa: S101 - one of the two
        if not turns or turns[-1][0] != role:
            turns.append((role, []))
        blocks = turns[-1][1]
        content = item.get("content")
        if isinstance(content, str):
            blocks.append(_Block(position=position, part=None, kind="text", call_id=None))
        elif isinstance(content, list):
            for part, element in enumerate(content):
                kind = element.get("type") if isinstance(element, dict) else None
                name = kind if isinstance(kind, str) else "non-object"
                where = (position, part)
                call_id = call_ids.get(where) if name == TOOL_USE else result_ids.get(where)
                blocks.append(_Block(position=position, part=part, kind=name, call_id=call_id))
    return [_Turn(role=role, blocks=tuple(blocks)) for role, blocks in turns]


def _anthropic(findings: _Findings, scan: _Scan) -> None:
    """WIRE-13 .. WIRE-16, turn by turn."""
    turns = _turns(findings, scan)
    seen_uses: set[str] = set()
    for index, turn in enumerate(turns):
        previous = turns[index - 1] if index > 0 else None
        following = turns[index + 1] if index + 1 < len(turns) else None
        if turn.role == _ASSISTANT:
            _assistant_turn(findings, turn, following, seen_uses)
        else:
            _user_turn(findings, turn, previous)


def _leading_results(turn: _Turn | None) -> set[str]:
    """WIRE-12: the call ids of a user turn's leading results (none for another turn)."""
    answered: set[str] = set()
    if turn is not None and turn.role == _USER:
        for block in turn.blocks:
            if block.kind != TOOL_RESULT:
                break
            if block.call_id is not None:
                answered.add(block.call_id)
    return answered


def _assistant_turn(
    findings: _Findings, turn: _Turn, following: _Turn | None, seen_uses: set[str]
) -> None:
    answered = _leading_results(following)
    missing: dict[int, list[str]] = {}
    after_use = False
    for block in turn.blocks:
        if block.kind != TOOL_USE:
            if after_use:
                message = TOOL_USE_NOT_LAST.format(
                    position=block.position, part=block.part, kind=block.kind
                )
                findings.add("WIRE-15", block.position, block.part, message)
            continue
        after_use = True
        if block.call_id is None:
            continue
        if block.call_id in seen_uses:
            message = DUPLICATE_TOOL_USE.format(position=block.position, part=block.part)
            findings.add("WIRE-16", block.position, block.part, message)
        seen_uses.add(block.call_id)
        if block.call_id not in answered:
            missing.setdefault(block.position, []).append(block.call_id)
    for position, ids in missing.items():
        message = TOOL_USE_UNANSWERED.format(position=position, ids=", ".join(ids))
        findings.add("WIRE-13", position, None, message)


def _user_turn(findings: _Findings, turn: _Turn, previous: _Turn | None) -> None:
    uses: set[str] = set()
    if previous is not None and previous.role == _ASSISTANT:
        uses = {b.call_id for b in previous.blocks if b.kind == TOOL_USE and b.call_id}
    answered: set[str] = set()
    for block in turn.blocks:
        if block.kind != TOOL_RESULT or block.call_id is None:
            continue
        if block.call_id not in uses:
            message = UNEXPECTED_TOOL_USE_ID.format(
                position=block.position, part=block.part, call_id=block.call_id
            )
            findings.add("WIRE-14", block.position, block.part, message)
        elif block.call_id in answered:
            message = DUPLICATE_TOOL_RESULT.format(
                position=block.position, part=block.part, call_id=block.call_id
            )
            findings.add("WIRE-16", block.position, block.part, message)
        answered.add(block.call_id)


def wire_problems(items: Sequence[JsonValue], provider: str) -> tuple[WireProblem, ...]:
    """Every rule of §1.6 that *items* break for *provider*, in order of position.

    *provider* is ``"openai-responses"``, ``"openai-chat"`` or ``"anthropic"``
    (:data:`PROVIDERS`). An empty result means the provider accepts the list as far as the
    pairing and ordering rules go. Odd items are passed over, never an error; the items are
    not changed.

    Implements WIRE-1 to WIRE-16.

    Raises:
        WireProblemError: *provider* is not one of :data:`PROVIDERS`, or *items* is a string
            or not a sequence.

    """
    if provider not in PROVIDERS:
        known = ", ".join(repr(name) for name in PROVIDERS)
        raise WireProblemError(f"Expected a provider among {known} but got {provider!r}")
    if isinstance(items, str | bytes | dict) or not isinstance(items, Sequence):
        raise WireProblemError(
            f"Expected a list of items but got {type(items).__name__} {items!r:.60}"
        )
    findings = _Findings(items, provider)
    scan = _scan(findings)
    if provider == OPENAI_RESPONSES:
        _responses(findings, scan)
    elif provider == OPENAI_CHAT:
        _ChatRuns(findings, scan).run()
    else:
        _anthropic(findings, scan)
    return findings.sorted()


__all__ = ["PROVIDERS", "WireProblem", "WireProblemError", "wire_problems"]
