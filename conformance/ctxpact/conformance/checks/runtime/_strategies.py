"""How the runtime checks generate runs, and the fixed runs they all take as examples.

Scripts of one to four steps (with or without a policy and a projector), scripts whose
compaction attempt fails at one step (RUN-12), and three fixed scripts: a full run with tools,
a projector and a compaction, the same run compacting without memory (RUN-13), and one plain
step.
"""

from __future__ import annotations

from attrs import evolve
from hypothesis import strategies as st

from ctxpact.conformance.checks.runtime._parts import _Failure
from ctxpact.conformance.checks.runtime._scripts import _Script
from ctxpact.spec import ContextBudget, JsonValue, MemorySnapshot, ModelResult, ToolCall

_ANSWER_ITEMS: st.SearchStrategy[JsonValue] = st.one_of(
    st.sampled_from(["note", "", 7, None, 1.5]),
    st.builds(
        lambda n: {"type": "message", "role": "assistant", "content": [f"answer {n}"]},
        st.integers(0, 9),
    ),
)
_INPUTS: st.SearchStrategy[JsonValue] = st.one_of(
    st.none(),
    st.text(max_size=6),
    st.just({"role": "user", "content": [{"type": "input_text", "text": "as an object"}]}),
)
_SUMMARIES = st.none() | st.sampled_from(["", " ", "earlier work", "🙂 summary\nline two"])


def _final(text: str | None = "done", *items: JsonValue) -> ModelResult:
    return ModelResult(output_text=text, memory_items=items or ({"role": "assistant"},))


def _calling(step: int, *arguments: str, name: str = "echo") -> ModelResult:
    calls = tuple(
        ToolCall(call_id=f"call-{step}-{index}", name=name, arguments=argument)
        for index, argument in enumerate(arguments)
    )
    return ModelResult(memory_items=({"role": "assistant", "step": step},), tool_calls=calls)


@st.composite
def _answers(draw: st.DrawFn, *, max_steps: int = 4) -> tuple[ModelResult, ...]:
    steps = draw(st.integers(1, max_steps))
    answers = []
    for step in range(steps):
        items = tuple(draw(st.lists(_ANSWER_ITEMS, max_size=2)))
        if step == steps - 1:
            text = draw(st.none() | st.text(max_size=6))
            answers.append(ModelResult(output_text=text, memory_items=items))
            continue
        arguments = draw(st.lists(st.text(max_size=6), min_size=1, max_size=2))
        calls = tuple(
            ToolCall(call_id=f"call-{step}-{index}", name="echo", arguments=argument)
            for index, argument in enumerate(arguments)
        )
        text = draw(st.none() | st.just("thinking"))
        answers.append(ModelResult(output_text=text, memory_items=items, tool_calls=calls))
    return tuple(answers)


@st.composite
def _scripts(
    draw: st.DrawFn, *, policy: bool | None = None, projector: bool | None = None
) -> _Script:
    """Runs of one to four steps; with or without a policy and a projector unless fixed."""
    answers = draw(_answers())
    steps = len(answers)
    with_policy = draw(st.booleans()) if policy is None else policy
    with_projector = draw(st.booleans()) if projector is None else projector
    return _Script(
        initial=MemorySnapshot(
            items=tuple(draw(st.lists(_ANSWER_ITEMS, max_size=3))), summary=draw(_SUMMARIES)
        ),
        user_input=draw(_INPUTS),
        answers=answers,
        decisions=(
            tuple(draw(st.lists(st.booleans(), min_size=steps, max_size=steps)))
            if with_policy
            else None
        ),
        keeps=tuple(draw(st.lists(st.none() | st.integers(0, 3), min_size=steps, max_size=steps))),
        projector=with_projector,
        budget=draw(st.none() | st.builds(ContextBudget, max_items=st.integers(0, 4))),
    )


@st.composite
def _failing_scripts(draw: st.DrawFn) -> _Script:
    script = draw(_scripts(policy=True, projector=False))
    where = draw(st.sampled_from(["snapshot", "should_compact", "compact", "restore"]))
    step = 0 if where == "snapshot" else draw(st.integers(0, len(script.answers) - 1))
    decisions = list(script.decisions or ())
    keeps = list(script.keeps)
    if where in {"compact", "restore"}:
        decisions[step] = True
    if where == "restore" and keeps[step] is None:
        keeps[step] = 0
    return evolve(
        script,
        decisions=tuple(decisions),
        keeps=tuple(keeps),
        failure=_Failure(where=where, step=step),
    )


#: A run of three steps with tools, a projector and a policy that compacts at step 1.
_FULL_SCRIPT = _Script(
    initial=MemorySnapshot(items=({"role": "user", "content": ["old"]}, "older"), summary="s"),
    user_input="go",
    answers=(_calling(0, "a", "b"), _calling(1, "c"), _final("done")),
    decisions=(False, True, False),
    keeps=(None, 2, None),
    projector=True,
    budget=ContextBudget(max_items=3),
)
#: The same run, compacting at step 0 without memory (RUN-13) and keeping nothing at step 2.
_NULL_MEMORY_SCRIPT = evolve(
    _FULL_SCRIPT, decisions=(True, False, True), keeps=(None, None, 0), projector=False
)
#: One step, no policy, no projector.
_PLAIN_SCRIPT = _Script(answers=(_final("done"),), budget=ContextBudget(max_items=0))
