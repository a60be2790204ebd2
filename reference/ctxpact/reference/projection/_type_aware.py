"""The type-aware projector: Tier-1 and Tier-2 first, then the default projector's limits."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from ctxpact.reference.projection._sized import projection_source
from ctxpact.reference.projection._stages import project_items
from ctxpact.reference.projection._tiers import plan_tiers
from ctxpact.spec import ContextBudget, ContextProjection, JsonValue


@frozen(kw_only=True)
class TypeAwareContextProjector:
    """Clears old tool results (Tier-1) and old reasoning (Tier-2), then applies the limits.

    Tier-1 runs when ``max_recent_tool_results`` (K) is set: of the tool results, in all
    three shapes (Responses ``function_call_output`` items, Chat tool messages, Anthropic
    ``tool_result`` parts, each part counting as one), the newest K stay as they are and every
    older one gets the label ``[tool result cleared: name(call_id)]`` (falling back to the
    name, the call id or the bare label) as its output: a Responses result becomes a new
    ``{type, call_id, output}`` item, a tool message or a result part keeps its other members
    with the label as its ``content``, and a carrier keeps its other parts. A result whose
    output already is a placeholder stays as it is and is not counted. Tool names
    come from Chat ``tool_calls``, Responses ``function_call`` items and Anthropic
    ``tool_use`` parts anywhere in the list, the last call with an id winning, else from the
    result's own ``name``. Tier-2 runs when ``trim_old_reasoning`` is true: every reasoning
    item before the last user input item (a user message that delivers no tool result) loses
    ``summary``, ``content``, ``text`` and ``encrypted_content`` and gets ``summary:
    [{"type": "summary_text", "text": "[reasoning cleared]"}]``; with no user input item
    nothing is trimmed, and items already in that form stay as they are. Each tier adds its
    note when it replaced at least one item, before the limits' notes. Then the item and
    character stages of :class:`DefaultContextProjector` run on the tiered list.

    Departure from ai4j: ``source_item_count`` and ``source_approx_chars`` describe the list
    the caller passed in, before the tiers; ``dropped_indices`` are positions in that list;
    ``cleared_indices`` are the ascending positions of the replaced items that are still in
    the projection (so they never meet ``dropped_indices``). With the tiers off, or clearing
    nothing, the projection equals :class:`DefaultContextProjector`'s. Neither the list nor
    any item is changed; items that are not replaced are the caller's objects.

    Implements PRJ-26 .. PRJ-29, T1-1 .. T1-9, T2-1 .. T2-7 and RPT-1 .. RPT-9.
    """

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        """Project *items* under *budget*."""
        source, budget = projection_source(type(self).__name__, items, budget)
        notes, replacements = plan_tiers(source, budget)
        return project_items(source, budget, tier_notes=notes, replacements=replacements)
