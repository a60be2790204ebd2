"""The whole suite through a harness: the same outcomes as in process, shrinking included.

``python -m ctxpact.reference.harness`` serves the reference over the protocol; run through
it, every check must end as it does in process, with two kinds of principled exception: the
checks that measure or damage this process itself (CPU time, file-system calls) skip for a
harness, saying so; the Python binding's own rules (``None`` items, a policy built without a
client) are kept by the proxies, so they pass. Stored state and compressors are reached by
behaviour (HRN-29, HRN-30), so the memory and store checks that read them run too.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ctxpact.conformance import (
    Check,
    CheckContext,
    CheckResult,
    Claim,
    Component,
    ConformanceReport,
    Outcome,
    Target,
    check_target,
    profile_settings,
    reference_targets,
    run_check,
)
from ctxpact.conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from ctxpact.conformance.harness import SERVED_COMPONENTS, HarnessConnection, harness_targets
from ctxpact.reference.projection import DefaultContextProjector
from ctxpact.spec import (
    ContextBudget,
    ContextProjection,
    ContextProjector,
    JsonValue,
    validate,
)

FAKE = Path(__file__).with_name("fake_harness.py")
REFERENCE = shlex.join([sys.executable, "-m", "ctxpact.reference.harness"])
#: Rules of the Python binding that the proxies keep themselves (see the module docstring).
BINDING_RULES = {"compaction.llm.requires-client"}
#: The checks that skip a harness's target, and why: each measures or damages this process.
IN_PROCESS_ONLY = {
    "parser.linear-time": "it measures the parser's CPU time, which another process spends",
    "store.interrupted-save": "it injects faults into this process's file-system calls",
}


def fake(mode: str, *options: str) -> str:
    return shlex.join([sys.executable, str(FAKE), "--mode", mode, *options])


def outcomes(reports: Sequence[ConformanceReport]) -> dict[tuple[str, str], CheckResult]:
    return {
        (report.implementation.name, result.check_id): result
        for report in reports
        for result in report.results
    }


@pytest.fixture(scope="module")
def reference() -> Iterator[HarnessConnection]:
    with HarnessConnection(REFERENCE, validate=True) as connection:
        yield connection


def _served_in_process() -> list[Target]:
    # The reference harness serves the in-process implementations; the PostgreSQL ones (in
    # reference_targets() when CTXPACT_POSTGRES_DSN is set) need a server it does not open.
    return [
        target
        for target in reference_targets()
        if target.component in SERVED_COMPONENTS and "Postgres" not in target.name
    ]


def test_the_harness_declares_the_in_process_reference_targets(
    reference: HarnessConnection,
) -> None:
    local = {t.name: t for t in _served_in_process()}
    remote = {t.name: t for t in harness_targets(reference)}
    assert remote.keys() == local.keys()
    for name, target in remote.items():
        assert target.component is local[name].component, name
        assert target.claims == local[name].claims, name
        # The harness also names a policy's kind and where a memory or a store keeps its
        # state (HRN-29), which in process are found from the class; a compressor's
        # arguments are JSON there (a policy as its options), objects here.
        named = {"kind", "storage"}
        options = {key: value for key, value in target.options.items() if key not in named}
        expected = {k: v for k, v in local[name].options.items() if k not in named}
        if target.component is Component.MEMORY_COMPRESSOR:
            assert len(options.pop("args")) == len(expected.pop("args")), name
        assert options == expected, name


def test_the_quick_suite_ends_alike_in_process_and_through_the_harness(
    reference: HarnessConnection,
) -> None:
    local = outcomes([check_target(target, profile="quick") for target in _served_in_process()])
    remote = outcomes(
        [check_target(target, profile="quick") for target in harness_targets(reference)]
    )
    assert remote.keys() == local.keys()
    differences = []
    for key, there in remote.items():
        here = local[key]
        in_process_only = key[1] in IN_PROCESS_ONLY and there.outcome is Outcome.SKIP
        binding_rule = key[1] in BINDING_RULES and there.outcome is Outcome.PASS
        if there.outcome is not here.outcome and not (in_process_only or binding_rule):
            differences.append(
                f"{key}: {here.outcome.value} in process, {there.outcome.value} "
                f"through the harness: {there.message[:500]}"
            )
    assert not differences, "\n".join(differences)
    assert reference.starts == 1  # no fault, no restart
    passed = sum(r.outcome is Outcome.PASS for r in remote.values())
    assert passed > len(remote) // 2


class DropsTheLast:
    """The in-process twin of the fake harness's drop-last projector."""

    def project(
        self, items: Sequence[JsonValue] | None, budget: ContextBudget | None
    ) -> ContextProjection:
        projection = DefaultContextProjector().project(list(items or ()), budget)
        return ContextProjection(items=projection.items[:-1], report=projection.report)


def _keeps_its_items(context: CheckContext) -> Callable[[], None]:
    """Without a budget, the projection is the items (only a generated example can fail)."""

    @given(items=st.lists(st.integers(), max_size=8))
    @example(items=[])
    def test(items: list[JsonValue]) -> None:
        context.record(items=items)
        projector: ContextProjector = context.subject()
        kept = list(projector.project(items, None).items)
        context.expect(kept == items, f"kept {kept}")

    return test


KEEPS_ITS_ITEMS = Check(
    id="test.keeps-its-items",
    component=Component.PROJECTOR,
    claim=Claim.GENERIC,
    clauses=("PRJ-1",),
    title="Without a budget, the projection is the items.",
    build=_keeps_its_items,
)


def test_a_failure_found_through_the_harness_is_shrunk_to_the_minimal_example() -> None:
    with HarnessConnection(fake("drop-last")) as connection:
        (remote,) = [
            t for t in harness_targets(connection) if t.name.endswith(":DefaultContextProjector")
        ]
        through = run_check(
            KEEPS_ITS_ITEMS,
            factory=remote.factory,
            claims=remote.claims,
            settings=profile_settings("quick"),
        )
    here = run_check(
        KEEPS_ITS_ITEMS,
        factory=DropsTheLast,
        claims=remote.claims,
        settings=profile_settings("quick"),
    )
    assert through.outcome is Outcome.FAIL
    assert through.counterexample == {"items": [0]}  # shrunk: any non-empty list fails
    assert through.counterexample == here.counterexample
    assert through.message == here.message
    # Found by generation (no explicit example fails) and shrunk: [0] is the minimal list;
    # Hypothesis's own rendering of the example is left out, the JSON counterexample says it.
    assert through.message == "kept []"


def test_the_suites_failures_and_counterexamples_are_the_same_across_the_boundary() -> None:
    with HarnessConnection(fake("drop-last")) as connection:
        (remote,) = [
            t for t in harness_targets(connection) if t.name.endswith(":DefaultContextProjector")
        ]
        through = check_target(remote, profile="quick")
    local = Target(
        name="DropsTheLast",
        component=Component.PROJECTOR,
        factory=DropsTheLast,
        claims=remote.claims,
        options=remote.options,
    )
    here = check_target(local, profile="quick")
    assert [r.check_id for r in through.results] == [r.check_id for r in here.results]
    failed = [r for r in through.results if r.outcome is Outcome.FAIL]
    assert failed, "dropping the last item must fail some projector check"
    for there, near in zip(through.results, here.results, strict=True):
        assert there.outcome is near.outcome, there.check_id
        assert there.counterexample == near.counterexample, there.check_id
    assert any(r.counterexample is not None for r in failed)


def test_the_command_line_runs_a_harness_and_reports_its_language(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    status = main(
        [
            "check",
            "--exec",
            REFERENCE,
            "-V",
            "--profile",
            "quick",
            "-k",
            "projector.max-items",
            "--json",
            str(report),
        ]
    )
    assert status == EXIT_OK
    document = json.loads(report.read_text(encoding="utf-8"))
    validate(document, "conformance-report")
    names = {i["name"]: i["language"] for i in document["implementations"]}
    assert names["ctxpact.reference:TypeAwareContextProjector"] == "python"
    assert {r["checkId"] for r in document["results"]} == {"projector.max-items"}
    assert all(r["outcome"] == "pass" for r in document["results"])


def test_a_harness_that_keeps_crashing_fails_the_run_without_stopping_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(
        [
            "check",
            "--exec",
            fake("crash", "--after", "2"),
            "--profile",
            "quick",
            "-k",
            "projector.max-items",
        ]
    )
    assert status == EXIT_FAILED
    out = capsys.readouterr().out
    assert "0 passed" in out
    assert out.count("ERROR projector.max-items") == 3  # the three projectors, each restarted
    assert "exited with status 3 before answering" in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--exec", fake("wrong-version")],
            "Expected protocol version 1 but the harness speaks version 2",
        ),
        (["--exec", "no-such-harness-command"], "could not be started: FileNotFoundError"),
        (["--exec", ""], "the command is empty"),
        (["-V"], "-V/--validate-protocol applies to harnesses named with --exec"),
        (["--exec", REFERENCE, "--claim", "exact"], "a harness declares its own claims"),
    ],
)
def test_a_harness_that_cannot_start_is_a_usage_error(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", *arguments]) == EXIT_USAGE
    assert message in capsys.readouterr().err


def test_the_timeout_must_be_a_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["check", "--exec", REFERENCE, "--timeout", "0"])
    assert raised.value.code == EXIT_USAGE
    assert "expected a positive number of seconds but got 0" in capsys.readouterr().err
