"""What each claim means and which options its checks read: one table row each (SUITE-2, SUITE-3).

``ctxpact check --help``, the README and the usage errors of a run are written from these two
tables, and the checks a claim selects from the checks themselves, so adding a claim is one
row of :data:`CLAIM_MEANINGS` (and its member of :class:`~ctxpact.conformance.Claim`), and
adding an option one row of :data:`OPTIONS`.
"""

from __future__ import annotations

import json
import shlex
import textwrap
from collections.abc import Collection, Iterable, Mapping, Sequence

from attrs import frozen

from ctxpact.conformance._errors import TargetError
from ctxpact.conformance._model import Check, Claim, Component

#: What each claim promises. ``generic`` is always claimed (SUITE-2).
CLAIM_MEANINGS: Mapping[Claim, str] = {
    Claim.GENERIC: "the invariants any implementation of the component keeps, whatever its "
    "algorithm (a framework's own trimmer included); always checked",
    Claim.PAIR_INTEGRITY: "a projector or compact policy that never leaves a tool result "
    "without its call, nor an answered call without its results (SPEC.md §1.5)",
    Claim.WIRE_VALID: "a projector or compact policy whose output a provider accepts whenever "
    "it accepted the input (SPEC.md §1.6); needs the option providers",
    Claim.EXACT: "a port of the spec's own algorithm: results identical to the reference's, "
    "the language-neutral vectors included",
    Claim.LLM_SUMMARY: "a compact policy that follows the spec's LLM summary rules (prompt, "
    "forgiving parse, fallback, accumulation, turn-boundary cut, file tracking)",
}


@frozen(kw_only=True)
class OptionSpec:
    """An option that the checks of some claims of a component read (SUITE-3).

    ``example`` is a value as ``--option KEY=JSON`` writes it and ``python`` the same value
    as a Python expression; a ``required`` option must be given whenever one of its checks
    runs.
    """

    key: str
    component: Component
    claims: frozenset[Claim]
    meaning: str
    example: str
    python: str
    required: bool = False


def _option(  # noqa: PLR0913 - one table row
    key: str,
    component: Component,
    claims: Iterable[Claim],
    meaning: str,
    example: str,
    *,
    python: str = "",
    required: bool = False,
) -> OptionSpec:
    return OptionSpec(
        key=key,
        component=component,
        claims=frozenset(claims),
        meaning=meaning,
        example=example,
        python=python or repr(json.loads(example)),
        required=required,
    )


_PROJECTOR_CLAIMS = (Claim.GENERIC, Claim.PAIR_INTEGRITY, Claim.WIRE_VALID, Claim.EXACT)

_PROVIDERS_MEANING = (
    "the providers a wire-valid claim is made for: openai-responses, openai-chat, anthropic"
)

#: Every option a check reads, with the claims whose checks read it.
OPTIONS: tuple[OptionSpec, ...] = (
    _option(
        "providers",
        Component.PROJECTOR,
        (Claim.WIRE_VALID,),
        _PROVIDERS_MEANING,
        '["openai-chat", "anthropic"]',
        required=True,
    ),
    _option(
        "providers",
        Component.COMPACT_POLICY,
        (Claim.WIRE_VALID,),
        _PROVIDERS_MEANING,
        '["openai-responses"]',
        required=True,
    ),
    _option(
        "pair_safe",
        Component.PROJECTOR,
        (Claim.EXACT,),
        "true for a port of PairSafeContextProjector (SPEC.md §5.5); default false",
        "true",
    ),
    _option(
        "tiers",
        Component.PROJECTOR,
        _PROJECTOR_CLAIMS,
        "false for a projector without Tier-1 and Tier-2 (as DefaultContextProjector); "
        "default true",
        "false",
    ),
    _option(
        "max_items",
        Component.COMPACT_POLICY,
        (Claim.LLM_SUMMARY,),
        "the policy's keep-recent count",
        "4",
        required=True,
    ),
    _option(
        "model_name",
        Component.COMPACT_POLICY,
        (Claim.LLM_SUMMARY,),
        "the model name the policy puts in its prompts; default empty",
        '"gpt-4o"',
    ),
    _option(
        "budget",
        Component.COMPACT_POLICY,
        (Claim.EXACT,),
        "the ContextBudget an exact structured-summary policy projects with",
        '{"maxItems": 4, "pinnedPrefixItems": 1}',
        python="ContextBudget(max_items=4, pinned_prefix_items=1)",
        required=True,
    ),
    _option(
        "args",
        Component.MEMORY_COMPRESSOR,
        (Claim.GENERIC,),
        "the positional arguments the generic checks build the compressor with",
        "[3]",
    ),
    _option(
        "kind",
        Component.MEMORY_COMPRESSOR,
        (Claim.EXACT,),
        "which of the spec's compressors it ports: windowed or policy-adapter",
        '"windowed"',
    ),
    _option(
        "storage",
        Component.AGENT_MEMORY,
        (Claim.EXACT,),
        "where the memory keeps its state: sqlite or postgresql (a harness's target declares "
        "it, HRN-29; in process it limits the databases offered, found by behaviour without it)",
        '"sqlite"',
    ),
    _option(
        "storage",
        Component.SESSION_STORE,
        (Claim.GENERIC,),
        "where the store keeps its sessions: sqlite, postgresql or directory (a harness's target "
        "declares it, HRN-29; in process it limits the databases offered)",
        '"directory"',
    ),
    _option(
        "max_steps",
        Component.RUNTIME,
        (Claim.GENERIC,),
        "false for a runtime without a step bound (RUN-9 is a MAY)",
        "false",
    ),
)


def words(component: Component) -> str:
    """*component* in running text: ``a compact policy``, ``an agent memory``."""
    if component is Component.FUNCTIONS:
        return "the spec's functions"
    text = component.value.replace("-", " ")
    return f"{'an' if text[0] in 'aeiou' else 'a'} {text}"


def components_of(claim: Claim, checks: Iterable[Check]) -> tuple[Component, ...]:
    """The components that have checks of *claim*, in the order of :class:`Component`."""
    having = {check.component for check in checks if check.claim is claim}
    return tuple(component for component in Component if component in having)


def _wrapped(text: str) -> str:
    return textwrap.fill(text, width=88, initial_indent="      ", subsequent_indent="      ")


def claims_help(checks: Sequence[Check]) -> str:
    """The claims, the components they apply to and what they mean, for ``--help``."""
    lines = []
    for claim, meaning in CLAIM_MEANINGS.items():
        components = ", ".join(c.value for c in components_of(claim, checks))
        count = sum(check.claim is claim for check in checks)
        noun = "check" if count == 1 else "checks"
        lines.append(f"  {claim.value} ({count} {noun}: {components})\n{_wrapped(meaning)}")
    return "\n".join(lines)


def option_argument(spec: OptionSpec) -> str:
    """``KEY=JSON`` for *spec*'s example, quoted for a shell where it needs to be."""
    return shlex.quote(f"{spec.key}={spec.example}")


def options_help() -> str:
    """The options, the claims whose checks read them and what they mean, for ``--help``."""
    return "\n".join(
        f"  --option {option_argument(spec)} ({spec.component.value}, "
        f"{'/'.join(sorted(c.value for c in spec.claims))}"
        f"{', required' if spec.required else ''})\n{_wrapped(spec.meaning)}"
        for spec in OPTIONS
    )


def check_claims(component: Component, claims: Collection[Claim], checks: Iterable[Check]) -> None:
    """Refuse a claim that selects no check of *component* (SUITE-2).

    Raises:
        TargetError: naming the claim and the claims the component has.

    """
    present = {check.claim for check in checks if check.component is component}
    for claim in sorted(claims, key=lambda c: c.value):
        if claim not in present:
            known = ", ".join(c.value for c in Claim if c in present)
            raise TargetError(
                f"the claim {claim.value} selects no check of {words(component)} (its claims: "
                f"{known})"
            )


def unread_options(
    component: Component, claims: Collection[Claim], keys: Iterable[str]
) -> list[str]:
    """The option *keys* that no check of *component* under *claims* reads."""
    read = {
        spec.key for spec in OPTIONS if spec.component is component and spec.claims & set(claims)
    }
    return [key for key in keys if key not in read]


def check_options(
    component: Component, claims: Collection[Claim], keys: Iterable[str], *, cli: bool = False
) -> None:
    """Refuse an option that no check of *component* under *claims* reads (SUITE-3).

    Raises:
        TargetError: naming the option, and the claim that would read it or the options the
            component's claimed checks do read.

    """
    for key in unread_options(component, claims, keys):
        elsewhere = [s for s in OPTIONS if s.key == key and s.component is component]
        if elsewhere:
            wanted = "/".join(sorted(c.value for c in elsewhere[0].claims))
            hint = f"only the {wanted} checks read it; claim {wanted} to run them"
        else:
            known = [s.key for s in OPTIONS if s.component is component and s.claims & set(claims)]
            hint = "its claimed checks read " + (", ".join(known) if known else "no option")
        spelled = f"--option {key}" if cli else f"the option {key!r}"
        raise TargetError(f"{spelled} is read by no check of {words(component)}: {hint}")


class MissingOptionError(TargetError):
    """A claimed check needs an option that was not given (SUITE-3).

    ``spec`` is the option; :meth:`spelled` says how to give it on the command line.
    """

    def __init__(self, spec: OptionSpec, check_id: str) -> None:
        self.spec = spec
        self.check_id = check_id
        super().__init__(self.spelled(cli=False))

    def spelled(self, *, cli: bool) -> str:
        """The message, with the fix in command-line or Python syntax."""
        spec = self.spec
        fix = (
            f"--option {option_argument(spec)}"
            if cli
            else f"options={{{spec.key!r}: {spec.python}}}"
        )
        claims = "/".join(sorted(c.value for c in spec.claims))
        return (
            f"the {claims} checks of {words(spec.component)} need the option {spec.key} "
            f"({spec.meaning}): give it with {fix}"
        )


def check_required_options(checks: Iterable[Check], options: Mapping[str, object]) -> None:
    """Refuse a run whose checks need an option it lacks.

    Raises:
        MissingOptionError: for the first such option.

    """
    for check in checks:
        for spec in OPTIONS:
            if (
                spec.required
                and spec.component is check.component
                and check.claim in spec.claims
                and options.get(spec.key) is None
            ):
                raise MissingOptionError(spec, check.id)
