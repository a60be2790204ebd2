"""Strands Agents: messages both ways, ``SlidingWindowConversationManager`` as a projector.

Install with ``pip install 'ctxpact[strands]'`` (``strands-agents``).

Faithful conversions (:func:`to_strands`, :func:`from_strands`); Strands messages are
Bedrock Converse dictionaries:

=========================================================  ==================================
ctxpact item                                               Strands message
=========================================================  ==================================
message, role ``user``, ``input_text`` parts               ``{"role": "user", "content":
                                                           [{"text": ...}, ...]}``
message, role ``assistant``, ``input_text`` and            ``{"role": "assistant", "content":
Anthropic ``tool_use`` parts                               [{"text"} / {"toolUse"}, ...]}``
``function_call_output`` with a ``call_id``                ``{"role": "user", "content":
                                                           [{"toolResult": {...}}]}``, its
                                                           output a ``text`` block (a string)
                                                           or a ``json`` block (any other value)
=========================================================  ==================================

A user message whose blocks are all tool results reads as one item per result. System
messages (Strands keeps the system prompt outside the history), Chat-style ``tool_calls``
and Responses ``function_call`` items (Strands holds tool input as a JSON value, not as
arguments text), reasoning items, string content and every other block kind are not carried
and raise.

:class:`SlidingWindowProjector` presents each item as one message (faithfully, or as the
nearest message: a tool result as a ``toolResult`` user message, any item declaring tool
calls as an assistant message with ``toolUse`` blocks, an assistant or reasoning item as
assistant text, anything else as user text), runs the real
``SlidingWindowConversationManager.apply_management`` on them and maps the survivors back.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from importlib import metadata
from typing import TYPE_CHECKING, Any, cast

from ctxpact.conformance.adapters._common import (
    INPUT_TEXT,
    MESSAGE,
    TOOL_RESULT,
    TOOL_USE,
    MissingFrameworkError,
    Unsupported,
    UnsupportedItemError,
    UnsupportedMessageError,
    arguments_or_empty,
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
    quiet_logs,
    standalone_results,
    string,
    survivor_projection,
    tool_results_of,
    unexpressible_note,
)
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    ContextProjection,
    JsonValue,
    MemorySnapshot,
    ModelClient,
    ModelPrompt,
    SchemaValidationError,
    copy_json,
)

try:
    from strands.agent.conversation_manager import (
        SlidingWindowConversationManager,
        SummarizingConversationManager,
    )
    from strands.models import Model
    from strands.types.content import ContentBlock, Message
    from strands.types.exceptions import ContextWindowOverflowException
    from strands.types.tools import ToolResultContent
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise MissingFrameworkError(
        module=__name__, distribution="strands-agents", extra="strands"
    ) from error

if TYPE_CHECKING:
    from strands.agent.agent import Agent

#: The framework's name in messages, and its version in reports.
FRAMEWORK = "Strands"
VERSION: str = metadata.version("strands-agents")


def _item_error(index: int, item: object, reason: str) -> UnsupportedItemError:
    return UnsupportedItemError(index=index, item=item, framework=FRAMEWORK, reason=reason)


def _message_error(index: int, message: object, reason: str) -> UnsupportedMessageError:
    return UnsupportedMessageError(index=index, message=message, framework=FRAMEWORK, reason=reason)


# -- ctxpact items -> Strands messages ---------------------------------------------------


def to_strands(items: Sequence[JsonValue]) -> list[Message]:
    """Convert items to Strands messages, one each; :func:`from_strands` reverses it.

    :func:`from_strands` gives back identical items (JSON-10).

    Raises:
        UnsupportedItemError: an item Strands cannot carry, with its index and the reason.

    """
    return convert_all(items, lambda _, item: _to_message(item), _item_error)  # type: ignore[arg-type]


def _result_block(call_id: str, output: JsonValue) -> ContentBlock:
    content: ToolResultContent = {"text": output} if isinstance(output, str) else {"json": output}
    return {"toolResult": {"toolUseId": call_id, "content": [content], "status": "success"}}


def _to_message(item: JsonValue) -> Message:
    if not isinstance(item, dict):
        fail(f"a {type(item).__name__} is not a message")
    kind = item.get("type")
    if kind == TOOL_RESULT:
        members(item, ("type", "call_id", "output"))
        output = copy_json(item["output"])
        return {
            "role": "user",
            "content": [_result_block(string(item["call_id"], "call_id"), output)],
        }
    if kind != MESSAGE:
        fail(f"type {compact_json_or_repr(kind)}: Strands has no message for it")
    members(item, ("type", "role", "content"))
    role = item["role"]
    content = item["content"]
    if role not in ("user", "assistant"):
        fail(f"role {compact_json_or_repr(role)}: Strands messages are user or assistant")
    if not isinstance(content, list):
        fail("content is not an array of parts")
    blocks: list[ContentBlock] = []
    for position, part in enumerate(content):
        if isinstance(part, dict) and list(part) == ["type", "text"] and part["type"] == INPUT_TEXT:
            blocks.append({"text": string(part["text"], f"content[{position}].text")})
        elif role == "assistant" and isinstance(part, dict) and part.get("type") == TOOL_USE:
            members(part, ("type", "id", "name", "input"))
            blocks.append(
                {
                    "toolUse": {
                        "toolUseId": string(part["id"], f"content[{position}].id"),
                        "name": string(part["name"], f"content[{position}].name"),
                        "input": copy_json(part["input"]),
                    }
                }
            )
        else:
            fail(f"content[{position}] is {compact_json_or_repr(part)}, which is not carried")
    return {"role": "user" if role == "user" else "assistant", "content": blocks}


# -- Strands messages -> ctxpact items ---------------------------------------------------


def from_strands(messages: Sequence[Message]) -> list[JsonValue]:
    """Convert Strands messages to items (the inverse of :func:`to_strands`).

    Raises:
        UnsupportedMessageError: a message ctxpact items cannot carry, with its index.

    """
    items: list[JsonValue] = []
    for group in convert_all(messages, lambda _, message: _from_message(message), _message_error):  # type: ignore[arg-type]
        items.extend(group)
    return items


def _json(value: object, what: str) -> JsonValue:
    try:
        return copy_json(value)
    except SchemaValidationError:
        fail(f"{what} is not a JSON value")


def _from_message(message: Message) -> list[JsonValue]:
    extra = [name for name in message if name not in ("role", "content")]
    if extra:
        fail(f"members {extra} are not carried")
    blocks = message["content"]
    if blocks and all("toolResult" in block for block in blocks):
        return [_from_result(block, position) for position, block in enumerate(blocks)]
    parts: list[JsonValue] = []
    for position, block in enumerate(blocks):
        if list(block) == ["text"]:
            parts.append(input_text(block["text"]))
        elif list(block) == ["toolUse"] and message["role"] == "assistant":
            use = block["toolUse"]
            if sorted(use) != ["input", "name", "toolUseId"]:
                fail(f"content[{position}].toolUse has members {sorted(use)}")
            parts.append(
                {
                    "type": TOOL_USE,
                    "id": use["toolUseId"],
                    "name": use["name"],
                    "input": _json(use["input"], f"content[{position}].toolUse.input"),
                }
            )
        else:
            fail(f"content[{position}] is a {sorted(block)} block, which is not carried")
    return [message_item(message["role"], parts)]


def _from_result(block: ContentBlock, position: int) -> JsonValue:
    result = block["toolResult"]
    if list(block) != ["toolResult"] or sorted(result) != ["content", "status", "toolUseId"]:
        fail(f"content[{position}] is not a plain toolResult")
    if result["status"] != "success":
        fail(f'content[{position}] has status "{result["status"]}", which is not carried')
    content = result["content"]
    if len(content) != 1 or list(content[0]) not in (["text"], ["json"]):
        fail(f"content[{position}] does not hold exactly one text or json block")
    output = _json(next(iter(content[0].values())), f"content[{position}] output")
    return {"type": TOOL_RESULT, "call_id": result["toolUseId"], "output": output}


# -- presentation and the wrapped manager ------------------------------------------------


def present(item: JsonValue) -> Message:  # noqa: PLR0911 - one return per kind of item
    """The message that stands for *item* in a Strands history.

    The faithful conversion when there is one, otherwise the nearest message (see the module
    docstring).
    """
    try:
        return _to_message(item)
    except Unsupported:
        pass
    if is_tool_result(item):
        # A Responses result keeps its output as it is: a text block or a json block.
        assert isinstance(item, dict)  # noqa: S101 - a tool result is an object; narrows for mypy
        call_id = item.get("call_id")
        output = item.get("output")
        return {
            "role": "user",
            "content": [_result_block(call_id if isinstance(call_id, str) else "", output)],
        }
    results = standalone_results(item)
    if results:
        return {
            "role": "user",
            "content": [_result_block(call_id, output) for call_id, output in results],
        }
    carried = tool_results_of(item)
    if carried and item_role(item) == "user":
        # A carrier that also holds text: Strands keeps both kinds of block in one message.
        blocks = [_result_block(call_id, output) for call_id, output in carried]
        blocks.append({"text": item_text(item)})
        return {"role": "user", "content": blocks}
    calls: list[ContentBlock] = [
        {"toolUse": {"toolUseId": call_id, "name": name, "input": arguments_or_empty(arguments)}}
        for call_id, name, arguments in declared_calls(item)
    ]
    if calls:
        return {"role": "assistant", "content": calls}
    if item_role(item) == "assistant" or is_reasoning(item):
        return {"role": "assistant", "content": [{"text": item_text(item)}]}
    return {"role": "user", "content": [{"text": item_text(item)}]}


class _Warnings(logging.Handler):
    """Collects what Strands logs at WARNING and above while it manages a history."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


class _AgentView:
    """The part of an ``Agent`` that ``apply_management`` reads and writes: its messages."""

    def __init__(self, messages: list[Message]) -> None:
        self.messages = messages


class SlidingWindowProjector:
    """Strands' ``SlidingWindowConversationManager`` as a projector.

        ``window_size`` = ``maxItems`` and ``pin_first`` = ``pinnedPrefixItems`` (when not 0);
        ``should_truncate_results`` is off, since truncation replaces items and runs only on a
        context-overflow error anyway. Without ``maxItems`` every item is kept.
        ``maxApproxChars`` has no setting and is ignored (a note says so). The manager works on
        copies of the presented messages: ``pin_first`` marks the messages it pins. What Strands
    logs as a warning (no valid trim point, everything pinned) becomes a report note. Claims
        *generic* only (the compliance matrix shows what it keeps).
    """

    def __repr__(self) -> str:
        return "SlidingWindowConversationManager(window_size=maxItems, pin_first=pinned)"

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        """Run ``apply_management`` on the presented messages and map the survivors back."""
        source = list(items or ())
        messages = [present(item) for item in source]
        index_of = message_positions(messages)
        notes = list(unexpressible_note(budget, ignored=("maxApproxChars",)))
        view = _AgentView(list(messages))
        if budget is not None and budget.max_items is not None:
            pin = budget.pinned_prefix_items or None
            manager = SlidingWindowConversationManager(
                window_size=budget.max_items, should_truncate_results=False, pin_first=pin
            )
            warnings = _Warnings()
            logger = logging.getLogger("strands")
            logger.addHandler(warnings)
            try:
                manager.apply_management(cast("Agent", view))
            finally:
                logger.removeHandler(warnings)
            notes.append(
                f"strands-agents {VERSION}: SlidingWindowConversationManager("
                f"window_size={budget.max_items}, pin_first={pin}, "
                "should_truncate_results=False).apply_management"
            )
            notes.extend(f"strands warned: {message}" for message in warnings.messages)
        return survivor_projection(
            source,
            view.messages,
            index_of,
            _view,
            item_limit_applied=budget is not None and budget.max_items is not None,
            character_limit_applied=False,
            notes=notes,
        )


def _view(message: Message) -> JsonValue:
    try:
        return _from_message(message)[0]
    except Unsupported:
        return message_item(message["role"], _json_or_text(message["content"]))


def _json_or_text(value: object) -> JsonValue:
    try:
        return copy_json(value)
    except SchemaValidationError:
        return repr(value)


# -- the summarizing manager as a compact policy ------------------------------------------


class ForwardingModel(Model):
    """A Strands model that forwards each call to a ctxpact :class:`~ctxpact.spec.ModelClient`.

    The messages Strands sends become the prompt's items (as :func:`from_strands` reads
    them, or the nearest items), its system prompt the prompt's; the client's
    ``output_text`` is streamed back as one text block. No text raises ``RuntimeError``,
    which Strands sees as a failed model call.
    """

    def __init__(self, client: ModelClient) -> None:
        self.client = client

    def update_config(self, **model_config: Any) -> None:  # noqa: ANN401 - Strands' signature
        """Nothing to configure."""
        del model_config

    def get_config(self) -> Any:  # noqa: ANN401 - Strands' signature
        """No configuration."""
        return {}

    def structured_output(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - unused
        """Not supported: a summary is plain text."""
        raise NotImplementedError("structured output is not forwarded")

    async def stream(
        self,
        messages: list[Message],
        tool_specs: Any = None,  # noqa: ANN401 - Strands' signature
        system_prompt: str | None = None,
        **kwargs: Any,  # noqa: ANN401 - Strands' signature
    ) -> AsyncIterator[Any]:
        """Forward the call and stream the client's answer as one text block."""
        del tool_specs, kwargs
        prompt = ModelPrompt(
            model=MODEL_NAME,
            system_prompt=system_prompt,
            items=tuple(_view(message) for message in messages),
        )
        result = self.client.create(prompt)
        text = None if result is None else result.output_text
        if text is None:
            raise RuntimeError("the model client gave no text for the summary call")
        yield {"messageStart": {"role": "assistant"}}
        yield {"contentBlockDelta": {"delta": {"text": text}}}
        yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "end_turn"}}


#: The model name the forwarding model puts in every prompt it forwards.
MODEL_NAME = "strands-summarizing"


class _SummarizingAgentView(_AgentView):
    """What ``SummarizingConversationManager`` reads of an agent: messages and its model."""

    def __init__(self, messages: list[Message], model: Model) -> None:
        super().__init__(messages)
        self.aux_model = model
        self.model = model


class SummarizingCompactPolicy:
    """Strands' ``SummarizingConversationManager`` as a compact policy.

    ``compact`` runs the manager's ``reduce_context`` (as Strands does on a context-window
    overflow) on the snapshot's messages, with ``summary_ratio`` and
    ``preserve_recent_messages`` as given and the summary written by
    :class:`ForwardingModel` (the model client the policy is given). A snapshot summary is
    presented first, as the user message Strands keeps its summary in, and handed to the
    manager as its previous summary. The memory becomes the messages it kept, verbatim, and
    the new summary's text. When the manager finds nothing it can summarize it raises
    ``ContextWindowOverflowException``; the policy then leaves the memory as it is
    (``memory`` null, CMP-4).

    Strands summarizes only when the model reports an overflow; ctxpact asks first
    (``should_compact``). The policy's answer is the manager's own precondition: more
    messages than ``preserve_recent_messages``. Claims *generic* only.
    """

    def __init__(
        self, client: ModelClient, *, summary_ratio: float = 0.5, preserve_recent_messages: int = 4
    ) -> None:
        self.client = client
        self.summary_ratio = summary_ratio
        self.preserve_recent_messages = preserve_recent_messages

    def __repr__(self) -> str:
        return (
            f"SummarizingConversationManager(summary_ratio={self.summary_ratio}, "
            f"preserve_recent_messages={self.preserve_recent_messages})"
        )

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        """More messages than the manager always keeps (CMP-1)."""
        count = len(snapshot.items) + (snapshot.summary is not None)
        return count > self.preserve_recent_messages

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """Run ``reduce_context`` and keep what it kept, with its summary (CMP-2)."""
        manager = SummarizingConversationManager(
            summary_ratio=self.summary_ratio,
            preserve_recent_messages=self.preserve_recent_messages,
        )
        messages = [present(item) for item in snapshot.items]
        index_of = message_positions(messages)
        if snapshot.summary is not None:
            previous: Message = {"role": "user", "content": [{"text": snapshot.summary}]}
            manager._summary_message = previous  # noqa: SLF001 - what restore_from_session sets
            messages.insert(0, previous)
        view = _SummarizingAgentView(list(messages), ForwardingModel(self.client))
        try:
            with quiet_logs("strands"):  # Strands logs each summary it cannot make as an error
                manager.reduce_context(cast("Agent", view), e=ContextWindowOverflowException())
        except ContextWindowOverflowException:
            return CompactResult(memory=None, summary=snapshot.summary)
        written = manager._summary_message  # noqa: SLF001 - the manager's own summary message
        kept: list[JsonValue] = []
        for message in view.messages:
            if message is written:
                continue
            index = index_of.get(id(message))
            kept.append(snapshot.items[index] if index is not None else _view(message))
        summary = "\n".join(
            block["text"] for block in (written or {"content": []})["content"] if "text" in block
        )
        return CompactResult(memory=MemorySnapshot(items=kept, summary=summary), summary=summary)


__all__ = [
    "FRAMEWORK",
    "MODEL_NAME",
    "VERSION",
    "ForwardingModel",
    "SlidingWindowProjector",
    "SummarizingCompactPolicy",
    "from_strands",
    "present",
    "to_strands",
]
