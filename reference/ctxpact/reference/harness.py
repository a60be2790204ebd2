"""The reference implementation behind the harness protocol of spec/HARNESS.md.

``python -m ctxpact.reference.harness`` reads one JSON request a line on stdin and writes one
JSON response a line on stdout, serving every reference implementation as a target, so
``ctxpact check --exec "python -m ctxpact.reference.harness"`` runs the whole suite across a
process boundary. :class:`Harness` is the protocol without the streams: :meth:`Harness.handle`
turns one request into one response and never raises; :func:`serve` adds the JSON lines.

This is also a worked example of a harness: a harness for another language does what
:meth:`Harness.handle` does, with its own implementation behind it.
"""

from __future__ import annotations

import itertools
import json
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import BinaryIO, cast

from attrs import field, frozen

from ctxpact.reference._functions import SpecFunctions
from ctxpact.reference._harness_runtime import (
    Caller,
    ErrorNames,
    RemoteCompressor,
    RemotePolicy,
    SuiteCallError,
    call_session,
    remote_session,
)
from ctxpact.reference.compaction import (
    DEFAULT_MAX_ITEMS,
    CompactPolicyMemoryCompressor,
    LlmCompactPolicy,
    StructuredSummaryCompactPolicy,
    WindowedMemoryCompressor,
    parse_structured_summary,
)
from ctxpact.reference.memory import (
    DEFAULT_MEMORY_TABLE,
    InMemoryAgentMemory,
    SqliteAgentMemory,
)
from ctxpact.reference.projection import (
    DefaultContextProjector,
    PairSafeContextProjector,
    TypeAwareContextProjector,
)
from ctxpact.reference.session import (
    DEFAULT_SESSION_TABLE,
    AgentSession,
    FileSessionStore,
    InMemorySessionStore,
    ListingSessionStore,
    SessionStore,
    SqliteSessionStore,
)
from ctxpact.spec import (
    MAX_DOCUMENT_DEPTH,
    PROVIDERS,
    AgentMemory,
    AgentSessionSnapshot,
    CompactPolicy,
    ContextBudget,
    ContextProjector,
    CtxpactError,
    JsonObject,
    JsonValue,
    MemoryCompressor,
    MemorySnapshot,
    ModelClient,
    ModelPrompt,
    ModelResult,
    StructuredSummary,
    SummaryParser,
    copy_json,
    decode_json,
    encode_json,
    from_json,
    to_json,
)

#: The protocol version this module speaks (HRN-8).
PROTOCOL_VERSION = 1
#: The implementation's name in the start response; targets are reported as ``name:target``.
IMPLEMENTATION_NAME = "ctxpact.reference"
#: Where to read about the implementation.
HOMEPAGE = "https://ctxpact.dev"
#: The providers the pair-keeping targets claim wire validity for (SPEC.md §1.6).
WIRE_PROVIDERS: list[JsonValue] = list(PROVIDERS)
#: The options of the LLM policy target: the suite's in-process reference target uses the same.
LLM_OPTIONS: JsonObject = {"kind": "llm", "maxItems": 4, "providers": WIRE_PROVIDERS}
#: The options of the structured policy target (its budget), as for the in-process reference.
STRUCTURED_OPTIONS: JsonObject = {
    "kind": "structured",
    "budget": {"maxItems": 4, "pinnedPrefixItems": 1},
    "providers": WIRE_PROVIDERS,
}
#: The options of the windowed compressor target: its window, as for the in-process reference.
WINDOWED_OPTIONS: JsonObject = {"kind": "windowed", "args": [3]}
#: The options of the policy-adapter compressor target: its policy, given as its options.
ADAPTER_OPTIONS: JsonObject = {
    "kind": "policy-adapter",
    "args": [{"kind": "structured", "budget": {"maxItems": 4, "pinnedPrefixItems": 1}}],
}
#: The options of ``DefaultContextProjector``, which applies neither Tier-1 nor Tier-2.
DEFAULT_PROJECTOR_OPTIONS: JsonObject = {"tiers": False}
#: The options of ``PairSafeContextProjector``: its exact algorithm is §5.5's.
PAIR_SAFE_OPTIONS: JsonObject = {"pairSafe": True, "providers": WIRE_PROVIDERS}


class HarnessRequestError(CtxpactError, ValueError):
    """A request the harness cannot carry out as sent: unknown target, wrong arguments, ..."""


class ScriptedModelError(CtxpactError, RuntimeError):
    """The scripted model's answer to a call: an error the script asked for, or none left."""


class HarnessSkip(CtxpactError):  # noqa: N818 - a signal, answered as "skipped"
    """The harness does not implement what a request asks for; the reason says what."""


class ScriptedModel:
    """A model client that answers from a script and remembers every prompt (HRN-13).

    Call *n* gets ``responses[n]``: a ModelResult document is returned, ``{"error": message}``
    is raised as :class:`ScriptedModelError`, ``null`` returns no result; a call past the end
    raises. Every prompt is recorded, the one that finds the script used up included.
    """

    def __init__(self, responses: Sequence[JsonValue]) -> None:
        self._responses = list(responses)
        self.prompts: list[ModelPrompt] = []

    def create(self, prompt: ModelPrompt) -> ModelResult:
        """Answer *prompt* with the next scripted response."""
        self.prompts.append(prompt)
        call = len(self.prompts)
        if call > len(self._responses):
            raise ScriptedModelError(
                f"the scripted model has {len(self._responses)} response(s) and got call {call}"
            )
        response = self._responses[call - 1]
        if response is None:
            # No result at all: the spec's policies must survive it (LLM-11), though the
            # ModelClient protocol's type does not admit it.
            return cast("ModelResult", None)
        if isinstance(response, dict) and set(response) == {"error"}:
            raise ScriptedModelError(str(response["error"]))
        return from_json(ModelResult, response)


def _policy_count(policy: JsonObject, key: str, default: int) -> int:
    value = policy.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HarnessRequestError(f"Expected an integer policy.{key} but got {value!r}")
    return value


def llm_policy(policy: JsonObject, model: ModelClient) -> CompactPolicy:
    """The reference LLM policy with the request's ``maxItems``."""
    return LlmCompactPolicy(model, max_items=_policy_count(policy, "maxItems", DEFAULT_MAX_ITEMS))


def structured_policy(policy: JsonObject, _: ModelClient) -> CompactPolicy:
    """The reference structured-summary policy with the request's ``budget`` (absent: none)."""
    budget = policy.get("budget")
    return StructuredSummaryCompactPolicy(
        None if budget is None else from_json(ContextBudget, budget)
    )


@frozen(kw_only=True)
class ServedTarget:
    """One implementation of one component, as the start response declares it.

    ``factory`` builds a fresh instance: with no argument for a projector, a memory, a
    summary parser or a session store; with the request's policy (the target's options) and
    a :class:`ScriptedModel` for a compact policy.
    """

    name: str
    component: str
    claims: tuple[str, ...]
    factory: Callable[..., object] = field(eq=False)
    options: JsonObject = field(factory=dict)
    #: Opens the target's persistent form on a ``storage`` document (HRN-29) with a
    #: compressor or ``None``, or is ``None`` for a target that keeps nothing.
    opener: Callable[[JsonObject, object], object] | None = field(default=None, eq=False)
    #: Whether ``factory`` takes a ``compressor`` keyword (a memory, HRN-30).
    compressing: bool = False

    def declaration(self) -> JsonObject:
        """The target's entry in the start response."""
        return {
            "name": self.name,
            "component": self.component,
            "claims": list(self.claims),
            "options": copy_json(self.options),
        }


class _FileStores:
    """Fresh file stores in one temporary directory, removed when the harness closes."""

    def __init__(self) -> None:
        self._root: tempfile.TemporaryDirectory[str] | None = None
        self._counter = itertools.count()

    def __call__(self) -> FileSessionStore:
        if self._root is None:
            self._root = tempfile.TemporaryDirectory(prefix="ctxpact-harness-")
        return FileSessionStore(Path(self._root.name) / str(next(self._counter)))

    def close(self) -> None:
        if self._root is not None:
            self._root.cleanup()
            self._root = None


def _address(storage: JsonObject) -> str:
    address = storage.get("address")
    if not isinstance(address, str) or not address:
        raise HarnessRequestError(
            f"Expected a non-empty string storage.address but got {address!r}"
        )
    return address


def _table(storage: JsonObject, default: str) -> str:
    table = storage.get("table")
    return default if table is None else cast("str", table)


def _busy_timeout(storage: JsonObject) -> float | None:
    timeout = storage.get("busyTimeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)):
        raise HarnessRequestError(f"Expected a number storage.busyTimeout but got {timeout!r}")
    return timeout


def _open_sqlite_memory(storage: JsonObject, compressor: object) -> SqliteAgentMemory:
    # The session id and the table go through as sent: refusing a bad one is the memory's
    # rule (MEM-15, MEM-16), which the checks look at.
    return SqliteAgentMemory(
        _address(storage),
        cast("str", storage.get("sessionId")),
        table=_table(storage, DEFAULT_MEMORY_TABLE),
        compressor=cast("MemoryCompressor | None", compressor),
        busy_timeout=_busy_timeout(storage),
    )


def _open_sqlite_store(storage: JsonObject, _compressor: object) -> SqliteSessionStore:
    return SqliteSessionStore(
        _address(storage),
        table=_table(storage, DEFAULT_SESSION_TABLE),
        busy_timeout=_busy_timeout(storage),
    )


def _open_file_store(storage: JsonObject, _compressor: object) -> FileSessionStore:
    return FileSessionStore(_address(storage))


def _adapter(*args: object) -> CompactPolicyMemoryCompressor:
    # A policy arrives as the suite's object, or as a policy's options (HRN-10, HRN-28).
    policies = [
        structured_policy(arg, ScriptedModel(()))
        if isinstance(arg, dict) and arg.get("kind") == "structured"
        else arg
        for arg in args
    ]
    return CompactPolicyMemoryCompressor(*policies)  # type: ignore[arg-type] # passed as sent


def reference_targets(file_stores: Callable[[], FileSessionStore]) -> tuple[ServedTarget, ...]:
    """Every reference implementation, with the claims and options of the in-process suite."""
    exact = ("generic", "exact")
    pair_keeping = ("pair-integrity", "wire-valid")
    return (
        ServedTarget(
            name="DefaultContextProjector",
            component="projector",
            claims=exact,
            factory=DefaultContextProjector,
            options=DEFAULT_PROJECTOR_OPTIONS,
        ),
        ServedTarget(
            name="TypeAwareContextProjector",
            component="projector",
            claims=exact,
            factory=TypeAwareContextProjector,
        ),
        ServedTarget(
            name="PairSafeContextProjector",
            component="projector",
            claims=(*exact, *pair_keeping),
            factory=PairSafeContextProjector,
            options=PAIR_SAFE_OPTIONS,
        ),
        ServedTarget(
            name="StructuredSummaryCompactPolicy",
            component="compact-policy",
            claims=(*exact, *pair_keeping),
            factory=structured_policy,
            options=STRUCTURED_OPTIONS,
        ),
        ServedTarget(
            name="LlmCompactPolicy",
            component="compact-policy",
            claims=("generic", "llm-summary", *pair_keeping),
            factory=llm_policy,
            options=LLM_OPTIONS,
        ),
        ServedTarget(
            name="InMemoryAgentMemory",
            component="agent-memory",
            claims=exact,
            factory=InMemoryAgentMemory,
            compressing=True,
        ),
        ServedTarget(
            name="SqliteAgentMemory",
            component="agent-memory",
            claims=exact,
            factory=lambda compressor=None: SqliteAgentMemory(
                ":memory:", "conformance", compressor=compressor
            ),
            options={"storage": "sqlite"},
            opener=_open_sqlite_memory,
            compressing=True,
        ),
        ServedTarget(
            name="parse_structured_summary",
            component="summary-parser",
            claims=exact,
            factory=lambda: parse_structured_summary,
        ),
        ServedTarget(
            name="InMemorySessionStore",
            component="session-store",
            claims=("generic",),
            factory=InMemorySessionStore,
        ),
        ServedTarget(
            name="FileSessionStore",
            component="session-store",
            claims=("generic",),
            factory=file_stores,
            options={"storage": "directory"},
            opener=_open_file_store,
        ),
        ServedTarget(
            name="SqliteSessionStore",
            component="session-store",
            claims=("generic",),
            factory=lambda: SqliteSessionStore(":memory:"),
            options={"storage": "sqlite"},
            opener=_open_sqlite_store,
        ),
        ServedTarget(
            name="SpecFunctions",
            component="functions",
            claims=exact,
            factory=SpecFunctions,
        ),
        ServedTarget(
            name="Agent",
            component="runtime",
            claims=("generic",),
            factory=remote_session,
        ),
        ServedTarget(
            name="WindowedMemoryCompressor",
            component="memory-compressor",
            claims=exact,
            factory=WindowedMemoryCompressor,
            options=WINDOWED_OPTIONS,
        ),
        ServedTarget(
            name="CompactPolicyMemoryCompressor",
            component="memory-compressor",
            claims=exact,
            factory=_adapter,
            options=ADAPTER_OPTIONS,
        ),
    )


def _version() -> str:
    try:
        return metadata.version("ctxpact")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0+unknown"


def _field(request: JsonObject, key: str) -> JsonValue:
    if key not in request:
        raise HarnessRequestError(f"Expected a member {key!r} in the {request.get('cmd')} request")
    return request[key]


def _text(request: JsonObject, key: str) -> str:
    value = _field(request, key)
    if not isinstance(value, str):
        raise HarnessRequestError(f"Expected a string {key} but got {value!r}")
    return value


def _object(request: JsonObject, key: str) -> JsonObject:
    value = _field(request, key)
    if not isinstance(value, dict):
        raise HarnessRequestError(f"Expected an object {key} but got {value!r}")
    return value


def _array(request: JsonObject, key: str) -> list[JsonValue]:
    value = _field(request, key)
    if not isinstance(value, list):
        raise HarnessRequestError(f"Expected an array {key} but got {value!r}")
    return value


def _wrong_arguments(kind: str, method: str, args: Sequence[JsonValue]) -> HarnessRequestError:
    return HarnessRequestError(
        f"Expected a {kind} method among the protocol's with its arguments but got "
        f"{method!r} with {len(args)} argument(s)"
    )


def call_memory(memory: AgentMemory, method: str, args: Sequence[JsonValue]) -> JsonValue:
    """Call *method* of *memory* with JSON *args*; the JSON form of its result."""
    # Arguments go through as the suite sent them, even of the wrong type: how the
    # implementation reacts to them is what a check may be looking at.
    match method, list(args):
        case "add_user_input", [value]:
            memory.add_user_input(value)
        case "add_output_items", [items]:
            memory.add_output_items(cast("list[JsonValue]", items))
        case "add_tool_output", [call_id, output]:
            memory.add_tool_output(cast("str", call_id), cast("str | None", output))
        case "get_items", []:
            # Each item is a JSON value of its own, nested up to MAX_JSON_DEPTH (JSON-17).
            return [copy_json(item) for item in memory.get_items()]
        case "get_summary", []:
            return memory.get_summary()
        case "set_summary", [summary]:
            memory.set_summary(cast("str | None", summary))
        case "clear", []:
            memory.clear()
        case "snapshot", []:
            return to_json(memory.snapshot())
        case "restore", [document]:
            snapshot = None if document is None else from_json(MemorySnapshot, document)
            memory.restore(cast("MemorySnapshot", snapshot))
        case _:
            raise _wrong_arguments("memory", method, args)
    return None


def call_store(store: object, method: str, args: Sequence[JsonValue]) -> JsonValue:
    """Call *method* of the session *store* with JSON *args*; the JSON form of its result."""
    if method in {"delete", "session_ids"} and not callable(getattr(store, method, None)):
        raise HarnessSkip(f"{type(store).__name__} has no {method}")
    checked = cast("SessionStore", store)
    match method, list(args):
        case "save", [document]:
            checked.save(from_json(AgentSessionSnapshot, document))
        case "load", [session_id]:
            snapshot = checked.load(cast("str", session_id))
            return None if snapshot is None else to_json(snapshot)
        case "delete", [session_id]:
            return cast("ListingSessionStore", store).delete(cast("str", session_id))
        case "session_ids", []:
            return cast("list[JsonValue]", list(cast("ListingSessionStore", store).session_ids()))
        case _:
            raise _wrong_arguments("session-store", method, args)
    return None


class Harness:
    """The server side of the protocol, without the streams (HRN-1 .. HRN-18).

    :meth:`handle` answers any request, well-formed or not, with one response: a result,
    ``skipped`` for a command it does not implement, or ``errored`` with the message and the
    traceback of whatever the implementation (or the request) got wrong.
    """

    def __init__(  # noqa: PLR0913 - the implementation's metadata, each a separate field
        self,
        targets: Iterable[ServedTarget],
        *,
        name: str = IMPLEMENTATION_NAME,
        language: str = "python",
        version: str | None = None,
        homepage: str = HOMEPAGE,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.targets = {target.name: target for target in targets}
        self.name = name
        self.language = language
        self.version = _version() if version is None else version
        self.homepage = homepage
        self.stopped = False
        self._objects: dict[str, object] = {}
        self._handles = itertools.count(1)
        self._on_close = on_close
        #: Calls one of the suite's objects during the current request (HRN-24); set by
        #: :func:`serve`, which owns the streams.
        self.caller: Caller | None = None
        #: The seq of the request being answered, which its call lines carry.
        self.current_seq: JsonValue = None
        self._errors = ErrorNames()
        self._commands: dict[str, Callable[[JsonObject], JsonValue]] = {
            "start": self._start,
            "project": self._project,
            "parse_summary": self._parse_summary,
            "should_compact": self._should_compact,
            "compact": self._compact,
            "memory_new": lambda request: self._new(request, "memory", "agent-memory"),
            "memory_call": lambda request: self._call(request, "memory", _call_held_memory),
            "memory_drop": lambda request: self._drop(request, "memory"),
            "memory_open": lambda request: self._open(request, "memory", "agent-memory"),
            "store_new": lambda request: self._new(request, "store", "session-store"),
            "store_call": lambda request: self._call(request, "store", call_store),
            "store_drop": lambda request: self._drop(request, "store"),
            "store_open": lambda request: self._open(request, "store", "session-store"),
            "runtime_new": self._runtime_new,
            "runtime_call": self._runtime_call,
            "runtime_drop": lambda request: self._drop(request, "session"),
            "compressor_new": self._compressor_new,
            "compressor_call": self._compressor_call,
            "compressor_drop": lambda request: self._drop(request, "compressor"),
            "approx_chars": self._approx_chars,
            "turn_boundary_cut": self._turn_boundary_cut,
            "extract_file_operations": self._extract_file_operations,
            "render_summary": self._render_summary,
            "stop": self._stop,
        }

    def handle(self, request: object) -> JsonObject:
        """The response to *request* (a parsed JSON value); never raises."""
        if not isinstance(request, dict):
            return errored(None, f"Expected a JSON object request but got {request!r:.200}")
        seq = request.get("seq")
        self.current_seq = seq
        command = request.get("cmd")
        handler = self._commands.get(command) if isinstance(command, str) else None
        if handler is None:
            return {"seq": seq, "skipped": {"reason": f"{command!r} is not implemented"}}
        try:
            result = handler(request)
        except HarnessSkip as skip:
            return {"seq": seq, "skipped": {"reason": str(skip)}}
        except Exception as error:  # noqa: BLE001 - every failure is answered, not raised
            if isinstance(command, str) and command.startswith(_RAISING):
                # Named errors with their kind, so that the suite sees one error once and a
                # compressor's error passed on as its own (HRN-27, HRN-30).
                return {
                    "seq": seq,
                    "errored": self._errors.document(error, traceback.format_exc()),
                }
            return errored(seq, f"{type(error).__name__}: {error}", traceback.format_exc())
        return {"seq": seq, "result": result}

    def close(self) -> None:
        """Drop every object still held and release what the targets hold."""
        for handle in list(self._objects):
            _close(self._objects.pop(handle))
        if self._on_close is not None:
            self._on_close()

    def _target(self, request: JsonObject, component: str) -> ServedTarget:
        name = _text(request, "target")
        target = self.targets.get(name)
        if target is None:
            known = ", ".join(self.targets)
            raise HarnessRequestError(f"Expected a target among {known} but got {name!r}")
        if target.component != component:
            raise HarnessRequestError(
                f"{request.get('cmd')} needs a {component} target but {name} is a "
                f"{target.component}"
            )
        return target

    def _start(self, request: JsonObject) -> JsonValue:
        version = request.get("version")
        if version != PROTOCOL_VERSION or isinstance(version, bool):
            raise HarnessRequestError(
                f"Expected protocol version {PROTOCOL_VERSION} but got {version!r}"
            )
        return {
            "version": PROTOCOL_VERSION,
            "implementation": {
                "name": self.name,
                "language": self.language,
                "version": self.version,
                "homepage": self.homepage,
                "targets": [target.declaration() for target in self.targets.values()],
            },
        }

    def _project(self, request: JsonObject) -> JsonValue:
        projector = cast("ContextProjector", self._target(request, "projector").factory())
        budget = _field(request, "budget")
        projection = projector.project(
            _array(request, "items"), None if budget is None else from_json(ContextBudget, budget)
        )
        return to_json(projection)

    def _parse_summary(self, request: JsonObject) -> JsonValue:
        parser = cast("SummaryParser", self._target(request, "summary-parser").factory())
        return to_json(parser(_text(request, "text")))

    def _policy(self, request: JsonObject, model: ModelClient) -> CompactPolicy:
        target = self._target(request, "compact-policy")
        return cast("CompactPolicy", target.factory(_object(request, "policy"), model))

    def _should_compact(self, request: JsonObject) -> JsonValue:
        policy = self._policy(request, ScriptedModel(()))
        return policy.should_compact(from_json(MemorySnapshot, _field(request, "snapshot")))

    def _compact(self, request: JsonObject) -> JsonValue:
        model = ScriptedModel(_array(_object(request, "model"), "responses"))
        policy = self._policy(request, model)
        result = policy.compact(from_json(MemorySnapshot, _field(request, "snapshot")))
        return {"result": to_json(result), "prompts": [to_json(p) for p in model.prompts]}

    def _functions(self, request: JsonObject) -> SpecFunctions:
        return cast("SpecFunctions", self._target(request, "functions").factory())

    def _approx_chars(self, request: JsonObject) -> JsonValue:
        return self._functions(request).approx_chars(_field(request, "item"))

    def _turn_boundary_cut(self, request: JsonObject) -> JsonValue:
        naive_cut = _field(request, "naiveCut")
        if isinstance(naive_cut, bool) or not isinstance(naive_cut, int):
            raise HarnessRequestError(f"Expected an integer naiveCut but got {naive_cut!r}")
        return self._functions(request).turn_boundary_cut(_array(request, "items"), naive_cut)

    def _extract_file_operations(self, request: JsonObject) -> JsonValue:
        reads = _field(request, "reads")
        if not isinstance(reads, bool):
            raise HarnessRequestError(f"Expected a boolean reads but got {reads!r}")
        files = self._functions(request).extract_file_operations(_array(request, "items"), reads)
        return cast("list[JsonValue]", files)

    def _render_summary(self, request: JsonObject) -> JsonValue:
        summary = from_json(StructuredSummary, _field(request, "summary"))
        return self._functions(request).render_summary(summary)

    def _call_suite(self, obj: str, method: str, args: list[JsonValue]) -> JsonValue:
        if self.caller is None:
            raise HarnessRequestError(f"{obj}.{method} needs the suite, and no suite is there")
        return self.caller(obj, method, args)

    def _runtime_new(self, request: JsonObject) -> JsonValue:
        target = self._target(request, "runtime")
        session = target.factory(self._call_suite, _object(request, "config"), self._errors)
        return self._hold("session", session)

    def _runtime_call(self, request: JsonObject) -> JsonValue:
        session = cast("AgentSession", self._held(request, "session"))
        return call_session(
            session, self._call_suite, _text(request, "method"), _array(request, "args")
        )

    def _compressor_new(self, request: JsonObject) -> JsonValue:
        target = self._target(request, "memory-compressor")
        args: list[object] = []
        for argument in _array(request, "args"):
            if not isinstance(argument, dict) or len(argument) != 1:
                raise HarnessRequestError(f"Expected a value or an object but got {argument!r}")
            if "object" in argument:
                args.append(RemotePolicy(self._call_suite, str(argument["object"])))
            else:
                args.append(argument["value"])
        return self._hold("compressor", target.factory(*args))

    def _compressor_call(self, request: JsonObject) -> JsonValue:
        compressor = self._held(request, "compressor")
        match _text(request, "method"), _array(request, "args"):
            case "compress", [document]:
                compress = compressor.compress  # type: ignore[attr-defined] # a compressor
                return to_json(compress(from_json(MemorySnapshot, document)))
            case "get_last_result", []:
                last = compressor.get_last_result()  # type: ignore[attr-defined] # the adapter
                return None if last is None else to_json(last)
            case method, args:
                raise HarnessRequestError(
                    f"Expected a compressor method among the protocol's with its arguments but "
                    f"got {method!r} with {len(args)} argument(s)"
                )

    def _new(self, request: JsonObject, kind: str, component: str) -> JsonValue:
        target = self._target(request, component)
        compressor = self._compressor(request, target)
        if compressor is None:
            return self._hold(kind, target.factory())
        return self._hold(kind, target.factory(compressor=compressor))

    def _compressor(self, request: JsonObject, target: ServedTarget) -> RemoteCompressor | None:
        """The suite's compressor a memory request names (HRN-30), or ``None``."""
        name = request.get("compressor")
        if name is None:
            return None
        if not isinstance(name, str):
            raise HarnessRequestError(f"Expected a string compressor but got {name!r}")
        if not target.compressing:
            raise HarnessSkip(f"{target.name} takes no compressor")
        return RemoteCompressor(self._call_suite, name)

    def _hold(self, kind: str, held: object) -> JsonValue:
        """Keep *held* behind a new handle of *kind* (HRN-15); the ``{"handle"}`` result."""
        handle = f"{kind}-{next(self._handles)}"
        self._objects[handle] = held
        return {"handle": handle}

    def _open(self, request: JsonObject, kind: str, component: str) -> JsonValue:
        target = self._target(request, component)
        if target.opener is None:
            raise HarnessSkip(f"{target.name} keeps nothing to open again")
        compressor = self._compressor(request, target)
        return self._hold(kind, target.opener(_object(request, "storage"), compressor))

    def _held(self, request: JsonObject, kind: str) -> object:
        handle = _text(request, "handle")
        if not handle.startswith(f"{kind}-") or handle not in self._objects:
            raise HarnessRequestError(f"Expected a live {kind} handle but got {handle!r}")
        return self._objects[handle]

    def _call(
        self,
        request: JsonObject,
        kind: str,
        call: Callable[[object, str, Sequence[JsonValue]], JsonValue],
    ) -> JsonValue:
        held = self._held(request, kind)
        return call(held, _text(request, "method"), _array(request, "args"))

    def _drop(self, request: JsonObject, kind: str) -> JsonValue:
        self._held(request, kind)
        _close(self._objects.pop(_text(request, "handle")))
        return None

    def _stop(self, _: JsonObject) -> JsonValue:
        self.stopped = True
        return None


#: The commands whose errors are RaisedErrors (HRN-27): a runtime's, a compressor's, and a
#: memory's or a store's, whose compressor or database errors a check may ask the kind of.
_RAISING = ("runtime_", "compressor_", "memory_", "store_")


def _call_held_memory(held: object, method: str, args: Sequence[JsonValue]) -> JsonValue:
    return call_memory(cast("AgentMemory", held), method, args)


def _close(held: object) -> None:
    close = getattr(held, "close", None)
    if callable(close):
        close()


def errored(seq: JsonValue, message: str, trace: str | None = None) -> JsonObject:
    """An ``errored`` response."""
    return {"seq": seq, "errored": {"message": message, "traceback": trace}}


def encode(response: JsonObject) -> bytes:
    """One response line: compact JSON, ASCII-escaped (so any string survives), a line feed."""
    try:
        text = encode_json(response, ensure_ascii=True)
    except (TypeError, ValueError) as error:
        text = json.dumps(
            errored(response.get("seq"), f"the result is not JSON: {error}"), ensure_ascii=True
        )
    return text.encode("ascii") + b"\n"


def _stream_caller(harness: Harness, requests: BinaryIO, responses: BinaryIO) -> Caller:
    """Calls to the suite over the streams: a call line out, its reply line in (HRN-24)."""
    ids = itertools.count(1)

    def call(obj: str, method: str, args: list[JsonValue]) -> JsonValue:
        identifier = next(ids)
        line: JsonObject = {
            "seq": harness.current_seq,
            "call": {"id": identifier, "object": obj, "method": method, "args": args},
        }
        responses.write(encode(line))
        responses.flush()
        raw = requests.readline()
        reply = decode_json(raw.decode("utf-8"), max_depth=MAX_DOCUMENT_DEPTH) if raw else None
        if (
            not isinstance(reply, dict)
            or reply.get("cmd") != "reply"
            or reply.get("id") != identifier
        ):
            raise HarnessRequestError(
                f"Expected the reply to call {identifier} but got {raw!r:.200}"
            )
        if "errored" in reply:
            failure = reply["errored"]
            assert isinstance(failure, dict)  # noqa: S101 - the reply schema says so
            raise SuiteCallError(identifier, str(failure.get("message")), str(failure.get("type")))
        return reply.get("result")

    return call


def serve(harness: Harness, requests: BinaryIO, responses: BinaryIO) -> int:
    """Answer JSON-lines *requests* until ``stop`` or the end of input; the exit status."""
    harness.caller = _stream_caller(harness, requests, responses)
    try:
        for raw in iter(requests.readline, b""):
            try:
                request = decode_json(raw.decode("utf-8"), max_depth=MAX_DOCUMENT_DEPTH)
            except ValueError as error:
                response = errored(
                    None, f"Expected a JSON request line but got {raw!r:.200}: {error}"
                )
            else:
                response = harness.handle(request)
            responses.write(encode(response))
            responses.flush()
            if harness.stopped:
                break
    finally:
        harness.close()
    return 0


def reference_harness() -> Harness:
    """A harness serving every reference implementation."""
    file_stores = _FileStores()
    return Harness(reference_targets(file_stores), on_close=file_stores.close)


def main() -> int:
    """Serve the reference on this process's stdin and stdout."""
    protocol_out = sys.stdout.buffer
    # Nothing but responses may reach stdout: anything printed goes to stderr instead.
    sys.stdout = sys.stderr
    return serve(reference_harness(), sys.stdin.buffer, protocol_out)


__all__ = [
    "ADAPTER_OPTIONS",
    "DEFAULT_PROJECTOR_OPTIONS",
    "HOMEPAGE",
    "IMPLEMENTATION_NAME",
    "LLM_OPTIONS",
    "PROTOCOL_VERSION",
    "STRUCTURED_OPTIONS",
    "WINDOWED_OPTIONS",
    "Harness",
    "HarnessRequestError",
    "HarnessSkip",
    "ScriptedModel",
    "ScriptedModelError",
    "ServedTarget",
    "call_memory",
    "call_store",
    "encode",
    "errored",
    "llm_policy",
    "main",
    "reference_harness",
    "reference_targets",
    "serve",
    "structured_policy",
]

if __name__ == "__main__":
    raise SystemExit(main())
