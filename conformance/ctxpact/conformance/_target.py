"""What the suite checks: an implementation's factory, with its component and its claims."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from attrs import field, frozen

from ctxpact.conformance._errors import TargetError
from ctxpact.conformance._factory import (
    factory_call,
    first_positional,
    refuse_required,
    signature_of,
    wants_argument,
)
from ctxpact.conformance._model import Claim, Component, ExpectedFailure, Implementation
from ctxpact.reference.session import SessionStore
from ctxpact.spec import (
    PROVIDERS,
    AgentMemory,
    CompactPolicy,
    ContextProjector,
    ModelPrompt,
    ModelResult,
)


def claims_of(values: Iterable[Claim | str]) -> frozenset[Claim]:
    """Claims from their enum members or their names (``"generic"``, ``"exact"``, ...).

    ``generic`` is always among them (SUITE-2): every other claim is a promise on top of the
    invariants any implementation of the component keeps.
    """
    if isinstance(values, str):
        raise TargetError(
            f"Expected the claims as a list of names (e.g. [{values!r}]) but got the string "
            f"{values!r}"
        )
    claims = {Claim.GENERIC}
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

    A missing ``providers`` is a missing option (a claim that cannot be checked never
    passes); a value that names no provider of SPEC.md §1.6 is a usage error.

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

    ``factory`` builds a fresh instance, called as SUITE-4 says: with no argument for a
    projector, a memory, a session store or a summary parser; for a compact policy with the
    :class:`~ctxpact.spec.ModelClient` the suite scripts when its first parameter has no
    default, with no argument otherwise. ``claims`` always include ``generic``. ``options``
    carry what claimed checks need to know, e.g. ``{"max_items": 4}`` for an LLM summary
    policy.
    """

    name: str
    component: Component
    factory: Callable[..., Any] = field(eq=False)
    claims: frozenset[Claim] = field(default=frozenset({Claim.GENERIC}), converter=claims_of)
    options: Mapping[str, Any] = field(factory=dict, converter=_options, eq=False)
    expected_failures: tuple[ExpectedFailure, ...] = field(default=(), converter=_expected)
    language: str = "python"
    version: str = ""
    #: False for a target a harness serves: it is bounded by the harness's per-request
    #: timeout, not by the per-check time limit (SUITE-6), which would interrupt a request.
    in_process: bool = True

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


#: The components a product reveals, by the protocol it satisfies, in the order tried.
_INFERRED = (
    (ContextProjector, Component.PROJECTOR),
    (CompactPolicy, Component.COMPACT_POLICY),
    (AgentMemory, Component.AGENT_MEMORY),
    (SessionStore, Component.SESSION_STORE),
)


#: The methods of the spec's functions (SpecFunctions); an object with any of them is one.
_FUNCTION_METHODS = (
    "approx_chars",
    "turn_boundary_cut",
    "extract_file_operations",
    "render_summary",
)


def _component_of(product: object) -> Component | None:
    for protocol, component in _INFERRED:
        if isinstance(product, protocol):
            return component
    if any(callable(getattr(product, name, None)) for name in _FUNCTION_METHODS):
        return Component.FUNCTIONS
    return Component.SUMMARY_PARSER if callable(product) else None


def infer_target(obj: object, *, name: str, claims: Iterable[Claim | str] = ()) -> Target:
    """Turn what a user named into a :class:`Target` (SUITE-5).

    A :class:`Target` is taken as it is. Anything else must be a factory (a class or a
    function): it is called once as the rule of SUITE-4 says (with a model client when its
    first parameter has no default, with no argument otherwise), and what it builds reveals
    the component: a projector (``project``), a compact policy (``should_compact`` and
    ``compact``), an agent memory (the operations of MEM-1), a session store (``save`` and
    ``load``), the spec's functions (any of ``approx_chars``, ``turn_boundary_cut``,
    ``extract_file_operations``, ``render_summary``), or else, when it is callable, a summary
    parser.
    """
    if isinstance(obj, Target):
        return obj
    if not callable(obj):
        raise TargetError(f"Expected a Target or a factory at {name} but got {obj!r}")
    signature = signature_of(obj)
    wants_client = signature is not None and wants_argument(signature)
    if signature is not None:
        # Whatever the component, at most the first positional parameter can be given.
        rule = "a factory is called with no argument (a compact policy's with the model client)"
        refuse_required(name, signature, rule, allowed=first_positional(signature))
    try:
        product = obj(_SilentModel()) if wants_client else obj()
    except Exception as error:
        called = "with a model client" if wants_client else "with no argument"
        raise TargetError(
            f"{name} is not a factory the suite can call: calling it {called} raised "
            f"{type(error).__name__}: {error}"
        ) from error
    component = _component_of(product)
    if component is None:
        raise TargetError(
            f"{name} built a {type(product).__name__}, which is neither a projector, a compact "
            "policy, an agent memory, a session store, the spec's functions nor a summary "
            "parser; declare it with "
            "ctxpact.conformance.Target"
        )
    factory_call(obj, component, name=name)  # a signature the component cannot use: refused
    return Target(name=name, component=component, factory=obj, claims=claims_of(claims))


# TargetError lives in _errors (the factory rule needs it too) and is re-exported here, where
# it was defined first.
__all__ = ["Target", "TargetError", "claims_of", "infer_target"]
