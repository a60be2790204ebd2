"""The suite's objects that a harness calls back while it answers a request (HRN-24 .. HRN-27).

A runtime or a memory compressor in a harness uses parts the checks script and watch (a model,
tools, a memory, a policy, observers, a store). Those parts stay here: :class:`SuiteObjects`
names each one, answers the harness's *call* lines with *reply* lines, and rebuilds the errors
the harness reports, so that an error is the same exception wherever it is seen.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from typing import Any

from ctxpact.conformance._runtime import RuntimeEvent, RuntimeLifecycleEvent
from ctxpact.conformance.harness._connection import HarnessConnection
from ctxpact.conformance.harness._errors import RAISED_KINDS
from ctxpact.reference.harness import call_memory, call_store
from ctxpact.spec import (
    SCHEMA_OF,
    CompactResult,
    ContextBudget,
    JsonObject,
    JsonValue,
    MemorySnapshot,
    ModelPrompt,
    copy_json,
    from_json,
    to_json,
)

#: The record of each schema name an event payload may carry (HRN-27).
_RECORDS: dict[str, type[Any]] = {name: cls for cls, name in SCHEMA_OF.items()}


class SuiteObjects:
    """The suite's objects one harness session may call, by name, and the errors seen so far.

    A name is ``<kind>-<n>``; the kind says which calls the object answers (HRN-25). An
    error a call raised is kept under the call's id, and an error the harness named under
    that name, so that one error reported twice (an event's payload, then the failed request)
    is one exception here, as in process (HRN-27).
    """

    def __init__(self) -> None:
        self._objects: dict[str, tuple[str, object]] = {}
        self._names: dict[int, str] = {}
        self._counter = itertools.count(1)
        self._by_call: dict[int, BaseException] = {}
        self._by_id: dict[str, BaseException] = {}

    def name(self, kind: str, obj: object) -> str:
        """The name of *obj*, registered under *kind* the first time."""
        known = self._names.get(id(obj))
        if known is not None and self._objects[known][0] == kind:
            return known
        name = f"{kind}-{next(self._counter)}"
        self._objects[name] = (kind, obj)
        self._names[id(obj)] = name
        return name

    def answer(self, call: JsonObject) -> JsonObject:
        """The reply to *call*: ``{"result": ...}``, or ``{"errored": ...}`` when it raised."""
        identifier = call["id"]
        assert isinstance(identifier, int)  # noqa: S101 - the call schema says so
        try:
            # A result that is not JSON cannot be sent: it is the object's error, not a fault.
            return {"result": copy_json(self._invoke(call))}
        except Exception as error:  # noqa: BLE001 - the harness's runtime raises it in turn
            self._by_call[identifier] = error
            return {
                "errored": {
                    "message": f"{type(error).__name__}: {error}",
                    "type": type(error).__name__,
                }
            }

    def _invoke(self, call: JsonObject) -> JsonValue:
        name, method, args = call["object"], call["method"], call["args"]
        assert isinstance(args, list)  # noqa: S101 - the call schema says so
        entry = self._objects.get(str(name))
        if entry is None:
            raise LookupError(f"the suite has no object named {name!r}")
        kind, obj = entry
        dispatch = _DISPATCH.get((kind, str(method)))
        if dispatch is not None:
            return dispatch(self, obj, args)
        if kind == "memory":
            return call_memory(obj, str(method), args)  # type: ignore[arg-type] # a memory
        if kind == "store":
            return call_store(obj, str(method), args)
        raise LookupError(f"the suite's {kind} {name!r} has no method {method!r}")

    def error(self, request: str, raised: JsonObject) -> BaseException:
        """The exception a raised-error document stands for (HRN-27)."""
        identifier, call = raised.get("id"), raised.get("call")
        if isinstance(identifier, str) and identifier in self._by_id:
            return self._by_id[identifier]
        cause = self._by_call.get(call) if isinstance(call, int) else None
        if cause is not None and identifier is None:
            return cause
        kind = raised.get("kind")
        trace = raised.get("traceback")
        error = RAISED_KINDS.get(kind if isinstance(kind, str) else None, RAISED_KINDS[None])(
            request, str(raised.get("message")), trace if isinstance(trace, str) else None
        )
        error.__cause__ = cause
        if isinstance(identifier, str):
            self._by_id[identifier] = error
        return error

    def payload(self, document: JsonValue) -> object:
        """An event's payload from its document: a record, a value, an error, or ``None``."""
        if not isinstance(document, dict):
            return None
        if "record" in document:
            record = _RECORDS.get(str(document["record"]))
            if record is None:
                raise ValueError(f"an event payload names no record: {document['record']!r}")
            return from_json(record, document["document"])
        if "error" in document:
            raised = document["error"]
            return self.error("an event", raised if isinstance(raised, dict) else {})
        return document.get("value")


def _created(_objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    (prompt,) = args
    result = obj.create(from_json(ModelPrompt, prompt))  # type: ignore[attr-defined] # a model
    return None if result is None else to_json(result)


def _memory(objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    (session_id,) = args
    return objects.name("memory", obj(session_id))  # type: ignore[operator] # a factory


def _projected(_objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    items, budget = args
    assert isinstance(items, list)  # noqa: S101 - the harness sends an array
    projector: Any = obj
    found = projector.project(items, None if budget is None else from_json(ContextBudget, budget))
    return to_json(found)


def _decided(_objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    (snapshot,) = args
    decision = obj.should_compact(from_json(MemorySnapshot, snapshot))  # type: ignore[attr-defined] # a policy
    if not isinstance(decision, bool):
        # Not made a bool here: the harness's runtime fails the attempt on the error (RUN-12).
        raise TypeError(f"the policy answered {type(decision).__name__} {decision!r}, not a bool")
    return decision


def _compacted(_objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    (snapshot,) = args
    result = obj.compact(from_json(MemorySnapshot, snapshot))  # type: ignore[attr-defined] # a policy
    if not isinstance(result, CompactResult):
        raise TypeError(f"the policy returned a {type(result).__name__}, not a CompactResult")
    return to_json(result)


def _compressed(_objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    (snapshot,) = args
    result = obj.compress(from_json(MemorySnapshot, snapshot))  # type: ignore[attr-defined] # a compressor
    if not isinstance(result, MemorySnapshot):
        raise TypeError(f"the compressor returned a {type(result).__name__}, not a MemorySnapshot")
    return to_json(result)


def _tool(_objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    (arguments,) = args
    return obj(arguments)  # type: ignore[no-any-return,operator] # a tool


def _event(objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    (document,) = args
    obj(RuntimeEvent(**_event_fields(objects, document)))  # type: ignore[operator] # a listener
    return None


def _lifecycle(objects: SuiteObjects, obj: object, args: list[JsonValue]) -> JsonValue:
    (document,) = args
    obj(RuntimeLifecycleEvent(**_event_fields(objects, document)))  # type: ignore[operator] # a hook
    return None


def _event_fields(objects: SuiteObjects, document: JsonValue) -> dict[str, Any]:
    if not isinstance(document, dict):
        raise TypeError(f"an event must be an object, not {document!r}")
    step = document.get("step")
    return {
        "type": str(document["type"]),
        "message": document.get("message"),
        "step": step if isinstance(step, int) else None,
        "payload": objects.payload(document.get("payload")),
        "session_id": str(document["sessionId"]),
    }


_Dispatch = Callable[[SuiteObjects, object, list[JsonValue]], JsonValue]
#: The calls of each kind of object, beside a memory's and a store's (HRN-25).
_DISPATCH: dict[tuple[str, str], _Dispatch] = {
    ("model", "create"): _created,
    ("memoryFactory", "create"): _memory,
    ("projector", "project"): _projected,
    ("policy", "should_compact"): _decided,
    ("policy", "compact"): _compacted,
    ("compressor", "compress"): _compressed,
    ("tool", "call"): _tool,
    ("listener", "event"): _event,
    ("hook", "lifecycle"): _lifecycle,
}


class CallingProxy:
    """An object a harness holds behind a handle, whose every request may call the suite back.

    A subclass names its commands (``_new``, ``_call``, ``_drop``) and creates the object with
    :meth:`_create`; each request is answered with the calls of its :class:`SuiteObjects`,
    and each ``errored`` answer is rebuilt by them (HRN-24, HRN-27).
    """

    _new: str
    _call: str
    _drop: str

    def __init__(self, connection: HarnessConnection) -> None:
        self._connection = connection
        self._objects = SuiteObjects()
        self._handle = ""
        self._generation = 0
        self._finalizer: weakref.finalize[..., CallingProxy] | None = None

    def _create(self, members: JsonObject, command: str | None = None) -> str:
        """Create the object with *command* (``_new`` by default); its handle."""
        created = self._request(command or self._new, members)
        handle = created.get("handle") if isinstance(created, dict) else None
        if not isinstance(handle, str):
            raise self._connection.invalid_result("an object with a string handle", created)
        self._handle = handle
        self._generation = self._connection.generation
        self._finalizer = weakref.finalize(
            self, self._connection.forget, self._drop, handle, self._generation
        )
        return handle

    def _request(
        self, command: str, members: JsonObject, generation: int | None = None
    ) -> JsonValue:
        return self._connection.request(
            command,
            members,
            generation=generation,
            on_call=self._objects.answer,
            raised=self._objects.error,
        )

    def _invoke(self, method: str, *args: JsonValue) -> JsonValue:
        members: JsonObject = {"handle": self._handle, "method": method, "args": list(args)}
        return self._request(self._call, members, self._generation)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._handle!r} in {self._connection.command!r})"
