"""Checks of the agent loop: its order, prompts, memory writes and tools (RUN-1 .. RUN-7).

A run adds the input, then each step compacts, starts, projects, calls the model, appends and
ends, in that order (RUN-2, RUN-3); every prompt is the projection of the memory's items, or
those items (RUN-4, RUN-5); memory gets the input, the answers and the tool outputs but never
the projection (RUN-6); and every tool call gets one output, its id generated when blank and
declared by an item when none does (RUN-7, PAIR-1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import evolve
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, describe
from ctxpact.conformance._model import Check
from ctxpact.conformance._pairing import pairs
from ctxpact.conformance.checks._classics import with_examples
from ctxpact.conformance.checks.runtime._parts import _echo_output
from ctxpact.conformance.checks.runtime._scripts import (
    _blank,
    _expect,
    _Expected,
    _run_on,
    _Script,
    _Session,
    declared_items,
    named_calls,
)
from ctxpact.conformance.checks.runtime._strategies import (
    _FULL_SCRIPT,
    _NULL_MEMORY_SCRIPT,
    _PLAIN_SCRIPT,
    _final,
    _scripts,
)
from ctxpact.conformance.checks.runtime._support import (
    _MODEL_NAME,
    _PROJECTION_MARKER,
    _SYSTEM_PROMPT,
    _divergence,
    _runtime_check,
    _same,
)
from ctxpact.reference.session import CONTEXT_PROJECTION_MESSAGE
from ctxpact.spec import JsonValue, ModelResult, ToolCall


@_runtime_check("runtime.loop-order", "RUN-2", "RUN-3", "RUN-11", "EVT-6", "EVT-13")
def loop_order(context: CheckContext) -> Callable[[], None]:
    """A run adds the input, then each step compacts, starts, projects, calls, appends, ends."""

    @given(script=_scripts())
    @example(script=_FULL_SCRIPT)
    @example(script=_NULL_MEMORY_SCRIPT)
    @example(script=_PLAIN_SCRIPT)
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        run.session.run(script.user_input)
        problem = _divergence(_expect(script).trace, run.trace)
        context.expect(
            problem is None, f"the run's actions are out of the order of RUN-2/RUN-3: {problem}"
        )

    return test


@_runtime_check("runtime.prompt", "RUN-1", "RUN-3", "RUN-4", "RUN-5", "EVT-4", "EVT-5")
def prompt(context: CheckContext) -> Callable[[], None]:
    """Each prompt is the projection of memory.get_items() (or get_items() itself)."""

    @given(script=_scripts())
    @example(script=_FULL_SCRIPT)
    @example(script=evolve(_FULL_SCRIPT, projector=False))
    @example(script=_PLAIN_SCRIPT)
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        run.session.run(script.user_input)
        expected = _expect(script)
        prompts = run.model.prompts
        context.expect(
            len(prompts) == len(expected.prompts),
            f"the model was called {len(prompts)} times in a run of {len(expected.prompts)} "
            "steps (RUN-3: once per step)",
        )
        for step, (sent, items) in enumerate(zip(prompts, expected.prompts, strict=True)):
            context.expect(
                sent.model == _MODEL_NAME and sent.system_prompt == _SYSTEM_PROMPT,
                f"step {step}: the prompt carries model {sent.model!r} and system prompt "
                f"{sent.system_prompt!r}, not the agent's {_MODEL_NAME!r} and {_SYSTEM_PROMPT!r} "
                "(RUN-3 (4))",
            )
            if run.projector is not None:
                _expect_projection(context, run, expected, step)
            source = "the projection's items" if script.projector else "memory.get_items()"
            context.expect(
                _same(sent.items, items),
                f"step {step}: the prompt's items are {describe(sent.items)}, not {source} "
                f"{describe(items)} (RUN-4, RUN-5)",
            )
        if run.projector is None:
            projected = run.log.of("MEMORY_COMPRESS", CONTEXT_PROJECTION_MESSAGE)
            context.expect(
                not projected,
                f"{len(projected)} MEMORY_COMPRESS 'context projection' events without a "
                "projector (RUN-5)",
            )

    return test


def _expect_projection(
    context: CheckContext, run: _Session, expected: _Expected, step: int
) -> None:
    assert run.projector is not None  # noqa: S101 - called only with a projector
    given_ = run.projector.given
    context.expect(step < len(given_), f"step {step}: the projector was not called (RUN-4)")
    items, budget = given_[step]
    context.expect(
        _same(items, expected.visible[step]),
        f"step {step}: the projector was given {describe(items)}, but memory.get_items() was "
        f"{describe(expected.visible[step])} (RUN-4)",
    )
    context.expect(
        budget == run.config.budget,
        f"step {step}: the projector was given the budget {describe(budget)}, not the "
        f"agent's {describe(run.config.budget)} (RUN-4)",
    )
    events = [
        event
        for event in run.log.of("MEMORY_COMPRESS", CONTEXT_PROJECTION_MESSAGE)
        if event.step == step
    ]
    context.expect(
        len(events) == 1,
        f"step {step}: {len(events)} MEMORY_COMPRESS 'context projection' events, expected "
        "exactly one (RUN-4, EVT-4)",
    )
    context.expect(
        _same(events[0].payload, expected.reports[step]),
        f"step {step}: the 'context projection' payload is {describe(events[0].payload)}, not "
        f"the projection's report {describe(expected.reports[step])} (RUN-4, EVT-5)",
    )


@_runtime_check("runtime.memory-writes", "RUN-2", "RUN-3", "RUN-6")
def memory_writes(context: CheckContext) -> Callable[[], None]:
    """Memory gets the input, the answers and tool outputs, never the projection."""

    @given(script=_scripts())
    @example(script=_FULL_SCRIPT)
    @example(script=evolve(_FULL_SCRIPT, decisions=None))
    @example(script=evolve(_PLAIN_SCRIPT, user_input=None))
    def test(script: _Script) -> None:
        context.record(script=script)
        run = _Session(context, script)
        output = run.session.run(script.user_input)
        expected = _expect(script)
        state = run.memory.state
        context.expect(
            not any(_same(item, _PROJECTION_MARKER) for item in state.items),
            "an item only the projection had was written into memory (RUN-6)",
        )
        context.expect(
            _same(state, expected.final),
            f"memory after the run is {describe(state)}, expected {describe(expected.final)} "
            "(RUN-2, RUN-3, RUN-6)",
        )
        context.expect(
            output == expected.output,
            f"run returned {output!r}, not the final answer's outputText {expected.output!r} "
            "(RUN-3 (6))",
        )

    return test


_TOOL_KINDS = ("echo", "fail", "missing")


@st.composite
def _tool_answers(draw: st.DrawFn) -> tuple[ModelResult, ...]:
    answers = []
    for step in range(draw(st.integers(1, 2))):
        calls = tuple(
            ToolCall(
                call_id=f"call-{step}-{index}",
                name=draw(st.sampled_from(_TOOL_KINDS)),
                arguments=draw(st.text(max_size=6)),
            )
            for index in range(draw(st.integers(1, 3)))
        )
        answers.append(ModelResult(memory_items=({"step": step},), tool_calls=calls))
    return (*answers, _final("after tools"))


@_runtime_check("runtime.tools", "RUN-1", "RUN-7")
def tools(context: CheckContext) -> Callable[[], None]:
    """Every tool call gets one output, in order, before the next step; failures go on."""

    @given(answers=_tool_answers())
    @example(
        answers=(
            ModelResult(
                tool_calls=(
                    ToolCall(call_id="c1", name="missing", arguments="{}"),
                    ToolCall(call_id="c2", name="fail", arguments="[1]"),
                    ToolCall(call_id="c3", name="echo", arguments='{"x":1}'),
                )
            ),
            _final("after tools"),
        )
    )
    def test(answers: tuple[ModelResult, ...]) -> None:
        context.record(answers=answers)
        called: list[tuple[str, str]] = []

        def echo(arguments: str) -> str:
            called.append(("echo", arguments))
            return _echo_output(arguments)

        def fail(arguments: str) -> str:
            called.append(("fail", arguments))
            raise ValueError(f"the fail tool failed on {arguments!r}")

        run = _Session(context, _Script(answers=answers), tools={"echo": echo, "fail": fail})
        output = _run_on(run, "use the tools", "a failing or unknown tool")
        context.expect(
            output == "after tools",
            f"run returned {output!r} instead of going on after the tools (RUN-7)",
        )
        wanted = [
            (call.name, call.arguments)
            for answer in answers
            for call in answer.tool_calls
            if call.name != "missing"
        ]
        context.expect(
            called == wanted,
            f"the tools were called with {called}, expected {wanted} (RUN-1, RUN-7)",
        )
        _expect_tool_outputs(context, run, answers)

    return test


def _declaring(shape: str, calls: Sequence[ToolCall], ids: Sequence[str | int | None]) -> JsonValue:
    """A memory item that declares *calls* in *shape*, with *ids* (``None``: no id member)."""

    def with_id(entry: dict[str, JsonValue], key: str, call_id: str | int | None) -> JsonValue:
        return entry if call_id is None else {key: call_id, **entry}

    if shape == "chat":
        entries = [
            with_id(
                {"type": "function", "function": {"name": c.name, "arguments": c.arguments}},
                "id",
                i,
            )
            for c, i in zip(calls, ids, strict=True)
        ]
        return {"role": "assistant", "content": None, "tool_calls": entries}
    if shape == "anthropic":
        parts: list[JsonValue] = [{"type": "text", "text": "calling"}]
        parts.extend(
            with_id({"type": "tool_use", "name": c.name, "input": {}}, "id", i)
            for c, i in zip(calls, ids, strict=True)
        )
        return {"role": "assistant", "content": parts}
    return [
        with_id({"type": "function_call", "name": c.name, "arguments": c.arguments}, "call_id", i)
        for c, i in zip(calls, ids, strict=True)
    ]


def _declared_result(
    step: int,
    shape: str,
    ids: Sequence[str],
    declared: Sequence[str | int | None],
    *,
    listed: int,
) -> ModelResult:
    """A step's result: calls with *ids*, the first *listed* declared in memory items of *shape*."""
    calls = [ToolCall(call_id=i, name="echo", arguments=f"s{step}c{n}") for n, i in enumerate(ids)]
    item = _declaring(shape, calls[:listed], declared[:listed])
    items = tuple(item) if isinstance(item, list) else (item,)
    return ModelResult(memory_items=items, tool_calls=tuple(calls))


_SHAPES = st.sampled_from(["responses", "chat", "anthropic"])
#: Blank (§1.4: Java's trim leaves nothing, so NUL is blank) and not blank (an ideographic
#: space, which Python's ``str.strip`` would remove; a non-ASCII id).
_CALL_IDS = st.sampled_from(["", " ", "\t", "\x00", "\u3000", "呼-1", "id"])
#: In memory items a number is no id either (§1.4: an id is a string).
_MEMORY_IDS = st.sampled_from([None, "", " ", "\x00", 7, "same"])


@st.composite
def _declaring_answers(draw: st.DrawFn) -> tuple[ModelResult, ...]:
    """One or two tool steps whose memory items declare some calls, some ids blank or missing."""
    answers = []
    for step in range(draw(st.integers(1, 2))):
        count = draw(st.integers(1, 3))
        ids = [draw(_CALL_IDS) for _ in range(count)]
        ids = [f"c{step}-{n}" if i == "id" else i for n, i in enumerate(ids)]
        listed = draw(st.integers(0, count))
        declared: list[str | int | None] = [
            call_id if not _blank(call_id) and draw(st.booleans()) else draw(_MEMORY_IDS)
            for call_id in ids
        ]
        declared = [None if d == "same" else d for d in declared]
        answers.append(_declared_result(step, draw(_SHAPES), ids, declared, listed=listed))
    return (*answers, _final("after tools"))


def _declaring_examples() -> list[tuple[ModelResult, ...]]:
    """RUN-7 in every shape: blank ids in the calls and in the items, and undeclared calls."""
    after = _final("after tools")
    return [
        (_declared_result(0, "responses", ["", "c1"], ["", "c1"], listed=2), after),
        (_declared_result(0, "chat", [" ", "c1"], [None, "c1"], listed=2), after),
        (_declared_result(0, "anthropic", ["", ""], [None, " "], listed=2), after),
        (_declared_result(0, "chat", ["c1", "c2"], ["c1", "c2"], listed=1), after),
        (_declared_result(0, "anthropic", ["", ""], [None, None], listed=1), after),
        (_declared_result(0, "responses", ["c1"], [], listed=0), after),
        # §1.4's edges: NUL is blank, an ideographic space and a non-ASCII id are ids, and a
        # number in a memory item is no id.
        (_declared_result(0, "responses", ["\x00", "c1"], [7, "c1"], listed=2), after),
        (_declared_result(0, "chat", ["\u3000", "\x00"], ["\u3000", None], listed=2), after),
        (_declared_result(0, "anthropic", ["呼-1", "\x00"], ["呼-1", 7], listed=2), after),
    ]


@_runtime_check("runtime.tool-call-ids", "RUN-7", "RUN-3", "PAIR-1")
def tool_call_ids(context: CheckContext) -> Callable[[], None]:
    """Every tool output in memory has its call: generated ids reach the call, none is missing.

    A tool call with a blank id gets ``tool_step_<step>_<index>``; the memory items that
    declare calls without an id (or with a blank one) get those ids in order, in copies; a
    call that no item declares is declared by a ``function_call`` item appended after the
    items (RUN-7). In all three shapes of §1.4: a Responses ``function_call``, a Chat
    ``tool_calls`` entry, an Anthropic ``tool_use`` part.
    """

    @given(answers=_declaring_answers())
    def test(answers: tuple[ModelResult, ...]) -> None:
        context.record(answers=answers)
        run = _Session(context, _Script(answers=answers))
        _run_on(run, "use the tools", "a call without an id")
        items = run.memory.state.items
        for orphan in pairs(items).orphans()[:1]:
            context.expect(
                condition=False,
                message=f"memory item {orphan.position} ({describe(items[orphan.position])}) is "
                f"a tool output whose call {describe(orphan.call_id)} no earlier item declares: "
                "a provider rejects every later turn (RUN-7, PAIR-1)",
            )
        _expect_tool_outputs(context, run, answers)

    return with_examples(test, "answers", _declaring_examples())


def _expect_tool_outputs(
    context: CheckContext, run: _Session, answers: Sequence[ModelResult]
) -> None:
    items = run.memory.state.items
    position = 1  # after the user's input
    for step, answer in enumerate(answers):
        declared = declared_items(answer.memory_items, answer.tool_calls, step)
        context.expect(
            _same(items[position : position + len(declared)], declared),
            f"step {step}: memory holds {describe(items[position : position + len(declared)])} "
            f"where the result's memory items with its calls declared, {describe(declared)}, "
            "belong (RUN-3 (5), RUN-7)",
        )
        position += len(declared)
        for call in named_calls(answer.tool_calls, step):
            item = items[position] if position < len(items) else None
            context.expect(
                isinstance(item, dict)
                and item.get("type") == "function_call_output"
                and item.get("call_id") == call.call_id,
                f"step {step}: expected the output of call {call.call_id} ({call.name}) at "
                f"memory item {position} but found {describe(item)} (RUN-7)",
            )
            assert isinstance(item, dict)  # noqa: S101 - checked just above
            output = item.get("output")
            if call.name == "echo":
                context.expect(
                    output == _echo_output(call.arguments),
                    f"call {call.call_id}: the tool output is {output!r}, not what the tool "
                    f"returned {_echo_output(call.arguments)!r} (RUN-7)",
                )
            else:
                context.expect(
                    isinstance(output, str) and output.strip() != "",
                    f"call {call.call_id} ({call.name}): the output is {output!r}, not a text "
                    "describing the failure (RUN-7)",
                )
            position += 1
        if answer.tool_calls and step + 1 < len(run.model.prompts):
            count = len(answer.tool_calls)
            tail = run.model.prompts[step + 1].items[-count:]
            context.expect(
                _same(tail, items[position - count : position]),
                f"the prompt of step {step + 1} does not end with the outputs of step {step}'s "
                "tool calls (RUN-7: appended before the next step)",
            )


#: The checks of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    loop_order,
    prompt,
    memory_writes,
    tools,
    tool_call_ids,
)
