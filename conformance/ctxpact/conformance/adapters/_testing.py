"""Helpers shared by the adapters' tests: items, pair checks, and the strict findings check.

Each framework's test module skips on its own when its framework is missing, so what they
share lives here, in a module that imports no framework.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from ctxpact.conformance import Claim, Outcome, check_target, checks_for
from ctxpact.conformance.adapters import UnsupportedItemError, framework_targets
from ctxpact.spec import ContextProjection, JsonValue, compact_json


def text(value: str) -> JsonValue:
    return {"type": "input_text", "text": value}


def user(value: str) -> JsonValue:
    return {"type": "message", "role": "user", "content": [text(value)]}


def tool_result(call_id: str, output: JsonValue) -> JsonValue:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def chat_call(call_id: str, name: str = "read_file") -> JsonValue:
    call: JsonValue = {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": "{}"},
    }
    return {"type": "message", "role": "assistant", "tool_calls": [call]}


PAIRED: list[JsonValue] = [
    user("go"),
    chat_call("c1"),
    tool_result("c1", "x" * 30),
    user("again"),
    chat_call("c2", "grep"),
    tool_result("c2", "y" * 30),
]


def carried(convert: Callable[[list[JsonValue]], object], item: JsonValue) -> bool:
    try:
        convert([item])
    except UnsupportedItemError:
        return False
    return True


def orphans(items: list[JsonValue], projection: ContextProjection) -> list[int]:
    """Source positions of kept tool results whose call (by call id, earlier) was dropped."""
    dropped = set(projection.report.dropped_indices or ())
    found = []
    for position, item in enumerate(items):
        if not (isinstance(item, dict) and item.get("type") == "function_call_output"):
            continue
        calls = [
            index
            for index in range(position)
            if f'"id":"{item["call_id"]}"' in compact_json(items[index])
            or f'"call_id":"{item["call_id"]}"' in compact_json(items[index])
        ]
        if position not in dropped and calls and calls[-1] in dropped:
            found.append(position)
    return found


def check_known_findings(name: str) -> None:
    """The target fails exactly its declared findings at the default profile, strictly.

    An unexpected failure fails the report, and so does a declared finding the checks no
    longer reach (a framework upgrade that fixed it); each finding also has a concrete test.
    """
    (target,) = [t for t in framework_targets() if t.name == name]
    report = check_target(target, profile="default")
    if not report.ok:
        raise AssertionError([(r.check_id, r.message) for r in report.failures])
    ran = [r for r in report.results if r.outcome is not Outcome.SKIP]
    claimed = [c for c in checks_for(target.component) if c.claim in target.claims]
    if len(ran) != len(claimed):
        raise AssertionError(f"{len(ran)} checks ran of the {len(claimed)} claimed")


def pair_integrity(name: str) -> Outcome:
    """The outcome of the pair-integrity check on the target, claimed for the occasion."""
    (target,) = [t for t in framework_targets() if t.name == name]
    claimed = attrs.evolve(target, claims=(Claim.GENERIC, Claim.PAIR_INTEGRITY))
    report = check_target(claimed, profile="default", keywords=["pair-integrity"])
    (result,) = report.results
    return result.outcome


def identical(left: list[JsonValue], right: list[JsonValue]) -> bool:
    return compact_json(left) == compact_json(right)
