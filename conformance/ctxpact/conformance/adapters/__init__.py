"""Adapters to the agent frameworks people already use, each behind its own extra.

One module per framework; importing one without its framework raises
:class:`MissingFrameworkError` (an ``ImportError``) that names the extra to install:

- :mod:`ctxpact.conformance.adapters.langchain` (``pip install 'ctxpact[langchain]'``):
  messages both ways, ``trim_messages`` as a projector, ``ctxpact_trimmer`` for LangChain.
- :mod:`ctxpact.conformance.adapters.autogen` (``pip install 'ctxpact[autogen]'``):
  ``LLMMessage`` s both ways, ``BufferedChatCompletionContext`` and
  ``HeadAndTailChatCompletionContext`` as projectors, ``CtxpactChatCompletionContext``.
- :mod:`ctxpact.conformance.adapters.strands` (``pip install 'ctxpact[strands]'``):
  messages both ways, ``SlidingWindowConversationManager`` as a projector.

``pip install 'ctxpact[frameworks]'`` installs all of them. What a framework's messages
cannot carry raises :class:`UnsupportedItemError` or :class:`UnsupportedMessageError`, both
naming the position and the reason. :func:`framework_targets` lists every wrapped trimmer
whose framework is installed, as targets for the conformance suite.
"""

from ctxpact.conformance.adapters._common import (
    MissingFrameworkError,
    ProjectionAlignmentError,
    UnsupportedItemError,
    UnsupportedMessageError,
)
from ctxpact.conformance.adapters._targets import FRAMEWORK_MODULES, framework_targets

__all__ = [
    "FRAMEWORK_MODULES",
    "MissingFrameworkError",
    "ProjectionAlignmentError",
    "UnsupportedItemError",
    "UnsupportedMessageError",
    "framework_targets",
]
