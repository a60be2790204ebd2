"""The checks that mutation testing asked for, each catching the mutant that survived without it.

scripts/mutation.py mutates the reference and runs the suite against each mutant
(docs/mutation.md). A mutant that survived and is not equivalent showed a gap; the check added
for it must catch it. Each member here *is* such a mutant: the reference module's source with
the one change cosmic-ray made, loaded as a module of its own beside the real reference. The
tests show that the new check fails it for the stated reason, and that no other check of its
component catches it, so the new check is what closed the gap.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from ctxpact.conformance import (
    Check,
    Claim,
    Component,
    Outcome,
    checks_for,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance._context import describe
from ctxpact.conformance.checks import parser
from ctxpact.reference.compaction import WindowedMemoryCompressor

QUICK = profile_settings("quick")


def _on(text: str) -> str:
    return f"on {describe(text)}"


_REFERENCE = "ctxpact.reference"


def mutated(module: str, old: str, new: str, **names: object) -> types.ModuleType:
    """*module* of the reference with *old* (found once in its source) replaced by *new*.

    The copy is a module of its own: the reference stays as it is. *names* replace globals of
    the copy after it ran, so that a copy of a module uses another copy's function.
    """
    original = importlib.import_module(f"{_REFERENCE}.{module}")
    path = Path(str(original.__file__))
    source = path.read_text(encoding="utf-8")
    assert not old or source.count(old) == 1, f"{old!r} is not found exactly once in {path}"
    copy = types.ModuleType(f"{original.__name__}__mutant_{abs(hash((old, new)))}")
    sys.modules[copy.__name__] = copy
    exec(compile(source.replace(old, new), str(path), "exec"), copy.__dict__)  # noqa: S102 - the reference's own source
    copy.__dict__.update(names)
    return copy


@attrs.frozen(kw_only=True)
class Mutant:
    """A surviving mutant, the check added for it, and a phrase of that check's failure."""

    name: str
    check_id: str
    reason: str
    component: Component
    factory: Callable[[], Callable[..., Any]] = attrs.field(eq=False, repr=False)


def _target(component: Component, name: str) -> Any:
    return next(
        t for t in reference_targets() if t.component is component and t.name.endswith(name)
    )


def _parser(old: str, new: str) -> Callable[[], Callable[..., Any]]:
    def build() -> Callable[..., Any]:
        return mutated("compaction._summary", old, new).parse_structured_summary  # type: ignore[no-any-return]

    return build


def _llm(module: str, old: str, new: str, name: str) -> Callable[[], Callable[..., Any]]:
    def build() -> Callable[..., Any]:
        helper = getattr(mutated(module, old, new), name)
        policy = mutated("compaction._llm", "", "", **{name: helper}).LlmCompactPolicy
        keep = _target(Component.COMPACT_POLICY, "LlmCompactPolicy").options["max_items"]
        return lambda model_client: policy(model_client, max_items=keep)

    return build


#: The test of the character stage's prefix pass (_stages.py), with the comparison to mutate.
_PREFIX_FIT = (
    "elif used + bound(index) {fits} max_chars and used + (item := size(index)) <= max_chars:\n"
    "            used += item\n"
    "            prefix.append(index)"
)


def _projector(old: str, new: str, name: str) -> Callable[[], Callable[..., Any]]:
    def build() -> Callable[..., Any]:
        stages = mutated("projection._stages", old, new)
        module = {
            "DefaultContextProjector": "projection._default",
            "TypeAwareContextProjector": "projection._type_aware",
        }[name]
        return getattr(mutated(module, "", "", project_items=stages.project_items), name)  # type: ignore[no-any-return]

    return build


def _windowed() -> Callable[..., Any]:
    copy = mutated(
        "compaction._policy",
        "if isinstance(value, bool) or not isinstance(value, int) or value <= 0:",
        "if isinstance(value, bool) and not isinstance(value, int) or value <= 0:",
    )
    return copy.WindowedMemoryCompressor  # type: ignore[no-any-return]


MUTANTS = (
    Mutant(
        name="parse-one-past-the-last-brace",
        check_id="parser.scan-edges",
        reason=_on(parser.SCAN_EDGES[0]),
        component=Component.SUMMARY_PARSER,
        factory=_parser(
            "found = load_object(text[first : last + 1])",
            "found = load_object(text[first : last + 2])",
        ),
    ),
    Mutant(
        name="parse-one-past-a-span",
        check_id="parser.scan-edges",
        reason=_on(parser.SCAN_EDGES[1]),
        component=Component.SUMMARY_PARSER,
        factory=_parser(
            "found = load_object(text[start : end + 1])",
            "found = load_object(text[start : end + 2])",
        ),
    ),
    Mutant(
        name="scan-stops-at-a-quote-in-prose",
        check_id="parser.scan-edges",
        reason=_on(parser.SCAN_EDGES[2]),
        component=Component.SUMMARY_PARSER,
        factory=_parser(
            "elif not openers:\n            continue",
            "elif not openers:\n            break",
        ),
    ),
    Mutant(
        name="scan-goes-on-after-an-open-string",
        check_id="parser.scan-edges",
        reason=_on(parser.SCAN_EDGES[3]),
        component=Component.SUMMARY_PARSER,
        factory=_parser(
            "if tail is None:\n                break",
            "if tail is None:\n                continue",
        ),
    ),
    Mutant(
        name="files-stop-at-a-call-without-arguments",
        check_id="compaction.llm.files-every-call",
        reason="readFiles",
        component=Component.COMPACT_POLICY,
        factory=_llm(
            "compaction._files",
            "if arguments is None:\n                continue",
            "if arguments is None:\n                break",
            "extract_file_operations",
        ),
    ),
    Mutant(
        name="pinned-fit-with-room-to-spare",
        check_id="projector.exact.boundaries",
        reason="compared with the reference",
        component=Component.PROJECTOR,
        factory=_projector(
            _PREFIX_FIT.format(fits="<="),
            _PREFIX_FIT.format(fits="<"),
            "DefaultContextProjector",
        ),
    ),
    Mutant(
        name="windowed-compares-before-typing",
        check_id="compressor.windowed-rejects",
        reason="does not name the field",
        component=Component.MEMORY_COMPRESSOR,
        factory=_windowed,
    ),
)


def _reference_of(component: Component) -> Any:
    names = {
        Component.SUMMARY_PARSER: "parse_structured_summary",
        Component.COMPACT_POLICY: "LlmCompactPolicy",
        Component.MEMORY_COMPRESSOR: "WindowedMemoryCompressor",
        Component.PROJECTOR: "DefaultContextProjector",
    }
    return _target(component, names[component])


def _run(check: Check, mutant: Mutant) -> Any:
    target = _reference_of(mutant.component)
    built = mutant.factory()
    # A parser factory returns the parser; a policy or compressor factory is the class.
    factory = (lambda: built) if mutant.component is Component.SUMMARY_PARSER else built
    return run_check(
        check, factory=factory, claims=target.claims, settings=QUICK, options=target.options
    )


def _claimed(mutant: Mutant) -> Iterator[Check]:
    claims = _reference_of(mutant.component).claims
    for found in checks_for(mutant.component):
        if found.claim is Claim.GENERIC or found.claim in claims:
            yield found


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda mutant: mutant.name)
def test_the_new_check_catches_the_mutant_for_its_reason(mutant: Mutant) -> None:
    found = {check.id: check for check in checks_for(mutant.component)}[mutant.check_id]
    result = _run(found, mutant)
    assert result.outcome is Outcome.FAIL, (result.outcome, result.message)
    assert mutant.reason in result.message, result.message


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda mutant: mutant.name)
def test_no_other_check_catches_the_mutant(mutant: Mutant) -> None:
    caught = [
        found.id
        for found in _claimed(mutant)
        if found.id != mutant.check_id
        and _run(found, mutant).outcome not in {Outcome.PASS, Outcome.SKIP}
    ]
    assert not caught, caught


def test_every_new_check_has_a_mutant() -> None:
    new = {
        "parser.scan-edges",
        "compaction.llm.files-every-call",
        "compressor.windowed-rejects",
        "projector.exact.boundaries",
    }
    assert new <= {check.id for component in Component for check in checks_for(component)}
    assert {mutant.check_id for mutant in MUTANTS} == new


def test_a_mutated_copy_leaves_the_reference_as_it_is() -> None:
    copy = _windowed()
    assert copy is not WindowedMemoryCompressor
    with pytest.raises(ValueError, match="max_items"):
        WindowedMemoryCompressor(True)
    assert copy(True).max_items is True
