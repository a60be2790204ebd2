"""LangChain v1 agent middleware: summarization and context editing, as ctxpact components.

Install with ``pip install 'ctxpact[langchain-agents]'`` (``langchain``, with
``langchain-core``). Items become LangChain messages as
:mod:`ctxpact.conformance.adapters.langchain` presents them, one message per item; the
middleware's own hook runs on them, and what it kept is mapped back to the original items by
identity.

- :class:`SummarizationCompactPolicy`: ``SummarizationMiddleware`` as a compact policy.
  ``trigger=("messages", trigger_messages)``, ``keep=("messages", keep_messages)``; the
  summary comes from :class:`ForwardingChatModel`, a chat model that forwards every call to
  the ctxpact model client the policy is given (the suite's scripted client, in the checks).
  ``should_compact`` is the middleware's own trigger test; ``compact`` runs
  ``before_model`` on the snapshot's messages, a snapshot summary presented first as the
  message the middleware itself writes (``Here is a summary of the conversation to
  date:...``). The memory becomes the messages it preserved, verbatim, and its summary text.
- :class:`SummarizationProjector`: the same middleware as a projector, the messages it keeps
  verbatim: ``keep=("messages", maxItems)``, triggered when the history is longer; the
  summary message it writes is not a source item and is left out (a note says so).
  ``maxItems`` 0 (``keep`` must be at least 1), ``maxApproxChars`` next to ``maxItems`` (one
  ``keep`` only) and ``pinnedPrefixItems`` are not expressible.
- :class:`ClearToolUsesProjector`: ``ContextEditingMiddleware(edits=[ClearToolUsesEdit(...)])``
  as a projector, ctxpact's Tier-1 peer: ``keep`` = ``maxRecentToolResults``, triggered
  always (``trigger=-1``; ctxpact's Tier-1 has no token threshold). The edit replaces old
  ``ToolMessage`` contents with its placeholder ``[cleared]`` in place; each replaced message
  maps back to its item with the placeholder as its output (a Responses result's
  ``output``, a Chat tool message's ``content``), reported in ``clearedIndices``. It
  drops nothing, so ``maxItems`` and ``maxApproxChars`` are not expressible.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import metadata
from typing import Any, ClassVar, Final, cast

from ctxpact.conformance.adapters._common import (
    MissingFrameworkError,
    build_projection,
    message_positions,
    survivor_projection,
    unexpressible_note,
)
from ctxpact.reference.projection import approx_chars
from ctxpact.spec import (
    CompactResult,
    ContextBudget,
    ContextProjection,
    JsonValue,
    MemorySnapshot,
    ModelClient,
    ModelPrompt,
    copy_json,
)

try:
    from langchain.agents.middleware import (
        ClearToolUsesEdit,
        ContextEditingMiddleware,
        SummarizationMiddleware,
    )
    from langchain.agents.middleware.types import ModelRequest, ModelResponse
    from langchain_core.callbacks import CallbackManagerForLLMRun
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    from ctxpact.conformance.adapters.langchain import lenient_item, present
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise MissingFrameworkError(
        module=__name__, distribution="langchain", extra="langchain-agents"
    ) from error

#: The framework's name in messages, and its version in reports.
FRAMEWORK = "LangChain agents"
VERSION: str = metadata.version("langchain")
#: The model name the forwarding chat model puts in every prompt it forwards.
MODEL_NAME: Final = "langchain-summarization"


class ModelAnswerMissingError(RuntimeError):
    """The ctxpact model client returned no result or no text for a LangChain model call."""


class ForwardingChatModel(BaseChatModel):
    """A LangChain chat model that forwards each call to a ctxpact :class:`ModelClient`.

    The messages LangChain sends become the prompt's items (as the ctxpact view of each
    message), and the client's ``output_text`` becomes the ``AIMessage`` LangChain reads. A
    client that returns no result or no text raises :class:`ModelAnswerMissingError`, which
    LangChain sees as a failed model call.
    """

    client: Any
    model_name: str = MODEL_NAME

    @property
    def _llm_type(self) -> str:
        return "ctxpact-forwarding"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,  # noqa: ANN401 - LangChain's own signature
    ) -> ChatResult:
        del stop, run_manager, kwargs
        prompt = ModelPrompt(
            model=self.model_name,
            system_prompt=None,
            items=tuple(lenient_item(message) for message in messages),
        )
        result = self.client.create(prompt)
        text = None if result is None else result.output_text
        if text is None:
            raise ModelAnswerMissingError("the model client gave no text for the summary call")
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


_SUMMARY_PREFIX = "Here is a summary of the conversation to date:\n\n"


def _summary_message(summary: str) -> BaseMessage:
    """The message the middleware writes for *summary*, from its own builder."""
    (message,) = SummarizationMiddleware._build_new_messages(summary)  # noqa: SLF001 - the framework's own shape
    return message


def _summary_text(message: BaseMessage) -> str:
    content = message.content if isinstance(message.content, str) else json.dumps(message.content)
    return content.removeprefix(_SUMMARY_PREFIX)


class SummarizationCompactPolicy:
    """LangChain's ``SummarizationMiddleware`` as a compact policy (see the module docstring).

    Claims *generic* only. The middleware keeps tool calls with their results at its cut
    (``_find_safe_cutoff_point``), so the compliance matrix also checks pair integrity.
    """

    def __init__(
        self, client: ModelClient, *, trigger_messages: int = 8, keep_messages: int = 4
    ) -> None:
        self.client = client
        self.trigger_messages = trigger_messages
        self.keep_messages = keep_messages
        self.middleware = SummarizationMiddleware(
            model=ForwardingChatModel(client=client),
            trigger=("messages", trigger_messages),
            keep=("messages", keep_messages),
        )

    def __repr__(self) -> str:
        return (
            f'SummarizationMiddleware(trigger=("messages", {self.trigger_messages}), '
            f'keep=("messages", {self.keep_messages}))'
        )

    def _messages(self, snapshot: MemorySnapshot) -> list[Any]:
        messages: list[Any] = [present(item) for item in snapshot.items]
        if snapshot.summary is not None:
            messages.insert(0, _summary_message(snapshot.summary))
        return messages

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        """The middleware's own trigger test on the snapshot's messages (CMP-1)."""
        messages = self._messages(snapshot)
        middleware = self.middleware
        return bool(middleware._should_summarize(messages, middleware.token_counter(messages)))  # noqa: SLF001 - the framework's own decision

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """Run ``before_model`` and keep what it preserved, with its summary (CMP-2)."""
        messages = self._messages(snapshot)
        offset = len(messages) - len(snapshot.items)
        index_of = {id(message): index - offset for index, message in enumerate(messages)}
        update = self.middleware.before_model({"messages": messages}, cast("Any", None))
        if update is None:
            return CompactResult(memory=None, summary=snapshot.summary)
        written, *preserved = update["messages"][1:]
        kept: list[JsonValue] = []
        for message in preserved:
            index = index_of.get(id(message), -1)
            kept.append(snapshot.items[index] if index >= 0 else lenient_item(message))
        summary = _summary_text(written)
        return CompactResult(memory=MemorySnapshot(items=kept, summary=summary), summary=summary)


class SummarizationProjector:
    """``SummarizationMiddleware`` as a projector: the messages it keeps verbatim.

    See the module docstring for the budget mapping. The summary call goes to
    :class:`ForwardingChatModel` with a client that answers a fixed text; the summary is
    not part of the projection. Claims *generic* only.
    """

    unexpressible: ClassVar[dict[str, str]] = {
        "pinnedPrefixItems": "everything before the cut is summarized: no setting keeps the "
        "first messages",
        "maxItems: 0": 'keep=("messages", N) needs N >= 1 (the adapter keeps nothing then)',
    }

    def __repr__(self) -> str:
        return 'SummarizationMiddleware(keep=("messages", maxItems))'

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        """Run ``before_model`` with the budget's keep and map what it preserved back."""
        source = list(items or ())
        messages = [present(item) for item in source]
        index_of = message_positions(messages)
        notes = list(unexpressible_note(budget, ignored=("pinnedPrefixItems",)))
        kept: list[BaseMessage] = messages
        keep = self._keep(budget, source, notes)
        if budget is not None and budget.max_items == 0:
            kept = []
            notes.append("maxItems 0: keep must be at least 1 message, nothing kept")
        elif keep is not None:
            kind, size = keep
            trigger: Any = (kind, size + 1)
            middleware = SummarizationMiddleware(
                model=ForwardingChatModel(client=_FixedClient()),
                trigger=trigger,
                keep=cast("Any", keep),
                token_counter=_approx_counter(messages, source),
            )
            state: Any = {"messages": list(messages)}
            update = middleware.before_model(state, cast("Any", None))
            if update is not None:
                kept = update["messages"][1:]
            notes.append(
                f"langchain {VERSION}: SummarizationMiddleware(trigger={trigger!r}, "
                f"keep={keep!r}).before_model"
            )
        return survivor_projection(
            source,
            kept,
            index_of,
            lenient_item,
            item_limit_applied=budget is not None and budget.max_items is not None,
            character_limit_applied=budget is not None
            and budget.max_items is None
            and budget.max_approx_chars is not None,
            notes=notes,
            keep_inserted=False,
        )

    @staticmethod
    def _keep(
        budget: ContextBudget | None, source: list[JsonValue], notes: list[str]
    ) -> tuple[str, int] | None:
        if budget is None or budget.max_items == 0:
            return None
        if budget.max_items is not None:
            if budget.max_approx_chars is not None:
                notes.append("maxApproxChars next to maxItems is not expressible, ignored")
            return ("messages", budget.max_items)
        if budget.max_approx_chars is not None and source:
            return ("tokens", max(budget.max_approx_chars, 1))
        return None


class _FixedClient:
    """The model client of the projector: the summary is not projected, so any text does."""

    def create(self, prompt: ModelPrompt) -> Any:  # noqa: ANN401 - a ModelResult
        from ctxpact.spec import ModelResult  # noqa: PLC0415

        del prompt
        return ModelResult(output_text="summary")


def _approx_counter(messages: list[BaseMessage], source: list[JsonValue]) -> Any:  # noqa: ANN401
    """A token counter that counts each presented message as its item's approx_chars."""
    sizes = {
        id(message): approx_chars(item) for message, item in zip(messages, source, strict=True)
    }

    def count(chosen: Any) -> int:  # noqa: ANN401 - LangChain's message iterable
        return sum(sizes.get(id(message), 0) for message in chosen)

    return count


class ClearToolUsesProjector:
    """``ContextEditingMiddleware`` with ``ClearToolUsesEdit`` as a projector (Tier-1's peer).

    See the module docstring for the mapping. Claims *generic* only.
    """

    unexpressible: ClassVar[dict[str, str]] = {
        "maxItems": "ClearToolUsesEdit replaces tool outputs and drops no message",
        "maxApproxChars": "its token trigger decides whether to clear, not how much is kept",
        "pinnedPrefixItems": "it drops nothing, so there is nothing to pin",
    }
    #: Checked with the tier checks that apply to any Tier-1 (the compliance matrix).
    tier1_peer: ClassVar[bool] = True

    def __repr__(self) -> str:
        return (
            "ContextEditingMiddleware(edits=[ClearToolUsesEdit(trigger=-1, "
            "keep=maxRecentToolResults)])"
        )

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        """Run the edit through the middleware's model hook and map the edited messages back."""
        source = list(items or ())
        notes = list(
            unexpressible_note(
                budget,
                ignored=("maxItems", "maxApproxChars", "pinnedPrefixItems", "trimOldReasoning"),
            )
        )
        keep = None if budget is None else budget.max_recent_tool_results
        if keep is None or not source:
            return build_projection(
                source,
                source,
                kept=range(len(source)),
                inserted=0,
                item_limit_applied=False,
                character_limit_applied=False,
                notes=notes,
            )
        messages = [present(item) for item in source]
        edit = ClearToolUsesEdit(trigger=-1, keep=keep)
        middleware = ContextEditingMiddleware(edits=[edit])
        edited = _edited_messages(middleware, messages)
        notes.append(
            f"langchain {VERSION}: ContextEditingMiddleware(edits=[ClearToolUsesEdit("
            f"trigger=-1, keep={keep})]).wrap_model_call"
        )
        output: list[JsonValue] = []
        cleared: list[int] = []
        for index, (before, after) in enumerate(zip(messages, edited, strict=True)):
            if after.content == before.content or not isinstance(after, ToolMessage):
                output.append(source[index])
                continue
            output.append(_with_output(source[index], after.content))
            cleared.append(index)
        if len(edited) != len(messages):  # pragma: no cover - the edit replaces in place
            raise AssertionError("ClearToolUsesEdit changed the number of messages")
        return build_projection(
            source,
            output,
            kept=range(len(source)),
            inserted=0,
            item_limit_applied=False,
            character_limit_applied=False,
            notes=notes,
            cleared=cleared,
        )


def _edited_messages(middleware: Any, messages: list[BaseMessage]) -> list[BaseMessage]:  # noqa: ANN401
    """The messages the middleware hands the model: its own wrap_model_call, a recording handler."""
    seen: list[list[BaseMessage]] = []

    def handler(request: Any) -> Any:  # noqa: ANN401
        seen.append(list(request.messages))
        return ModelResponse(result=[AIMessage(content="")])

    listed: list[Any] = list(messages)
    request = ModelRequest(
        model=ForwardingChatModel(client=_FixedClient()),
        messages=listed,
        state=cast("Any", {"messages": list(messages)}),
    )
    middleware.wrap_model_call(request, handler)
    (edited,) = seen
    return edited


def _with_output(item: JsonValue, placeholder: object) -> JsonValue:
    """*item* with its tool output replaced by the framework's placeholder text."""
    text = placeholder if isinstance(placeholder, str) else json.dumps(placeholder)
    copy = copy_json(item)
    assert isinstance(copy, dict)  # noqa: S101 - only a tool result is cleared; narrows for mypy
    if copy.get("type") == "function_call_output":
        copy["output"] = text
    elif isinstance(copy.get("content"), list):
        parts = copy["content"]
        assert isinstance(parts, list)  # noqa: S101
        for part in parts:
            if isinstance(part, dict) and part.get("type") == "tool_result":
                part["content"] = text
    else:
        copy["content"] = text
    return copy


__all__ = [
    "FRAMEWORK",
    "MODEL_NAME",
    "VERSION",
    "ClearToolUsesProjector",
    "ForwardingChatModel",
    "ModelAnswerMissingError",
    "SummarizationCompactPolicy",
    "SummarizationProjector",
]
