"""OpenAI Agents SDK: session history under ``SessionSettings(limit=...)`` as a projector.

Install with ``pip install 'ctxpact[openai-agents]'`` (``openai-agents``). Responses input
items are what the SDK stores, so items go in as they are.

:class:`SessionHistoryProjector` stores the items in the SDK's own ``SQLiteSession`` (in
memory) with ``SessionSettings(limit=maxItems)``, runs the SDK's ``Runner`` once with its
``agents.testing.ScriptedModel`` and a one-message probe input, and reads the input the model
was called with: the history the SDK prepares for a turn (the limited window, after the
SDK's own clean-up of orphaned calls and outputs), then the probe, which is left out. The
items come back as copies (the session stores JSON text), so each is matched to the next
source item with the same JSON text (``matched_projection``). ``maxApproxChars`` and
``pinnedPrefixItems`` have no setting and are not expressible; ``maxItems`` 0 is
``limit=0``, which the session reads as "no history".

``agents.extensions.ToolOutputTrimmer`` is not wrapped: it keeps the outputs after the last
``recent_turns`` *user messages* and shortens older outputs longer than
``max_output_chars`` to a preview, while ctxpact's Tier-1 keeps the newest
``maxRecentToolResults`` *tool results* and replaces the rest whatever their size, so no
budget maps onto its settings without inventing one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from importlib import metadata
from typing import Any, ClassVar, Final, cast

from ctxpact.conformance.adapters._common import (
    MissingFrameworkError,
    matched_projection,
    unexpressible_note,
)
from ctxpact.spec import ContextBudget, ContextProjection, JsonValue, copy_json

try:
    from agents import Agent, RunConfig, Runner, SQLiteSession
    from agents.memory import SessionSettings
    from agents.testing import ScriptedModel, assistant_message
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise MissingFrameworkError(
        module=__name__, distribution="openai-agents", extra="openai-agents"
    ) from error

#: The framework's name in messages, and its version in reports.
FRAMEWORK = "OpenAI Agents SDK"
VERSION: str = metadata.version("openai-agents")
#: The input of the probe turn; the projection is what the model saw before it.
PROBE: Final[JsonValue] = {"role": "user", "content": "ctxpact probe"}


async def prepared_history(items: Sequence[JsonValue], limit: int | None) -> list[JsonValue]:
    """The history the SDK hands the model for a turn, with a session holding *items*."""
    session = SQLiteSession("ctxpact", ":memory:", session_settings=SessionSettings(limit=limit))
    try:
        await session.add_items(cast("Any", copy_json(list(items))))
        model = ScriptedModel([[assistant_message("ok")]])
        agent = Agent(name="ctxpact", model=model)
        await Runner.run(
            agent,
            input=cast("Any", [copy_json(PROBE)]),
            session=session,
            run_config=RunConfig(tracing_disabled=True),
        )
    finally:
        session.close()
    seen = cast("list[JsonValue]", copy_json(model.calls[0].input))
    if not seen or seen[-1] != PROBE:  # pragma: no cover - the SDK puts the new input last
        raise AssertionError(f"the model input does not end with the probe: {seen[-1:]}")
    return seen[:-1]


class SessionHistoryProjector:
    """``SQLiteSession`` with ``SessionSettings(limit=maxItems)`` and ``Runner`` as a projector.

    See the module docstring for the mapping. Claims *generic* only.
    """

    unexpressible: ClassVar[dict[str, str]] = {
        "pinnedPrefixItems": "the limit keeps the newest items only; nothing pins the first",
        "maxApproxChars": "SessionSettings has only an item limit",
    }

    def __repr__(self) -> str:
        return "SQLiteSession(session_settings=SessionSettings(limit=maxItems)) + Runner.run"

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        """Store the items, run one turn with the scripted model and read its input."""
        source = list(items or ())
        limit = None if budget is None else budget.max_items
        notes = list(unexpressible_note(budget, ignored=("maxApproxChars", "pinnedPrefixItems")))
        notes.append(
            f"openai-agents {VERSION}: SQLiteSession(session_settings=SessionSettings("
            f"limit={limit})), Runner.run with ScriptedModel"
        )
        output = asyncio.run(prepared_history(source, limit))
        return matched_projection(
            source,
            output,
            item_limit_applied=limit is not None,
            character_limit_applied=False,
            notes=notes,
        )


__all__ = ["FRAMEWORK", "PROBE", "VERSION", "SessionHistoryProjector", "prepared_history"]
