"""Compact-policy checks found by mutation testing (docs/mutation.md).

The file lists of every call, also after a call without arguments (FIL-2, FIL-5).
"""

from __future__ import annotations

from collections.abc import Callable

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import (
    user,
)
from ctxpact.conformance.checks.compaction._common import _POLICY
from ctxpact.conformance.checks.compaction._llm import _LLM_OPTIONS, _llm_settings, _skipping
from ctxpact.conformance.checks.compaction._llm_files import _expect_file_lists
from ctxpact.spec import (
    JsonValue,
)

#: Summarized steps whose first tool call gives no arguments (text that is not JSON, or not
#: an object) and whose next call of the same item reads or modifies a file (FIL-2, FIL-5).
_CALLS_AFTER_NO_ARGUMENTS: tuple[JsonValue, ...] = (
    {
        "type": "message",
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "u1", "name": "read", "input": "not json"},
            {"type": "tool_use", "id": "u2", "name": "view", "input": {"path": "src/seen.py"}},
        ],
    },
    {
        "type": "message",
        "role": "assistant",
        "tool_calls": [
            {"id": "t1", "type": "function", "function": {"name": "edit", "arguments": "[1]"}},
            {
                "id": "t2",
                "type": "function",
                "function": {"name": "write_file", "arguments": '{"path": "src/out.py"}'},
            },
        ],
    },
)


@check(
    "compaction.llm.files-every-call",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("FIL-2", "FIL-5"),
)
def llm_files_every_call(context: CheckContext) -> Callable[[], None]:
    """Every tool call of an item is examined, whatever the calls before it in the item gave.

    A call without arguments (FIL-5) is skipped alone: the calls after it in the same item
    still contribute their paths (FIL-2).
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    def test() -> None:
        _expect_file_lists(
            context,
            [user("go"), *_CALLS_AFTER_NO_ARGUMENTS],
            max_items,
            "for items of several tool calls (FIL-2)",
        )

    return test
