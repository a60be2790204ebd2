"""What the compact-policy checks share: worked transcripts, generated snapshots, a compaction."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ctxpact.conformance._model import Component
from ctxpact.conformance.checks._compaction_support import (
    assistant,
    chat_call,
    previous_summaries,
    quiet_reference_logs,
    tool_result,
    user,
)
from ctxpact.conformance.strategies import (
    adversarial_transcripts,
    transcripts,
)
from ctxpact.spec import (
    MemorySnapshot,
)

_POLICY = Component.COMPACT_POLICY

# Snapshots the explicit examples use.
_CALL = chat_call("c1", "read_file", {"path": "src/app.py"})
_PAIRED = (user("fix the bug"), _CALL, tool_result("c1"), assistant("done"), user("thanks"))
_SINGLE_TURN = (
    user("start"),
    chat_call("c1", "bash", {}),
    tool_result("c1"),
    chat_call("c2", "bash", {}),
    tool_result("c2"),
    chat_call("c3", "bash", {}),
    tool_result("c3"),
    assistant("finished"),
)
_FILES_TURN = (
    user("edit the app"),
    chat_call("c1", "read_file", {"path": "src/app.py"}),
    tool_result("c1"),
    chat_call("c2", "tools", {"path": "not/a/file-tool.py"}),
    chat_call("c3", "write_file", {"path": "src/app.py"}),
    user("next"),
    assistant("a"),
    assistant("b"),
    assistant("c"),
)
#: The transcripts above, for the suite's own test that no check's examples are shared state.
EXAMPLE_TRANSCRIPTS = (_PAIRED, _SINGLE_TURN, _FILES_TURN)
_WORKED = MemorySnapshot(
    items=tuple(user(text) for text in ("one", "two", "three", "four", "five")),
    summary="Pending: [add tests]; Decisions: [use JWT]",
)


#: Snapshots of well-paired transcripts and of broken ones (PAIR-9), with a previous summary.
_SNAPSHOTS = st.builds(
    MemorySnapshot,
    items=st.one_of(
        transcripts(max_turns=3, max_steps=2, pending=True),
        adversarial_transcripts(max_turns=3, max_steps=2),
    ),
    summary=previous_summaries(),
)


def _snapshots() -> st.SearchStrategy[MemorySnapshot]:
    return _SNAPSHOTS


def _compact(policy: Any, snapshot: MemorySnapshot) -> Any:  # noqa: ANN401 - the subject's own
    with quiet_reference_logs():
        return policy.compact(snapshot)
