"""What a run is asked to do, checked before it runs: factories, claims, options, keywords."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from ctxpact.conformance import (
    ALL_CHECKS,
    CLAIM_MEANINGS,
    OPTIONS,
    Claim,
    Component,
    Outcome,
    Target,
    TargetError,
    check_compact_policy,
    check_projector,
    check_session_store,
    check_target,
    infer_target,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance._claims import claims_help
from ctxpact.conformance._factory import factory_call
from ctxpact.conformance.checks._compaction_support import ScriptedModelClient
from ctxpact.conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from ctxpact.reference.compaction import LlmCompactPolicy
from ctxpact.reference.projection import TypeAwareContextProjector
from ctxpact.reference.session import InMemorySessionStore
from ctxpact.spec import CompactResult, MemorySnapshot, ModelClient

QUICK = profile_settings("quick")


class KeepLast:
    """A policy without a model: keyword parameters with defaults, as users write them."""

    def __init__(self, keep_last: int = 4, trigger: int = 8) -> None:
        if not isinstance(keep_last, int):
            raise TypeError(f"keep_last must be an int, not {type(keep_last).__name__}")
        self.keep_last, self.trigger = keep_last, trigger

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        return len(snapshot.items) > self.trigger

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        kept = snapshot.items[len(snapshot.items) - min(self.keep_last, len(snapshot.items)) :]
        summary = f"{len(snapshot.items) - len(kept)} items summarized; {snapshot.summary or ''}"
        return CompactResult(memory=MemorySnapshot(items=kept, summary=summary), summary=summary)


MODULE = """
from ctxpact.spec import CompactResult, MemorySnapshot

class KeepLast:
    def __init__(self, keep_last=4, trigger=8):
        if not isinstance(keep_last, int):
            raise TypeError(f"keep_last must be an int, not {type(keep_last).__name__}")
        self.keep_last, self.trigger = keep_last, trigger

    def should_compact(self, snapshot):
        return len(snapshot.items) > self.trigger

    def compact(self, snapshot):
        kept = snapshot.items[-self.keep_last:]
        summary = f"{len(snapshot.items) - len(kept)} items summarized; {snapshot.summary or ''}"
        return CompactResult(memory=MemorySnapshot(items=kept, summary=summary), summary=summary)

class NeedsPath:
    def __init__(self, path):
        self.path = path

    def project(self, items, budget):
        raise AssertionError("never built")

def needs_budget(model_client, budget):
    raise AssertionError("never built")
"""


@pytest.fixture
def module(implementation_module: Callable[[str, str], str]) -> str:
    return implementation_module("zoo_usage", MODULE)


# -- one way to call a factory (SUITE-4) ----------------------------------------------------------


def test_a_policy_with_defaults_is_called_with_no_argument_everywhere(
    module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", f"{module}:KeepLast", "--profile", "quick"]) == EXIT_OK
    assert "0 failed" in capsys.readouterr().out
    assert check_compact_policy(KeepLast, profile="quick").ok
    built = factory_call(KeepLast, Component.COMPACT_POLICY)(object())
    assert built.keep_last == 4  # the model client did not land in keep_last


def test_a_policy_that_asks_for_the_client_gets_it() -> None:
    seen: list[object] = []

    def make(model_client: ModelClient) -> LlmCompactPolicy:
        seen.append(model_client)
        return LlmCompactPolicy(model_client, max_items=4)

    client = ScriptedModelClient()
    factory_call(make, Component.COMPACT_POLICY)(client)
    assert seen == [client]
    assert factory_call(lambda *args: args, Component.COMPACT_POLICY)(client) == (client,)


def _needs_path(path: str) -> object:
    return path


def _only_keyword(*, model: object) -> object:
    return model


def _two(model_client: object, budget: object) -> object:
    return model_client, budget


@pytest.mark.parametrize(
    ("factory", "component", "message"),
    [
        (_needs_path, Component.PROJECTOR, "requires the parameter 'path', but a projector"),
        (_needs_path, Component.SESSION_STORE, "a session store factory is called with no"),
        (_only_keyword, Component.COMPACT_POLICY, "requires the keyword-only parameter 'model'"),
        (_two, Component.COMPACT_POLICY, "requires the parameter 'budget'"),
        (_only_keyword, Component.RUNTIME, "takes no positional argument, but a runtime"),
    ],
)
def test_a_factory_that_cannot_take_what_its_component_gets_is_refused(
    factory: Callable[..., object], component: Component, message: str
) -> None:
    with pytest.raises(TargetError, match=message):
        factory_call(factory, component, name="mine")


def test_the_command_refuses_such_a_factory_naming_the_parameter(
    module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", f"{module}:needs_budget"]) == EXIT_USAGE
    assert "requires the parameter 'budget'" in capsys.readouterr().err


def test_the_api_refuses_such_a_factory_before_any_check_runs() -> None:
    with pytest.raises(TargetError, match="requires the parameter 'path'"):
        check_projector(_needs_path, profile="quick")  # type: ignore[arg-type] # the mistake


def test_a_session_store_is_inferred() -> None:
    # SUITE-5: what the factory built says the component.
    target = infer_target(InMemorySessionStore, name="stores")
    assert target.component is Component.SESSION_STORE
    assert check_session_store(InMemorySessionStore, profile="quick", keywords=["copies"]).ok


# -- claims (SUITE-2) -----------------------------------------------------------------------------


def test_generic_is_always_claimed(capsys: pytest.CaptureFixture[str]) -> None:
    target = "ctxpact.reference:TypeAwareContextProjector"
    common = ["check", target, "--claim", "pair-integrity", "--profile", "quick"]
    main([*common, "-k", "max-items"])
    out = capsys.readouterr().out
    assert "claims: generic, pair-integrity" in out
    assert "1 passed" in out  # projector.max-items is generic: it ran
    report = check_projector(
        TypeAwareContextProjector, claims=["exact"], profile="quick", keywords=["max-items"]
    )
    assert report.implementation.claims == {Claim.GENERIC, Claim.EXACT}
    assert [r.outcome for r in report.results] == [Outcome.PASS]


def test_a_claim_that_selects_nothing_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = "ctxpact.reference:TypeAwareContextProjector"
    assert main(["check", target, "--claim", "llm-summary"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "the claim llm-summary selects no check of a projector" in err
    assert "(its claims: generic, pair-integrity, wire-valid, exact)" in err
    with pytest.raises(TargetError, match="llm-summary selects no check of a projector"):
        check_projector(TypeAwareContextProjector, claims=["llm-summary"])


def test_every_claim_has_a_meaning_and_selects_checks() -> None:
    assert set(CLAIM_MEANINGS) == set(Claim)
    for claim in Claim:
        assert any(check.claim is claim for check in ALL_CHECKS), claim


def test_the_help_says_what_each_claim_and_option_means(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["check", "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    flat = " ".join(text.split())
    for claim, meaning in CLAIM_MEANINGS.items():
        assert claim.value in text
        assert " ".join(meaning.split()) in flat
    for spec in OPTIONS:
        assert f"{spec.key}={spec.example}" in text
    assert "generic is always included" in text
    assert "130 interrupted by Ctrl-C" in flat
    assert claims_help(ALL_CHECKS) in text


# -- options (SUITE-3) ----------------------------------------------------------------------------


def test_an_option_no_claimed_check_reads_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = "ctxpact.reference:TypeAwareContextProjector"
    assert main(["check", target, "--option", "max_items=4"]) == EXIT_USAGE
    assert "--option max_items is read by no check of a projector" in capsys.readouterr().err
    with pytest.raises(TargetError, match="'max_items' is read by no check of a projector"):
        check_projector(TypeAwareContextProjector, options={"max_items": 4})
    policy = "ctxpact.reference.compaction:LlmCompactPolicy"
    assert main(["check", policy, "--option", "max_items=4"]) == EXIT_USAGE
    assert "only the llm-summary checks read it" in capsys.readouterr().err


def test_a_missing_option_is_one_usage_error_in_the_callers_syntax(
    capsys: pytest.CaptureFixture[str],
) -> None:
    policy = "ctxpact.reference.compaction:LlmCompactPolicy"
    assert main(["check", policy, "--claim", "llm-summary"]) == EXIT_USAGE
    captured = capsys.readouterr()
    assert captured.err.count("ctxpact: error:") == 1
    assert "need the option max_items" in captured.err
    assert "--option max_items=4" in captured.err
    assert captured.out == ""

    def llm(model_client: ModelClient) -> LlmCompactPolicy:
        return LlmCompactPolicy(model_client, max_items=4)

    with pytest.raises(TargetError, match=r"options=\{'max_items': 4\}"):
        check_compact_policy(llm, claims=["llm-summary"])


def test_the_options_table_names_every_option_the_checks_read() -> None:
    # Run every check of every reference target with options that record what is read: each
    # key read must be in the table for the check's component and claim.
    read: dict[str, set[str]] = {}

    class Recording(dict[str, Any]):
        def __init__(self, values: Mapping[str, Any], check_id: str) -> None:
            super().__init__(values)
            self.check_id = check_id

        def get(self, key: str, default: Any = None) -> Any:  # records what is read
            read.setdefault(self.check_id, set()).add(key)
            return super().get(key, default)

        def __getitem__(self, key: str) -> Any:
            read.setdefault(self.check_id, set()).add(key)
            return super().__getitem__(key)

    checks = {check.id: check for check in ALL_CHECKS}
    for target in reference_targets():
        for check in ALL_CHECKS:
            if check.component is target.component:
                run_check(
                    check,
                    factory=target.factory,
                    claims=target.claims,
                    settings=QUICK,
                    options=Recording(target.options, check.id),
                )
    assert read
    for check_id, keys in read.items():
        check = checks[check_id]
        declared = {
            spec.key
            for spec in OPTIONS
            if spec.component is check.component and check.claim in spec.claims
        }
        assert keys <= declared, check_id


# -- keywords (SUITE-10) ---------------------------------------------------------------------


@pytest.mark.parametrize("keyword", ["nosuchcheck", "not nosuchcheck"])
def test_a_keyword_that_selects_nothing_is_a_usage_error(
    keyword: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = "ctxpact.reference:TypeAwareContextProjector"
    assert main(["check", target, "-k", "max-items", "-k", keyword]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert f"-k: the keyword {keyword!r} matches no check id or clause" in err
    with pytest.raises(TargetError, match="matches no check id or clause of a projector"):
        check_projector(TypeAwareContextProjector, keywords=[keyword])


def test_a_keyword_may_select_nothing_of_one_target_of_several(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(
        [
            "check",
            "ctxpact.reference:TypeAwareContextProjector",
            "ctxpact.reference:InMemoryAgentMemory",
            "-k",
            "max-items",
            "-k",
            "memory.user-input",
            "--profile",
            "quick",
        ]
    )
    assert status == EXIT_OK
    assert "ctxpact check: 2 passed" in capsys.readouterr().out


def test_the_api_refuses_an_unknown_keyword_argument() -> None:
    with pytest.raises(TargetError, match="Unknown keyword argument 'claim'"):
        check_projector(TypeAwareContextProjector, claim=["generic"])  # type: ignore[call-arg]


# -- expected failures on the command line (SUITE-10) ---------------------------------------

DOUBLING = """
from ctxpact.reference.projection import DefaultContextProjector

class Doubling:
    def project(self, items, budget):
        projection = DefaultContextProjector().project(items, None)
        return type(projection)(items=list(items) * 2, report=projection.report)
"""


@pytest.fixture
def doubling(implementation_module: Callable[[str, str], str]) -> str:
    return implementation_module("zoo_doubling", DOUBLING) + ":Doubling"


def test_expected_failures_on_the_command_line_are_strict(
    doubling: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["check", doubling, "-k", "max-items", "--profile", "quick"]
    assert main(common) == EXIT_FAILED
    known = ["--xfail", "projector.max-items=sends every item twice"]
    assert main([*common, *known]) == EXIT_OK
    assert "1 xfailed" in capsys.readouterr().out
    listed = tmp_path / "xfail.txt"
    listed.write_text(
        "# known bugs\n\nprojector.max-items = sends every item twice\n", encoding="utf-8"
    )
    assert main([*common, "--xfail-file", str(listed)]) == EXIT_OK
    fixed = ["check", "ctxpact.reference:DefaultContextProjector", "-k", "max-items", *known]
    assert main([*fixed, "--profile", "quick"]) == EXIT_FAILED
    assert "expected to fail (sends every item twice) but passed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--xfail", "projector.nope=why"], "--xfail projector.nope: no such check"),
        (["--xfail", "projector.max-items"], "expected CHECK_ID=REASON"),
        (["--xfail", "memory.model-based=why"], "no such check for the projector checked"),
        (["--xfail-file", "missing.txt"], "--xfail-file missing.txt:"),
    ],
)
def test_bad_expected_failures_are_usage_errors(
    doubling: str, arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", doubling, *arguments]) == EXIT_USAGE
    assert message in capsys.readouterr().err


def test_check_target_refuses_what_it_cannot_run() -> None:
    target = Target(
        name="doubling",
        component=Component.PROJECTOR,
        factory=TypeAwareContextProjector,
        claims=["llm-summary"],
    )
    with pytest.raises(TargetError, match="llm-summary selects no check"):
        check_target(target)
    assert inspect.signature(check_target).parameters["timeout"].default is None


def test_a_harness_command_naming_another_python_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--exec "python -m ..."` outside the virtual environment runs a Python without ctxpact.
    elsewhere = tmp_path / "bin"
    elsewhere.mkdir()
    other = elsewhere / "python"
    other.write_text("#!/bin/sh\necho 'No module named ctxpact' >&2\nexit 1\n", encoding="utf-8")
    other.chmod(0o755)
    monkeypatch.setenv("PATH", str(elsewhere))
    assert main(["check", "--exec", "python -m ctxpact.reference.harness"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert f"('python' runs {other}, not the Python running ctxpact" in err
    assert sys.executable in err
