"""What the suite checks: an implementation's factory, with its component and its claims."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from attrs import field, frozen

from ctxpact.conformance._model import Claim, Component, ExpectedFailure, Implementation
from ctxpact.spec import (
    PROVIDERS,
    AgentMemory,
    CompactPolicy,
    ContextProjector,
    CtxpactError,
    ModelPrompt,
    ModelResult,
)


class TargetError(CtxpactError, TypeError):
    """Something given to the suite is not an implementation it can check."""


def claims_of(values: Iterable[Claim | str]) -> frozenset[Claim]:
    """Claims from their enum members or their names (``"generic"``, ``"exact"``, ...)."""
    claims = set()
    for value in values:
        if isinstance(value, Claim):
            claims.add(value)
            continue
        try:
            claims.add(Claim(value))
        except ValueError:
            known = ", ".join(c.value for c in Claim)
            raise TargetError(f"Expected a claim among {known} but got {value!r}") from None
    return frozenset(claims)


def check_claim_options(claims: Iterable[Claim], options: Mapping[str, Any]) -> None:
    """Reject options the claimed checks cannot use: a wire-valid claim's unknown providers.

    A missing ``providers`` is left to the checks, which then error (a claim that cannot be
    checked never passes); a value that names no provider of SPEC.md §1.6 is a usage error.

    Raises:
        TargetError: if ``options["providers"]`` is not a list of known provider names.

    """
    if Claim.WIRE_VALID not in claims or options.get("providers") is None:
        return
    providers = options["providers"]
    known = ", ".join(PROVIDERS)
    if isinstance(providers, str) or not isinstance(providers, Sequence) or not providers:
        raise TargetError(
            f"Expected option providers to be a non-empty list of providers among {known} but "
            f"got {providers!r}"
        )
    unknown = [provider for provider in providers if provider not in PROVIDERS]
    if unknown:
        raise TargetError(
            f"Expected option providers among {known} but got {', '.join(map(repr, unknown))}"
        )


def _expected(values: Iterable[ExpectedFailure]) -> tuple[ExpectedFailure, ...]:
    return tuple(values)


def _options(values: Mapping[str, Any]) -> Mapping[str, Any]:
    return dict(values)


@frozen(kw_only=True)
class Target:
    """An implementation to check, declared completely.

    ``factory`` builds a fresh instance: with no argument for a projector, a memory, a
    session store or a summary parser; with a :class:`~ctxpact.spec.ModelClient` for a
    compact policy (which may ignore it). ``options`` carry what claimed checks need to know,
    e.g. ``{"max_items": 4}`` for an LLM summary policy.
    """

    name: str
    component: Component
    factory: Callable[..., Any] = field(eq=False)
    claims: frozenset[Claim] = field(default=frozenset({Claim.GENERIC}), converter=claims_of)
    options: Mapping[str, Any] = field(factory=dict, converter=_options, eq=False)
    expected_failures: tuple[ExpectedFailure, ...] = field(default=(), converter=_expected)
    language: str = "python"
    version: str = ""

    @property
    def implementation(self) -> Implementation:
        """The report's description of this target."""
        return Implementation(
            name=self.name,
            component=self.component,
            claims=self.claims,
            language=self.language,
            version=self.version,
        )


class _SilentModel:
    """A model client for probing a compact-policy factory; it is never asked anything."""

    def create(self, prompt: ModelPrompt) -> ModelResult:
        raise TargetError(f"the probe model was called with {prompt.model!r}")


def _ignore_arguments(factory: Callable[[], Any]) -> Callable[..., Any]:
    def build(*_: object) -> Any:  # noqa: ANN401 - the component's own type
        return factory()

    return build


def infer_target(obj: object, *, name: str, claims: Iterable[Claim | str] = ()) -> Target:
    """Turn what a user named into a :class:`Target`.

    A :class:`Target` is taken as it is. Anything else must be a factory (a class or a
    function) whose product reveals the component: a projector, a compact policy, an agent
    memory, or a callable summary parser.
    """
    if isinstance(obj, Target):
        return obj
    if not callable(obj):
        raise TargetError(f"Expected a Target or a factory at {name} but got {obj!r}")
    factory: Callable[..., Any]
    try:
        try:
            product = obj()
        except TypeError:
            # Compact-policy factories take the model client the suite scripts.
            product = obj(_SilentModel())
            factory = obj
        else:
            factory = _ignore_arguments(obj)
    except Exception as error:
        raise TargetError(
            f"{name} is not a factory the suite can call: calling it with no argument or with "
            f"a model client raised {type(error).__name__}: {error}"
        ) from error
    chosen = claims_of(claims) or frozenset({Claim.GENERIC})
    for protocol, component in (
        (ContextProjector, Component.PROJECTOR),
        (CompactPolicy, Component.COMPACT_POLICY),
        (AgentMemory, Component.AGENT_MEMORY),
    ):
        if isinstance(product, protocol):
            return Target(name=name, component=component, factory=factory, claims=chosen)
    if callable(product):
        return Target(name=name, component=Component.SUMMARY_PARSER, factory=factory, claims=chosen)
    raise TargetError(
        f"{name} built a {type(product).__name__}, which is neither a projector, a compact "
        "policy, an agent memory nor a summary parser; declare it with ctxpact.conformance.Target"
    )
