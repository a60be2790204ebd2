"""Semantic Kernel: the chat history reducers as a projector and as a compact policy.

Install with ``pip install 'ctxpact[semantic-kernel]'`` (``semantic-kernel``, heavy: numpy,
scipy, the Azure SDKs; it pins an older pydantic, so CI gives it its own environment).

Each item is presented as one ``ChatMessageContent``: a tool result in any wire format as a
``tool`` message with a ``FunctionResultContent`` per result (named after its call earlier
in the list), an item declaring tool calls as an ``assistant`` message with a
``FunctionCallContent`` per call, a system, developer, user or assistant item as a text
message of that role, a reasoning item as assistant text, anything else as user text.

A user message that carries tool results next to text is one ``tool`` message with a
``FunctionResultContent`` per result and the text.

- :class:`TruncationReducerProjector`: ``ChatHistoryTruncationReducer(target_count=maxItems)``
  and its ``reduce()``; the messages it keeps map back to the original items by identity.
  ``target_count`` must be at least 1 (``maxItems`` 0 is not expressible: the adapter keeps
  nothing then); ``maxApproxChars`` and ``pinnedPrefixItems`` have no setting.
- :class:`SummarizationReducerPolicy`: ``ChatHistorySummarizationReducer(target_count,
  service=...)`` as a compact policy, its summary from :class:`ForwardingChatCompletion`, a
  chat completion service that forwards every call to the ctxpact model client the policy is
  given. A snapshot summary is presented first as the summary message the reducer itself
  marks (``__summary__`` metadata); ``should_compact`` is the reducer's own test (more
  messages than ``target_count + threshold_count``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from importlib import metadata
from typing import Any, ClassVar, Final

from ctxpact.conformance.adapters._common import (
    MissingFrameworkError,
    declared_calls,
    item_role,
    item_text,
    message_positions,
    quiet_logs,
    standalone_results,
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
)

try:
    from semantic_kernel.connectors.ai.chat_completion_client_base import (
        ChatCompletionClientBase,
    )
    from semantic_kernel.connectors.ai.prompt_execution_settings import PromptExecutionSettings
    from semantic_kernel.contents import (
        AuthorRole,
        ChatHistory,
        ChatMessageContent,
        FunctionCallContent,
        FunctionResultContent,
        TextContent,
    )
    from semantic_kernel.contents.history_reducer.chat_history_reducer_utils import (
        SUMMARY_METADATA_KEY,
    )
    from semantic_kernel.contents.history_reducer.chat_history_summarization_reducer import (
        ChatHistorySummarizationReducer,
    )
    from semantic_kernel.contents.history_reducer.chat_history_truncation_reducer import (
        ChatHistoryTruncationReducer,
    )
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise MissingFrameworkError(
        module=__name__, distribution="semantic-kernel", extra="semantic-kernel"
    ) from error

#: The framework's name in messages, and its version in reports.
FRAMEWORK = "Semantic Kernel"
VERSION: str = metadata.version("semantic-kernel")
#: The model name the forwarding service puts in every prompt it forwards.
MODEL_NAME: Final = "semantic-kernel-summarization"
_ROLES = {
    "system": AuthorRole.SYSTEM,
    "developer": AuthorRole.DEVELOPER,
    "user": AuthorRole.USER,
    "assistant": AuthorRole.ASSISTANT,
}


def present(items: Sequence[JsonValue]) -> list[ChatMessageContent]:
    """The messages that stand for *items* in a Semantic Kernel history, one each, linearly."""
    names: dict[str, str] = {}
    messages = []
    for item in items:
        messages.append(_present(item, names))
        names.update((call_id, name) for call_id, name, _ in declared_calls(item))
    return messages


def _present(item: JsonValue, names: dict[str, str]) -> ChatMessageContent:
    results = standalone_results(item)
    if results:
        return ChatMessageContent(
            role=AuthorRole.TOOL,
            items=[
                FunctionResultContent(
                    id=call_id, function_name=names.get(call_id, ""), result=output
                )
                for call_id, output in results
            ],
        )
    carried = tool_results_of(item)
    if carried and item_role(item) == "user":
        # A carrier that also holds text: one tool message with the results and the text.
        parts: list[Any] = [
            FunctionResultContent(id=call_id, function_name=names.get(call_id, ""), result=output)
            for call_id, output in carried
        ]
        parts.append(TextContent(text=item_text(item)))
        return ChatMessageContent(role=AuthorRole.TOOL, items=parts)
    calls = list(declared_calls(item))
    if calls:
        return ChatMessageContent(
            role=AuthorRole.ASSISTANT,
            items=[
                FunctionCallContent(id=call_id, function_name=name, arguments=arguments)
                for call_id, name, arguments in calls
            ],
        )
    role = item_role(item)
    if role is None and isinstance(item, dict) and item.get("type") == "reasoning":
        role = "assistant"
    return ChatMessageContent(
        role=_ROLES.get(role or "user", AuthorRole.USER), content=item_text(item)
    )


def view(message: ChatMessageContent) -> JsonValue:
    """The item a message the framework made stands for: its role and its text."""
    role = "assistant" if message.role is AuthorRole.ASSISTANT else str(message.role.value)
    return {"type": "message", "role": role, "content": message.content}


def _reduce(reducer: Any) -> Any:  # noqa: ANN401 - a ChatHistoryReducer
    """Run ``reduce()``, keeping what the reducer logs (its notices) off the terminal."""
    with quiet_logs("semantic_kernel"):
        return asyncio.run(reducer.reduce())


class TruncationReducerProjector:
    """``ChatHistoryTruncationReducer`` as a projector; see the module docstring. Generic only."""

    unexpressible: ClassVar[dict[str, str]] = {
        "pinnedPrefixItems": "the reducer keeps the first system or developer message and "
        "the newest ones; nothing pins the first N",
        "maxApproxChars": "the reducer counts messages only",
        "maxItems: 0": "target_count must be at least 1 (the adapter keeps nothing then)",
    }

    def __repr__(self) -> str:
        return "ChatHistoryTruncationReducer(target_count=maxItems)"

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        """Run ``reduce()`` on the presented messages and map the survivors back."""
        source = list(items or ())
        messages = present(source)
        index_of = message_positions(messages)
        notes = list(unexpressible_note(budget, ignored=("maxApproxChars", "pinnedPrefixItems")))
        kept: list[ChatMessageContent] = messages
        limit = None if budget is None else budget.max_items
        if limit == 0:
            kept = []
            notes.append("maxItems 0: target_count must be at least 1, nothing kept")
        elif limit is not None:
            reducer = ChatHistoryTruncationReducer(target_count=limit, messages=list(messages))
            _reduce(reducer)
            kept = list(reducer.messages)
            notes.append(
                f"semantic-kernel {VERSION}: ChatHistoryTruncationReducer(target_count={limit})"
                ".reduce()"
            )
        return survivor_projection(
            source,
            kept,
            index_of,
            view,
            item_limit_applied=limit is not None,
            character_limit_applied=False,
            notes=notes,
        )


class ForwardingChatCompletion(ChatCompletionClientBase):
    """A Semantic Kernel chat completion service that forwards to a ctxpact model client.

    The history's messages become the prompt's items (their role and text), and the
    client's ``output_text`` the assistant message the service returns; no text raises
    ``RuntimeError``, a failed call to the reducer.
    """

    client: Any = None

    async def _inner_get_chat_message_contents(
        self, chat_history: ChatHistory, settings: PromptExecutionSettings
    ) -> list[ChatMessageContent]:
        del settings
        prompt = ModelPrompt(
            model=MODEL_NAME,
            system_prompt=None,
            items=tuple(view(message) for message in chat_history.messages),
        )
        result = self.client.create(prompt)
        text = None if result is None else result.output_text
        if text is None:
            raise RuntimeError("the model client gave no text for the summary call")
        return [ChatMessageContent(role=AuthorRole.ASSISTANT, content=text)]


class SummarizationReducerPolicy:
    """``ChatHistorySummarizationReducer`` as a compact policy; see the module docstring.

    Claims *generic* only.
    """

    def __init__(self, client: ModelClient, *, target_count: int = 4) -> None:
        self.client = client
        self.target_count = target_count

    def __repr__(self) -> str:
        return f"ChatHistorySummarizationReducer(target_count={self.target_count})"

    def _messages(self, snapshot: MemorySnapshot) -> list[ChatMessageContent]:
        messages = present(snapshot.items)
        if snapshot.summary is not None:
            summary = ChatMessageContent(role=AuthorRole.ASSISTANT, content=snapshot.summary)
            summary.metadata[SUMMARY_METADATA_KEY] = True
            messages.insert(0, summary)
        return messages

    def _reducer(self, messages: list[ChatMessageContent]) -> ChatHistorySummarizationReducer:
        service = ForwardingChatCompletion(ai_model_id=MODEL_NAME, client=self.client)
        return ChatHistorySummarizationReducer(
            target_count=self.target_count, service=service, messages=messages
        )

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        """The reducer's own test: more messages than ``target_count`` (CMP-1)."""
        reducer = self._reducer(self._messages(snapshot))
        return len(reducer.messages) > reducer.target_count + (reducer.threshold_count or 0)

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """Run ``reduce()`` and keep what it kept, with its summary (CMP-2)."""
        messages = self._messages(snapshot)
        offset = len(messages) - len(snapshot.items)
        index_of = {id(message): index - offset for index, message in enumerate(messages)}
        reducer = self._reducer(list(messages))
        if _reduce(reducer) is None:
            return CompactResult(memory=None, summary=snapshot.summary)
        kept: list[JsonValue] = []
        summary: str | None = None
        for message in reducer.messages:
            index = index_of.get(id(message), -1)
            if index >= 0:
                kept.append(snapshot.items[index])
            elif message.metadata.get(SUMMARY_METADATA_KEY):
                summary = message.content if summary is None else f"{summary}\n{message.content}"
            else:
                kept.append(view(message))
        return CompactResult(memory=MemorySnapshot(items=kept, summary=summary), summary=summary)


__all__ = [
    "FRAMEWORK",
    "MODEL_NAME",
    "VERSION",
    "ForwardingChatCompletion",
    "SummarizationReducerPolicy",
    "TruncationReducerProjector",
    "present",
    "view",
]
