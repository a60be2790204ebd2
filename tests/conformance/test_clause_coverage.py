"""Every clause of spec/SPEC.md is verified by a check, and every check cites real clauses."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ctxpact.conformance import (
    ALL_CHECKS,
    Check,
    CheckContext,
    profile_settings,
    reference_targets,
)
from ctxpact.conformance._context import as_json
from ctxpact.conformance.strategies import EDGE_EXEMPT, EDGE_TERMS, EDGES, Edge
from ctxpact.spec import SPEC_VERSION

SPEC = Path(__file__).resolve().parents[2] / "spec" / "SPEC.md"
_CLAUSE = re.compile(r"^- \*\*([A-Z][A-Z0-9]*-\d+)\*\* ")
_REFERENCE = re.compile(r"\b([A-Z][A-Z0-9]*-\d+)\b")

#: Clauses no check can verify, with the reason. DIF-n clauses are not here: they restate
#: departures whose rules live in the clauses they cite, which are checked.
NOT_CHECKABLE = {
    "CUT-6": "a SHOULD about running time; measured under bench/, never asserted",
    "EVT-14": "the JSON form of events, for hosts, which no runtime operation returns; "
    "tests/reference/session/test_event_documents.py checks the reference's event_document",
    "JSON-2": "makes the terms of §1.4 normative; the clauses using them are checked",
    "JSON-18": "rules of the Python binding for arguments of the wrong Python type, which a "
    "harness cannot receive (its proxies keep the rules themselves); "
    "tests/reference/test_public_surface.py checks them on the reference",
    "JSON-19": "about the schema files themselves, not an implementation; "
    "tests/spec/test_schemas.py checks every file against it",
    "JSON-20": "how a reader of record documents reads an integer member; the schemas say it "
    "for every validator, and tests/spec/test_records.py checks the Python converter",
    "PRJ-6": "defines the conformance levels that the claims select",
    "WIRE-1": (
        "defines ctxpact.spec.wire_problems, the oracle of the wire-valid checks (tests/spec "
        "pins it against the wire_problems vectors); no component is checked for it"
    ),
    "WIRE-17": "lists what wire_problems leaves out on purpose: the oracle's scope, no duty",
    # Sized lists and memory views are Python objects of the reference that the harness
    # protocol does not carry; tests/reference checks them on the reference.
    "PRJ-36": "a SizedItems is a Python object of the reference; "
    "tests/reference/projection/test_sized.py checks every projector on it",
    "PRJ-37": "the operations of the reference's SizedItems; tests/reference/projection/"
    "test_sized.py checks them",
    "MEM-22": "an optional operation of the Python binding; "
    "tests/reference/memory/test_memory_views.py checks the reference memories",
    "MEM-23": "an optional operation of the Python binding; "
    "tests/reference/memory/test_memory_views.py checks the reference memories",
    "MEM-24": "about the optional views of the Python binding; "
    "tests/reference/memory/test_memory_views.py checks the reference memories",
    "MEM-25": "how SqliteAgentMemory keeps its views fresh; "
    "tests/reference/memory/test_memory_views.py checks it",
    "RUN-16": "the reference runtime with a memory that has views, which the suite's scripted "
    "memory has not; tests/reference/session/test_runtime_views.py checks it",
    # The PostgreSQL classes need a server. The suite checks them through MEM-15 .. MEM-21 and
    # SES-16, which they keep (tests/conformance/test_postgres_conformance.py runs it on them).
    "MEM-26": "the PostgreSQL memory's constructor; tests/reference/postgres checks the "
    "connection, pool and table rules, and the suite's table checks run on it",
    "MEM-27": "PostgreSQL's lock timeout and errors; tests/reference/postgres checks them",
    "MEM-28": "writers in several processes at once, which no check can start; "
    "tests/reliability/test_concurrent_writers.py and test_kill_trials.py check it",
    "MEM-29": "a storage layout, which the checks do not fix (they find values by a marker); "
    "tests/reference/postgres/test_postgres_storage.py checks it",
    "SES-19": "the PostgreSQL store's constructor and locking; tests/reference/postgres and "
    "tests/reliability/test_concurrent_writers.py check it, and the suite's store checks run "
    "on it",
}


def clauses() -> dict[str, str]:
    """Clause id -> text, read from SPEC.md exactly as the spec's §1.1 lays them out."""
    found: dict[str, str] = {}
    current = None
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        match = _CLAUSE.match(line)
        if match:
            current = match.group(1)
            assert current not in found, f"{current} is defined twice"
            found[current] = line[match.end() :]
        elif current and line.startswith("  "):
            found[current] += " " + line.strip()
        else:
            current = None
    return found


def test_spec_states_the_version_the_package_implements() -> None:
    assert f"Specification version {SPEC_VERSION}." in SPEC.read_text(encoding="utf-8")


def test_clause_ids_are_numbered_without_gaps() -> None:
    # A clause added later keeps its new number wherever it is placed (CMP-15 .. CMP-19 stand
    # in §9.1 beside CMP-1 .. CMP-5): ids are never renumbered, so only the set is gapless.
    by_prefix: dict[str, list[int]] = {}
    for clause in clauses():
        prefix, number = clause.rsplit("-", 1)
        by_prefix.setdefault(prefix, []).append(int(number))
    for prefix, numbers in by_prefix.items():
        assert sorted(numbers) == list(range(1, len(numbers) + 1)), prefix


def test_every_clause_the_spec_mentions_exists() -> None:
    known = clauses()
    text = SPEC.read_text(encoding="utf-8")
    mentioned = {
        m for m in _REFERENCE.findall(text) if m.split("-")[0] in {c.split("-")[0] for c in known}
    }
    assert mentioned - known.keys() == set()


def test_every_check_cites_existing_clauses() -> None:
    known = clauses()
    for check in ALL_CHECKS:
        assert check.clauses, f"{check.id} cites no clause"
        unknown = set(check.clauses) - known.keys()
        assert not unknown, f"{check.id} cites clauses that do not exist: {sorted(unknown)}"


def test_check_ids_are_unique() -> None:
    ids = [check.id for check in ALL_CHECKS]
    assert len(ids) == len(set(ids))


def test_every_difference_from_ai4j_cites_the_clauses_carrying_it() -> None:
    known = clauses()
    for clause, text in known.items():
        if clause.startswith("DIF-"):
            cited = {m for m in _REFERENCE.findall(text) if not m.startswith("DIF-")}
            assert cited & known.keys(), f"{clause} cites no clause that carries its rule"


#: Clauses about the suite itself (§19): its own tests verify them, not conformance checks.
SUITE_PREFIX = "SUITE-"


@pytest.mark.parametrize(
    "clause",
    sorted(
        c for c in clauses() if c not in NOT_CHECKABLE and not c.startswith(("DIF-", SUITE_PREFIX))
    ),
)
def test_every_clause_has_a_check(clause: str) -> None:
    checked = {cited for check in ALL_CHECKS for cited in check.clauses}
    assert clause in checked, f"no check verifies {clause}"


def _built(check: Check) -> list[Any]:
    """The check built for every reference target of its component, as the runner builds it."""
    built = []
    for target in reference_targets():
        if target.component is check.component:
            context = CheckContext(
                target.factory, settings=profile_settings("quick"), options=target.options
            )
            built.append(check.build(context))
    return built


@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda check: check.id)
def test_every_property_carries_an_explicit_example(check: Check) -> None:
    # A property without one could pass because generation never reaches its clause. The
    # examples Hypothesis runs are those on the @given wrapper (an @example added to the
    # inner test after @given wrapped it is silently ignored), so that is where to look.
    properties = [test for test in _built(check) if hasattr(test, "hypothesis")]
    for test in properties:
        examples = getattr(test, "hypothesis_explicit_examples", ())
        assert examples, f"{check.id} is a Hypothesis property without an explicit @example"


@pytest.mark.parametrize("clause", sorted(c for c in clauses() if c.startswith(SUITE_PREFIX)))
def test_every_clause_about_the_suite_is_cited_by_a_test_of_the_suite(clause: str) -> None:
    tests = Path(__file__).parent
    pattern = re.compile(rf"\b{re.escape(clause)}\b")
    citing = [path.name for path in tests.glob("test_*.py") if pattern.search(path.read_text())]
    assert citing, f"no test of the suite cites {clause}"


# -- the edge inventory (ctxpact.conformance.strategies.EDGES) -----------------------------


def _names_an_edge() -> list[str]:
    return sorted(
        clause
        for clause, text in clauses().items()
        if EDGE_TERMS.search(text)
        and clause not in NOT_CHECKABLE
        and not clause.startswith(("DIF-", SUITE_PREFIX))
    )


@pytest.mark.parametrize("clause", _names_an_edge())
def test_every_clause_that_names_an_edge_has_a_row_in_the_inventory(clause: str) -> None:
    rows = [edge for edge in EDGES if edge.clause == clause]
    assert rows or clause in EDGE_EXEMPT, (
        f"{clause} names an edge value but the edge inventory has no row for it: add one "
        "(its strategy and the check whose explicit example pins it) to "
        "ctxpact/conformance/strategies/_edges.py"
    )


def test_the_edge_exemptions_are_current() -> None:
    assert EDGE_EXEMPT.keys() <= set(_names_an_edge())
    assert not EDGE_EXEMPT.keys() & {edge.clause for edge in EDGES}


def _pinned(edge: Edge) -> bool:
    """Whether *edge*'s check carries an explicit example holding the edge (or is plain)."""
    (check,) = [found for found in ALL_CHECKS if found.id == edge.check]
    for test in _built(check):
        if not hasattr(test, "hypothesis"):
            if edge.reached is None:
                return True  # a plain test: the same in every profile
            continue
        examples = getattr(test, "hypothesis_explicit_examples", ())
        if edge.reached is not None and any(
            edge.reached(as_json(example.kwargs)) for example in examples
        ):
            return True
    return False


@pytest.mark.parametrize("edge", EDGES, ids=lambda edge: f"{edge.clause}-{edge.check}")
def test_every_edge_is_pinned_by_an_explicit_example_of_a_check_citing_its_clause(
    edge: Edge,
) -> None:
    checks = {check.id: check for check in ALL_CHECKS}
    assert edge.check in checks, f"{edge.check} is no check"
    assert edge.clause in checks[edge.check].clauses, f"{edge.check} does not cite {edge.clause}"
    assert _pinned(edge), (
        f"no explicit example of {edge.check} reaches {edge.edge} ({edge.clause}): generated "
        "data may reach it in one profile and miss it in another"
    )


def test_the_edge_predicates_tell_an_edge_from_its_absence() -> None:
    # Each predicate can be false: on a plain example without any edge, none is reached.
    plain = as_json({"case": [["a"], {"maxItems": None}], "text": "x", "summary": "s"})
    assert not [edge.edge for edge in EDGES if edge.reached is not None and edge.reached(plain)]
