"""The stored documents: valid per the schema (JSON-14), defaults honoured (JSON-15).

A document that is not valid is an error naming where and what, never repaired (SES-10,
SES-15).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import attrs
from hypothesis import example, given

from ctxpact.conformance._context import CheckContext
from ctxpact.conformance._model import Claim, Component
from ctxpact.conformance._registry import check
from ctxpact.conformance.checks._stateful_support import (
    first_difference,
    text,
)
from ctxpact.conformance.checks._storage import (
    Remote,
    raised_message,
)
from ctxpact.conformance.checks.store._places import Documents, FileDocuments, _stored_documents
from ctxpact.conformance.checks.store._support import (
    _REPORT,
    _SESSION_SCHEMA,
    FULL_SESSION,
    SessionStore,
    _document,
    _expect_loads,
    _safe_json,
    sessions,
)
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    ContextReport,
    JsonObject,
    MemorySnapshot,
    SchemaValidationError,
    from_json,
    violations,
)


@check(
    "store.documents-valid",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("JSON-14", "JSON-15", "SES-10"),
)
def documents_valid(context: CheckContext) -> Callable[[], None]:
    """Every stored document validates against the schema and holds the snapshot saved."""

    @given(snapshot=sessions)
    @example(snapshot=FULL_SESSION)
    @example(
        snapshot=AgentSessionSnapshot(
            session_id="s",
            compact_result=CompactResult(
                context_report=attrs.evolve(_REPORT, dropped_indices=None)
            ),
        )
    )
    def test(snapshot: AgentSessionSnapshot) -> None:
        context.record(snapshot=snapshot)
        with _stored_documents(context) as (store, stored):
            store.save(snapshot)
            content = stored.read(snapshot.session_id)
            context.expect(content is not None, "save() wrote no document the suite can find")
            document = json.loads(str(content))
            found = violations(document, _SESSION_SCHEMA)
            context.expect(
                not found,
                f"the stored document breaks the schema: {'; '.join(map(str, found))}",
            )
            _expect_no_empty_indices(context, snapshot, document)
            read_back = _document(from_json(AgentSessionSnapshot, document))
            difference = first_difference(_document(snapshot), read_back)
            context.expect(
                difference is None, f"the stored document holds another snapshot: {difference}"
            )

    return test


@check(
    "store.documents-defaults",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("JSON-15",),
)
def documents_defaults(context: CheckContext) -> Callable[[], None]:
    """A stored document without its optional members loads with their schema defaults."""

    def test() -> None:
        session_id = "minimal"
        with _stored_documents(context) as (store, stored):
            store.save(AgentSessionSnapshot(session_id=session_id))
            for written, expected in _minimal_documents(session_id):
                context.record(stored=written)
                stored.write(session_id, json.dumps(written))
                _expect_loads(context, store, session_id, _document(expected))

    return test


def _expect_no_empty_indices(
    context: CheckContext, snapshot: AgentSessionSnapshot, document: JsonObject
) -> None:
    result = snapshot.compact_result
    if result is None or result.context_report is None:
        return
    stored_result = document.get("compactResult")
    report = stored_result.get("contextReport") if isinstance(stored_result, dict) else None
    if not isinstance(report, dict):
        return
    for field, name in (
        ("dropped_indices", "droppedIndices"),
        ("cleared_indices", "clearedIndices"),
    ):
        if getattr(result.context_report, field) is None:
            context.expect(
                report.get(name) is None,
                f"a report without {name} was stored with {name}: {report.get(name)!r} (it "
                "must be absent or null, never an empty array)",
            )


def _minimal_documents(session_id: str) -> list[tuple[JsonObject, AgentSessionSnapshot]]:
    """Documents that leave optional members out, and the snapshots they stand for."""
    report: JsonObject = {
        "sourceItemCount": 1,
        "projectedItemCount": 1,
        "droppedItemCount": 0,
        "sourceApproxChars": 3,
        "projectedApproxChars": 3,
        "itemLimitApplied": False,
        "characterLimitApplied": False,
    }
    return [
        ({"sessionId": session_id}, AgentSessionSnapshot(session_id=session_id)),
        (
            {"sessionId": session_id, "memory": {}, "compactResult": {"contextReport": report}},
            AgentSessionSnapshot(
                session_id=session_id,
                compact_result=CompactResult(
                    context_report=ContextReport(
                        source_item_count=1,
                        projected_item_count=1,
                        dropped_item_count=0,
                        source_approx_chars=3,
                        projected_approx_chars=3,
                        item_limit_applied=False,
                        character_limit_applied=False,
                    )
                ),
            ),
        ),
    ]


def _corruptions(victim: str, other: JsonObject) -> list[tuple[str, str, tuple[str, ...]]]:
    """What to store instead of the victim's document, and the JSON paths the error must name."""
    invalid = {
        "sessionId": victim,
        "memory": {"items": [], "summary": 5},
        "compactResult": {"pending": [1]},
    }
    return [
        ("text that is not JSON", "{not json", ("$",)),
        (
            "a document that breaks the schema",
            json.dumps(invalid),
            ("$.memory.summary", "$.compactResult.pending[0]"),
        ),
        ("another session's document", json.dumps(other), ()),
    ]


@check(
    "store.corrupt-document",
    component=Component.SESSION_STORE,
    claim=Claim.GENERIC,
    clauses=("SES-10", "SES-15", "JSON-14"),
)
def corrupt_document(context: CheckContext) -> Callable[[], None]:
    """A stored document that is not valid is an error naming where and what; never repaired."""

    def test() -> None:
        victim, bystander = "victim/1", "bystander"
        with _stored_documents(context) as (store, stored):
            kept = AgentSessionSnapshot(session_id=bystander, memory=MemorySnapshot(items=("b",)))
            store.save(kept)
            cases = _corruptions(victim, _document(kept))
            if isinstance(stored, FileDocuments):
                cases.append(("an empty file", "", ("$",)))
            valid = AgentSessionSnapshot(session_id=victim)
            store.save(valid)
            for what, content, paths in cases:
                context.record(session_id=victim, stored=content)
                stored.write(victim, json.dumps(_document(valid)))
                _expect_loads(context, store, victim, _document(valid))
                stored.write(victim, content)
                _expect_corrupt(
                    context, store=store, stored=stored, session_id=victim, what=what, paths=paths
                )
                context.expect(
                    stored.read(victim) == content,
                    f"after loading {what}, the store repaired or removed it",
                )
                _expect_loads(context, store, bystander, _document(kept))

    return test


def _expect_corrupt(  # noqa: PLR0913 - everything the message must name
    context: CheckContext,
    *,
    store: SessionStore,
    stored: Documents,
    session_id: str,
    what: str,
    paths: tuple[str, ...],
) -> None:
    try:
        loaded = store.load(session_id)
    except Exception as error:  # noqa: BLE001 - the error expected; its message is checked
        message = raised_message(error)
        if paths:
            # Across a harness only the error's kind is seen: a bad value (HRN-27).
            expected = ValueError if isinstance(store, Remote) else SchemaValidationError
            context.expect(
                isinstance(error, expected),
                f"loading {what} raised {type(error).__name__}, not a {expected.__name__}",
            )
        for name in (*stored.names(session_id), *paths):
            context.expect(
                name in message,
                f"loading {what} raised an error that does not name {name!r}: {message!r}",
            )
        return
    context.expect(
        condition=False,
        message=f"loading {what} returned {text(_safe_json(loaded), 80)} instead of raising",
    )
