"""The pytest base classes as a user's test suite meets them, run through pytester."""

from __future__ import annotations

import textwrap

import pytest

POLICY = """
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
"""


def _suite(pytester: pytest.Pytester, body: str) -> None:
    pytester.makepyfile(mine=POLICY)
    pytester.makepyfile(test_mine=textwrap.dedent(body))


def test_a_policy_with_defaults_passes_as_it_does_through_the_command(
    pytester: pytest.Pytester,
) -> None:
    _suite(
        pytester,
        """
        from ctxpact.conformance.testing import CompactPolicyConformance
        from mine import KeepLast


        class TestKeepLast(CompactPolicyConformance):
            def factory(self):
                return KeepLast()


        class TestKeepLastAsAClass(CompactPolicyConformance):
            factory = KeepLast
        """,
    )
    result = pytester.runpytest_inprocess("--ctxpact-profile", "quick", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=16, skipped=44)


def test_a_misspelt_setting_is_one_collection_error(pytester: pytest.Pytester) -> None:
    _suite(
        pytester,
        """
        from ctxpact.conformance.testing import ProjectorConformance
        from ctxpact.reference import TypeAwareContextProjector


        class TestMine(ProjectorConformance):
            claim = ("exact",)

            def factory(self):
                return TypeAwareContextProjector()
        """,
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*TestMine defines 'claim'*did you mean 'claims'?*"])
    # One error, raised once: the traceback's own "E" lines carry the message a single time
    # (the short summary may repeat it, truncated or not depending on the terminal's width).
    assert "collected 0 items / 1 error" in result.stdout.str()
    raised = [line for line in result.stdout.lines if line.startswith("E ")]
    assert sum("did you mean 'claims'" in line for line in raised) == 1


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ('claims = ("llm-summary",)', "*the claim llm-summary selects no check of a projector*"),
        ('options = {"max_items": 4}', "*'max_items' is read by no check of a projector*"),
        ('claims = "exact"', "*Expected the claims as a list of names*"),
        ("tiers = False", "*'tiers', which is an option of the checks*options = {'tiers': False}*"),
    ],
)
def test_a_class_that_cannot_be_checked_as_declared_is_refused_at_collection(
    pytester: pytest.Pytester, settings: str, message: str
) -> None:
    _suite(
        pytester,
        f"""
        from ctxpact.conformance.testing import ProjectorConformance
        from ctxpact.reference import TypeAwareContextProjector


        class TestMine(ProjectorConformance):
            {settings}

            def factory(self):
                return TypeAwareContextProjector()
        """,
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines([message])


def test_a_failure_reads_like_the_command_lines(pytester: pytest.Pytester) -> None:
    _suite(
        pytester,
        """
        from ctxpact.conformance.testing import ProjectorConformance
        from ctxpact.reference import TypeAwareContextProjector


        class Raises:
            def project(self, items, budget):
                raise ValueError("boom in my code")


        class TestRaises(ProjectorConformance):
            def factory(self):
                return Raises()
        """,
    )
    result = pytester.runpytest_inprocess(
        "--ctxpact-profile", "quick", "-p", "no:cacheprovider", "-k", "max_items"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*FAIL projector.max-items: The projection never carries more than maxItems items.",
            "*ValueError: boom in my code",
            "*clause: PRJ-9",
            "*test_mine.py:7 in project: raise ValueError(*",
            '*counterexample: {"items": *',
        ]
    )


def test_the_time_limit_option_bounds_each_check(pytester: pytest.Pytester) -> None:
    _suite(
        pytester,
        """
        from ctxpact.conformance.testing import ProjectorConformance


        class Hangs:
            def project(self, items, budget):
                while True:
                    pass


        class TestHangs(ProjectorConformance):
            def factory(self):
                return Hangs()
        """,
    )
    result = pytester.runpytest_inprocess(
        "--ctxpact-timeout", "0.5", "-p", "no:cacheprovider", "-k", "max_items or newest"
    )
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*ran past its time limit of 0.5 s*"])


def test_the_marker_selects_the_conformance_tests(pytester: pytest.Pytester) -> None:
    _suite(
        pytester,
        """
        from ctxpact.conformance.testing import SummaryParserConformance
        from ctxpact.reference.compaction import parse_structured_summary


        def test_something_else():
            pass


        class TestParser(SummaryParserConformance):
            def factory(self):
                return parse_structured_summary
        """,
    )
    result = pytester.runpytest_inprocess(
        "--ctxpact-profile", "quick", "-p", "no:cacheprovider", "-m", "ctxpact"
    )
    result.assert_outcomes(passed=6, skipped=4)
    assert "1 deselected" in result.stdout.str()
