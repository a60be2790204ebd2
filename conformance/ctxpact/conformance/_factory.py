"""How the suite calls a factory: one rule for the command line, the API and pytest (SUITE-4).

The same rule holds for ``ctxpact check``, the ``check_*`` functions and the pytest classes.

A projector, agent memory, summary parser or session store factory is called with no
argument. A compact-policy factory is offered the model client the suite scripts: it gets it
as its one positional argument when its signature asks for one (a first parameter without a
default, or ``*args``), and is called with no argument otherwise, so ``MyPolicy(keep_last=4)``
keeps its defaults. A runtime factory always gets the ``RuntimeConfig``. A memory-compressor
factory gets the arguments its checks give (``options["args"]``, the reference's parameters).
A signature that cannot take what the component needs is a :class:`TargetError` naming the
parameter, found before any check runs.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ctxpact.conformance._claims import words
from ctxpact.conformance._errors import TargetError
from ctxpact.conformance._model import Component

#: What the suite hands the factory of each component, in words.
_ARGUMENT = {
    Component.COMPACT_POLICY: "the model client",
    Component.RUNTIME: "the RuntimeConfig",
}
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def signature_of(factory: Callable[..., Any]) -> inspect.Signature | None:
    """The factory's signature, or ``None`` when it has none (some builtins)."""
    try:
        return inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without a signature: call it as documented
        return None


def _required(signature: inspect.Signature) -> list[inspect.Parameter]:
    return [
        p
        for p in signature.parameters.values()
        if p.default is inspect.Parameter.empty
        and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]


def _takes_one(signature: inspect.Signature) -> bool:
    parameters = signature.parameters.values()
    return any(p.kind in _POSITIONAL for p in parameters) or any(
        p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters
    )


def wants_argument(signature: inspect.Signature) -> bool:
    """Whether the signature asks for a positional argument rather than allowing none."""
    parameters = signature.parameters.values()
    return any(
        p.kind in _POSITIONAL and p.default is inspect.Parameter.empty for p in parameters
    ) or any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters)


def refuse_required(
    label: str,
    signature: inspect.Signature,
    rule: str,
    *,
    allowed: inspect.Parameter | None = None,
) -> None:
    """Refuse the first required parameter other than *allowed*: nothing would fill it.

    *rule* says how the factory is called, e.g. ``a projector factory is called with no
    argument``.

    Raises:
        TargetError: naming the parameter.

    """
    for parameter in _required(signature):
        if parameter is not allowed:
            kind = "keyword-only " if parameter.kind is inspect.Parameter.KEYWORD_ONLY else ""
            raise TargetError(
                f"{label} requires the {kind}parameter {parameter.name!r}, but {rule}: give "
                f"{parameter.name!r} a default, or name a factory function that supplies it"
            )


def first_positional(signature: inspect.Signature) -> inspect.Parameter | None:
    """The parameter the one argument the suite may pass lands in."""
    return next((p for p in signature.parameters.values() if p.kind in _POSITIONAL), None)


def factory_call(
    factory: Callable[..., Any], component: Component, *, name: str = ""
) -> Callable[..., Any]:
    """*factory* as the checks call it, with what the component's factories receive.

    Raises:
        TargetError: if the factory's signature cannot take it, naming the parameter.

    """
    label = name or str(getattr(factory, "__qualname__", repr(factory)))
    signature = signature_of(factory)
    if component is Component.MEMORY_COMPRESSOR or signature is None:
        # The compressor's arguments are its checks'; a builtin is called as documented.
        return factory
    who = f"{words(component)} factory"
    if component not in _ARGUMENT:
        refuse_required(label, signature, f"{who} is called with no argument")
        return _without_arguments(factory)
    argument = _ARGUMENT[component]
    if component is Component.COMPACT_POLICY and not wants_argument(signature):
        refuse_required(label, signature, f"{who} is offered only {argument}")
        return _without_arguments(factory)
    if not _takes_one(signature):
        raise TargetError(
            f"{label} takes no positional argument, but {who} is given {argument} as its "
            "first positional argument"
        )
    rule = f"{who} is given only {argument}, as its first positional argument"
    refuse_required(label, signature, rule, allowed=first_positional(signature))
    return factory


def _without_arguments(factory: Callable[..., Any]) -> Callable[..., Any]:
    def build(*_: object) -> Any:  # noqa: ANN401 - the component's own type
        return factory()

    return build


def describe_rule(component: Component) -> str:
    """How the suite calls a factory of *component*, in one sentence."""
    if component is Component.COMPACT_POLICY:
        return (
            "called with the model client when its first parameter has no default (or it "
            "takes *args), with no argument otherwise"
        )
    if component is Component.RUNTIME:
        return "called with the RuntimeConfig"
    if component is Component.MEMORY_COMPRESSOR:
        return 'called with options["args"] (generic checks) or the reference\'s parameters'
    return "called with no argument"
