"""The wrapped framework trimmers as conformance targets, for the compliance matrix."""

from __future__ import annotations

import importlib
from collections.abc import Collection, Mapping
from typing import Any, Final

from ctxpact.conformance._model import Claim, Component, ExpectedFailure
from ctxpact.conformance._target import Target

#: The generic checks each framework's trimmer is known to fail under the default profile,
#: and why. Strict: a check that starts passing fails the run, so a framework upgrade that
#: fixes one is noticed. Findings that only a hand-built case reaches (AutoGen's tail dropping
#: a leading result message, Strands orphaning across a user message) are not listed here;
#: their own tests in tests/conformance pin them. With the quick profile's few examples some
#: listed findings may go unreached, so run framework targets with the default profile.
_NO_PREFIX = ExpectedFailure(
    check_id="projector.pinned-prefix", reason="no setting pins the first items"
)
_NEWEST = ExpectedFailure(
    check_id="projector.newest-item", reason="drops the newest item when it alone is over budget"
)
_SYSTEM_OVER = ExpectedFailure(
    check_id="projector.max-items", reason="include_system keeps the system message over budget"
)
_INSERTS = ExpectedFailure(
    check_id="projector.order-preserving", reason="inserts a 'Skipped N messages.' user message"
)
_INSERTS_REPORT = ExpectedFailure(
    check_id="projector.report", reason="no position report can describe an inserted message"
)
_HEAD_AND_TAIL = ExpectedFailure(
    check_id="projector.max-items", reason="head + tail + placeholder; head and tail at least 1"
)
_HEAD_PINS = ExpectedFailure(
    check_id="projector.pinned-prefix", reason="the head drops a trailing function-call message"
)
_LEADING_RESULT = ExpectedFailure(
    check_id="projector.newest-item",
    reason="a tool result that would open the window is dropped, the newest item included",
)
_NO_TRIM_POINT = ExpectedFailure(
    check_id="projector.max-items", reason="without a valid trim point everything is kept"
)
_KEEP_TARGET = ExpectedFailure(
    check_id="projector.max-items", reason="keep is a target: the cut moves back to a call"
)
_SUMMARIZES_HEAD = ExpectedFailure(
    check_id="projector.pinned-prefix", reason="everything before the cut is summarized"
)
_DROPS_NOTHING = ExpectedFailure(
    check_id="projector.max-items", reason="ClearToolUsesEdit replaces outputs, drops nothing"
)
_KEEPS_PAIRS_OVER = ExpectedFailure(
    check_id="projector.max-items", reason="the cut moves back to keep a call with its result"
)
_REDUCER_PINS = ExpectedFailure(
    check_id="projector.pinned-prefix", reason="only the first system message is kept"
)
_LIMIT_PINS_NOTHING = ExpectedFailure(
    check_id="projector.pinned-prefix", reason="the limit keeps the newest items only"
)
_LIMIT_DROPS_OUTPUT = ExpectedFailure(
    check_id="projector.newest-item",
    reason="an output whose call is outside the window is removed, the newest included",
)

#: The adapter modules, by the extra that installs their framework.
FRAMEWORK_MODULES: Final = {
    "langchain": "ctxpact.conformance.adapters.langchain",
    "autogen": "ctxpact.conformance.adapters.autogen",
    "strands": "ctxpact.conformance.adapters.strands",
    "langchain-agents": "ctxpact.conformance.adapters.langchain_middleware",
    "openai-agents": "ctxpact.conformance.adapters.openai_agents",
    "semantic-kernel": "ctxpact.conformance.adapters.semantic_kernel_reducers",
}
#: The extras installed in an environment of their own (their pins conflict with the rest):
#: the compliance matrix records their rows there and merges them (scripts/compliance_matrix.py).
SEPARATE_EXTRAS: Final = frozenset({"semantic-kernel"})


def _langchain() -> tuple[Target, ...]:
    from ctxpact.conformance.adapters import langchain  # noqa: PLC0415 - optional framework

    def target(name: str, known: tuple[ExpectedFailure, ...], **options: object) -> Target:
        return Target(
            name=f"langchain-core:{name}",
            component=Component.PROJECTOR,
            factory=lambda: langchain.TrimMessagesProjector(**options),  # type: ignore[arg-type]
            claims=(Claim.GENERIC,),
            expected_failures=known,
            version=langchain.VERSION,
        )

    return (
        target(
            'trim_messages(strategy="last")',
            (_SYSTEM_OVER, _NO_PREFIX, _NEWEST),
            strategy="last",
        ),
        target('trim_messages(strategy="first")', (_NO_PREFIX, _NEWEST), strategy="first"),
        target(
            'trim_messages(strategy="last", start_on="human", include_system=True)',
            (_SYSTEM_OVER, _NO_PREFIX, _NEWEST),
            strategy="last",
            start_on="human",
            include_system=True,
        ),
    )


def _autogen() -> tuple[Target, ...]:
    from ctxpact.conformance.adapters import autogen  # noqa: PLC0415 - optional framework

    def without_placeholder() -> autogen.HeadAndTailContextProjector:
        return autogen.HeadAndTailContextProjector(keep_placeholder=False)

    return tuple(
        Target(
            name=f"autogen-core:{name}",
            component=Component.PROJECTOR,
            factory=factory,
            claims=(Claim.GENERIC,),
            expected_failures=known,
            version=autogen.VERSION,
        )
        for name, factory, known in (
            (
                "BufferedChatCompletionContext",
                autogen.BufferedContextProjector,
                (_NO_PREFIX, _LEADING_RESULT),
            ),
            (
                "HeadAndTailChatCompletionContext",
                autogen.HeadAndTailContextProjector,
                (_INSERTS, _HEAD_AND_TAIL, _HEAD_PINS, _INSERTS_REPORT, _LEADING_RESULT),
            ),
            (
                "HeadAndTailChatCompletionContext (placeholder left out)",
                without_placeholder,
                (_HEAD_AND_TAIL, _HEAD_PINS, _LEADING_RESULT),
            ),
        )
    )


def _strands() -> tuple[Target, ...]:
    from ctxpact.conformance.adapters import strands  # noqa: PLC0415 - optional framework

    return (
        Target(
            name="strands-agents:SlidingWindowConversationManager",
            component=Component.PROJECTOR,
            factory=strands.SlidingWindowProjector,
            claims=(Claim.GENERIC,),
            expected_failures=(_NO_TRIM_POINT,),
            version=strands.VERSION,
        ),
        Target(
            name="strands-agents:SummarizingConversationManager(summary_ratio=0.5, "
            "preserve_recent_messages=4)",
            component=Component.COMPACT_POLICY,
            factory=strands.SummarizingCompactPolicy,
            claims=(Claim.GENERIC,),
            version=strands.VERSION,
        ),
    )


#: Frameworks the compliance matrix names but does not check, and why (docs/compliance.md).
UNAVAILABLE_FRAMEWORKS: Final[Mapping[str, str]] = {
    "OpenAI Agents SDK ToolOutputTrimmer": (
        "not wrapped: no honest budget mapping. It keeps every output after the last "
        "`recent_turns` user messages and shortens older outputs longer than "
        "`max_output_chars` to a preview; Tier-1 keeps the newest `maxRecentToolResults` tool "
        "results and replaces the rest whatever their size, so any mapping would invent a "
        "setting the trimmer does not have"
    ),
}


def unexpressible_fields(target: Target) -> Mapping[str, str]:
    """The budget fields *target*'s framework has no setting for, with the reason.

    Each wrapped trimmer declares them in its ``unexpressible`` attribute (budget field
    names as the JSON documents spell them, ``pinnedPrefixItems``); the compliance matrix
    shows the check about such a field as "not expressible" rather than as a failure that
    would only be the adapter's. A target that is not a framework projector declares none.
    """
    if target.component is not Component.PROJECTOR or target.name.startswith("ctxpact"):
        return {}
    return dict(getattr(target.factory(), "unexpressible", {}))


def _langchain_agents() -> tuple[Target, ...]:
    from ctxpact.conformance.adapters import langchain_middleware as lm  # noqa: PLC0415

    def target(
        name: str,
        component: Component,
        factory: Any,  # noqa: ANN401 - a class of the adapter
        known: tuple[ExpectedFailure, ...] = (),
    ) -> Target:
        return Target(
            name=f"langchain:{name}",
            component=component,
            factory=factory,
            claims=(Claim.GENERIC,),
            expected_failures=known,
            version=lm.VERSION,
        )

    return (
        target(
            "SummarizationMiddleware (kept verbatim)",
            Component.PROJECTOR,
            lm.SummarizationProjector,
            (_KEEP_TARGET, _SUMMARIZES_HEAD),
        ),
        target(
            "ContextEditingMiddleware(ClearToolUsesEdit)",
            Component.PROJECTOR,
            lm.ClearToolUsesProjector,
            (_DROPS_NOTHING,),
        ),
        target(
            'SummarizationMiddleware(trigger=("messages", 8), keep=("messages", 4))',
            Component.COMPACT_POLICY,
            lm.SummarizationCompactPolicy,
        ),
    )


def _openai_agents() -> tuple[Target, ...]:
    from ctxpact.conformance.adapters import openai_agents  # noqa: PLC0415

    return (
        Target(
            name="openai-agents:SQLiteSession(SessionSettings(limit=maxItems)) + Runner",
            component=Component.PROJECTOR,
            factory=openai_agents.SessionHistoryProjector,
            claims=(Claim.GENERIC,),
            expected_failures=(_LIMIT_PINS_NOTHING, _LIMIT_DROPS_OUTPUT),
            version=openai_agents.VERSION,
        ),
    )


def _semantic_kernel() -> tuple[Target, ...]:
    from ctxpact.conformance.adapters import semantic_kernel_reducers as sk  # noqa: PLC0415

    return (
        Target(
            name="semantic-kernel:ChatHistoryTruncationReducer(target_count=maxItems)",
            component=Component.PROJECTOR,
            factory=sk.TruncationReducerProjector,
            claims=(Claim.GENERIC,),
            expected_failures=(_KEEPS_PAIRS_OVER, _REDUCER_PINS),
            version=sk.VERSION,
        ),
        Target(
            name="semantic-kernel:ChatHistorySummarizationReducer(target_count=4)",
            component=Component.COMPACT_POLICY,
            factory=sk.SummarizationReducerPolicy,
            claims=(Claim.GENERIC,),
            version=sk.VERSION,
        ),
    )


_BUILDERS = {
    "langchain": _langchain,
    "autogen": _autogen,
    "strands": _strands,
    "langchain-agents": _langchain_agents,
    "openai-agents": _openai_agents,
    "semantic-kernel": _semantic_kernel,
}


def framework_targets(
    *, required: bool = False, extras: Collection[str] | None = None
) -> tuple[Target, ...]:
    """Every wrapped trimmer whose framework is installed, claiming *generic* only.

    Each carries the generic checks it is known to fail as strict expected failures;
    none claims pair integrity, which each of them can break (see docs/compliance.md).
    *extras* limits them to those frameworks (names of :data:`FRAMEWORK_MODULES`).

    With *required*, a missing framework raises its
    :class:`~ctxpact.conformance.adapters.MissingFrameworkError` instead of being skipped.
    """
    targets: list[Target] = []
    for extra, module in FRAMEWORK_MODULES.items():
        if extras is not None and extra not in extras:
            continue
        try:
            importlib.import_module(module)
        except ImportError:
            if required:
                raise
            continue
        targets.extend(_BUILDERS[extra]())
    return tuple(targets)
