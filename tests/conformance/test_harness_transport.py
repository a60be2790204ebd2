"""The subprocess transport: every fault of a harness is a result naming the request.

The steerable fake harness (tests/conformance/fake_harness.py, run as a script) serves the
reference and misbehaves on demand; each test provokes one fault and checks that the case
ends ``error`` with a clear message, that the harness is restarted when it must be, and that
the next case runs normally.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable, Iterator
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
    Outcome,
    Target,
    profile_settings,
    run_check,
)
from ctxpact.conformance.harness import (
    AgentMemoryProxy,
    HarnessConnection,
    HarnessFault,
    HarnessOperationError,
    HarnessProtocolError,
    HarnessSkippedError,
    HarnessStartError,
    HarnessTimeoutError,
    ProjectorProxy,
    SessionStoreProxy,
    harness_targets,
)
from ctxpact.spec import PROVIDERS, AgentSessionSnapshot, ContextProjector, JsonValue

FAKE = Path(__file__).with_name("fake_harness.py")
REFERENCE = shlex.join([sys.executable, "-m", "ctxpact.reference.harness"])
PROJECTOR = "ctxpact.reference:DefaultContextProjector"


def fake(mode: str, *options: str) -> str:
    """The command running the fake harness in *mode*."""
    return shlex.join([sys.executable, str(FAKE), "--mode", mode, *options])


def _keeps_everything(context: CheckContext) -> Callable[[], None]:
    """Without a budget, a projection keeps every item."""

    @given(items=st.lists(st.text(max_size=3), max_size=4))
    @example(items=["a", "b"])
    def test(items: list[JsonValue]) -> None:
        context.record(items=items)
        projector: ContextProjector = context.subject()
        projection = projector.project(items, None)
        context.expect(list(projection.items) == items, f"kept {list(projection.items)}")

    return test


KEEPS_EVERYTHING = Check(
    id="test.keeps-everything",
    component=Component.PROJECTOR,
    claim=Claim.GENERIC,
    clauses=("PRJ-1",),
    title="Without a budget, a projection keeps every item.",
    build=_keeps_everything,
)


def _skipped(context: CheckContext) -> Callable[[], None]:
    """Ask the harness for a command it does not know."""

    def test() -> None:
        connection: HarnessConnection = context.options["connection"]
        connection.request("frobnicate", {})

    return test


ASKS_THE_UNKNOWN = Check(
    id="test.asks-the-unknown",
    component=Component.PROJECTOR,
    claim=Claim.GENERIC,
    clauses=("PRJ-1",),
    title="Ask the harness for a command it does not know.",
    build=_skipped,
)


def run(check: Check, target: Target, **options: object) -> CheckResult:
    return run_check(
        check,
        factory=target.factory,
        claims=target.claims,
        settings=profile_settings("quick"),
        options=options or target.options,
    )


def projector(connection: HarnessConnection) -> Target:
    (target,) = [t for t in harness_targets(connection) if t.name == PROJECTOR]
    return target


@pytest.fixture
def marker(tmp_path: Path) -> str:
    return str(tmp_path / "faulted")


@pytest.fixture
def reference() -> Iterator[HarnessConnection]:
    with HarnessConnection(REFERENCE, validate=True) as connection:
        yield connection


def test_targets_are_named_after_the_implementation_and_carry_its_metadata(
    reference: HarnessConnection,
) -> None:
    targets = {target.name: target for target in harness_targets(reference)}
    assert targets[PROJECTOR].component is Component.PROJECTOR
    assert targets[PROJECTOR].claims == {Claim.GENERIC, Claim.EXACT}
    assert targets[PROJECTOR].language == "python"
    assert targets[PROJECTOR].options == {"tiers": False}
    policy = targets["ctxpact.reference:LlmCompactPolicy"]
    assert policy.options == {"kind": "llm", "max_items": 4, "providers": PROVIDERS}
    pair_safe = targets["ctxpact.reference:PairSafeContextProjector"]
    assert pair_safe.options == {"pair_safe": True, "providers": PROVIDERS}
    assert pair_safe.claims == {Claim.GENERIC, Claim.EXACT, Claim.PAIR_INTEGRITY, Claim.WIRE_VALID}
    assert len(targets) == 15


def test_a_passing_check_passes_across_the_process_boundary(
    reference: HarnessConnection,
) -> None:
    assert run(KEEPS_EVERYTHING, projector(reference)).outcome is Outcome.PASS
    assert reference.starts == 1


def test_a_crash_is_an_error_naming_the_request_and_the_harness_is_restarted(
    marker: str,
) -> None:
    with HarnessConnection(fake("crash", "--after", "3", "--once", marker)) as connection:
        target = projector(connection)
        crashed = run(KEEPS_EVERYTHING, target)
        assert crashed.outcome is Outcome.ERROR
        assert re.search(r"exited with status 3 before answering", crashed.message)
        assert re.search(
            r"\(request: project \(seq \d+, target 'DefaultContextProjector'\)\)", crashed.message
        )
        assert "fake harness: crash on project" in crashed.message  # the stderr tail
        assert "killed and is restarted" in crashed.message
        assert run(KEEPS_EVERYTHING, target).outcome is Outcome.PASS
        assert connection.starts == 2


def test_a_harness_that_always_crashes_errors_every_case_and_the_suite_goes_on() -> None:
    with HarnessConnection(fake("crash", "--after", "2")) as connection:
        target = projector(connection)
        results = [run(KEEPS_EVERYTHING, target) for _ in range(3)]
        assert [r.outcome for r in results] == [Outcome.ERROR] * 3
        assert all("exited with status 3" in r.message for r in results)
        assert connection.starts == 3  # restarted lazily, by the next case's first request
        assert not connection.running


def test_a_hang_past_the_timeout_is_killed_restarted_and_an_error(marker: str) -> None:
    command = fake("hang", "--after", "2", "--once", marker)
    with HarnessConnection(command, timeout=0.5) as connection:
        target = projector(connection)
        hung = run(KEEPS_EVERYTHING, target)
        assert hung.outcome is Outcome.ERROR
        assert "did not answer within 0.5 s" in hung.message
        assert "(request: project (seq" in hung.message
        assert "killed and is restarted" in hung.message
        assert run(KEEPS_EVERYTHING, target).outcome is Outcome.PASS
        assert connection.starts == 2


def test_a_harness_that_stops_reading_cannot_block_a_long_request() -> None:
    with HarnessConnection(fake("deaf"), timeout=0.5) as connection:
        deaf = ProjectorProxy(connection, "DefaultContextProjector")
        with pytest.raises(HarnessTimeoutError, match=r"did not answer within 0\.5 s"):
            deaf.project(["x" * 100_000, "y" * 100_000], None)
        assert not connection.running


def test_output_that_is_not_json_is_an_error_quoting_it(marker: str) -> None:
    with HarnessConnection(fake("garbage", "--after", "2", "--once", marker)) as connection:
        target = projector(connection)
        garbled = run(KEEPS_EVERYTHING, target)
        assert garbled.outcome is Outcome.ERROR
        assert "answered with a line that is not JSON" in garbled.message
        assert "this is not JSON" in garbled.message
        assert "(request: project (seq" in garbled.message
        assert run(KEEPS_EVERYTHING, target).outcome is Outcome.PASS


def test_a_wrong_seq_is_an_error_naming_both(marker: str) -> None:
    with HarnessConnection(fake("wrong-seq", "--after", "2", "--once", marker)) as connection:
        target = projector(connection)
        confused = run(KEEPS_EVERYTHING, target)
        assert confused.outcome is Outcome.ERROR
        found = re.search(r"answered with seq (\d+) where (\d+) was expected", confused.message)
        assert found is not None
        assert int(found.group(1)) == 1000 + int(found.group(2))
        assert run(KEEPS_EVERYTHING, target).outcome is Outcome.PASS


def test_a_wrong_protocol_version_stops_the_start() -> None:
    connection = HarnessConnection(fake("wrong-version"))
    with pytest.raises(
        HarnessStartError, match="Expected protocol version 1 but the harness speaks version 2"
    ):
        connection.start()
    assert not connection.running


def test_a_command_that_does_not_run_cannot_be_started() -> None:
    with pytest.raises(HarnessStartError, match="FileNotFoundError"):
        HarnessConnection("no-such-harness-command --x").start()


def test_a_response_breaking_its_schema_is_an_error_only_when_validating() -> None:
    command = fake("invalid-response", "--after", "2")
    with HarnessConnection(command) as lenient:
        assert run(KEEPS_EVERYTHING, projector(lenient)).outcome is Outcome.PASS
    with HarnessConnection(command, validate=True) as strict:
        broken = run(KEEPS_EVERYTHING, projector(strict))
        assert broken.outcome is Outcome.ERROR
        assert "breaks harness/project-response" in broken.message
        assert "'debug' was unexpected" in broken.message
        assert "(request: project (seq" in broken.message
        assert strict.starts == 1  # nothing to restart: the stream is still in step


def test_validation_checks_the_suites_own_requests_too(reference: HarnessConnection) -> None:
    with pytest.raises(HarnessProtocolError, match="the suite's own request breaks"):
        reference.request("project", {"target": "DefaultContextProjector", "items": "nope"})


def test_skipped_is_a_skip_with_the_harness_reason() -> None:
    # Not validating: no schema describes a request the protocol does not have.
    with HarnessConnection(REFERENCE) as connection:
        result = run(ASKS_THE_UNKNOWN, projector(connection), connection=connection)
        assert result.outcome is Outcome.SKIP
        assert "'frobnicate' is not implemented" in result.message
        with pytest.raises(HarnessSkippedError, match=r"frobnicate \(seq \d+\)"):
            connection.request("frobnicate", {})


def test_errored_carries_the_implementations_message_and_traceback(
    reference: HarnessConnection,
) -> None:
    store = SessionStoreProxy(reference, "InMemorySessionStore")
    store.save(AgentSessionSnapshot(session_id="s1"))
    assert store.load("s1") == AgentSessionSnapshot(session_id="s1")
    with pytest.raises(HarnessOperationError) as raised:
        store.load("")
    assert "store_call load (seq" in str(raised.value)
    assert 'with {"method":"load","args":[""]}' in str(raised.value)
    assert "InvalidValueError" in raised.value.message
    assert raised.value.traceback is not None
    assert "Traceback" in raised.value.traceback


def test_a_handle_does_not_survive_a_restart(marker: str) -> None:
    command = fake("crash", "--on", "memory_call", "--after", "2", "--once", marker)
    with HarnessConnection(command) as connection:
        memory = AgentMemoryProxy(connection, "InMemoryAgentMemory")
        memory.add_user_input("hello")
        with pytest.raises(HarnessFault, match="exited with status 3"):
            memory.get_summary()
        with pytest.raises(HarnessFault, match="lost the object behind handle 'memory-1'"):
            memory.get_summary()
        fresh = AgentMemoryProxy(connection, "InMemoryAgentMemory")
        fresh.set_summary("s")
        assert fresh.get_summary() == "s"
        assert connection.starts == 2


def test_dropped_proxies_free_their_handles(reference: HarnessConnection) -> None:
    memory = AgentMemoryProxy(reference, "SqliteAgentMemory")
    memory.add_user_input("hello")
    del memory
    # The drop goes out before the next request; the handle is gone afterwards.
    reference.request("memory_new", {"target": "InMemoryAgentMemory"})
    with pytest.raises(HarnessOperationError, match="Expected a live memory handle"):
        reference.request("memory_call", {"handle": "memory-1", "method": "clear", "args": []})


def test_close_stops_the_harness_and_start_after_close_starts_afresh() -> None:
    connection = HarnessConnection(REFERENCE)
    first = connection.start()
    connection.close()
    assert not connection.running
    assert connection.start() == first
    assert connection.starts == 2
    connection.close()


def test_the_timeout_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive timeout"):
        HarnessConnection(REFERENCE, timeout=0)
