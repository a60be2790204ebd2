"""How checks are declared: a decorator that turns a builder function into a :class:`Check`."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ctxpact.conformance._model import Check, Claim, Component

Builder = Callable[[Any], Callable[[], None]]


def check(
    check_id: str, *, component: Component, claim: Claim, clauses: tuple[str, ...]
) -> Callable[[Builder], Check]:
    """Declare a check: *check_id* is stable (users list it in expected failures).

    The decorated function receives a :class:`~ctxpact.conformance.CheckContext` and returns
    the test to run; its docstring's first line is the check's title.
    """

    def declare(builder: Builder) -> Check:
        title = (inspect.getdoc(builder) or check_id).splitlines()[0]
        return Check(
            id=check_id,
            component=component,
            claim=claim,
            clauses=clauses,
            title=title,
            build=builder,
        )

    return declare
