"""Checks of how a run ends in error: a failing model and the step bound (RUN-8, RUN-9).

A model error is published as ``ERROR`` and propagates, memory keeping what came before
(RUN-8); a bounded run that reaches its bound publishes ``ERROR 'max steps exceeded'`` and
raises (RUN-9, a MAY the runtime declares with the ``max_steps`` option).
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance._context import CheckContext, CheckFailure, SkipCheck, describe
from ctxpact.conformance._model import Check
from ctxpact.conformance.checks.runtime._scripts import _expect, _Script, _Session
from ctxpact.conformance.checks.runtime._strategies import (
    _FULL_SCRIPT,
    _PLAIN_SCRIPT,
    _calling,
    _scripts,
)
from ctxpact.conformance.checks.runtime._support import _caused_by, _runtime_check, _same
from ctxpact.reference.session import MAX_STEPS_MESSAGE, MODEL_FAILED_MESSAGE
from ctxpact.spec import ModelResult


@st.composite
def _model_failures(draw: st.DrawFn) -> tuple[_Script, int]:
    script = draw(_scripts(projector=False))
    return script, draw(st.integers(0, len(script.answers) - 1))


@_runtime_check("runtime.model-error", "RUN-8", "EVT-4", "EVT-5")
def model_error(context: CheckContext) -> Callable[[], None]:
    """A model error is published as ERROR, then propagates; memory keeps what came before."""

    @given(case=_model_failures())
    @example(case=(_FULL_SCRIPT, 2))
    @example(case=(_PLAIN_SCRIPT, 0))
    def test(case: tuple[_Script, int]) -> None:
        script, failing = case
        context.record(script=script, failing_step=failing)
        error = ConnectionError(f"scripted model failure at step {failing}")
        answers: list[ModelResult | Exception] = list(script.answers)
        answers[failing] = error
        run = _Session(context, script, answers=answers)
        try:
            run.session.run(script.user_input)
        except Exception as raised:  # noqa: BLE001 - checked below
            caught: Exception | None = raised
        else:
            caught = None
        context.expect(
            caught is not None and _caused_by(caught, error),
            f"run ended with {caught!r}, not the model's error {error!r} (RUN-8)",
        )
        errors = [e for e in run.log.of("ERROR") if e.message == MODEL_FAILED_MESSAGE]
        context.expect(
            len(errors) == 1 and errors[0].step == failing,
            f"{len(errors)} ERROR 'model request failed' events at steps "
            f"{[e.step for e in errors]}, expected one at step {failing} (RUN-8, EVT-4)",
        )
        context.expect(
            _caused_by(errors[0].payload, error),
            f"the ERROR payload is {errors[0].payload!r}, not the model's error (EVT-5)",
        )
        expected = _expect(script).states[failing]
        context.expect(
            _same(run.memory.state, expected),
            f"memory after the model error is {describe(run.memory.state)}, expected what was "
            f"appended before: {describe(expected)} (RUN-8)",
        )

    return test


@_runtime_check("runtime.max-steps", "RUN-9", "EVT-4", "EVT-5")
def max_steps(context: CheckContext) -> Callable[[], None]:
    """A bounded run that reaches its bound publishes ERROR 'max steps exceeded' and raises."""

    def test() -> None:
        if context.options.get("max_steps") is False:
            raise SkipCheck("the runtime declares no step bound (RUN-9 is a MAY)")
        for bound in (1, 3):
            context.record(max_steps=bound)
            answers = [_calling(step, "again") for step in range(bound + 2)]
            run = _Session(context, _Script(answers=tuple(answers)), max_steps=bound)
            try:
                run.session.run("never stop")
            except Exception as raised:  # noqa: BLE001 - checked below
                caught: Exception | None = raised
            else:
                caught = None
            context.expect(
                caught is not None and not isinstance(caught, CheckFailure),
                f"max_steps={bound}: run ended with {caught!r} instead of stopping at the "
                "bound with an error (RUN-9)",
            )
            context.expect(
                run.model.calls == bound,
                f"max_steps={bound}: the model was called {run.model.calls} times (RUN-9)",
            )
            errors = run.log.of("ERROR", MAX_STEPS_MESSAGE)
            context.expect(
                len(errors) == 1,
                f"max_steps={bound}: {len(errors)} ERROR 'max steps exceeded' events "
                "(RUN-9, EVT-4)",
            )
            assert caught is not None  # noqa: S101 - checked above
            payload = errors[0].payload
            context.expect(
                _caused_by(payload, caught)
                or (isinstance(payload, BaseException) and _caused_by(caught, payload)),
                f"the ERROR payload is {errors[0].payload!r}, not the raised error (EVT-5)",
            )

    return test


#: The checks of this module, in the order they run.
CHECKS: tuple[Check, ...] = (
    model_error,
    max_steps,
)
