"""The records of the contract: frozen, keyword-only attrs classes mirroring ``schemas/``.

Every field name is the snake_case form of the camelCase JSON name in the matching schema
(JSON-12). Sequences are tuples; lists passed in are converted. Counts are checked when a
record is built, so a record never holds a value its field does not allow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, pairwise
from typing import Any, cast

from attrs import Attribute, field, frozen

from ctxpact.spec._errors import ArgumentTypeError, InvalidValueError
from ctxpact.spec._json import JsonValue, _shown


def _non_negative(instance: object, attribute: Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected="a non-negative integer",
            actual=value,
        )


def _optional_non_negative(instance: object, attribute: Attribute[Any], value: object) -> None:
    if value is not None:
        _non_negative(instance, attribute, value)


def _boolean(instance: object, attribute: Attribute[Any], value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidValueError(
            record=type(instance).__name__, field=attribute.name, expected="a bool", actual=value
        )


def _text(instance: object, attribute: Attribute[Any], value: object) -> None:
    if not isinstance(value, str):
        raise InvalidValueError(
            record=type(instance).__name__, field=attribute.name, expected="a str", actual=value
        )


#: The code points Java's ``String.trim`` removes: a string of only these is blank (§1.4).
_BLANK = "".join(chr(code) for code in range(0x21))


def _session_id(instance: object, attribute: Attribute[Any], value: object) -> None:
    # SES-17: non-blank, and only Unicode scalar values (UTF-8 cannot carry a lone surrogate).
    if (
        not isinstance(value, str)
        or not value.strip(_BLANK)
        or any("\ud800" <= character <= "\udfff" for character in value)
    ):
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected="a non-blank str without lone surrogates",
            actual=value,
        )


def _record_of(*classes: type[Any], optional: bool = False) -> Any:  # noqa: ANN401 - an attrs validator
    """A validator: the field holds an instance of one of *classes* (or ``None``, if *optional*)."""
    names = " or ".join(f"a {cls.__name__}" for cls in classes) + (" or None" if optional else "")

    def validate(instance: object, attribute: Attribute[Any], value: object) -> None:
        if (value is None and optional) or isinstance(value, classes):
            return
        raise InvalidValueError(
            record=type(instance).__name__,
            field=attribute.name,
            expected=names,
            actual=f"{type(value).__name__} {_shown(value)}",
        )

    return validate


def _optional_text(instance: object, attribute: Attribute[Any], value: object) -> None:
    if value is not None:
        _text(instance, attribute, value)


def _texts(instance: object, attribute: Attribute[Any], value: tuple[object, ...]) -> None:
    _a_sequence(instance, attribute, value)
    for index, member in enumerate(value):
        if not isinstance(member, str):
            raise InvalidValueError(
                record=type(instance).__name__,
                field=f"{attribute.name}[{index}]",
                expected="a str",
                actual=member,
            )


_INT = frozenset({int})


def _indices(instance: object, attribute: Attribute[Any], value: object) -> None:
    if value is None:
        return
    _a_sequence(instance, attribute, value)
    assert isinstance(value, tuple)  # noqa: S101 - the converter guarantees it
    # A report lists a position of every item it dropped: check the common case, plain
    # non-negative ints, at C speed; only a tuple that fails it is walked to name the culprit.
    if not value or (set(map(type, value)) <= _INT and min(value) >= 0):
        return
    for index, member in enumerate(value):
        if isinstance(member, bool) or not isinstance(member, int) or member < 0:
            raise InvalidValueError(
                record=type(instance).__name__,
                field=f"{attribute.name}[{index}]",
                expected="a non-negative integer",
                actual=member,
            )


class _NotASequence:
    """What a sequence field's converter leaves for its validator to refuse, with the name."""

    def __init__(self, value: object) -> None:
        self.value = value


def _sequence(values: object) -> tuple[Any, ...]:
    # A string, bytes or a mapping is iterable too, and tuple("done") would silently become
    # four one-letter entries: a sequence field takes a list or a tuple (or another
    # sequence), nothing else. A converter cannot name its field; the validator does.
    if isinstance(values, str | bytes | bytearray | dict) or not isinstance(values, Iterable):
        return cast("tuple[Any, ...]", _NotASequence(values))
    return tuple(values)


def _strings(values: Iterable[str]) -> tuple[str, ...]:
    return _sequence(values)


def _items(values: Iterable[JsonValue]) -> tuple[JsonValue, ...]:
    return _sequence(values)


def _optional_indices(values: Iterable[int] | None) -> tuple[int, ...] | None:
    return None if values is None else _sequence(values)


def _tool_calls(values: Iterable[ToolCall]) -> tuple[ToolCall, ...]:
    return _sequence(values)


def _a_sequence(instance: object, attribute: Attribute[Any], value: object) -> None:
    if isinstance(value, _NotASequence):
        raise ArgumentTypeError(
            operation=type(instance).__name__,
            argument=attribute.name,
            expected="a list or a tuple",
            actual=value.value,
        )


def _tool_call_list(instance: object, attribute: Attribute[Any], value: tuple[object, ...]) -> None:
    _a_sequence(instance, attribute, value)
    for index, member in enumerate(value):
        if not isinstance(member, ToolCall):
            raise InvalidValueError(
                record=type(instance).__name__,
                field=f"{attribute.name}[{index}]",
                expected="a ToolCall",
                actual=f"{type(member).__name__} {_shown(member)}",
            )


#: Marks the fields that hold JSON items, which the converter passes through opaquely.
JSON_ITEMS = "ctxpact.json_items"


_ITEMS_METADATA = {JSON_ITEMS: True}


@frozen(kw_only=True)
class ContextBudget:
    """How much this turn's prompt may carry (BUD-1 .. BUD-7).

    ``None`` means "no limit" for the two limits and "Tier-1 off" for
    ``max_recent_tool_results``. Negative values are rejected with
    :class:`~ctxpact.spec.InvalidValueError` (a ``ValueError``), not silently ignored.
    """

    max_items: int | None = field(default=None, validator=_optional_non_negative)
    max_approx_chars: int | None = field(default=None, validator=_optional_non_negative)
    pinned_prefix_items: int = field(default=0, validator=_non_negative)
    max_recent_tool_results: int | None = field(default=None, validator=_optional_non_negative)
    trim_old_reasoning: bool = field(default=False, validator=_boolean)


@frozen(kw_only=True)
class ContextReport:
    """What a projection kept and what it dropped (RPT-1 .. RPT-9).

    ``dropped_indices`` and ``cleared_indices`` are ctxpact extensions: the ascending
    positions, in the list the projector was given, of the items left out and of the items
    replaced by a placeholder or a cleared form. ``None`` means the implementation does not
    report them (an ai4j-shaped report); a tuple, even an empty one, is a claim checked exactly.
    """

    source_item_count: int = field(validator=_non_negative)
    projected_item_count: int = field(validator=_non_negative)
    dropped_item_count: int = field(validator=_non_negative)
    source_approx_chars: int = field(validator=_non_negative)
    projected_approx_chars: int = field(validator=_non_negative)
    item_limit_applied: bool = field(validator=_boolean)
    character_limit_applied: bool = field(validator=_boolean)
    notes: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    dropped_indices: tuple[int, ...] | None = field(
        default=None, converter=_optional_indices, validator=_indices
    )
    cleared_indices: tuple[int, ...] | None = field(
        default=None, converter=_optional_indices, validator=_indices
    )

    @classmethod
    def of_positions(  # noqa: PLR0913 - the record's fields, by name
        cls,
        *,
        source_item_count: int,
        kept: Sequence[int],
        cleared: Sequence[int] = (),
        source_approx_chars: int,
        projected_approx_chars: int,
        item_limit_applied: bool,
        character_limit_applied: bool,
        notes: Iterable[str] = (),
    ) -> ContextReport:
        """The report of a projection that kept the source positions *kept*, with exact indices.

        *kept* are the ascending positions of the represented items (PRJ-7), *cleared* the
        ones among them that are replacements (RPT-7). The counts follow from them, and
        ``dropped_indices`` is built here as the positions *kept* leaves out: made from
        checked positions, it needs no check of its own, which matters because a projection
        of a long memory drops far more items than it keeps.

        Raises:
            InvalidValueError: for a field the record refuses, or *kept* and *cleared* that
                are not ascending positions below *source_item_count*, *cleared* among *kept*.

        """
        if (
            isinstance(source_item_count, bool)
            or not isinstance(source_item_count, int)
            or source_item_count < 0
        ):
            raise InvalidValueError(
                record=cls.__name__,
                field="source_item_count",
                expected="a non-negative integer",
                actual=source_item_count,
            )
        _check_positions(cls.__name__, "kept", kept, below=source_item_count)
        _check_positions(cls.__name__, "cleared", cleared, below=source_item_count)
        members = kept if isinstance(kept, range) else frozenset(kept)
        outside = next((index for index, p in enumerate(cleared) if p not in members), None)
        if outside is not None:
            raise InvalidValueError(
                record=cls.__name__,
                field=f"cleared[{outside}]",
                expected="a kept position",
                actual=cleared[outside],
            )
        report = cls(
            source_item_count=source_item_count,
            projected_item_count=len(kept),
            dropped_item_count=source_item_count - len(kept),
            source_approx_chars=source_approx_chars,
            projected_approx_chars=projected_approx_chars,
            item_limit_applied=item_limit_applied,
            character_limit_applied=character_limit_applied,
            notes=tuple(notes),
            dropped_indices=(),
            cleared_indices=cleared,
        )
        # attrs' own way of setting a field of a frozen instance; the value is valid as built.
        object.__setattr__(report, "dropped_indices", _left_out(kept, source_item_count))
        return report


def _check_positions(record: str, name: str, positions: Sequence[int], *, below: int) -> None:
    """Check that *positions* are ascending ints (not bools) below *below*; name a bad one."""
    if isinstance(positions, range):
        if positions.step > 0 and (not positions or (positions[0] >= 0 and positions[-1] < below)):
            return
        positions = tuple(positions)
    previous = -1
    for index, position in enumerate(positions):
        if (
            isinstance(position, bool)
            or not isinstance(position, int)
            or not previous < position < below
        ):
            raise InvalidValueError(
                record=record,
                field=f"{name}[{index}]",
                expected=f"an ascending position below {below}",
                actual=position,
            )
        previous = position


def _left_out(kept: Sequence[int], count: int) -> tuple[int, ...]:
    """The positions of ``range(count)`` that the ascending positions *kept* leave out."""
    if isinstance(kept, range) and kept.step == 1:
        return (*range(kept.start), *range(kept.stop, count)) if kept else tuple(range(count))
    bounds = [-1, *kept, count]
    return tuple(chain.from_iterable(range(low + 1, high) for low, high in pairwise(bounds)))


@frozen(kw_only=True)
class ContextProjection:
    """The items this turn's prompt carries, and the report of how they were chosen."""

    items: tuple[JsonValue, ...] = field(
        converter=_items, validator=_a_sequence, metadata=_ITEMS_METADATA
    )
    report: ContextReport = field(validator=_record_of(ContextReport))


@frozen(kw_only=True)
class MemorySnapshot:
    """An agent memory's state: its raw items and its summary (MEM-1, MEM-9, MEM-10)."""

    items: tuple[JsonValue, ...] = field(
        default=(), converter=_items, validator=_a_sequence, metadata=_ITEMS_METADATA
    )
    summary: str | None = field(default=None, validator=_optional_text)


@frozen(kw_only=True)
class CompactResult:
    """What a compaction produced: the new memory, its summary, structured fields (CMP-2..5).

    Which fields a policy fills is part of its contract; the others stay empty.
    """

    memory: MemorySnapshot | None = field(
        default=None, validator=_record_of(MemorySnapshot, optional=True)
    )
    summary: str | None = field(default=None, validator=_optional_text)
    completed: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    pending: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    decisions: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    changed_artifacts: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    failed_commands: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    test_results: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    user_confirmations: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    sandbox_state: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    open_questions: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    read_files: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    modified_files: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    context_report: ContextReport | None = field(
        default=None, validator=_record_of(ContextReport, optional=True)
    )


@frozen(kw_only=True)
class StructuredSummary:
    """What the forgiving summary parser read from a model's output (PRS-1 .. PRS-16).

    ``parsed`` is false when no JSON object was found; ``text`` then holds the trimmed raw
    output and every list is empty. When ``parsed`` is true, ``text`` holds the compact JSON
    text of the object that was parsed, which rendering falls back to (PRS-11).
    """

    goal: str | None = field(default=None, validator=_optional_text)
    completed: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    pending: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    decisions: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    errors: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    test_results: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    open_questions: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    read_files: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    modified_files: tuple[str, ...] = field(default=(), converter=_strings, validator=_texts)
    parsed: bool = field(default=True, validator=_boolean)
    text: str = field(default="", validator=_text)


@frozen(kw_only=True)
class ToolCall:
    """A tool call requested by the model; ``arguments`` is the JSON text of its arguments."""

    call_id: str = field(validator=_text)
    name: str = field(validator=_text)
    arguments: str = field(validator=_text)


@frozen(kw_only=True)
class ModelPrompt:
    """One request to a model: the model's name, an optional system prompt and the items."""

    model: str = field(validator=_text)
    system_prompt: str | None = field(validator=_optional_text)
    items: tuple[JsonValue, ...] = field(
        converter=_items, validator=_a_sequence, metadata=_ITEMS_METADATA
    )


@frozen(kw_only=True)
class ModelResult:
    """A model's answer: its text, the items to append to memory, and the tools to call."""

    output_text: str | None = field(default=None, validator=_optional_text)
    memory_items: tuple[JsonValue, ...] = field(
        default=(), converter=_items, validator=_a_sequence, metadata=_ITEMS_METADATA
    )
    tool_calls: tuple[ToolCall, ...] = field(
        default=(), converter=_tool_calls, validator=_tool_call_list
    )


@frozen(kw_only=True)
class AgentSessionSnapshot:
    """What resuming a session needs: its id, memory and last compaction (SES-1, SES-3)."""

    session_id: str = field(validator=_session_id)
    memory: MemorySnapshot = field(factory=MemorySnapshot, validator=_record_of(MemorySnapshot))
    compact_result: CompactResult | None = field(
        default=None, validator=_record_of(CompactResult, optional=True)
    )
