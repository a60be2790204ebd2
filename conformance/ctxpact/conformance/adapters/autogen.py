"""AutoGen: messages both ways, model contexts as projectors, ctxpact as a model context.

AutoGen's ``LLMMessage`` s and ctxpact items convert both ways, its model contexts are wrapped
as projectors, and a ctxpact projector becomes an AutoGen ``ChatCompletionContext``.

Install with ``pip install 'ctxpact[autogen]'`` (``autogen-core``).

Faithful conversions (:func:`to_autogen`, :func:`from_autogen`):

==============================================================  ================================
ctxpact item                                                    AutoGen message
==============================================================  ================================
message, role ``system``, one ``input_text`` part               ``SystemMessage``
message, role ``user``, a string or ``input_text`` parts        ``UserMessage`` (``str`` or
                                                                ``list[str]``)
message, role ``assistant``, one ``input_text`` part            ``AssistantMessage`` (``str``)
message, role ``assistant``, Chat ``tool_calls`` (and at most   ``AssistantMessage`` with a
one ``input_text`` part, AutoGen's ``thought``)                 ``FunctionCall`` list
``function_call_output`` with a string ``output``               ``FunctionExecutionResultMessage``
                                                                with one result
==============================================================  ================================

``source`` (the sending agent's name) is not prompt content: :func:`to_autogen` sets it from
its arguments and :func:`from_autogen` does not read it. A result's ``name`` is the name of
its call earlier in the list (``""`` without one); ``is_error`` ``None`` and ``False`` both
read as a plain result. A ``FunctionExecutionResultMessage`` with several results reads as
several items. Responses ``function_call`` items, reasoning items, images, ``thought`` on a
text message and ``is_error=True`` are not carried and raise.

The wrapped contexts (:class:`BufferedContextProjector`,
:class:`HeadAndTailContextProjector`) present each item as one message (faithfully, or as
the nearest message: a tool result as a one-result ``FunctionExecutionResultMessage``, any
item declaring tool calls as an ``AssistantMessage`` with those calls, a system or developer
item as a ``SystemMessage``, an assistant or reasoning item as a text ``AssistantMessage``,
anything else as a ``UserMessage``), load them into the real context and map what its
``get_messages()`` returns back to the original items.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import ClassVar, cast

from ctxpact.conformance.adapters._common import (
    MESSAGE,
    TOOL_RESULT,
    MissingFrameworkError,
    Unsupported,
    UnsupportedItemError,
    UnsupportedMessageError,
    chat_tool_call,
    chat_tool_call_item,
    compact_json_or_repr,
    convert_all,
    declared_calls,
    fail,
    input_text,
    is_reasoning,
    item_role,
    item_text,
    members,
    message_item,
    message_positions,
    represented,
    same_item,
    standalone_results,
    string,
    survivor_projection,
    text_parts,
    tool_output_text,
    unexpressible_note,
)
from ctxpact.spec import ContextBudget, ContextProjection, ContextProjector, JsonValue

try:
    from autogen_core import FunctionCall, Image
    from autogen_core.model_context import (
        BufferedChatCompletionContext,
        ChatCompletionContext,
        HeadAndTailChatCompletionContext,
    )
    from autogen_core.models import (
        AssistantMessage,
        FunctionExecutionResult,
        FunctionExecutionResultMessage,
        LLMMessage,
        SystemMessage,
        UserMessage,
    )
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise MissingFrameworkError(
        module=__name__, distribution="autogen-core", extra="autogen"
    ) from error

#: The framework's name in messages, and its version in reports.
FRAMEWORK = "AutoGen"
VERSION: str = metadata.version("autogen-core")
USER_SOURCE = "user"
ASSISTANT_SOURCE = "assistant"


def _item_error(index: int, item: object, reason: str) -> UnsupportedItemError:
    return UnsupportedItemError(index=index, item=item, framework=FRAMEWORK, reason=reason)


def _message_error(index: int, message: object, reason: str) -> UnsupportedMessageError:
    return UnsupportedMessageError(index=index, message=message, framework=FRAMEWORK, reason=reason)


class CallNames:
    """The names of the tool calls declared so far, by call id, read in one pass over a list.

    A result's name is the name of its call earlier in the list (§1.4): :meth:`before`
    answers for the item about to be read, then :meth:`read` adds that item's calls. One
    table serves the whole list, so a conversion costs what its items hold, not their number
    squared.
    """

    def __init__(self) -> None:
        self._names: dict[str, str] = {}

    def get(self, call_id: str) -> str:
        """The name of the latest call with *call_id* read so far, ``""`` without one."""
        return self._names.get(call_id, "")

    def read(self, item: JsonValue) -> None:
        """Add the calls *item* declares."""
        self._names.update((call_id, name) for call_id, name, _ in declared_calls(item))


# -- ctxpact items -> AutoGen messages ---------------------------------------------------


def to_autogen(
    items: Sequence[JsonValue],
    *,
    user_source: str = USER_SOURCE,
    assistant_source: str = ASSISTANT_SOURCE,
) -> list[LLMMessage]:
    """Convert items to AutoGen messages, one each; :func:`from_autogen` reverses it exactly.

    :func:`from_autogen` gives back identical items (JSON-10).

    Raises:
        UnsupportedItemError: an item AutoGen cannot carry, with its index and the reason.

    """
    names = CallNames()

    def convert(_: int, item: JsonValue) -> LLMMessage:
        message = _to_message(
            item, names, user_source=user_source, assistant_source=assistant_source
        )
        names.read(item)
        return message

    return convert_all(items, convert, _item_error)  # type: ignore[arg-type]


def _one_text(content: JsonValue, what: str) -> str:
    texts = text_parts(content, what)
    if len(texts) != 1:
        fail(f"{what} has {len(texts)} input_text parts; AutoGen carries exactly one here")
    return texts[0]


def _to_message(  # noqa: C901 - one branch per kind of item
    item: JsonValue, names: CallNames, *, user_source: str, assistant_source: str
) -> LLMMessage:
    if not isinstance(item, dict):
        fail(f"a {type(item).__name__} is not a message")
    kind = item.get("type")
    if kind == TOOL_RESULT:
        members(item, ("type", "call_id", "output"))
        call_id = string(item["call_id"], "call_id")
        output = item["output"]
        if not isinstance(output, str):
            fail(f"output is {compact_json_or_repr(output)}; an AutoGen result carries a string")
        result = FunctionExecutionResult(content=output, name=names.get(call_id), call_id=call_id)
        return FunctionExecutionResultMessage(content=[result])
    if kind != MESSAGE:
        fail(f"type {compact_json_or_repr(kind)}: AutoGen has no message for it")
    role = item.get("role")
    if role == "assistant" and "tool_calls" in item:
        members(item, ("type", "role", "tool_calls"), ("content",))
        raw = item["tool_calls"]
        if not isinstance(raw, list):
            fail("tool_calls is not an array")
        calls = []
        for position, entry in enumerate(raw):
            call_id, name, arguments = chat_tool_call(entry, position)
            calls.append(FunctionCall(id=call_id, arguments=arguments, name=name))
        thought = _one_text(item["content"], "content") if "content" in item else None
        return AssistantMessage(content=calls, thought=thought, source=assistant_source)
    members(item, ("type", "role", "content"))
    content = item["content"]
    if role == "user":
        if isinstance(content, str):
            return UserMessage(content=content, source=user_source)
        return UserMessage(content=list(text_parts(content)), source=user_source)
    if role == "assistant":
        return AssistantMessage(content=_one_text(content, "content"), source=assistant_source)
    if role == "system":
        return SystemMessage(content=_one_text(content, "content"))
    raise Unsupported(f"role {compact_json_or_repr(role)} has no AutoGen message class")


# -- AutoGen messages -> ctxpact items ---------------------------------------------------


def from_autogen(messages: Sequence[LLMMessage]) -> list[JsonValue]:
    """Convert AutoGen messages to items (the inverse of :func:`to_autogen`).

    A ``FunctionExecutionResultMessage`` gives one item per result; every other message one.

    Raises:
        UnsupportedMessageError: a message ctxpact items cannot carry, with its index.

    """
    names: dict[str, str] = {}
    items: list[JsonValue] = []
    for group in convert_all(
        messages,
        lambda _, message: _from_message(message, names),  # type: ignore[arg-type]
        _message_error,
    ):
        items.extend(group)
    return items


def _from_message(message: LLMMessage, names: dict[str, str]) -> list[JsonValue]:  # noqa: C901 - one branch per message class
    if isinstance(message, SystemMessage):
        return [message_item("system", [input_text(message.content)])]
    if isinstance(message, UserMessage):
        if isinstance(message.content, str):
            return [message_item("user", message.content)]
        parts: list[JsonValue] = []
        for position, part in enumerate(message.content):
            if isinstance(part, Image):
                fail(f"content[{position}] is an Image, which is not carried")
            parts.append(input_text(part))
        return [message_item("user", parts)]
    if isinstance(message, AssistantMessage):
        if isinstance(message.content, str):
            if message.thought is not None:
                fail("thought next to text content is not carried")
            return [message_item("assistant", [input_text(message.content)])]
        item = message_item("assistant", [input_text(message.thought or "")])
        if message.thought is None:
            del item["content"]
        item["tool_calls"] = [
            chat_tool_call_item(call.id, call.name, call.arguments) for call in message.content
        ]
        names.update((call.id, call.name) for call in message.content)
        return [item]
    results: list[JsonValue] = []
    for position, result in enumerate(message.content):
        if result.is_error:
            fail(f"content[{position}] has is_error=True, which is not carried")
        if result.name != names.get(result.call_id, ""):
            fail(
                f"content[{position}] is named {result.name!r} but its call is "
                f"{names.get(result.call_id)!r}; a ctxpact tool result carries no name"
            )
        results.append({"type": TOOL_RESULT, "call_id": result.call_id, "output": result.content})
    return results


# -- presentation: every item as one message ---------------------------------------------


def present(items: Sequence[JsonValue]) -> list[LLMMessage]:
    """The messages that stand for *items* in an AutoGen context, one each.

    The faithful conversion when there is one, otherwise the nearest message (see the module
    docstring).
    """
    names = CallNames()
    messages = []
    for item in items:
        messages.append(_present(item, names))
        names.read(item)
    return messages


def _present(item: JsonValue, names: CallNames) -> LLMMessage:
    try:
        return _to_message(item, names, user_source=USER_SOURCE, assistant_source=ASSISTANT_SOURCE)
    except Unsupported:
        pass
    results = standalone_results(item)
    if results:
        return FunctionExecutionResultMessage(
            content=[
                FunctionExecutionResult(content=output, name=names.get(call_id), call_id=call_id)
                for call_id, output in results
            ]
        )
    calls = [
        FunctionCall(id=call_id, arguments=arguments, name=name)
        for call_id, name, arguments in declared_calls(item)
    ]
    if calls:
        return AssistantMessage(content=calls, source=ASSISTANT_SOURCE)
    role = item_role(item)
    if role in ("system", "developer"):
        return SystemMessage(content=item_text(item))
    if role == "assistant" or is_reasoning(item):
        return AssistantMessage(content=item_text(item), source=ASSISTANT_SOURCE)
    return UserMessage(content=item_text(item), source=USER_SOURCE)


def _messages_of(context: ChatCompletionContext) -> list[LLMMessage]:
    """The context's view, synchronously.

    AutoGen's contexts compute their view without awaiting anything, so one step finishes
    the coroutine (much cheaper than an event loop per projection); a context that does
    suspend is run again on a private event loop.
    """
    coroutine = context.get_messages()
    try:
        coroutine.send(None)
    except StopIteration as done:
        return cast("list[LLMMessage]", done.value)
    coroutine.close()
    return asyncio.run(context.get_messages())


def _project_with(  # noqa: PLR0913 - the parts of one projection, by name
    source: list[JsonValue],
    context: ChatCompletionContext | None,
    *,
    budget: ContextBudget | None,
    messages: list[LLMMessage],
    notes: list[str],
    keep_inserted: bool = True,
) -> ContextProjection:
    index_of = message_positions(messages)
    kept = messages if context is None else _messages_of(context)
    return survivor_projection(
        source,
        kept,
        index_of,
        _view_one,
        item_limit_applied=budget is not None and budget.max_items is not None,
        character_limit_applied=False,
        notes=notes,
        keep_inserted=keep_inserted,
    )


def _view_one(message: LLMMessage) -> JsonValue:
    """The item for a message the framework inserted (one item per message)."""
    return _view([message])[0][0]


class BufferedContextProjector:
    """AutoGen's ``BufferedChatCompletionContext`` as a projector, ``buffer_size`` = maxItems.

    Without ``maxItems`` every item is kept (the context is not built); ``maxItems`` 0, which
    AutoGen rejects (``buffer_size must be greater than 0``), keeps nothing.
    ``maxApproxChars`` and ``pinnedPrefixItems`` have no setting and are ignored (a note says
    so). Claims *generic* only.
    """

    #: The budget fields AutoGen has no setting for (see ``unexpressible_fields``).
    unexpressible: ClassVar[Mapping[str, str]] = {
        "pinnedPrefixItems": "BufferedChatCompletionContext keeps the last buffer_size "
        "messages and has no setting that pins the first ones"
    }

    def __repr__(self) -> str:
        return "BufferedChatCompletionContext(buffer_size=maxItems)"

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        """Load the presented messages into the context and map ``get_messages()`` back."""
        source = list(items or ())
        messages = present(source)
        notes = list(unexpressible_note(budget, ignored=("maxApproxChars", "pinnedPrefixItems")))
        context: ChatCompletionContext | None = None
        if budget is not None and budget.max_items is not None:
            if budget.max_items == 0:
                messages = []
                notes.append("maxItems 0: AutoGen rejects buffer_size 0, nothing kept")
            else:
                context = BufferedChatCompletionContext(
                    buffer_size=budget.max_items, initial_messages=messages
                )
                notes.append(
                    f"autogen-core {VERSION}: BufferedChatCompletionContext("
                    f"buffer_size={budget.max_items})"
                )
        return _project_with(source, context, budget=budget, messages=messages, notes=notes)


class HeadAndTailContextProjector:
    """AutoGen's ``HeadAndTailChatCompletionContext`` as a projector.

    ``head_size`` = ``pinnedPrefixItems`` and ``tail_size`` = ``maxItems`` - head. AutoGen
    requires both to be at least 1, so the head is kept below ``maxItems`` and each is
    raised to 1 when the budget gives less (a note states the sizes used); ``maxItems`` 1
    cannot be expressed and gets head 1 and tail 1. Without ``maxItems`` every item is kept;
    ``maxItems`` 0 keeps nothing. The context inserts its own
    ``UserMessage("Skipped N messages.")``, which appears in the output as a user item (and
    so the report carries no ``droppedIndices``). With *keep_placeholder* false that message
    is left out, a diagnostic variant that lets the suite judge the rest of what the context
    keeps. Claims *generic* only.
    """

    def __init__(self, *, keep_placeholder: bool = True) -> None:
        self.keep_placeholder = keep_placeholder

    def __repr__(self) -> str:
        return (
            "HeadAndTailChatCompletionContext(head_size=pinned, tail_size=maxItems-pinned"
            f"{'' if self.keep_placeholder else ', placeholder left out'})"
        )

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        """Load the presented messages into the context and map ``get_messages()`` back."""
        source = list(items or ())
        messages = present(source)
        notes = list(unexpressible_note(budget, ignored=("maxApproxChars",)))
        context: ChatCompletionContext | None = None
        if budget is not None and budget.max_items is not None:
            if budget.max_items == 0:
                messages = []
                notes.append("maxItems 0: AutoGen rejects a tail_size of 0, nothing kept")
            else:
                # AutoGen needs head and tail of at least 1: keep within maxItems when it can.
                head = max(min(budget.pinned_prefix_items, budget.max_items - 1), 1)
                tail = max(budget.max_items - head, 1)
                context = HeadAndTailChatCompletionContext(
                    head_size=head, tail_size=tail, initial_messages=messages
                )
                notes.append(
                    f"autogen-core {VERSION}: HeadAndTailChatCompletionContext("
                    f"head_size={head}, tail_size={tail})"
                )
        return _project_with(
            source,
            context,
            budget=budget,
            messages=messages,
            notes=notes,
            keep_inserted=self.keep_placeholder,
        )


# -- the other direction: a ctxpact projector as an AutoGen model context -----------------


def _view(messages: Sequence[LLMMessage]) -> list[tuple[JsonValue, int]]:
    """The items a projector sees, each with the position of the message it comes from."""
    names: dict[str, str] = {}
    viewed: list[tuple[JsonValue, int]] = []
    for position, message in enumerate(messages):
        try:
            items = _from_message(message, names)
        except Unsupported:
            items = _lenient(message)
        viewed.extend((item, position) for item in items)
    return viewed


def _lenient(message: LLMMessage) -> list[JsonValue]:
    if isinstance(message, FunctionExecutionResultMessage):
        return [
            {"type": TOOL_RESULT, "call_id": result.call_id, "output": result.content}
            for result in message.content
        ]
    if isinstance(message, UserMessage):
        parts = message.content if isinstance(message.content, list) else [message.content]
        return [
            message_item(
                "user",
                [
                    input_text(part) if isinstance(part, str) else {"type": "input_image"}
                    for part in parts
                ],
            )
        ]
    if isinstance(message, AssistantMessage):
        text = message.content if isinstance(message.content, str) else ""
        item = message_item("assistant", [input_text(text + (message.thought or ""))])
        if isinstance(message.content, list):
            item["tool_calls"] = [
                chat_tool_call_item(call.id, call.name, call.arguments) for call in message.content
            ]
        return [item]
    return [message_item("system", [input_text(message.content)])]


class CtxpactChatCompletionContext(ChatCompletionContext):
    """An AutoGen model context whose view is chosen by a ctxpact projector.

    Like AutoGen's own contexts it stores every message and computes a view in
    :meth:`get_messages`: the messages are seen as items (:func:`from_autogen`, or the
    nearest items when that raises), projected under *budget*, and the original message
    objects are returned for what the projection kept. A result message whose results were
    partly kept or replaced (Tier-1 placeholders) comes back as a new
    ``FunctionExecutionResultMessage`` with those results. ``save_state`` / ``load_state``
    are AutoGen's.
    """

    def __init__(
        self,
        projector: ContextProjector,
        budget: ContextBudget | None,
        initial_messages: list[LLMMessage] | None = None,
    ) -> None:
        super().__init__(initial_messages)
        self.projector = projector
        self.budget = budget

    async def get_messages(self) -> list[LLMMessage]:
        """The stored messages that the projector keeps, in order."""
        originals = list(self._messages)
        viewed = _view(originals)
        items = [item for item, _ in viewed]
        # The item positions each message became, computed once for the whole history.
        spans: list[list[int]] = [[] for _ in originals]
        for index, (_, owner) in enumerate(viewed):
            spans[owner].append(index)
        projection = self.projector.project(items, self.budget)
        chosen: list[tuple[int, list[tuple[int, JsonValue]]]] = []
        for index, item in represented(items, projection):
            owner = viewed[index][1]
            if chosen and chosen[-1][0] == owner:
                chosen[-1][1].append((index, item))
            else:
                chosen.append((owner, [(index, item)]))
        return [
            self._rebuild(originals[owner], owner, kept, viewed, spans[owner])
            for owner, kept in chosen
        ]

    @staticmethod
    def _rebuild(
        original: LLMMessage,
        owner: int,
        kept: list[tuple[int, JsonValue]],
        viewed: list[tuple[JsonValue, int]],
        whole: list[int],
    ) -> LLMMessage:
        if [index for index, _ in kept] == whole and all(
            same_item(item, viewed[index][0]) for index, item in kept
        ):
            return original
        if not isinstance(original, FunctionExecutionResultMessage):
            fail_message = "the projector replaced an item that is not a tool result"
            raise UnsupportedMessageError(
                index=owner, message=original, framework=FRAMEWORK, reason=fail_message
            )
        first = whole[0]
        results = []
        for index, item in kept:
            result = original.content[index - first]
            if isinstance(item, dict) and not same_item(item, viewed[index][0]):
                result = result.model_copy(update={"content": tool_output_text(item)})
            results.append(result)
        return FunctionExecutionResultMessage(content=results)


__all__ = [
    "FRAMEWORK",
    "VERSION",
    "BufferedContextProjector",
    "CtxpactChatCompletionContext",
    "HeadAndTailContextProjector",
    "from_autogen",
    "present",
    "to_autogen",
]
