"""The checks at the public surface of the reference: each argument of the right type (JSON-18).

A wrong type is refused at once with an :class:`~ctxpact.spec.ArgumentTypeError` (a
``TypeError``) naming the operation and the argument, never found later as an
``AttributeError`` or a result built from a string's characters; items are checked to be JSON
values within the limits (JSON-9, JSON-17) with errors naming their JSON path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ctxpact.spec import (
    ArgumentTypeError,
    ContextBudget,
    JsonValue,
    MemorySnapshot,
    StructuredSummary,
    check_items,
)

#: What a list of items may be: any sequence but a string, bytes or a mapping.
ITEMS_EXPECTED = "a sequence of items (a list or a tuple)"


def checked_items(
    operation: str, items: object, *, path: str = "$", none_is_empty: bool = False
) -> Sequence[JsonValue]:
    """*items*, checked to be a sequence of JSON values; the elements are named ``path[i]``.

    With *none_is_empty*, ``None`` stands for no items (the Python binding of a projector).

    Raises:
        ArgumentTypeError: if *items* is a string, bytes, a mapping or not a sequence.
        SchemaValidationError: if an item is not a JSON value, or is beyond JSON-17's limits.

    """
    if items is None and none_is_empty:
        return ()
    if isinstance(items, str | bytes | bytearray | Mapping) or not isinstance(items, Sequence):
        expected = ITEMS_EXPECTED + (" or None" if none_is_empty else "")
        raise ArgumentTypeError(
            operation=operation, argument="items", expected=expected, actual=items
        )
    check_items(items, path)
    return items


def projection_arguments(
    owner: str, items: object, budget: object
) -> tuple[Sequence[JsonValue], ContextBudget | None]:
    """The arguments of ``project``, checked (PRJ-1, JSON-18): ``None`` items are no items.

    Raises:
        ArgumentTypeError: for items that are not a sequence, or a budget that is neither a
            ``ContextBudget`` nor ``None``.
        SchemaValidationError: naming ``$.items[i]`` of the first item that is not a JSON
            value or is beyond JSON-17's limits.

    """
    operation = f"{owner}.project"
    budget = checked_budget(operation, budget)
    return checked_items(operation, items, path="$.items", none_is_empty=True), budget


def checked_budget(operation: str, budget: object) -> ContextBudget | None:
    """*budget*, checked to be a :class:`~ctxpact.spec.ContextBudget` or ``None`` (JSON-18).

    Raises:
        ArgumentTypeError: otherwise.

    """
    if budget is not None and not isinstance(budget, ContextBudget):
        raise ArgumentTypeError(
            operation=operation,
            argument="budget",
            expected="a ContextBudget or None",
            actual=budget,
        )
    return budget


def checked_snapshot(operation: str, snapshot: object) -> MemorySnapshot:
    """*snapshot*, checked to be a :class:`~ctxpact.spec.MemorySnapshot` (JSON-18).

    Raises:
        ArgumentTypeError: otherwise.

    """
    if not isinstance(snapshot, MemorySnapshot):
        raise ArgumentTypeError(
            operation=operation, argument="snapshot", expected="a MemorySnapshot", actual=snapshot
        )
    return snapshot


def checked_text(operation: str, argument: str, text: object) -> str:
    """*text*, checked to be a ``str`` (JSON-18).

    Raises:
        ArgumentTypeError: otherwise.

    """
    if not isinstance(text, str):
        raise ArgumentTypeError(
            operation=operation, argument=argument, expected="a str", actual=text
        )
    return text


def checked_summary(operation: str, summary: object) -> StructuredSummary:
    """*summary*, checked to be a :class:`~ctxpact.spec.StructuredSummary` (JSON-18).

    Raises:
        ArgumentTypeError: otherwise.

    """
    if not isinstance(summary, StructuredSummary):
        raise ArgumentTypeError(
            operation=operation,
            argument="summary",
            expected="a StructuredSummary",
            actual=summary,
        )
    return summary
