"""Every reproduction under docs/findings/ still reproduces its finding, without ctxpact.

Each script uses one framework's own API and prints ``reproduced: NAME`` for each finding it
shows; it fails with an AssertionError when the framework no longer behaves so, which means
an upgrade fixed the finding and the compliance matrix's note needs to change. A script runs
in a subprocess and imports nothing of ctxpact, so that a reproduction cannot lean on it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

FINDINGS = Path(__file__).resolve().parent.parent / "docs" / "findings"
#: Each script, the framework module it needs, and the findings it reproduces.
SCRIPTS = {
    "langchain_middleware.py": (
        "langchain.agents",
        [
            "summarization_orphans_results_of_earlier_calls",
            "summarization_keep_is_not_a_bound",
            "clear_tool_uses_reads_only_the_nearest_ai_message",
            "clear_tool_uses_placeholder_names_nothing",
        ],
    ),
    "langchain_trim_messages.py": (
        "langchain_core",
        [
            "last_starts_on_a_tool_message",
            "first_ends_on_unanswered_calls",
            "start_on_human_still_orphans",
            "include_system_exceeds_max_tokens",
            "newest_message_over_budget_is_dropped",
        ],
    ),
    "autogen_contexts.py": (
        "autogen_core",
        [
            "buffered_drops_one_leading_result_message_only",
            "a_window_of_one_result_is_empty",
            "head_and_tail_inserts_a_user_message",
            "head_drops_its_trailing_calls",
        ],
    ),
    "strands_sliding_window.py": (
        "strands",
        ["trim_point_checks_only_its_own_message", "no_trim_point_keeps_everything"],
    ),
    "openai_agents.py": (
        "agents",
        ["limit_drops_the_newest_tool_output", "limit_keeps_pairs_in_the_responses_shape"],
    ),
    "strands_summarizing.py": ("strands", ["split_point_checks_only_the_next_message"]),
    "sk_history_reducers.py": ("semantic_kernel", ["truncation_keeps_a_pair_over_its_target"]),
}


def test_every_script_is_listed() -> None:
    assert sorted(path.name for path in FINDINGS.glob("*.py")) == sorted(SCRIPTS)


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_the_finding_reproduces_without_ctxpact(script: str) -> None:
    module, findings = SCRIPTS[script]
    if importlib.util.find_spec(module.split(".")[0]) is None:
        pytest.skip(f"{module} is not installed")
    lines = (FINDINGS / script).read_text(encoding="utf-8").splitlines()
    imports = [line for line in lines if line.startswith(("import ", "from "))]
    assert not [line for line in imports if "ctxpact" in line], "a reproduction uses no ctxpact"
    environment = {**os.environ, "PYTHONPATH": ""}
    done = subprocess.run(
        [sys.executable, "-I", str(FINDINGS / script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=environment,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"reproduced: {name}" for name in findings]
