"""The default projector: the pinned prefix and the recent tail, under the two limits."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from ctxpact.reference.projection._sized import projection_source
from ctxpact.reference.projection._stages import project_items
from ctxpact.spec import ContextBudget, ContextProjection, JsonValue


@frozen(kw_only=True)
class DefaultContextProjector:
    """Keeps the pinned prefix and the most recent items within the budget's two limits.

    The item stage keeps the first ``min(pinned_prefix_items, max_items)`` items and the most
    recent ones, ``max_items`` in all. The character stage, when the total exceeds
    ``max_approx_chars``, takes greedily: the first pinned item always and each later pinned
    item that still fits, then from the newest item backwards the newest always and each
    older one that still fits. ``budget=None`` runs neither stage. A stage that drops at
    least one item sets its flag and adds its note (``maxItems applied: N``, then
    ``maxApproxChars applied: N``). The tier fields of the budget are ignored.

    The report's ``dropped_indices`` are the ascending positions in *items* of the items left
    out, and ``cleared_indices`` is always empty. Neither the list nor any item is changed;
    the projected items are the caller's objects, in their order.

    Implements PRJ-1 .. PRJ-25, RPT-1 .. RPT-9, JSON-17 and JSON-18.
    """

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        """Project *items* under *budget* (``None`` items are no items).

        Raises:
            ArgumentTypeError: for items that are not a sequence, or a budget that is not a
                ``ContextBudget`` (JSON-18).
            SchemaValidationError: naming ``$.items[i]`` of an item that is not a JSON value
                or is beyond the limits of JSON-17.

        """
        source, budget = projection_source(type(self).__name__, items, budget)
        return project_items(source, budget)
