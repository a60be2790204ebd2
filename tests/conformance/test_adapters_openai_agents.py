"""The OpenAI Agents SDK: session history under SessionSettings(limit=...) as a projector."""

from __future__ import annotations

import pytest

pytest.importorskip("agents")

from ctxpact.conformance.adapters import framework_targets, unexpressible_fields
from ctxpact.conformance.adapters import openai_agents as oa
from ctxpact.conformance.adapters._testing import check_known_findings, user
from ctxpact.spec import ContextBudget, JsonValue

NAME = "openai-agents:SQLiteSession(SessionSettings(limit=maxItems)) + Runner"
CALL: JsonValue = {"type": "function_call", "call_id": "c1", "name": "ls", "arguments": "{}"}
OUTPUT: JsonValue = {"type": "function_call_output", "call_id": "c1", "output": "a.py"}


def test_the_window_is_the_newest_items_the_model_sees() -> None:
    items = [user("a"), user("b"), user("c")]
    projection = oa.SessionHistoryProjector().project(items, ContextBudget(max_items=2))
    assert list(projection.items) == items[1:]
    assert projection.items[0] is items[1]  # the source item, matched by its JSON text
    assert projection.report.dropped_indices == (0,)


def test_without_a_limit_every_item_reaches_the_model() -> None:
    items = [user("a"), CALL, OUTPUT, "a string", 3, None]
    projection = oa.SessionHistoryProjector().project(items, None)
    assert list(projection.items) == items


def test_the_sdk_removes_an_output_whose_call_is_outside_the_window() -> None:
    projection = oa.SessionHistoryProjector().project(
        [user("ls"), CALL, OUTPUT], ContextBudget(max_items=1)
    )
    assert projection.items == ()  # the newest item is lost: docs/findings/openai_agents.py


def test_limit_zero_is_no_history() -> None:
    projection = oa.SessionHistoryProjector().project([user("a")], ContextBudget(max_items=0))
    assert projection.items == ()


def test_the_projector_declares_what_it_cannot_express() -> None:
    (target,) = [t for t in framework_targets() if t.name == NAME]
    assert set(unexpressible_fields(target)) == {"pinnedPrefixItems", "maxApproxChars"}


def test_the_projector_fails_exactly_its_findings() -> None:
    check_known_findings(NAME)
