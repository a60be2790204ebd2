"""Checks for session stores: the contract of §15.2, against a dict of documents as the model.

A state machine saves generated session snapshots under a small pool of ids (so that saves
overwrite), loads known and unknown ids, and deletes and lists when the store can (optional
capabilities, detected with protocols); after every step each stored session must
load back identical (JSON-10). Other checks cover copies, refused snapshots, and the
property that matters to users: a session's summary survives a save and a resume.

Where a store keeps its documents matters only for the stores of SES-13 .. SES-16. A store
with a ``directory`` is checked as a ``FileSessionStore`` (file names, atomic writes,
corrupt files); a store with a ``table`` as a store kept in a table, rebuilt as
``type(store)(database)`` on a fresh database of whichever kind its class takes (SQLite or
PostgreSQL, found by offering each, MEM-26) so that the check can read and damage its rows.
A harness's store declares where it keeps them, and is opened there (HARNESS.md HRN-29).
Other stores skip those checks.

The checks live by topic: :mod:`.model` (the state machine), :mod:`.records` (round trips,
copies, refused snapshots, resuming), :mod:`.documents` (the stored documents and corrupt
ones), :mod:`.files` (SES-13, SES-14, SES-18), :mod:`.tables` (SES-16) and :mod:`.limits`
(depth, the session-id rule); ``_places`` finds and damages the stored documents, and
``_support`` holds the rest they share.
"""

from __future__ import annotations

from ctxpact.conformance._model import Check
from ctxpact.conformance.checks.store.documents import (
    corrupt_document,
    documents_defaults,
    documents_valid,
)
from ctxpact.conformance.checks.store.files import (
    file_atomic,
    file_hygiene,
    file_names,
    interrupted_save,
)
from ctxpact.conformance.checks.store.limits import beyond_limits_stored, session_id_rule
from ctxpact.conformance.checks.store.model import model_based
from ctxpact.conformance.checks.store.records import (
    copies,
    invalid_snapshot,
    resume_keeps_summary,
    round_trip,
)
from ctxpact.conformance.checks.store.tables import table_rows

#: Every check of this package, in the order they run.
CHECKS: tuple[Check, ...] = (
    model_based,
    round_trip,
    copies,
    invalid_snapshot,
    resume_keeps_summary,
    documents_valid,
    documents_defaults,
    corrupt_document,
    file_names,
    file_atomic,
    table_rows,
    beyond_limits_stored,
    session_id_rule,
    file_hygiene,
    interrupted_save,
)

__all__ = ["CHECKS"]
