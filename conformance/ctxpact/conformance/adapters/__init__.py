"""Adapters to the agent frameworks people already use, each behind its own extra.

One module per framework; importing one without its framework raises
:class:`MissingFrameworkError` (an ``ImportError``) that names the extra to install:

- :mod:`ctxpact.conformance.adapters.langchain` (``pip install 'ctxpact[langchain]'``):
  messages both ways, ``trim_messages`` as a projector, ``ctxpact_trimmer`` for LangChain.
- :mod:`ctxpact.conformance.adapters.autogen` (``pip install 'ctxpact[autogen]'``):
  ``LLMMessage`` s both ways, ``BufferedChatCompletionContext`` and
  ``HeadAndTailChatCompletionContext`` as projectors, ``CtxpactChatCompletionContext``.
- :mod:`ctxpact.conformance.adapters.strands` (``pip install 'ctxpact[strands]'``):
  messages both ways, ``SlidingWindowConversationManager`` as a projector,
  ``SummarizingConversationManager`` as a compact policy.
- :mod:`ctxpact.conformance.adapters.langchain_middleware`
  (``pip install 'ctxpact[langchain-agents]'``): the LangChain v1 ``SummarizationMiddleware``
  as a projector and a compact policy, ``ContextEditingMiddleware`` with
  ``ClearToolUsesEdit`` as a projector.
- :mod:`ctxpact.conformance.adapters.semantic_kernel_reducers`
  (``pip install 'ctxpact[semantic-kernel]'``, in an environment of its own): Semantic Kernel's
  ``ChatHistoryTruncationReducer`` as a projector and ``ChatHistorySummarizationReducer`` as a
  compact policy.
- :mod:`ctxpact.conformance.adapters.openai_agents` (``pip install 'ctxpact[openai-agents]'``):
  the OpenAI Agents SDK's ``SQLiteSession`` with ``SessionSettings(limit=...)`` and its
  ``Runner`` as a projector.

``pip install 'ctxpact[frameworks]'`` installs all of them.

The helpers the adapters are made of are public, for an adapter of one's own
(docs/implementing.md §12): reading an item in any of the three wire formats
(:func:`item_role`, :func:`item_text`, :func:`declared_calls`, :func:`tool_results_of`,
:func:`standalone_results`), building items (:func:`message_item`, :func:`input_text`,
:func:`chat_tool_call_item`, :func:`tool_result_item`), and turning what a framework kept
back into a projection with an exact report (:func:`message_positions`,
:func:`survivor_projection`, :func:`matched_projection` for copies a framework hands back,
:func:`unexpressible_note`). The scripted model client a
compact policy is checked with is :class:`ctxpact.conformance.ScriptedModelClient`.

What a framework's messages cannot carry raises :class:`UnsupportedItemError` or
:class:`UnsupportedMessageError`, both naming the position and the reason.
:func:`framework_targets` lists every wrapped trimmer whose framework is installed, as targets
for the conformance suite.
"""

from ctxpact.conformance.adapters._common import (
    MissingFrameworkError,
    ProjectionAlignmentError,
    UnsupportedItemError,
    UnsupportedMessageError,
    chat_tool_call_item,
    declared_calls,
    input_text,
    item_role,
    item_text,
    matched_projection,
    message_item,
    message_positions,
    standalone_results,
    survivor_projection,
    tool_result_item,
    tool_results_of,
    unexpressible_note,
)
from ctxpact.conformance.adapters._targets import (
    FRAMEWORK_MODULES,
    SEPARATE_EXTRAS,
    UNAVAILABLE_FRAMEWORKS,
    framework_targets,
    unexpressible_fields,
)

__all__ = [
    "FRAMEWORK_MODULES",
    "SEPARATE_EXTRAS",
    "UNAVAILABLE_FRAMEWORKS",
    "MissingFrameworkError",
    "ProjectionAlignmentError",
    "UnsupportedItemError",
    "UnsupportedMessageError",
    "chat_tool_call_item",
    "declared_calls",
    "framework_targets",
    "input_text",
    "item_role",
    "item_text",
    "matched_projection",
    "message_item",
    "message_positions",
    "standalone_results",
    "survivor_projection",
    "tool_result_item",
    "tool_results_of",
    "unexpressible_fields",
    "unexpressible_note",
]
