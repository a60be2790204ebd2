"""``llm-summary`` checks that lift the vectors of the spec's helper functions onto the policy.

The LLM vectors (LLM-3 .. LLM-14), and those of ``find_turn_boundary_cut`` (CUT-1 .. CUT-5),
``extract_file_operations`` (FIL-1 .. FIL-7) and ``render_structured_summary`` (PRS-13,
PRS-14), observed through what the policy keeps and summarizes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ctxpact.conformance._context import CheckContext, SkipCheck, describe
from ctxpact.conformance._model import Claim
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._compaction_support import (
    PLAIN_ANSWER,
    RAISES,
    assistant,
    first_difference,
    java_trim,
    said,
    text_difference,
    user,
)
from ctxpact.conformance.checks.compaction._common import _POLICY
from ctxpact.conformance.checks.compaction._llm import (
    _LLM_OPTIONS,
    _llm_settings,
    _result_of,
    _run_subject,
    _skipping,
)
from ctxpact.conformance.checks.compaction._llm_files import _summarized
from ctxpact.conformance.vectors import Vector, vectors_for
from ctxpact.reference.compaction import (
    parse_structured_summary,
)
from ctxpact.spec import (
    CompactResult,
    MemorySnapshot,
    StructuredSummary,
    from_json,
    to_json,
)

_FILLER = assistant("filler")


def _skip_if_none(vectors: Sequence[Vector], what: str, max_items: int) -> None:
    if not vectors:
        raise SkipCheck(f"no {what} vector can be run with max_items {max_items}")


@check(
    "compaction.llm.vectors",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("LLM-3", "LLM-4", "LLM-5", "LLM-8", "LLM-10", "LLM-11", "LLM-12", "LLM-13", "LLM-14"),
)
def llm_vectors(context: CheckContext) -> Callable[[], None]:
    """The compact_llm vectors whose maxItems is the policy's give their prompt and result.

    The expected prompt's ``model`` is replaced by ``options["model_name"]`` (default ``""``).
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, model_name = settings

    def test() -> None:
        vectors = [v for v in vectors_for("compact_llm") if v.input["maxItems"] == max_items]
        _skip_if_none(vectors, "compact_llm", max_items)
        for vector in vectors:
            context.record(vector=vector.document())
            answer = RAISES if vector.input["modelFails"] else said(vector.input["modelOutput"])
            snapshot = from_json(MemorySnapshot, vector.input["snapshot"])
            run = _run_subject(context, snapshot, [answer])
            result = _result_of(context, run, f"on vector {vector.id}")
            prompt = vector.expected["prompt"]
            if prompt is not None:
                prompt = {**prompt, "model": model_name}
            actual_prompt = to_json(run.prompts[0]) if run.prompts else None
            for name, expected, actual in (
                ("prompt", prompt, actual_prompt),
                (
                    "result",
                    to_json(from_json(CompactResult, vector.expected["result"])),
                    to_json(result),
                ),
            ):
                difference = first_difference(expected, actual, f"${name}")
                context.expect(
                    difference is None,
                    f"vector {vector.id} ({vector.description}): {difference}",
                )

    return test


@check(
    "compaction.llm.cut-vectors",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("CUT-1", "CUT-2", "CUT-3", "CUT-4", "CUT-5"),
)
def cut_vectors(context: CheckContext) -> Callable[[], None]:
    """The turn_boundary_cut vectors, run through the policy: the items it keeps show the cut.

    A vector (items, naiveCut) is lifted by appending assistant text messages (no user item,
    no tool call, no tool result, so they change no cut) until the policy's naive cut is the
    vector's. Vectors whose naive cut the policy's max_items cannot produce (a naive cut before
    the last max_items items, or past the end) are not run here; the suite's own tests run every
    vector against the reference function.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    def test() -> None:
        lifted = [
            v
            for v in vectors_for("turn_boundary_cut")
            if 0 <= v.input["naiveCut"] <= len(v.input["items"])
            and len(v.input["items"]) - v.input["naiveCut"] <= max_items
        ]
        _skip_if_none(lifted, "turn_boundary_cut", max_items)
        for vector in lifted:
            items = vector.input["items"]
            padding = max_items - (len(items) - vector.input["naiveCut"])
            snapshot = MemorySnapshot(items=[*items, *([_FILLER] * padding)])
            context.record(vector=vector.document(), snapshot=snapshot, max_items=max_items)
            run = _run_subject(context, snapshot, [PLAIN_ANSWER])
            result = _result_of(context, run, f"on vector {vector.id}")
            summarized = _summarized(context, snapshot, result)
            context.expect(
                len(summarized) == vector.expected["cut"],
                f"vector {vector.id} ({vector.description}): the policy cut at "
                f"{len(summarized)}, the spec at {vector.expected['cut']}",
            )

    return test


@check(
    "compaction.llm.file-vectors",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("FIL-1", "FIL-2", "FIL-3", "FIL-4", "FIL-5", "FIL-6", "FIL-7"),
)
def file_vectors(context: CheckContext) -> Callable[[], None]:
    """The extract_file_operations vectors, run through the policy's readFiles/modifiedFiles.

    A vector's items are summarized whole: a user message and assistant text messages follow
    them so that the policy's cut falls right after them (CUT-3); with no previous summary the
    policy's file list is exactly the extraction's.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    def test() -> None:
        vectors = vectors_for("extract_file_operations")
        for vector in vectors:
            items = vector.input["items"]
            padding = [user("next"), *([_FILLER] * (max_items - 1))] if max_items else []
            snapshot = MemorySnapshot(items=[*items, *padding])
            context.record(vector=vector.document(), snapshot=snapshot, max_items=max_items)
            run = _run_subject(context, snapshot, [PLAIN_ANSWER])
            result = _result_of(context, run, f"on vector {vector.id}")
            summarized = _summarized(context, snapshot, result)
            context.expect(
                len(summarized) == len(items),
                f"vector {vector.id}: the policy summarized {len(summarized)} items, "
                f"not the vector's {len(items)} (CUT-3)",
            )
            name = "readFiles" if vector.input["reads"] else "modifiedFiles"
            actual = result.read_files if vector.input["reads"] else result.modified_files
            context.expect(
                list(actual) == vector.expected["files"],
                f"vector {vector.id} ({vector.description}): {name} is {describe(list(actual))}, "
                f"the spec gives {describe(vector.expected['files'])}",
            )

    return test


def _passes_path_test(path: str) -> bool:
    return (
        bool(path)
        and path == java_trim(path)
        and "\n" not in path
        and any(char in path for char in "/.\\")
    )


def _liftable_render(summary: StructuredSummary) -> bool:
    for paths in (summary.read_files, summary.modified_files):
        if len(set(paths)) != len(paths) or not all(_passes_path_test(p) for p in paths):
            return False
    if not java_trim(summary.text):
        return False
    parsed = parse_structured_summary(summary.text)
    return parsed == StructuredSummary(
        goal=summary.goal,
        completed=summary.completed,
        pending=summary.pending,
        decisions=summary.decisions,
        errors=summary.errors,
        test_results=summary.test_results,
        open_questions=summary.open_questions,
        parsed=summary.parsed,
        text=summary.text,
    )


def _file_sections(summary: StructuredSummary) -> str | None:
    sections = []
    for title, paths in (
        ("Files Read", summary.read_files),
        ("Files Modified", summary.modified_files),
    ):
        if paths:
            sections.append("\n".join([f"## {title}", *(f"- {path}" for path in paths)]))
    return "\n\n".join(sections) or None


@check(
    "compaction.llm.render-vectors",
    component=_POLICY,
    claim=Claim.LLM_SUMMARY,
    clauses=("PRS-13", "PRS-14", "LLM-13"),
)
def render_vectors(context: CheckContext) -> Callable[[], None]:
    """The render_summary vectors, run through the summary the policy writes.

    A vector's summary is lifted when a model could have produced it: its text, answered by
    the model, parses back to its fields (the reference parser decides), and its file lists are
    valid paths, given to the policy as the previous summary's file sections. The policy's
    summary must then be the vector's text. Other vectors are run by the suite's own tests.
    """
    settings = _llm_settings(context)
    if settings is None:
        return _skipping(_LLM_OPTIONS)
    max_items, _ = settings

    def test() -> None:
        lifted = [
            v
            for v in vectors_for("render_summary")
            if _liftable_render(from_json(StructuredSummary, v.input))
        ]
        _skip_if_none(lifted, "render_summary", max_items)
        for vector in lifted:
            summary = from_json(StructuredSummary, vector.input)
            snapshot = MemorySnapshot(
                items=[user("earlier"), *(user(f"u{i}") for i in range(max_items))],
                summary=_file_sections(summary),
            )
            context.record(vector=vector.document(), snapshot=snapshot, max_items=max_items)
            run = _run_subject(context, snapshot, [said(summary.text)])
            result = _result_of(context, run, f"on vector {vector.id}")
            expected = vector.expected["text"]
            context.expect(
                result.summary == expected,
                f"vector {vector.id} ({vector.description}): the summary is wrong (PRS-13): "
                + text_difference(expected, result.summary or ""),
            )

    return test
