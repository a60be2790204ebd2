"""Python objects that carry out each call in a harness process.

A proxy has the Python interface of its component (``ContextProjector``, ``CompactPolicy``,
``AgentMemory``, summary parser, session store), so every check, and Hypothesis shrinking,
runs through a harness unchanged: a call becomes one request, its result becomes the record
the check expects.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from ctxpact.conformance.harness._calls import CallingProxy
from ctxpact.conformance.harness._connection import HarnessConnection
from ctxpact.conformance.harness._errors import HarnessProtocolError
from ctxpact.reference import checked_snapshot, checked_text, projection_arguments
from ctxpact.spec import (
    AgentSessionSnapshot,
    CompactResult,
    ContextBudget,
    ContextProjection,
    JsonObject,
    JsonValue,
    MemorySnapshot,
    ModelClient,
    ModelPrompt,
    ModelResult,
    SchemaValidationError,
    StructuredSummary,
    check_items,
    copy_json,
    to_json,
)

#: The most model calls one compaction may make through a harness.
MAX_MODEL_CALLS = 64


class ProjectorProxy:
    """A ``ContextProjector`` whose ``project`` is a ``project`` request."""

    def __init__(self, connection: HarnessConnection, target: str) -> None:
        self._connection = connection
        self._target = target

    def project(
        self, items: Sequence[JsonValue], budget: ContextBudget | None
    ) -> ContextProjection:
        """Project *items* under *budget* in the harness.

        As in the Python binding (PRJ-1, JSON-18), *items* may be any sequence and ``None``
        is an empty list: the proxy is the Python binding of the harness's implementation, so
        it refuses what the reference refuses (a string as items, a budget that is not one)
        before anything is sent.
        """
        items, budget = projection_arguments(type(self).__name__, items, budget)
        result = self._connection.request(
            "project",
            {
                "target": self._target,
                "items": [copy_json(item, f"$.items[{i}]") for i, item in enumerate(items)],
                "budget": None if budget is None else to_json(budget),
            },
        )
        return self._connection.document(ContextProjection, result)

    def __repr__(self) -> str:
        return f"ProjectorProxy({self._target!r} in {self._connection.command!r})"


class SummaryParserProxy:
    """A summary parser whose call is a ``parse_summary`` request."""

    def __init__(self, connection: HarnessConnection, target: str) -> None:
        self._connection = connection
        self._target = target

    def __call__(self, text: str) -> StructuredSummary:
        """Parse *text* in the harness (a string: JSON-18)."""
        checked_text(type(self).__name__, "text", text)
        result = self._connection.request("parse_summary", {"target": self._target, "text": text})
        return self._connection.document(StructuredSummary, result)

    def __repr__(self) -> str:
        return f"SummaryParserProxy({self._target!r} in {self._connection.command!r})"


class FunctionsProxy:
    """The spec's functions of a ``functions`` target: each call is one request (HRN-23).

    A function the harness does not implement answers ``skipped``, which skips the check that
    called it.
    """

    def __init__(self, connection: HarnessConnection, target: str) -> None:
        self._connection = connection
        self._target = target

    def approx_chars(self, item: JsonValue) -> int:
        """The harness's size of *item*."""
        result = self._connection.request(
            "approx_chars", {"target": self._target, "item": copy_json(item, "$.item")}
        )
        return self._count(result)

    def turn_boundary_cut(self, items: Sequence[JsonValue], naive_cut: int) -> int:
        """The harness's cut of *items* at *naive_cut*."""
        result = self._connection.request(
            "turn_boundary_cut",
            {"target": self._target, "items": self._items(items), "naiveCut": naive_cut},
        )
        return self._count(result)

    def extract_file_operations(self, items: Sequence[JsonValue], reads: bool) -> list[str]:
        """The files the harness finds read (*reads*) or modified in *items*."""
        result = self._connection.request(
            "extract_file_operations",
            {"target": self._target, "items": self._items(items), "reads": reads},
        )
        if not isinstance(result, list) or not all(isinstance(path, str) for path in result):
            raise self._connection.invalid_result("an array of strings", result)
        return [str(path) for path in result]

    def render_summary(self, summary: StructuredSummary) -> str:
        """The harness's rendering of *summary*."""
        result = self._connection.request(
            "render_summary", {"target": self._target, "summary": to_json(summary)}
        )
        if not isinstance(result, str):
            raise self._connection.invalid_result("a string", result)
        return result

    @staticmethod
    def _items(items: Sequence[JsonValue]) -> list[JsonValue]:
        return [copy_json(item, f"$.items[{i}]") for i, item in enumerate(items)]

    def _count(self, result: JsonValue) -> int:
        if isinstance(result, bool) or not isinstance(result, int):
            raise self._connection.invalid_result("an integer", result)
        return result

    def __repr__(self) -> str:
        return f"FunctionsProxy({self._target!r} in {self._connection.command!r})"


class CompactPolicyProxy:
    """A ``CompactPolicy`` whose calls are ``should_compact`` and ``compact`` requests.

    The model client the suite gave the factory stays in this process. ``compact`` sends the
    model's answers as a script: first none; whenever the harness reports a prompt beyond the
    script, that prompt goes to the suite's model and the request is sent again with the
    longer script, until the policy asked nothing unanswered. So the suite's model sees each
    prompt once, in order, exactly as in process, and the harness needs no callback. The
    policy must be deterministic, which the spec's policies are: a replay that asks anything
    else is a protocol error.

    Construction is the Python binding's, so the proxy keeps its rule: an ``llm`` policy
    needs a model client (LLM-1) and refuses ``None``, as the reference does.
    """

    def __init__(
        self,
        connection: HarnessConnection,
        target: str,
        policy: JsonObject,
        model_client: ModelClient | None,
    ) -> None:
        if policy.get("kind") == "llm" and model_client is None:
            raise TypeError(f"Expected a model client for the llm policy {target} but got None")
        self._connection = connection
        self._target = target
        self._policy = policy
        self._model_client = model_client

    def should_compact(self, snapshot: MemorySnapshot) -> bool:
        """Ask the harness's policy whether it would compact *snapshot* now."""
        checked_snapshot(f"{type(self).__name__}.should_compact", snapshot)
        result = self._connection.request(
            "should_compact",
            {"target": self._target, "policy": self._policy, "snapshot": to_json(snapshot)},
        )
        if not isinstance(result, bool):
            raise self._connection.invalid_result("a boolean", result)
        return result

    def compact(self, snapshot: MemorySnapshot) -> CompactResult:
        """Compact *snapshot* with the harness's policy, answering its model calls here."""
        checked_snapshot(f"{type(self).__name__}.compact", snapshot)
        document = to_json(snapshot)
        responses: list[JsonValue] = []
        asked: list[JsonValue] = []
        for _ in range(MAX_MODEL_CALLS + 1):
            result = self._connection.request(
                "compact",
                {
                    "target": self._target,
                    "policy": self._policy,
                    "snapshot": document,
                    "model": {"responses": list(responses)},
                },
            )
            compacted, prompts = self._compacted(result)
            if prompts[: len(asked)] != asked:
                raise self._replay_error(asked, prompts)
            if len(prompts) <= len(responses):
                return self._connection.document(CompactResult, compacted)
            prompt = prompts[len(responses)]
            asked.append(prompt)
            responses.append(self._answer(prompt))
        raise self._connection.invalid_result(
            f"a compaction with at most {MAX_MODEL_CALLS} model calls", len(asked)
        )

    def _compacted(self, result: JsonValue) -> tuple[JsonValue, list[JsonValue]]:
        if (
            not isinstance(result, dict)
            or set(result) != {"result", "prompts"}
            or not isinstance(result["prompts"], list)
        ):
            raise self._connection.invalid_result("an object with result and prompts", result)
        return result["result"], result["prompts"]

    def _replay_error(
        self, asked: list[JsonValue], prompts: list[JsonValue]
    ) -> HarnessProtocolError:
        return self._connection.invalid_result(
            f"the same prompts when replayed (the policy must be deterministic): it asked "
            f"{len(prompts)} prompt(s) where the earlier run asked {len(asked)}, first "
            "difference",
            next(
                (p for p, a in zip(prompts, asked, strict=False) if p != a),
                prompts[len(asked) :] or None,
            ),
        )

    def _answer(self, prompt: JsonValue) -> JsonValue:
        prompt_record = self._connection.document(ModelPrompt, prompt)
        if self._model_client is None:
            return {"error": "no model client was given to this policy"}
        try:
            answer: ModelResult | None = self._model_client.create(prompt_record)
        except Exception as error:  # noqa: BLE001 - the harness's model raises it in turn
            return {"error": f"{type(error).__name__}: {error}"}
        if answer is None:
            return None
        try:
            return to_json(answer)
        except (TypeError, SchemaValidationError) as error:
            return {"error": f"the model returned no ModelResult: {error}"}

    def __repr__(self) -> str:
        return f"CompactPolicyProxy({self._target!r} in {self._connection.command!r})"


class MemoryCompressorProxy(CallingProxy):
    """A memory compressor living in the harness: built by ``compressor_new`` (HRN-28).

    The constructor's arguments go as JSON values, except an object that is not one (a compact
    policy of the checks), which stays here and is called back by name; an error the harness
    reports is rebuilt with its kind, or is the policy's own error passed on (HRN-27).
    """

    _new, _call, _drop = "compressor_new", "compressor_call", "compressor_drop"

    def __init__(self, connection: HarnessConnection, target: str, *args: object) -> None:
        super().__init__(connection)
        self._create({"target": target, "args": [self._argument(arg) for arg in args]})

    def _argument(self, value: object) -> JsonValue:
        try:
            return {"value": copy_json(cast("JsonValue", value))}
        except SchemaValidationError:
            return {"object": self._objects.name("policy", value)}

    def compress(self, snapshot: MemorySnapshot) -> MemorySnapshot:
        """The harness's compression of *snapshot* (CMP-6 .. CMP-8)."""
        checked_snapshot(f"{type(self).__name__}.compress", snapshot)
        found = self._invoke("compress", to_json(snapshot))
        return self._connection.document(MemorySnapshot, found)

    def get_last_result(self) -> CompactResult | None:
        """The last compaction's result, for a compressor that compacts (CMP-7)."""
        found = self._invoke("get_last_result")
        return None if found is None else self._connection.document(CompactResult, found)


class _Held(CallingProxy):
    """An object living in the harness, created on first use and dropped when collected.

    With *storage* (HRN-29) it is opened on stored state with ``memory_open`` or
    ``store_open`` instead of created empty; :meth:`close` drops it, which closes it, so that
    another one opened on the same storage sees what it left. A memory may be given a
    *compressor* of the suite's, which the harness calls back (HRN-30).
    """

    _open: str

    def __init__(
        self,
        connection: HarnessConnection,
        target: str,
        storage: JsonObject | None = None,
        compressor: object | None = None,
    ) -> None:
        super().__init__(connection)
        self._target = target
        self._storage = storage
        self._parts: JsonObject = (
            {}
            if compressor is None
            else {"compressor": self._objects.name("compressor", compressor)}
        )

    def new_instance(
        self, storage: JsonObject | None = None, compressor: object | None = None
    ) -> Self:
        """Another object of the same target, created or opened in the harness now.

        *storage* opens the target's persistent form on the place it names (HRN-29); a
        *compressor* is given to a memory (HRN-30). What the harness refuses is raised here,
        as a constructor raises; ``skipped`` (a target that keeps nothing or takes no
        compressor) raises :class:`~ctxpact.conformance.harness.HarnessSkippedError`.
        """
        made = type(self)(self._connection, self._target, storage, compressor)
        made._created()  # noqa: SLF001 - an object of this class
        return made

    def close(self) -> None:
        """Drop the object in the harness now (its storage is closed); idempotent."""
        if self._finalizer is not None and self._finalizer.detach() is not None:
            assert self._handle  # noqa: S101 - set with the finalizer
            if self._generation == self._connection.generation:
                self._connection.request(self._drop, {"handle": self._handle})

    def _created(self) -> str:
        if self._handle:
            return self._handle
        members: JsonObject = {"target": self._target, **self._parts}
        if self._storage is None:
            return self._create(members)
        return self._create({**members, "storage": self._storage}, self._open)

    def _invoke(self, method: str, *args: JsonValue) -> JsonValue:
        # The harness may call the suite's compressor back while it answers (HRN-24), and
        # its errors are rebuilt with their kind, a compressor's as the compressor's own.
        # Each argument arrives copied (and checked) by the method that sends it: an item,
        # a list of items or a record document, each nested as JSON-17 allows.
        self._created()
        return super()._invoke(method, *args)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._target!r}, handle {self._handle!r})"


class AgentMemoryProxy(_Held):
    """An ``AgentMemory`` living in the harness: each call is a ``memory_call`` request."""

    _new, _open, _call, _drop = "memory_new", "memory_open", "memory_call", "memory_drop"

    def add_user_input(self, value: JsonValue) -> None:
        """Append the user's input."""
        self._invoke("add_user_input", copy_json(value))

    def add_output_items(self, items: Sequence[JsonValue]) -> None:
        """Append the model's output items.

        Anything but a list or a tuple goes to the harness as it is, for it to refuse.
        """
        sent = (
            [copy_json(item, f"$[{index}]") for index, item in enumerate(items)]
            if isinstance(items, list | tuple)
            else copy_json(items)
        )
        self._invoke("add_output_items", sent)

    def add_tool_output(self, call_id: str, output: str | None) -> None:
        """Append a tool result for the call *call_id*."""
        self._invoke("add_tool_output", copy_json(call_id), copy_json(output))

    def get_items(self) -> list[JsonValue]:
        """The items a prompt is built from."""
        result = self._invoke("get_items")
        if not isinstance(result, list):
            raise self._connection.invalid_result("an array of items", result)
        try:
            check_items(result)
        except SchemaValidationError as error:
            raise self._connection.invalid_result(
                f"an array of items ({error.violations[0]})", "…"
            ) from error
        return result

    def get_summary(self) -> str | None:
        """The current summary, or ``None``."""
        result = self._invoke("get_summary")
        if result is not None and not isinstance(result, str):
            raise self._connection.invalid_result("a string or null", result)
        return result

    def set_summary(self, summary: str | None) -> None:
        """Replace the summary."""
        self._invoke("set_summary", copy_json(summary))

    def clear(self) -> None:
        """Remove every item and the summary."""
        self._invoke("clear")

    def snapshot(self) -> MemorySnapshot:
        """The raw items and the summary."""
        return self._connection.document(MemorySnapshot, self._invoke("snapshot"))

    def restore(self, snapshot: MemorySnapshot | None) -> None:
        """Replace the items and the summary with the snapshot's."""
        self._invoke("restore", None if snapshot is None else to_json(snapshot))


class SessionStoreProxy(_Held):
    """A session store living in the harness: each call is a ``store_call`` request."""

    _new, _open, _call, _drop = "store_new", "store_open", "store_call", "store_drop"

    def save(self, snapshot: AgentSessionSnapshot) -> None:
        """Store *snapshot* under its session id."""
        self._invoke("save", to_json(snapshot))

    def load(self, session_id: str) -> AgentSessionSnapshot | None:
        """The stored snapshot of *session_id*, or ``None``."""
        result = self._invoke("load", copy_json(session_id))
        return None if result is None else self._connection.document(AgentSessionSnapshot, result)

    def delete(self, session_id: str) -> bool:
        """Remove the session; whether there was one."""
        result = self._invoke("delete", copy_json(session_id))
        if not isinstance(result, bool):
            raise self._connection.invalid_result("a boolean", result)
        return result

    def session_ids(self) -> list[str]:
        """The ids of every stored session."""
        result = self._invoke("session_ids")
        if not isinstance(result, list) or not all(isinstance(i, str) for i in result):
            raise self._connection.invalid_result("an array of strings", result)
        return [str(i) for i in result]
