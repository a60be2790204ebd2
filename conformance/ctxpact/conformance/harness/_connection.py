"""The suite's side of the harness protocol: one connection to one harness command.

Every request goes through :meth:`HarnessConnection.request`, which starts the harness when
needed (again after a fault), sends one JSON line, waits for one line back within the
timeout, checks the answer, and returns its ``result``, or raises: a
:class:`HarnessSkippedError` for ``skipped``, a :class:`HarnessOperationError` for
``errored``, a :class:`HarnessFault` when the process crashed, hung or broke the protocol.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import shlex
import time
import weakref
from collections.abc import Callable, Mapping
from typing import Self, TypeVar, cast

from ctxpact.conformance.harness._errors import (
    HarnessCrashedError,
    HarnessFault,
    HarnessOperationError,
    HarnessProtocolError,
    HarnessSkippedError,
    HarnessStartError,
    HarnessTimeoutError,
)
from ctxpact.conformance.harness._process import (
    DEFAULT_MAX_LINE_BYTES,
    HarnessProcess,
    LineTooLong,
)
from ctxpact.spec import (
    MAX_DOCUMENT_DEPTH,
    InvalidJsonError,
    JsonLimitError,
    JsonObject,
    JsonValue,
    SchemaValidationError,
    Violation,
    compact_json,
    decode_json,
    encode_json,
    from_json,
    violations,
)

#: The protocol version the suite speaks (spec/HARNESS.md).
PROTOCOL_VERSION = 1
#: Seconds a harness may take to answer one request before it is killed and restarted.
DEFAULT_TIMEOUT = 10.0
#: Seconds a harness may take to start and answer ``start``, at least (an interpreter
#: loading its libraries is slower than one request).
MIN_START_TIMEOUT = 30.0
#: How much of a request or of a bad line an error message quotes.
_QUOTE = 300
_OUTCOMES = ("result", "skipped", "errored")

T = TypeVar("T")
#: What answers the calls a harness makes during one request (HRN-24): it receives the call
#: (``id``, ``object``, ``method``, ``args``) and returns the reply's outcome, ``{"result": v}``
#: or ``{"errored": {...}}``.
CallHandler = Callable[[JsonObject], JsonObject]
#: What builds the error of an ``errored`` answer, from the request's description and the
#: ``errored`` object (HRN-27); the default is a :class:`HarnessOperationError`.
ErrorBuilder = Callable[[str, JsonObject], BaseException]
#: The most calls a harness may make while it answers one request (HRN-24): each reply starts
#: the request's timeout again, so without a bound a harness that calls for ever would hold
#: the suite for ever.
DEFAULT_MAX_CALLS = 10_000
#: The schemas of a harness's call line and of the suite's reply line (HRN-24).
CALL_SCHEMA = "harness/call"
REPLY_SCHEMA = "harness/reply"


def schema_name(command: str, direction: str) -> str:
    """The schema of *command*'s request or response, e.g. ``harness/parse-summary-request``."""
    return f"harness/{command.replace('_', '-')}-{direction}"


def _broken(message: JsonObject, name: str) -> tuple[Violation, ...]:
    # violations answers a valid message at once (-V checks every message), and resolves the
    # references between the schema files within the shipped directory (SPEC.md JSON-19).
    return violations(message, name)


def _quote(value: JsonValue) -> str:
    text = value if isinstance(value, str) else compact_json(value)
    return text if len(text) <= _QUOTE else f"{text[:_QUOTE]}…"


def describe_request(message: JsonObject) -> str:
    """A short description naming a request: ``project (seq 3, target 'X')``."""
    command = str(message.get("cmd"))
    parts = [f"seq {compact_json(message.get('seq'))}"]
    parts += [f"{key} {message[key]!r}" for key in ("target", "handle") if key in message]
    method = f" {message['method']}" if "method" in message else ""
    return f"{command}{method} ({', '.join(parts)})"


def _inputs(message: JsonObject) -> str:
    shown = {k: v for k, v in message.items() if k not in {"seq", "cmd", "target", "handle"}}
    return _quote(shown)


def _violations_text(found: tuple[Violation, ...]) -> str:
    return "; ".join(str(violation) for violation in found[:5])


class HarnessConnection:
    """A harness command, started on demand and restarted after every fault.

    *command* is split like a shell would (``shlex``), never run through a shell. With
    *validate* (``-V``), every request and every response is validated against its schema
    in ``schemas/harness/``; otherwise only what the suite needs is checked (a JSON object,
    the right ``seq``, exactly one outcome, the start response in full, result documents).
    *timeout* bounds each request, whatever the harness and the processes it started do with
    their pipes (HRN-21); starting gets *start_timeout*. A response line longer than
    *max_line_bytes* (default 16 MiB) is a fault, and so is a response nested deeper than
    ``MAX_DOCUMENT_DEPTH`` (HRN-19, HRN-22); the harness's stderr is kept only as its last
    few kilobytes (HRN-20).
    """

    def __init__(  # noqa: PLR0913 - each a separate choice of the caller, all keywords
        self,
        command: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        start_timeout: float | None = None,
        validate: bool = False,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        max_calls: int = DEFAULT_MAX_CALLS,
    ) -> None:
        if timeout <= 0:
            raise ValueError(f"Expected a positive timeout but got {timeout!r}")
        if (
            isinstance(max_line_bytes, bool)
            or not isinstance(max_line_bytes, int)
            or max_line_bytes < 1
        ):
            raise ValueError(f"Expected a positive number of bytes but got {max_line_bytes!r}")
        self.max_line_bytes = max_line_bytes
        if isinstance(max_calls, bool) or not isinstance(max_calls, int) or max_calls < 0:
            raise ValueError(f"Expected a number of calls of 0 or more but got {max_calls!r}")
        #: The most calls a harness may make during one request (HRN-24).
        self.max_calls = max_calls
        self.command = command
        self.argv = tuple(shlex.split(command))
        if not self.argv:
            raise HarnessStartError(command, "the command is empty")
        self.timeout = timeout
        #: The timeout of the start request (default: the larger of *timeout* and 30 s).
        self.start_timeout = (
            max(timeout, MIN_START_TIMEOUT) if start_timeout is None else start_timeout
        )
        self.validate = validate
        self.cwd = cwd
        self.env = env
        #: How many harness processes were started; also the generation of the running one.
        self.starts = 0
        self.implementation: JsonObject | None = None
        self._process: HarnessProcess | None = None
        self._seqs = itertools.count(1)
        self._drops: list[tuple[str, str, int]] = []
        #: The description of the last request sent, for errors found in its result.
        self.last_request = ""
        # Whether a call of the harness is being answered: the harness waits for its reply,
        # so no request may go to it meanwhile.
        self._answering = False
        self._finalizer = weakref.finalize(self, _kill_quietly, [None])

    # -- life cycle ---------------------------------------------------------------------

    def start(self) -> JsonObject:
        """Start the harness unless it runs; its implementation metadata.

        Raises:
            HarnessStartError: the command did not run, or its start response was wrong.

        """
        if self._process is None:
            self._launch()
        assert self.implementation is not None  # noqa: S101 - set by _launch
        return self.implementation

    @property
    def generation(self) -> int:
        """Which process is running: handles from an earlier one no longer exist."""
        return self.starts

    @property
    def running(self) -> bool:
        """Whether a harness process is up (it is started again on the next request if not)."""
        return self._process is not None

    def close(self) -> None:
        """Send ``stop``, let the harness exit, and kill it if it does not; idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        message: JsonObject = {"seq": next(self._seqs), "cmd": "stop"}
        try:
            self._round_trip(process, message, timeout=min(self.timeout, 5.0))
        except HarnessFault:
            process.kill()
            return
        process.finish(wait=min(self.timeout, 5.0))

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _launch(self) -> None:
        try:
            process = HarnessProcess(
                self.argv, cwd=self.cwd, env=self.env, max_line_bytes=self.max_line_bytes
            )
        except OSError as error:
            raise HarnessStartError(self.command, f"{type(error).__name__}: {error}") from error
        self.starts += 1
        self._drops.clear()
        self._finalizer.detach()
        self._finalizer = weakref.finalize(self, _kill_quietly, [process])
        message: JsonObject = {"seq": next(self._seqs), "cmd": "start", "version": PROTOCOL_VERSION}
        try:
            response = self._round_trip(
                process, message, timeout=self.start_timeout, validate_response=False
            )
            implementation = self._started(response)
        except (HarnessFault, HarnessStartError) as error:
            process.kill()
            raise HarnessStartError(self.command, error.detail) from error
        if self.implementation is not None and implementation != self.implementation:
            process.kill()
            raise HarnessStartError(
                self.command, "it declared another implementation when it was restarted"
            )
        self.implementation = implementation
        self._process = process

    def _started(self, response: JsonObject) -> JsonObject:
        found = violations(response, schema_name("start", "response"))
        if found:
            raise HarnessStartError(
                self.command,
                f"its start response breaks {schema_name('start', 'response')}: "
                f"{_violations_text(found)}; the response was {_quote(response)}",
            )
        if "errored" in response:
            errored = response["errored"]
            assert isinstance(errored, dict)  # noqa: S101 - the schema says so
            raise HarnessStartError(
                self.command, f"it answered start with errored: {errored['message']}"
            )
        if "skipped" in response:
            raise HarnessStartError(self.command, "it answered start with skipped")
        result = response["result"]
        assert isinstance(result, dict)  # noqa: S101 - the schema says so
        if result["version"] != PROTOCOL_VERSION:
            raise HarnessStartError(
                self.command,
                f"Expected protocol version {PROTOCOL_VERSION} but the harness speaks "
                f"version {result['version']}",
            )
        implementation = result["implementation"]
        assert isinstance(implementation, dict)  # noqa: S101 - the schema says so
        targets = cast("list[JsonObject]", implementation["targets"])  # the schema says so
        names = [str(target["name"]) for target in targets]
        duplicates = sorted({str(n) for n in names if names.count(n) > 1})
        if duplicates:
            raise HarnessStartError(
                self.command, f"it declared the target names {', '.join(duplicates)} twice"
            )
        return implementation

    # -- requests -----------------------------------------------------------------------

    def request(
        self,
        command: str,
        members: JsonObject,
        *,
        generation: int | None = None,
        on_call: CallHandler | None = None,
        raised: ErrorBuilder | None = None,
    ) -> JsonValue:
        """Send one request and return its result (see the module's docstring for errors).

        *generation*, for a request naming a handle, is :attr:`generation` when the handle
        was made: a handle of a process that was restarted since is a fault, not a request.
        *on_call* answers the calls the harness makes before its response (HRN-24); without
        one, every call is answered ``errored``. *raised* builds the error an ``errored``
        answer raises.
        """
        if self._answering:
            raise RuntimeError(
                f"the suite sent {command} to harness {self.command!r} while answering one of "
                "its calls: an object the harness calls must not use the same harness"
            )
        self._flush_drops()
        process = self._running(command, members)
        message: JsonObject = {"seq": next(self._seqs), "cmd": command, **members}
        self.last_request = describe_request(message)
        if generation is not None and generation != self.starts:
            raise HarnessFault(
                self.command,
                describe_request(message),
                f"lost the object behind handle {members.get('handle')!r} when its process "
                "was restarted",
                restarted=False,
            )
        response = self._round_trip(process, message, on_call=on_call)
        return self._outcome(message, response, raised)

    def forget(self, command: str, handle: str, generation: int) -> None:
        """Drop *handle* (``memory_drop`` or ``store_drop``) before the next request."""
        # Called from finalizers, at any moment: only remember it here.
        self._drops.append((command, handle, generation))

    def _flush_drops(self) -> None:
        while self._drops:
            command, handle, generation = self._drops.pop(0)
            if generation == self.starts and self._process is not None:
                message: JsonObject = {"seq": next(self._seqs), "cmd": command, "handle": handle}
                response = self._round_trip(self._process, message)
                # A drop the harness skips or fails costs it memory at most; blaming the
                # next, unrelated request for it would mislead.
                with contextlib.suppress(HarnessSkippedError, HarnessOperationError):
                    self._outcome(message, response)

    def _running(self, command: str, members: JsonObject) -> HarnessProcess:
        if self._process is None:
            try:
                self._launch()
            except HarnessStartError as error:
                message: JsonObject = {"seq": None, "cmd": command, **members}
                raise HarnessFault(
                    self.command,
                    describe_request(message),
                    f"could not be restarted: {error.detail}",
                    restarted=False,
                ) from error
        assert self._process is not None  # noqa: S101 - set by _launch
        return self._process

    def _fault(
        self,
        kind: type[HarnessFault],
        process: HarnessProcess,
        message: JsonObject,
        detail: str,
        *,
        kill: bool = True,
    ) -> HarnessFault:
        if kill:
            process.kill()
            if self._process is process:
                self._process = None
        return kind(self.command, describe_request(message), detail, restarted=kill)

    def _round_trip(
        self,
        process: HarnessProcess,
        message: JsonObject,
        *,
        timeout: float | None = None,
        validate_response: bool = True,
        on_call: CallHandler | None = None,
    ) -> JsonObject:
        limit = self.timeout if timeout is None else timeout
        line = self._checked_line(process, message, schema_name(str(message["cmd"]), "request"))
        calls = 0
        while True:
            response = self._exchange(
                process, message, line, limit, validate_response=validate_response
            )
            call = response.get("call")
            if call is None or any(key in response for key in _OUTCOMES):
                return response
            assert isinstance(call, dict)  # noqa: S101 - checked by _parsed
            calls += 1
            if calls > self.max_calls:
                raise self._fault(
                    HarnessProtocolError,
                    process,
                    message,
                    f"made more than {self.max_calls} calls (max_calls) before answering",
                )
            self._answering = True
            try:
                answer = _answer_call(call, on_call)
            except BaseException:
                # Interrupted (a time limit, Ctrl-C) while the harness waits for the reply:
                # the stream is out of step for good.
                process.kill()
                if self._process is process:
                    self._process = None
                raise
            finally:
                self._answering = False
            reply: JsonObject = {"seq": message["seq"], "cmd": "reply", "id": call["id"], **answer}
            line = self._checked_line(process, reply, REPLY_SCHEMA, reply_to=message)

    def _checked_line(
        self,
        process: HarnessProcess,
        message: JsonObject,
        schema: str,
        *,
        reply_to: JsonObject | None = None,
    ) -> bytes:
        if self.validate:
            found = _broken(message, schema)
            if found:
                what = "request" if reply_to is None else "reply"
                raise self._fault(
                    HarnessProtocolError,
                    process,
                    message if reply_to is None else reply_to,
                    f"was not sent a {what}: the suite's own {what} breaks "
                    f"{schema}: {_violations_text(found)}",
                    # A reply not sent leaves the harness waiting for it.
                    kill=reply_to is not None,
                )
        return encode_json(message, ensure_ascii=True).encode("ascii") + b"\n"

    def _exchange(
        self,
        process: HarnessProcess,
        message: JsonObject,
        line: bytes,
        limit: float,
        *,
        validate_response: bool,
    ) -> JsonObject:
        started = time.monotonic()
        try:
            process.send(line, limit)
            raw = process.receive(max(limit - (time.monotonic() - started), 0.0))
        except OSError:
            raw = None
        except queue.Empty:
            raw = None
            process.timed_out = True
        if process.timed_out:
            raise self._fault(
                HarnessTimeoutError,
                process,
                message,
                f"did not answer within {limit:g} s" + _stderr(process),
            )
        if raw is None:
            status = process.exit_status()
            how = "closed its stdout" if status is None else f"exited with status {status}"
            detail = f"{how} before answering" + _stderr(process)
            raise self._fault(HarnessCrashedError, process, message, detail)
        if isinstance(raw, LineTooLong):
            raise self._fault(
                HarnessProtocolError,
                process,
                message,
                f"answered with a line longer than {raw.limit} bytes, the limit "
                f"(max_line_bytes), starting {_quote(repr(raw.start))}" + _stderr(process),
            )
        return self._parsed(process, message, raw, validate_response=validate_response)

    def _parsed(
        self, process: HarnessProcess, message: JsonObject, raw: bytes, *, validate_response: bool
    ) -> JsonObject:
        try:
            # RFC 8259 has no NaN or Infinity (HRN-1): refuse them like any other non-JSON.
            response = cast(
                "JsonValue", decode_json(raw.decode("utf-8"), max_depth=MAX_DOCUMENT_DEPTH)
            )
        except JsonLimitError as error:
            # The line was read whole, so the stream is still in step: no restart.
            raise self._fault(
                HarnessProtocolError,
                process,
                message,
                f"answered with a line the suite cannot take: {error.violations[0].message}",
                kill=False,
            ) from None
        except (InvalidJsonError, UnicodeDecodeError) as error:
            raise self._fault(
                HarnessProtocolError,
                process,
                message,
                f"answered with a line that is not JSON ({error}): {_quote(repr(raw))}",
            ) from None
        if not isinstance(response, dict):
            raise self._fault(
                HarnessProtocolError,
                process,
                message,
                f"answered with JSON that is not an object: {_quote(response)}",
            )
        if "seq" not in response or compact_json(response["seq"]) != compact_json(message["seq"]):
            got = compact_json(response["seq"]) if "seq" in response else "no seq"
            raise self._fault(
                HarnessProtocolError,
                process,
                message,
                f"answered with seq {got} where {compact_json(message['seq'])} was expected",
            )
        if "call" in response and not any(key in response for key in _OUTCOMES):
            return self._call_line(process, message, response)
        command = str(message["cmd"])
        if self.validate and validate_response:
            found = _broken(response, schema_name(command, "response"))
            if found:
                raise self._fault(
                    HarnessProtocolError,
                    process,
                    message,
                    f"answered with a response that breaks {schema_name(command, 'response')}: "
                    f"{_violations_text(found)}",
                    kill=False,
                )
        outcomes = [key for key in _OUTCOMES if key in response]
        if len(outcomes) != 1:
            raise self._fault(
                HarnessProtocolError,
                process,
                message,
                f"answered with {' and '.join(outcomes) or 'none'} of result, skipped and "
                f"errored where exactly one belongs: {_quote(response)}",
                kill=False,
            )
        return response

    def _call_line(
        self, process: HarnessProcess, message: JsonObject, response: JsonObject
    ) -> JsonObject:
        found = _broken(response, CALL_SCHEMA)
        if found:
            # The harness waits for a reply the suite cannot give: out of step.
            raise self._fault(
                HarnessProtocolError,
                process,
                message,
                f"made a call that breaks {CALL_SCHEMA}: {_violations_text(found)}",
            )
        return response

    def _outcome(
        self, message: JsonObject, response: JsonObject, raised: ErrorBuilder | None = None
    ) -> JsonValue:
        request = describe_request(message)
        if "skipped" in response:
            skipped = response["skipped"]
            reason = skipped.get("reason") if isinstance(skipped, dict) else None
            raise HarnessSkippedError(request, str(reason))
        if "errored" in response:
            errored = response["errored"]
            if not isinstance(errored, dict):
                errored = {"message": _quote(errored)}
            if raised is not None:
                raise raised(f"{request} with {_inputs(message)}", errored)
            trace = errored.get("traceback")
            raise HarnessOperationError(
                f"{request} with {_inputs(message)}",
                str(errored.get("message")),
                trace if isinstance(trace, str) else None,
            )
        return response["result"]

    def document(self, cls: type[T], value: JsonValue) -> T:
        """The record *cls* from the last result; a protocol error if it is not one."""
        try:
            return from_json(cls, value)
        except SchemaValidationError as error:
            raise HarnessProtocolError(
                self.command,
                self.last_request,
                f"answered with a result that is not a {cls.__name__} document: "
                f"{_violations_text(error.violations)}",
                restarted=False,
            ) from error

    def invalid_result(self, expected: str, value: JsonValue) -> HarnessProtocolError:
        """The error for a last result of the wrong shape."""
        return HarnessProtocolError(
            self.command,
            self.last_request,
            f"answered with a result that is not {expected}: {_quote(value)}",
            restarted=False,
        )


def _answer_call(call: JsonObject, on_call: CallHandler | None) -> JsonObject:
    if on_call is None:
        return {
            "errored": {
                "message": f"the suite offers no object to call during this request, and "
                f"{call.get('object')!r} was called",
                "type": "HarnessCallError",
            }
        }
    return on_call(call)


def _stderr(process: HarnessProcess) -> str:
    tail = process.stderr_tail()
    return f"; its stderr ended with:\n{tail}" if tail else ""


def _kill_quietly(holder: list[HarnessProcess | None]) -> None:
    for process in holder:
        if process is not None:
            process.kill()
