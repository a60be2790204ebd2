"""Projection: what this turn's prompt carries, chosen without touching memory.

:func:`approx_chars` measures items, and :class:`SizedItems` keeps their sizes (and what the
tiers and units need) as a list grows, for every projector to read;
:class:`DefaultContextProjector` keeps a pinned prefix
and a recent tail under the budget's limits; :class:`TypeAwareContextProjector` first clears
old tool results (Tier-1) and old reasoning (Tier-2); :class:`PairSafeContextProjector` does
both while keeping every tool call with its results. The constants are the exact note and
placeholder texts, which the spec quotes.
"""

from ctxpact.reference.projection._constants import (
    MAX_APPROX_CHARS_NOTE,
    MAX_ITEMS_NOTE,
    NEWEST_UNIT_DROPPED_NOTE,
    REASONING_CLEARED_TEXT,
    TIER1_NOTE,
    TIER2_NOTE,
    TOOL_RESULT_PLACEHOLDER,
    TOOL_RESULT_PLACEHOLDER_BARE,
    TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY,
    TOOL_RESULT_PLACEHOLDER_NAME_ONLY,
)
from ctxpact.reference.projection._default import DefaultContextProjector
from ctxpact.reference.projection._pair_safe import PairSafeContextProjector
from ctxpact.reference.projection._size import approx_chars, total_approx_chars
from ctxpact.reference.projection._sized import SizedItems, SizedItemsView
from ctxpact.reference.projection._type_aware import TypeAwareContextProjector

__all__ = [
    "MAX_APPROX_CHARS_NOTE",
    "MAX_ITEMS_NOTE",
    "NEWEST_UNIT_DROPPED_NOTE",
    "REASONING_CLEARED_TEXT",
    "TIER1_NOTE",
    "TIER2_NOTE",
    "TOOL_RESULT_PLACEHOLDER",
    "TOOL_RESULT_PLACEHOLDER_BARE",
    "TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY",
    "TOOL_RESULT_PLACEHOLDER_NAME_ONLY",
    "DefaultContextProjector",
    "PairSafeContextProjector",
    "SizedItems",
    "SizedItemsView",
    "TypeAwareContextProjector",
    "approx_chars",
    "total_approx_chars",
]
