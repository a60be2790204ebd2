"""``llm-summary`` checks: the policy driven by a scripted model, compared with the reference.

The client it needs (LLM-1), when it compacts (LLM-2), the cut (LLM-3, LLM-4, CUT-1 .. CUT-5),
the prompt (LLM-5 .. LLM-10), the fallback summary (LLM-11, LLM-12, LLM-14) and the summary
(LLM-13, CMP-5, PRS-13). The runs and settings here are shared with the other ``llm-summary``
modules.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

from attrs import evolve, frozen
from hypothesis import assume, example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, SubjectError, describe
from ctxpact.conformance._model import Claim
from ctxpact.conformance._pairing import pairs
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import (
    FIXED_OUTPUTS,
    PLAIN_ANSWER,
    RAISES,
    ModelAnswer,
    ScriptedModelClient,
    assistant,
    chat_call,
    failing_answers,
    first_difference,
    greatest_user_input,
    items_text,
    java_trim,
    llm_snapshots,
    previous_summaries,
    said,
    separated_units,
    snapshot_text,
    successful_answers,
    text_difference,
    tool_result,
    user,
)
from ctxpact.conformance.checks.compaction._common import (
    _FILES_TURN,
    _PAIRED,
    _POLICY,
    _SINGLE_TURN,
    _WORKED,
    _compact,
)
from ctxpact.conformance.strategies import (
    transcripts,
)
from ctxpact.reference.compaction import (
    LlmCompactPolicy,
    find_turn_boundary_cut,
)
from ctxpact.spec import (
    CompactResult,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    compact_json,
    to_json,
)


@frozen(kw_only=True)
class _Run:
    """What one compaction did: the result (or the error) and the prompts the model saw."""

    result: CompactResult | None
    error: Exception | None
    prompts: tuple[ModelPrompt, ...]


_LLM_OPTIONS = (
    "the llm-summary checks need options={'max_items': N}, the policy's keep-recent count"
)


def _llm_settings(context: CheckContext) -> tuple[int, str] | None:
    """``options["max_items"]`` and ``options["model_name"]``, or ``None`` when not given."""
    max_items = context.options.get("max_items")
    if isinstance(max_items, bool) or not isinstance(max_items, int) or max_items < 0:
        return None
    model_name = context.options.get("model_name") or ""
    return max_items, str(model_name)


def _skipping(reason: str) -> Callable[[], None]:
    """A test that errors: the target claims the check but did not give the options it needs.

    Not a skip: a claim that cannot be checked must not pass for a checked one.
    """

    def test() -> None:
        raise SubjectError(f"the target claims this check, but {reason}")

    return test


def _prompt_text(run: _Run) -> str:
    return describe(to_json(run.prompts[0])) if run.prompts else "nothing"


def _run_subject(
    context: CheckContext, snapshot: MemorySnapshot, answers: Sequence[ModelAnswer]
) -> _Run:
    client = ScriptedModelClient(answers)
    policy = context.subject(client)
    try:
        result = _compact(policy, snapshot)
    except Exception as error:  # noqa: BLE001 - the caller decides whether an error is a finding
        return _Run(result=None, error=error, prompts=tuple(client.prompts))
    return _Run(result=result, error=None, prompts=tuple(client.prompts))


def _run_reference(
    context: CheckContext, snapshot: MemorySnapshot, answers: Sequence[ModelAnswer]
) -> _Run:
    settings = _llm_settings(context)
    assert settings is not None  # noqa: S101 - only llm-summary checks with options get here
    max_items, model_name = settings
    client = ScriptedModelClient(answers)
    policy = LlmCompactPolicy(client, model_name, max_items=max_items)
    result = _compact(policy, copy.deepcopy(snapshot))
    return _Run(result=result, error=None, prompts=tuple(client.prompts))


def _result_of(context: CheckContext, run: _Run, what: str) -> CompactResult:
    if run.error is not None:
        context.expect(
            condition=False,
            message=f"compact raised {type(run.error).__name__}: {run.error} {what}",
        )
    context.expect(isinstance(run.result, CompactResult), f"compact returned {run.result!r} {what}")
    assert isinstance(run.result, CompactResult)  # noqa: S101 - narrowed by the expectation
    return run.result


def _kept(context: CheckContext, result: CompactResult) -> tuple[JsonValue, ...]:
    context.expect(
        result.memory is not None,
        "the result's memory is null: an LLM policy's result always carries the memory to "
        "restore (LLM-4, LLM-14)",
    )
    assert result.memory is not None  # noqa: S101 - narrowed by the expectation
    return result.memory.items


@check(
    "compaction.llm.requires-client",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-1",),
)
def requires_client(context: CheckContext) -> Callable[[], None]:
    """Building the policy without a model client fails.

    The factory is called with ``None`` for the client. (LLM-1's rejection of a bad
    ``max_items`` cannot be observed through a factory that fixes it.)
    """

    def test() -> None:
        context.record(model_client=None)
        try:
            context.factory(None)
        except Exception:  # noqa: BLE001 - any error is what LLM-1 asks for
            return
        context.expect(
            condition=False,
            message="the factory built a policy without a model client (LLM-1: constructing "
            "without one must fail with an error)",
        )

    return test


@check(
    "compaction.llm.should-compact",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-2", "CMP-1"),
)
def llm_should_compact(context: CheckContext) -> Callable[[], None]:
    """should_compact is true exactly when there are more than max_items items; no model call."""
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings
    sizes = st.integers(max(0, max_items - 2), max_items + 2)

    @given(size=sizes, items=transcripts(max_turns=2, max_steps=1), summary=previous_summaries())
    @example(size=max_items, items=[], summary=None)
    @example(size=max_items + 1, items=[], summary="earlier")
    def test(size: int, items: list[JsonValue], summary: str | None) -> None:
        padded = (items + [user(f"u{i}") for i in range(size)])[:size]
        snapshot = MemorySnapshot(items=padded, summary=summary)
        context.record(snapshot=snapshot, max_items=max_items)
        client = ScriptedModelClient()
        answer = context.subject(client).should_compact(snapshot)
        context.expect(
            not client.prompts, "should_compact called the model (LLM-2: it is not consulted)"
        )
        expected = len(padded) > max_items
        context.expect(
            answer == expected,
            f"should_compact is {answer} for {len(padded)} items with max_items {max_items} "
            f"(LLM-2: true exactly when there are more than max_items items)",
        )

    return test


@st.composite
def _blocked_turns(draw: st.DrawFn, max_items: int) -> list[JsonValue]:
    """A single turn in which every cut up to the naive one separates a call from its result."""
    count = draw(st.integers(max_items + 1, max_items + 4))
    call_ids = [f"p{index}" for index in range(count)]
    head: list[JsonValue] = []
    if draw(st.booleans()):
        head.append({"type": "reasoning", "id": "rs_1", "summary": []})
    if draw(st.booleans()):
        head.append(
            {
                "type": "message",
                "role": "assistant",
                "tool_calls": [
                    {"id": cid, "type": "function", "function": {"name": "grep", "arguments": "{}"}}
                    for cid in call_ids
                ],
            }
        )
    else:
        head.extend(
            {"type": "function_call", "call_id": cid, "name": "ls", "arguments": "{}"}
            for cid in call_ids
        )
    results: list[JsonValue] = [tool_result(cid) for cid in call_ids]
    return head + draw(st.permutations(results))


@check(
    "compaction.llm.cut-zero",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-4", "CUT-2", "CUT-5"),
)
def llm_cut_zero(context: CheckContext) -> Callable[[], None]:
    """When nothing can be summarized (cut 0) there is no model call and the memory is unchanged.

    The snapshots hold at most max_items items, or one turn in which every cut separates a
    tool result from its call.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings
    short = transcripts(max_turns=2, max_steps=2).map(
        lambda items: items[-max_items:] if max_items else []
    )
    snapshots = st.builds(
        MemorySnapshot, items=short | _blocked_turns(max_items), summary=previous_summaries()
    )

    @given(snapshot=snapshots)
    @example(snapshot=MemorySnapshot(items=_WORKED.items[:max_items], summary="kept"))
    @example(
        snapshot=MemorySnapshot(
            items=(
                {
                    "type": "message",
                    "role": "assistant",
                    "tool_calls": [
                        {"id": f"p{i}", "type": "function", "function": {"name": "ls"}}
                        for i in range(max_items + 1)
                    ],
                },
                *(tool_result(f"p{i}") for i in range(max_items + 1)),
            )
        )
    )
    def test(snapshot: MemorySnapshot) -> None:
        items = snapshot.items
        assume(find_turn_boundary_cut(items, len(items) - min(max_items, len(items))) == 0)
        context.record(snapshot=snapshot, max_items=max_items)
        run = _run_subject(context, snapshot, [PLAIN_ANSWER])
        result = _result_of(context, run, "when nothing is to be summarized")
        context.expect(
            not run.prompts,
            "compact called the model although the cut is 0 and nothing is to be summarized "
            f"(LLM-4, CUT-2, CUT-5); it sent {_prompt_text(run)}",
        )
        context.expect(
            result.memory is not None and snapshot_text(result.memory) == snapshot_text(snapshot),
            "at cut 0 the result's memory must be the snapshot unchanged (LLM-4), but it is "
            f"{describe(to_json(result.memory) if result.memory else None)}",
        )
        context.expect(
            result.summary == snapshot.summary,
            f"at cut 0 the result's summary is {result.summary!r}; LLM-4 gives the snapshot's "
            f"summary {snapshot.summary!r}",
        )
        expected = to_json(CompactResult(memory=snapshot, summary=snapshot.summary))
        difference = first_difference(expected, to_json(result))
        context.expect(difference is None, f"at cut 0 every list is empty (LLM-4): {difference}")

    return test


@check(
    "compaction.llm.cut",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-3", "CUT-1", "CUT-3", "CUT-4", "CUT-5", "PAIR-3", "JSON-1", "JSON-3"),
)
def llm_cut(context: CheckContext) -> Callable[[], None]:
    """The policy keeps a tail cut at a turn boundary and never separates a unit.

    The cut is read from the result: the kept items must be the snapshot's last items,
    unchanged. It must fall on the greatest user input item in [1, naive cut] that separates
    no unit (PAIR-3: a call with its results, a run of parallel calls, reasoning with its
    output) when there is one; otherwise on the greatest cut that separates none; otherwise 0.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(snapshot=llm_snapshots(max_items))
    @example(snapshot=MemorySnapshot(items=_SINGLE_TURN))
    @example(snapshot=MemorySnapshot(items=(*_PAIRED, *_PAIRED)))
    @example(snapshot=MemorySnapshot(items=(*_WORKED.items, 42, 1.0, "text", None, [True])))
    @example(
        snapshot=MemorySnapshot(
            items=(
                *(chat_call(f"c{i}", "bash", {}) for i in range(max_items)),
                *(tool_result(f"c{i}") for i in range(max_items)),
                assistant("y"),
            )
        )
    )
    def test(snapshot: MemorySnapshot) -> None:
        items = snapshot.items
        context.record(snapshot=snapshot, max_items=max_items)
        result = _result_of(context, _run_subject(context, snapshot, [PLAIN_ANSWER]), "")
        kept = _kept(context, result)
        count = len(items)
        context.expect(
            len(kept) <= count and items_text(kept) == items_text(items[count - len(kept) :]),
            "the kept items are not the snapshot's last items, unchanged (CUT-1, JSON-1, "
            f"JSON-3): kept {describe(list(kept))}",
        )
        cut = count - len(kept)
        naive = count - min(max_items, count)
        context.expect(
            cut <= naive,
            f"the policy kept {len(kept)} items, fewer than max_items {max_items} allows "
            f"(LLM-3: the cut {cut} is after the naive cut {naive})",
        )
        for unit in separated_units(items, cut)[:1] if 0 < cut < count else []:
            context.expect(
                condition=False,
                message=f"the cut at {cut} separates the unit of positions {list(unit)} (a "
                "call with its results, a run of parallel calls, or reasoning with its output): "
                "part of it is summarized, part kept (CUT-3, CUT-4, PAIR-3)",
            )
        boundary = greatest_user_input(items, naive) if 0 < naive < count else None
        if boundary is not None:
            context.expect(
                cut == boundary,
                f"the cut is at {cut}, but position {boundary} holds a user input item and "
                f"separates no unit, the greatest such in [1, {naive}] (CUT-3)",
            )
            return
        pairing = pairs(items)
        candidates = [i for i in range(1, min(naive, count - 1) + 1) if not pairing.separates(i)]
        expected = (
            candidates[-1] if 0 < naive < count and candidates else 0 if naive < count else count
        )
        context.expect(
            cut == expected,
            f"the cut is at {cut}; no user input item in [1, {naive}] separates no unit, and "
            f"the greatest cut there that separates none is {expected} (CUT-4)"
            if expected
            else f"the cut is at {cut}, but every cut in [1, {naive}] separates a unit, so "
            "nothing may be summarized (CUT-5)",
        )

    return test


def _blocks(content: str, summary: str | None) -> list[tuple[int, str]]:
    """Where each block of an expected user content starts, with the clause that defines it."""
    blocks = [(0, "the Previous summary block (LLM-8 (1))")]
    position = 0
    if summary is not None and java_trim(summary):
        position = len("Previous summary:\n") + len(java_trim(summary)) + 2
    if content.startswith("Files read: ", position):
        blocks.append((position, "the Files read/modified block (LLM-8 (2), LLM-9, LLM-5)"))
        position = content.index("\n\n", content.index("Files modified: ", position)) + 2
    blocks.append((position, "the conversation dump (LLM-8 (3), LLM-10, JSON-6)"))
    return blocks


def _content_of(prompt: ModelPrompt) -> str | None:
    if len(prompt.items) != 1:
        return None
    item = prompt.items[0]
    if not isinstance(item, dict):
        return None
    parts = item.get("content")
    if not isinstance(parts, list) or len(parts) != 1 or not isinstance(parts[0], dict):
        return None
    text = parts[0].get("text")
    return text if isinstance(text, str) else None


def _compare_prompt(
    context: CheckContext, expected: ModelPrompt, actual: ModelPrompt, summary: str | None
) -> None:
    context.expect(
        actual.model == expected.model,
        f"the prompt's model is {actual.model!r}, not the model name {expected.model!r} (LLM-6)",
    )
    if actual.system_prompt != expected.system_prompt:
        context.expect(
            condition=False,
            message="the system prompt is not Listing 1 verbatim (LLM-7): "
            + text_difference(expected.system_prompt or "", actual.system_prompt or ""),
        )
    expected_content = _content_of(expected)
    actual_content = _content_of(actual)
    shape = compact_json(list(expected.items)).replace(compact_json(expected_content), "…")
    context.expect(
        actual_content is not None
        and compact_json(list(actual.items)).replace(compact_json(actual_content), "…") == shape,
        "the prompt's items must be exactly one user message "
        f'{{"type":"message","role":"user","content":[{{"type":"input_text","text":…}}]}} '
        f"(LLM-6), not {describe(list(actual.items))}",
    )
    assert expected_content is not None  # noqa: S101 - the reference builds one
    assert actual_content is not None  # noqa: S101 - narrowed by the expectation
    if actual_content == expected_content:
        return
    index = next(
        (
            i
            for i, (a, b) in enumerate(zip(expected_content, actual_content, strict=False))
            if a != b
        ),
        min(len(expected_content), len(actual_content)),
    )
    block = [name for start, name in _blocks(expected_content, summary) if start <= index][-1]
    context.expect(
        condition=False,
        message=f"the user content differs in {block} at character {index}: expected "
        f"{describe(expected_content[max(0, index - 40) : index + 80], 200)}, got "
        f"{describe(actual_content[max(0, index - 40) : index + 80], 200)}",
    )


@check(
    "compaction.llm.prompt",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-5", "LLM-6", "LLM-7", "LLM-8", "LLM-9", "LLM-10", "JSON-6"),
)
def llm_prompt(context: CheckContext) -> Callable[[], None]:
    """One model call whose prompt is the spec's: Listing 1, previous summary, files, dump."""
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(snapshot=llm_snapshots(max_items), answer=successful_answers() | failing_answers())
    @example(snapshot=_WORKED, answer=PLAIN_ANSWER)
    @example(snapshot=evolve(_WORKED, summary="\t \n"), answer=PLAIN_ANSWER)
    @example(
        snapshot=MemorySnapshot(
            items=_FILES_TURN, summary="Earlier.\n\n## Files Read\n- /src/a.py"
        ),
        answer=PLAIN_ANSWER,
    )
    @example(
        snapshot=MemorySnapshot(
            items=(
                'héllo 😀 "q"\n\x01',
                1.0,
                7,
                {"type": "function_call_output", "call_id": "x", "output": None},
                *_WORKED.items,
            )
        ),
        answer=RAISES,
    )
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        context.record(snapshot=snapshot, max_items=max_items, model_answer=answer.document())
        expected = _run_reference(context, snapshot, [answer])
        assume(expected.prompts)
        actual = _run_subject(context, snapshot, [answer])
        context.expect(
            len(actual.prompts) == 1,
            f"compact made {len(actual.prompts)} model calls; LLM-6 asks for exactly one when "
            "there is something to summarize",
        )
        _compare_prompt(context, expected.prompts[0], actual.prompts[0], snapshot.summary)

    return test


def _compare_results(
    context: CheckContext, expected: CompactResult, actual: CompactResult, situation: str
) -> None:
    if actual.summary != expected.summary:
        context.expect(
            condition=False,
            message=f"{situation}, the summary is wrong (LLM-12, LLM-13, PRS-13): "
            + text_difference(expected.summary or "", actual.summary or ""),
        )
    context.expect(
        actual.memory is None or actual.memory.summary == actual.summary,
        f"result.summary {describe(actual.summary)} differs from result.memory.summary "
        f"{describe(actual.memory.summary if actual.memory else None)} (LLM-14)",
    )
    expected_document, actual_document = to_json(expected), to_json(actual)
    for name in ("changedArtifacts", "userConfirmations", "sandboxState", "contextReport"):
        context.expect(
            actual_document[name] in ([], None),
            f"the result fills {name} with {describe(actual_document[name])}, which "
            "LlmCompactPolicy leaves empty (CMP-5, LLM-14)",
        )
    context.expect(
        actual_document["failedCommands"] == expected_document["failedCommands"],
        f"failedCommands is {describe(actual_document['failedCommands'])}; LLM-14 fills it "
        f"with the summary's errors {describe(expected_document['failedCommands'])}",
    )
    difference = first_difference(expected_document, actual_document)
    context.expect(difference is None, f"{situation}: {difference} (LLM-14)")


@check(
    "compaction.llm.fallback",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-11", "LLM-12", "LLM-14", "PRS-13"),
)
def llm_fallback(context: CheckContext) -> Callable[[], None]:
    """A failed model call gives the fallback sentence, with the file sections; no error escapes.

    Failed calls: an error, no result, a null or a blank output text (LLM-11).
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(snapshot=llm_snapshots(max_items), answer=failing_answers())
    @example(snapshot=_WORKED, answer=RAISES)
    @example(snapshot=MemorySnapshot(items=_FILES_TURN), answer=said(" \n\t"))
    @example(
        snapshot=MemorySnapshot(items=_FILES_TURN, summary="## Files Modified\n- /src/old.py"),
        answer=said(None),
    )
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        context.record(snapshot=snapshot, max_items=max_items, model_answer=answer.document())
        expected = _run_reference(context, snapshot, [answer])
        assume(expected.prompts)
        actual = _run_subject(context, snapshot, [answer])
        context.expect(
            actual.error is None,
            f"{answer.describe()} and compact let it escape as "
            f"{type(actual.error).__name__}: {actual.error} (LLM-12: the model's error does "
            "not escape compact)",
        )
        result = _result_of(context, actual, "")
        assert expected.result is not None  # noqa: S101 - the reference always returns one
        _compare_results(context, expected.result, result, f"When {answer.describe()}")

    return test


@check(
    "compaction.llm.summary",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-13", "LLM-14", "CMP-5", "PRS-13"),
)
def llm_summary(context: CheckContext) -> Callable[[], None]:
    """The answer, parsed and rendered with the file lists, is the summary; the fields follow it.

    Answers: valid JSON, fenced JSON, prose around JSON, strings where lists are asked,
    numbers and booleans, garbage, and generated model outputs. The result must equal the
    reference's field by field.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    @given(snapshot=llm_snapshots(max_items), answer=successful_answers())
    @example(snapshot=_WORKED, answer=said(FIXED_OUTPUTS[0]))
    @example(snapshot=_WORKED, answer=said(FIXED_OUTPUTS[2]))
    @example(snapshot=MemorySnapshot(items=_FILES_TURN), answer=said(FIXED_OUTPUTS[3]))
    @example(snapshot=MemorySnapshot(items=_FILES_TURN), answer=said("I could not summarize."))
    def test(snapshot: MemorySnapshot, answer: ModelAnswer) -> None:
        context.record(snapshot=snapshot, max_items=max_items, model_answer=answer.document())
        expected = _run_reference(context, snapshot, [answer])
        assume(expected.prompts)
        result = _result_of(context, _run_subject(context, snapshot, [answer]), "")
        assert expected.result is not None  # noqa: S101 - the reference always returns one
        _compare_results(context, expected.result, result, f"When {answer.describe()}")

    return test
