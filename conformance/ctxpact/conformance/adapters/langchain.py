"""LangChain: messages both ways, ``trim_messages`` as a projector, ctxpact as a trimmer.

Install with ``pip install 'ctxpact[langchain]'`` (``langchain-core``).

Faithful conversions (:func:`to_langchain`, :func:`from_langchain`); each item is one message:

=========================================================  ====================================
ctxpact item                                               LangChain message
=========================================================  ====================================
message, role ``user`` / ``system``                        ``HumanMessage`` / ``SystemMessage``
message, role ``developer``                                ``SystemMessage`` with
                                                           ``additional_kwargs``
                                                           ``__openai_role__: "developer"``
message, role ``assistant`` (text, Anthropic ``tool_use``  ``AIMessage`` (content blocks;
parts)                                                     ``tool_calls`` from ``tool_use``)
message, role ``assistant``, Chat ``tool_calls``           ``AIMessage`` with ``tool_calls`` and
                                                           the raw calls in ``additional_kwargs``
Responses ``function_call`` / ``reasoning`` item           ``AIMessage`` whose one content block
                                                           is the item (the Responses format)
``function_call_output`` with a string ``output``          ``ToolMessage``
=========================================================  ====================================

Content is a string, or ``input_text`` parts, which become ``{"type": "text"}`` blocks. The
conversion from LangChain reads ``content``, ``tool_calls``, ``tool_call_id`` and the two
``additional_kwargs`` keys above; ``id``, ``response_metadata``, ``usage_metadata`` and other
``additional_kwargs`` are provider metadata, not prompt content, and are not carried. Everything
else (images, ``invalid_tool_calls``, a ``ToolMessage`` with ``status="error"``, an
``artifact`` or a ``name``, ``FunctionMessage``, ``ChatMessage``) raises
:class:`~ctxpact.conformance.adapters.UnsupportedMessageError`.

:class:`TrimMessagesProjector` runs the real ``trim_messages`` on messages presented one per
item and maps the survivors back to the original items. Budget mapping: ``maxItems`` M is a call
with ``token_counter=len`` and ``max_tokens=M``; ``maxApproxChars`` C is a second call (on the
first one's survivors) with a counter that sums the items' ``approx_chars`` (SIZE-1 .. SIZE-6)
and ``max_tokens=C``; ``pinnedPrefixItems`` ≥ 1 turns on ``include_system`` (strategy ``last``
only), the one prefix trim_messages can keep. Items no LangChain message carries are presented
as the message LangChain itself would make of them: a tool result as a ``ToolMessage`` (its
output as text), any item declaring tool calls as an ``AIMessage`` with those calls, an
assistant item or a reasoning item as an ``AIMessage``, a system or developer item as a
``SystemMessage``, and anything else (strings, numbers, null, user items) as a ``HumanMessage``,
as ``convert_to_messages`` makes of a string.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, Literal, cast

from ctxpact.conformance.adapters._common import (
    FUNCTION_CALL,
    INPUT_TEXT,
    MESSAGE,
    REASONING,
    TOOL_RESULT,
    TOOL_USE,
    MissingFrameworkError,
    Unsupported,
    UnsupportedItemError,
    UnsupportedMessageError,
    arguments_or_empty,
    chat_tool_call,
    chat_tool_call_item,
    compact_json_or_repr,
    convert_all,
    declared_calls,
    fail,
    input_text,
    is_reasoning,
    is_tool_result,
    item_role,
    item_text,
    members,
    message_item,
    message_positions,
    parse_arguments,
    represented,
    same_item,
    standalone_results,
    string,
    survivor_projection,
    tool_output_text,
)
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextProjector,
    JsonObject,
    JsonValue,
    SchemaValidationError,
    compact_json,
    copy_json,
)

try:
    import langchain_core
    from langchain_core.messages import (
        AIMessage,
        BaseMessage,
        HumanMessage,
        SystemMessage,
        ToolCall,
        ToolMessage,
        trim_messages,
    )
    from langchain_core.messages.tool import tool_call
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise MissingFrameworkError(
        module=__name__, distribution="langchain-core", extra="langchain"
    ) from error

#: The framework's name in messages, and its version in reports.
FRAMEWORK = "LangChain"
VERSION: str = langchain_core.__version__
_ROLE_KEY = "__openai_role__"
_TOOL_CALLS = "tool_calls"
_TEXT = "text"

Strategy = Literal["first", "last"]
MessageType = str | type[BaseMessage] | Sequence[str | type[BaseMessage]]


def _item_error(index: int, item: object, reason: str) -> UnsupportedItemError:
    return UnsupportedItemError(index=index, item=item, framework=FRAMEWORK, reason=reason)


def _message_error(index: int, message: object, reason: str) -> UnsupportedMessageError:
    return UnsupportedMessageError(index=index, message=message, framework=FRAMEWORK, reason=reason)


# -- ctxpact items -> LangChain messages -------------------------------------------------


def to_langchain(items: Sequence[JsonValue]) -> list[BaseMessage]:
    """Convert items to LangChain messages, one each; :func:`from_langchain` reverses it.

    :func:`from_langchain` gives back identical items (JSON-10).

    Raises:
        UnsupportedItemError: an item LangChain cannot carry, with its index and the reason.

    """
    return convert_all(items, lambda _, item: _to_message(item), _item_error)  # type: ignore[arg-type]


def _to_message(item: JsonValue) -> BaseMessage:  # noqa: C901, PLR0911 - one branch per kind
    if not isinstance(item, dict):
        fail(f"a {type(item).__name__} is not a message")
    kind = item.get("type")
    if kind == TOOL_RESULT:
        members(item, ("type", "call_id", "output"))
        output = item["output"]
        if not isinstance(output, str):
            fail(f"output is {compact_json_or_repr(output)}; a ToolMessage carries a string")
        return ToolMessage(content=output, tool_call_id=string(item["call_id"], "call_id"))
    if kind == FUNCTION_CALL:
        members(item, ("type", "call_id", "name", "arguments"))
        call_id = string(item["call_id"], "call_id")
        name = string(item["name"], "name")
        args = parse_arguments(string(item["arguments"], "arguments"), "arguments")
        return AIMessage(
            content=[_block(item)], tool_calls=[tool_call(name=name, args=args, id=call_id)]
        )
    if kind == REASONING:
        return AIMessage(content=[_block(item)])
    if kind != MESSAGE:
        fail(f"type {compact_json_or_repr(kind)} is not a message, tool call, result or reasoning")
    role = item.get("role")
    if role == "assistant":
        return _to_ai_message(item)
    members(item, ("type", "role", "content"))
    content = _content_blocks(item["content"], tool_use=False)
    if role == "user":
        return HumanMessage(content=content)
    if role == "system":
        return SystemMessage(content=content)
    if role == "developer":
        return SystemMessage(content=content, additional_kwargs={_ROLE_KEY: "developer"})
    raise Unsupported(f"role {compact_json_or_repr(role)} has no LangChain message class")


def _content_blocks(content: JsonValue, *, tool_use: bool) -> str | list[str | dict[str, object]]:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        fail("content is neither a string nor an array of parts")
    blocks: list[str | dict[str, object]] = []
    for position, part in enumerate(content):
        if isinstance(part, dict) and list(part) == ["type", "text"] and part["type"] == INPUT_TEXT:
            blocks.append(
                {"type": _TEXT, "text": string(part["text"], f"content[{position}].text")}
            )
        elif tool_use and isinstance(part, dict) and part.get("type") == TOOL_USE:
            _tool_use(part, position)
            blocks.append(_block(part))
        else:
            kinds = "input_text or tool_use" if tool_use else "input_text"
            fail(f"content[{position}] is {compact_json_or_repr(part)}, not an {kinds} part")
    return blocks


def _block(item: JsonObject) -> dict[str, object]:
    """A copy of a JSON object, as a LangChain content block."""
    return cast("dict[str, object]", copy_json(item))


def _tool_use(part: JsonObject, position: int) -> ToolCall:
    members(part, ("type", "id", "name", "input"))
    arguments = part["input"]
    if not isinstance(arguments, dict):
        fail(f"content[{position}].input is not a JSON object")
    return tool_call(
        name=string(part["name"], f"content[{position}].name"),
        args=arguments,
        id=string(part["id"], f"content[{position}].id"),
    )


def _to_ai_message(item: JsonObject) -> AIMessage:
    members(item, ("type", "role"), ("content", _TOOL_CALLS))
    if _TOOL_CALLS not in item:
        if "content" not in item:
            fail("an assistant message needs content or tool_calls")
        parts = item["content"]
        calls = [
            _tool_use(part, position)
            for position, part in enumerate(parts if isinstance(parts, list) else [])
            if isinstance(part, dict) and part.get("type") == TOOL_USE
        ]
        return AIMessage(content=_content_blocks(parts, tool_use=True), tool_calls=calls)
    raw = item[_TOOL_CALLS]
    if not isinstance(raw, list):
        fail("tool_calls is not an array")
    calls = []
    for position, entry in enumerate(raw):
        call_id, name, arguments = chat_tool_call(entry, position)
        args = parse_arguments(arguments, f"tool_calls[{position}].function.arguments")
        calls.append(tool_call(name=name, args=args, id=call_id))
    content: str | list[str | dict[str, object]] = ""
    if "content" in item:
        if item["content"] == "":
            fail('content "" next to tool_calls reads back as no content')
        content = _content_blocks(item["content"], tool_use=False)
    return AIMessage(content=content, tool_calls=calls, additional_kwargs={_TOOL_CALLS: raw})


# -- LangChain messages -> ctxpact items -------------------------------------------------


def from_langchain(messages: Sequence[BaseMessage]) -> list[JsonValue]:
    """Convert LangChain messages to items, one each (the inverse of :func:`to_langchain`).

    Raises:
        UnsupportedMessageError: a message ctxpact items cannot carry, with its index.

    """
    return convert_all(messages, lambda _, message: _from_message(message), _message_error)  # type: ignore[arg-type]


def _from_message(message: BaseMessage) -> JsonValue:
    if message.name is not None:
        fail("name is not carried")
    if isinstance(message, ToolMessage):
        return _from_tool_message(message)
    if isinstance(message, AIMessage):
        return _from_ai_message(message)
    if isinstance(message, HumanMessage | SystemMessage):
        role = "user" if isinstance(message, HumanMessage) else "system"
        if isinstance(message, SystemMessage) and _ROLE_KEY in message.additional_kwargs:
            role = message.additional_kwargs[_ROLE_KEY]
            if role != "developer":
                fail(f"{_ROLE_KEY} {role!r} is not a role ctxpact carries")
        return message_item(role, _item_content(message.content, tool_use=False))
    raise Unsupported(f"{type(message).__name__} has no ctxpact item shape")


def _from_tool_message(message: ToolMessage) -> JsonValue:
    if message.status != "success":
        fail(f'status "{message.status}" is not carried')
    if message.artifact is not None:
        fail("artifact is not carried")
    if not isinstance(message.content, str):
        fail("content blocks of a ToolMessage are not carried; only a string output is")
    return {"type": TOOL_RESULT, "call_id": message.tool_call_id, "output": message.content}


def _item_content(content: str | list[str | dict[str, object]], *, tool_use: bool) -> JsonValue:
    if isinstance(content, str):
        return content
    parts: list[JsonValue] = []
    for position, block in enumerate(content):
        if isinstance(block, dict) and list(block) == ["type", "text"] and block["type"] == _TEXT:
            parts.append(input_text(string(block["text"], f"content[{position}].text")))
        elif tool_use and isinstance(block, dict) and block.get("type") == TOOL_USE:
            parts.append(_json(block, f"content[{position}]"))
        else:
            fail(f"content[{position}] is a {_block_kind(block)} block, which is not carried")
    return parts


def _block_kind(block: object) -> str:
    if isinstance(block, dict):
        return repr(block.get("type"))
    return type(block).__name__


def _json(value: object, what: str) -> JsonValue:
    try:
        return copy_json(value)
    except SchemaValidationError:
        fail(f"{what} is not a JSON value")


def _from_ai_message(message: AIMessage) -> JsonValue:  # noqa: C901 - one branch per shape
    if message.invalid_tool_calls:
        fail("invalid_tool_calls are not carried")
    content = message.content
    calls = message.tool_calls
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        kind = content[0].get("type")
        if kind == REASONING and not calls:
            return _json(content[0], "content[0]")
        if kind == FUNCTION_CALL:
            block = _json(content[0], "content[0]")
            if calls != [_function_call_tool_call(block)]:
                fail("the function_call block and tool_calls disagree")
            return block
    raw = message.additional_kwargs.get(_TOOL_CALLS)
    if raw is not None:
        if not _raw_matches(raw, calls):
            fail("additional_kwargs tool_calls and tool_calls disagree")
        item = message_item("assistant", _item_content(content, tool_use=False))
        if content == "":
            del item["content"]
        item[_TOOL_CALLS] = _json(raw, "additional_kwargs.tool_calls")
        return item
    parts = _item_content(content, tool_use=True)
    used = [part for part in (parts if isinstance(parts, list) else []) if _is_tool_use_part(part)]
    if used:
        if [_tool_use(part, 0) for part in used] != calls:  # type: ignore[arg-type]
            fail("the tool_use blocks and tool_calls disagree")
        return message_item("assistant", parts)
    item = message_item("assistant", parts)
    if calls:
        # No raw arguments text survived: rebuild the Chat shape with json.dumps.
        if content == "":
            del item["content"]
        item[_TOOL_CALLS] = [
            chat_tool_call_item(call["id"] or "", call["name"], json.dumps(call["args"]))
            for call in calls
        ]
    return item


def _is_tool_use_part(part: JsonValue) -> bool:
    return isinstance(part, dict) and part.get("type") == TOOL_USE


def _function_call_tool_call(block: JsonValue) -> ToolCall:
    try:
        members(block, ("type", "call_id", "name", "arguments"))
    except Unsupported as reason:
        fail(f"content[0]: {reason}")
    assert isinstance(block, dict)  # noqa: S101 - members() checked it; narrows for mypy
    arguments = parse_arguments(string(block["arguments"], "arguments"), "arguments")
    return tool_call(
        name=string(block["name"], "name"), args=arguments, id=string(block["call_id"], "call_id")
    )


def _raw_matches(raw: object, calls: list[ToolCall]) -> bool:
    if not isinstance(raw, list) or len(raw) != len(calls):
        return False
    for position, (entry, call) in enumerate(zip(raw, calls, strict=True)):
        try:
            call_id, name, arguments = chat_tool_call(entry, position)
            args = parse_arguments(arguments, "arguments")
        except Unsupported:
            return False
        if (call_id, name, args) != (call["id"], call["name"], call["args"]):
            return False
    return True


# -- presentation: every item as one message, for the wrapped trimmer ---------------------


def present(item: JsonValue) -> BaseMessage:
    """The message that stands for *item* when LangChain trims.

    The faithful conversion when there is one, otherwise the nearest message (see the
    module's docstring).
    """
    try:
        return _to_message(item)
    except Unsupported:
        pass
    results = standalone_results(item)
    if len(results) == 1:
        ((call_id, output),) = results
        return ToolMessage(content=output, tool_call_id=call_id)
    calls = [
        tool_call(name=name, args=arguments_or_empty(arguments), id=call_id)
        for call_id, name, arguments in declared_calls(item)
    ]
    role = item_role(item)
    if calls or role == "assistant" or is_reasoning(item):
        return AIMessage(content=item_text(item), tool_calls=calls)
    if role in ("system", "developer"):
        return SystemMessage(content=item_text(item))
    return HumanMessage(content=item_text(item))


class TrimMessagesProjector:
    """LangChain's ``trim_messages`` as a :class:`~ctxpact.spec.ContextProjector`.

    *strategy*, *start_on* and *end_on* are passed to ``trim_messages`` as they are;
    *include_system* too, and when it is ``None`` it is on exactly when the budget pins a
    prefix and the strategy is ``last``. ``allow_partial`` stays off: a partial message is a
    changed item, which PRJ-8 forbids. The module docstring gives the budget mapping; the
    report's ``droppedIndices`` come from which messages survived. Claims *generic* only:
    trim_messages keeps no tool pairs.
    """

    #: The budget fields trim_messages has no setting for (see ``unexpressible_fields``).
    unexpressible: ClassVar[Mapping[str, str]] = {
        "pinnedPrefixItems": "trim_messages can keep one leading SystemMessage "
        "(include_system) but has no setting that pins the first N messages"
    }

    def __init__(
        self,
        *,
        strategy: Strategy = "last",
        start_on: MessageType | None = None,
        end_on: MessageType | None = None,
        include_system: bool | None = None,
    ) -> None:
        self.strategy: Strategy = strategy
        self.start_on = start_on
        self.end_on = end_on
        self.include_system = include_system

    def __repr__(self) -> str:
        options = [f"strategy={self.strategy!r}"]
        if self.start_on is not None:
            options.append(f"start_on={self.start_on!r}")
        if self.end_on is not None:
            options.append(f"end_on={self.end_on!r}")
        if self.include_system is not None:
            options.append(f"include_system={self.include_system!r}")
        return f"trim_messages({', '.join(options)})"

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        """Trim the presented messages with ``trim_messages`` and map the survivors back."""
        source = list(items or ())
        messages = [present(item) for item in source]
        index_of = message_positions(messages)
        sizes = [approx_chars(item) for item in source]
        kept = messages
        notes: list[str] = []
        include_system = self.include_system
        if include_system is None:
            include_system = bool(budget and budget.pinned_prefix_items) and self.strategy == "last"
        item_applied = character_applied = False
        if budget is not None and budget.max_items is not None:
            before = len(kept)
            kept = self._trim(kept, budget.max_items, len, include_system=include_system)
            item_applied = len(kept) < before
            notes.append(self._note(include_system, "len", budget.max_items))
        if budget is not None and budget.max_approx_chars is not None:

            def counter(chosen: list[BaseMessage]) -> int:
                return sum(sizes[index_of[id(message)]] for message in chosen)

            before = len(kept)
            kept = self._trim(kept, budget.max_approx_chars, counter, include_system=include_system)
            character_applied = len(kept) < before
            notes.append(self._note(include_system, "approx_chars", budget.max_approx_chars))
        return survivor_projection(
            source,
            kept,
            index_of,
            lenient_item,
            item_limit_applied=item_applied,
            character_limit_applied=character_applied,
            notes=notes,
        )

    def _note(self, include_system: bool, counter: str, limit: int) -> str:
        call = repr(self).removesuffix(")")
        if self.include_system is None:
            call += f", include_system={include_system!r}"
        return f"langchain-core {VERSION}: {call}, token_counter={counter}, max_tokens={limit})"

    def _trim(
        self,
        messages: list[BaseMessage],
        limit: int,
        counter: Callable[[list[BaseMessage]], int],
        *,
        include_system: bool,
    ) -> list[BaseMessage]:
        return trim_messages(
            messages,
            max_tokens=limit,
            token_counter=counter,
            strategy=self.strategy,
            start_on=self.start_on,
            end_on=self.end_on,
            include_system=include_system,
            allow_partial=False,
        )


# -- the other direction: a ctxpact projector over LangChain messages ---------------------


def lenient_item(message: BaseMessage) -> JsonValue:
    """The item a projector sees for *message*: the faithful one, else the nearest."""
    try:
        return _from_message(message)
    except Unsupported:
        pass
    content = _lenient_content(message.content)
    if isinstance(message, ToolMessage):
        output = content if isinstance(content, str) else compact_json(content)
        return {"type": TOOL_RESULT, "call_id": message.tool_call_id, "output": output}
    if isinstance(message, AIMessage):
        item = message_item("assistant", content)
        if message.tool_calls:
            item[_TOOL_CALLS] = [
                chat_tool_call_item(
                    call["id"] or "", call["name"], compact_json_or_repr(call["args"])
                )
                for call in message.tool_calls
            ]
        return item
    role = {"human": "user", "system": "system"}.get(message.type, message.type)
    return message_item(getattr(message, "role", role), content)


def _lenient_content(content: str | list[str | dict[str, object]]) -> JsonValue:
    if isinstance(content, str):
        return content
    parts: list[JsonValue] = []
    for block in content:
        if isinstance(block, str):
            parts.append(input_text(block))
            continue
        try:
            parts.append(copy_json(block))
        except SchemaValidationError:
            parts.append(input_text(repr(block)))
    return parts


def _replacement(original: BaseMessage, item: JsonValue) -> BaseMessage:
    """The message for an output item that replaced its source item (PRJ-8)."""
    if isinstance(original, ToolMessage) and is_tool_result(item):
        assert isinstance(item, dict)  # noqa: S101 - a tool result is an object; narrows for mypy
        return original.model_copy(update={"content": tool_output_text(item)})
    if isinstance(original, AIMessage) and is_reasoning(item):
        return original.model_copy(update={"content": [item]})
    return present(item)


def ctxpact_trimmer(
    projector: ContextProjector, budget: ContextBudget | None
) -> Callable[[Sequence[BaseMessage]], list[BaseMessage]]:
    """A function over a LangChain message list that projects it with a ctxpact projector.

    Each message is seen as one item (:func:`from_langchain`, or the nearest item when that
    raises); the projector chooses; the function returns the *original* message objects it
    kept, in order, and for a replaced tool result (Tier-1) a copy of the ``ToolMessage``
    with the placeholder as its content. Use it where LangChain takes a trimmer: as a
    ``RunnableLambda`` in a chain, or in a LangGraph pre-model hook
    (``lambda state: {"llm_input_messages": trimmer(state["messages"])}``).
    """

    def trim(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
        originals = list(messages)
        items = [lenient_item(message) for message in originals]
        projection = projector.project(items, budget)
        return [
            originals[index]
            if same_item(item, items[index])
            else _replacement(originals[index], item)
            for index, item in represented(items, projection)
        ]

    return trim


__all__ = [
    "FRAMEWORK",
    "VERSION",
    "TrimMessagesProjector",
    "ctxpact_trimmer",
    "from_langchain",
    "lenient_item",
    "present",
    "to_langchain",
]
