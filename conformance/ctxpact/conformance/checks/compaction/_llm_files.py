"""``llm-summary`` checks of the file lists and of what carries over between compactions.

The file lists of the summarized tool calls (FIL-1 .. FIL-7), two compactions in a row (LLM-15,
PRS-15, PRS-16), a policy that compacted before (LLM-1, LLM-15), and errors that are not a
failed model call (LLM-16).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import assume, example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._model import Claim
from ctxpact.conformance._pairing import declared_calls
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import (
    FIXED_OUTPUTS,
    PLAIN_ANSWER,
    RAISES,
    ModelAnswer,
    ScriptedModelClient,
    assistant,
    chat_call,
    file_tool_items,
    first_difference,
    items_text,
    java_trim,
    llm_snapshots,
    previous_summaries,
    said,
    successful_answers,
    user,
)
from ctxpact.conformance.checks.compaction._common import _FILES_TURN, _POLICY, _compact
from ctxpact.conformance.checks.compaction._llm import (
    _LLM_OPTIONS,
    _compare_results,
    _content_of,
    _kept,
    _llm_settings,
    _result_of,
    _run_reference,
    _run_subject,
    _skipping,
)
from ctxpact.conformance.strategies import (
    transcripts,
)
from ctxpact.reference.compaction import (
    SUMMARY_UNAVAILABLE,
    extract_file_operations,
    read_file_sections,
)
from ctxpact.spec import (
    CompactResult,
    JsonValue,
    MemorySnapshot,
    compact_json,
    to_json,
)


def _summarized(
    context: CheckContext, snapshot: MemorySnapshot, result: CompactResult
) -> list[JsonValue]:
    kept = _kept(context, result)
    count = len(snapshot.items)
    context.expect(
        len(kept) <= count and items_text(kept) == items_text(snapshot.items[count - len(kept) :]),
        "the kept items are not the snapshot's last items, unchanged (CUT-1)",
    )
    return list(snapshot.items[: count - len(kept)])


def _tools_mentioning(items: Sequence[JsonValue], path: str) -> list[str]:
    return [
        call.name
        for item in items
        for call in declared_calls(item)
        if call.name is not None and path in compact_json(call.holder)
    ]


def _expect_file_lists(
    context: CheckContext, items: list[JsonValue], max_items: int, what: str
) -> None:
    """Compact *items* padded past *max_items*; the file lists are the summarized items' own.

    The padding (a user message, then assistant messages) puts every item of *items* among
    the summarized ones; each list must be what FIL-1 .. FIL-7 extract from them.
    """
    padding = [user("next"), *(assistant(f"a{i}") for i in range(max(0, max_items - 1)))]
    snapshot = MemorySnapshot(items=[*items, *padding])
    context.record(snapshot=snapshot, max_items=max_items)
    run = _run_subject(context, snapshot, [PLAIN_ANSWER])
    result = _result_of(context, run, what)
    summarized = _summarized(context, snapshot, result)
    for name, reads, actual in (
        ("readFiles", True, result.read_files),
        ("modifiedFiles", False, result.modified_files),
    ):
        expected = extract_file_operations(summarized, reads=reads)
        _compare_files(context, name, expected, actual, summarized)


def _compare_files(
    context: CheckContext,
    name: str,
    expected: Sequence[str],
    actual: Sequence[str],
    items: Sequence[JsonValue],
) -> None:
    if list(actual) == list(expected):
        return
    extra = [path for path in actual if path not in expected]
    missing = [path for path in expected if path not in actual]
    detail = []
    if extra:
        detail.append(
            f"it lists {describe(extra[0])}, from calls of "
            f"{describe(_tools_mentioning(items, extra[0]))}, which FIL-2 to FIL-6 do not count"
        )
    if missing:
        detail.append(
            f"it misses {describe(missing[0])}, from calls of "
            f"{describe(_tools_mentioning(items, missing[0]))}"
        )
    if not detail:
        detail.append("the paths are right but not each once in first-seen order (FIL-7, LLM-5)")
    context.expect(
        condition=False,
        message=f"{name} is {describe(list(actual))} but the spec gives "
        f"{describe(list(expected))}: " + "; ".join(detail),
    )


@check(
    "compaction.llm.files",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("FIL-1", "FIL-2", "FIL-3", "FIL-4", "FIL-5", "FIL-6", "FIL-7", "LLM-5", "LLM-14"),
)
def llm_files(context: CheckContext) -> Callable[[], None]:
    """The file lists are the files the summarized tool calls read and modified.

    The summarized items are those the policy did not keep; their file operations are read
    as §12 says, by the words of each tool's name, from every call shape of §1.4.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings
    items = st.lists(file_tool_items(), min_size=1, max_size=3).map(
        lambda steps: [item for step in steps for item in step]
    )

    @given(steps=items, tail=transcripts(max_turns=1, max_steps=1))
    @example(steps=list(_FILES_TURN[:5]), tail=[])
    @example(
        steps=[
            {
                "type": "function_call",
                "call_id": "a",
                "name": "readFile",
                "arguments": None,
                "input": '{"path": " src/x.py ", "file": "noslash"}',
            },
            {
                "type": "message",
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "b",
                        "name": "get_details",
                        "input": {"path": "d/e.py"},
                    },
                    {"type": "tool_use", "id": "c", "name": "view", "input": {"path": "src/v.py"}},
                ],
            },
            chat_call("d", "edit", {"path": "a.py", "file_path": "b\\c.txt"}),
            {
                "type": "function_call",
                "call_id": "e",
                "name": "read",
                "arguments": "{'path': 'q.py'}",
            },
            chat_call("f", "cat", {"path": "src/v.py"}),
        ],
        tail=[],
    )
    def test(steps: list[JsonValue], tail: list[JsonValue]) -> None:
        _expect_file_lists(
            context,
            [*steps, *tail],
            max_items,
            "for tool calls with odd names or arguments (FIL-1)",
        )

    return test


@check(
    "compaction.llm.accumulation",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-5", "LLM-8", "LLM-15", "PRS-13", "PRS-15", "PRS-16"),
)
def llm_accumulation(context: CheckContext) -> Callable[[], None]:
    """Two compactions in a row: the second sees the first summary, and keeps its file lists.

    The first result's memory plus new items is compacted again. Its prompt must carry the
    first summary as ``Previous summary:``; its file lists must start with the first's; and the
    ``## Files Read`` / ``## Files Modified`` sections of its summary must read back (PRS-15)
    as its file lists.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings
    answers = st.sampled_from(
        [PLAIN_ANSWER, said(FIXED_OUTPUTS[0]), said(FIXED_OUTPUTS[1]), said("no json"), RAISES]
    )

    @given(
        first=llm_snapshots(max_items),
        more=st.lists(file_tool_items(), max_size=2),
        answer=answers,
        again=answers,
    )
    @example(
        first=MemorySnapshot(
            items=_FILES_TURN,
            summary="Notes\n  ## Files Read  \n- /src/old.py\n## Other\n- not/this.py\n"
            "## Files Read\n-  /src/again.py ",
        ),
        more=[[chat_call("c9", "edit_file", {"path": "src/new.py"})]],
        answer=PLAIN_ANSWER,
        again=RAISES,
    )
    def test(
        first: MemorySnapshot, more: list[list[JsonValue]], answer: ModelAnswer, again: ModelAnswer
    ) -> None:
        context.record(
            first=first,
            more=more,
            max_items=max_items,
            answers=[answer.document(), again.document()],
        )
        expected_first = _run_reference(context, first, [answer])
        assume(expected_first.prompts)
        result = _result_of(context, _run_subject(context, first, [answer]), "")
        kept = _kept(context, result)
        assert result.memory is not None  # noqa: S101 - _kept checked it
        added = [item for step in more for item in step]
        second = MemorySnapshot(
            items=[*kept, *added, user("go on"), *(assistant(f"a{i}") for i in range(max_items))],
            summary=result.memory.summary,
        )
        context.step("compact again", snapshot=second)
        run = _run_subject(context, second, [again])
        result_again = _result_of(context, run, "on the second compaction")
        summary = result.memory.summary
        if summary is not None and java_trim(summary) and run.prompts:
            content = _content_of(run.prompts[0]) or ""
            context.expect(
                content.startswith(f"Previous summary:\n{java_trim(summary)}\n\n"),
                "the second compaction did not give the first summary to the model as "
                f"'Previous summary:' (LLM-8, LLM-15); its user content starts "
                f"{describe(content[:120])}",
            )
        for name, before, after in (
            ("readFiles", result.read_files, result_again.read_files),
            ("modifiedFiles", result.modified_files, result_again.modified_files),
        ):
            context.expect(
                list(after[: len(before)]) == list(before),
                f"the {name} of the first compaction {describe(list(before))} are not the start "
                f"of the second's {describe(list(after))} (LLM-5: the previous summary's "
                "files come first)",
            )
        read_back = read_file_sections(result_again.summary)
        context.expect(
            read_back == (list(result_again.read_files), list(result_again.modified_files)),
            f"the file sections of the second summary read back as {describe(read_back)}, "
            f"not as its readFiles and modifiedFiles "
            f"{describe([list(result_again.read_files), list(result_again.modified_files)])} "
            "(PRS-13, PRS-15, PRS-16)",
        )
        assert expected_first.result is not None  # noqa: S101 - the reference always returns one
        _compare_results(context, expected_first.result, result, "On the first compaction")
        expected_again = _run_reference(context, second, [again])
        assert expected_again.result is not None  # noqa: S101 - the reference always returns one
        _compare_results(context, expected_again.result, result_again, "On the second compaction")

    return test


@check(
    "compaction.llm.stateless",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-1", "LLM-15"),
)
def llm_stateless(context: CheckContext) -> Callable[[], None]:
    """A policy that compacted before gives the same prompt and result as a fresh one."""
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(
        earlier=llm_snapshots(max_items),
        shift=st.integers(0, 3),
        summary=previous_summaries(),
        answer=successful_answers(),
    )
    @example(
        earlier=MemorySnapshot(items=_FILES_TURN, summary="## Files Read\n- /src/old.py"),
        shift=0,
        summary=None,
        answer=PLAIN_ANSWER,
    )
    def test(earlier: MemorySnapshot, shift: int, summary: str | None, answer: ModelAnswer) -> None:
        fillers = [assistant(f"a{i}") for i in range(max_items)]
        later = MemorySnapshot(
            items=[*earlier.items[shift:], user("later"), *fillers], summary=summary
        )
        context.record(
            earlier=earlier, later=later, max_items=max_items, model_answer=answer.document()
        )
        used = ScriptedModelClient([answer])
        policy = context.subject(used)
        _compact(policy, earlier)
        calls = len(used.prompts)
        after = _compact(policy, later)
        fresh = _run_subject(context, later, [answer])
        context.expect(
            [to_json(p) for p in used.prompts[calls:]] == [to_json(p) for p in fresh.prompts],
            "the policy sent a different prompt after an earlier compaction than a fresh policy "
            "sends: it keeps state between calls (LLM-1, LLM-15)",
        )
        difference = first_difference(to_json(_result_of(context, fresh, "")), to_json(after))
        context.expect(
            difference is None,
            "the policy returned a different result after an earlier compaction than a fresh "
            f"policy returns: it keeps state between calls (LLM-1, LLM-15): {difference}",
        )

    return test


_NOT_JSON: tuple[object, ...] = (float("nan"), float("inf"), {1, 2}, b"bytes")


@check(
    "compaction.llm.errors-propagate",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-16",),
)
def llm_errors_propagate(context: CheckContext) -> Callable[[], None]:
    """An error that is not a failed model call is not turned into the fallback summary.

    The summarized part holds a value that is not JSON. JSON-9 leaves the result for such a
    value open, so the policy may raise or cope; but if it returns, it must have made its one
    call and must not present its own error as a failed summarization.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(bad=st.sampled_from(_NOT_JSON), position=st.integers(0, 2))
    @example(bad=float("nan"), position=0)
    def test(bad: object, position: int) -> None:
        head: list[Any] = [assistant("a"), assistant("b"), assistant("c")]
        head[position] = {"type": "message", "role": "assistant", "content": bad}
        items = [*head, user("next"), *(assistant(f"t{i}") for i in range(max(0, max_items - 1)))]
        context.record(items=items, max_items=max_items)
        run = _run_subject(context, MemorySnapshot(items=items), [PLAIN_ANSWER])
        if run.error is not None:
            return
        unavailable = SUMMARY_UNAVAILABLE.split("{", 1)[0]
        context.expect(
            run.result is not None and not (run.result.summary or "").startswith(unavailable),
            "compact turned an error that is not a failed model call into the fallback "
            "summary (LLM-16: such errors propagate)",
        )
        context.expect(
            len(run.prompts) == 1,
            f"compact returned without error but made {len(run.prompts)} model calls "
            "(LLM-6, LLM-16)",
        )

    return test
