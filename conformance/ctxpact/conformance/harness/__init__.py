"""Check an implementation in any language through a harness process (spec/HARNESS.md).

A harness reads JSON-lines requests on stdin and answers on stdout. The suite reaches it
through proxies with the Python interface of each component, so every check runs unchanged
across the process boundary, shrinking included::

    from ctxpact.conformance import check_target
    from ctxpact.conformance.harness import HarnessConnection, harness_targets

    with HarnessConnection("node examples/javascript/harness.js") as connection:
        for target in harness_targets(connection):
            print(check_target(target, profile="quick").ok)

``ctxpact check --exec COMMAND`` does the same from the command line.
"""

from ctxpact.conformance.harness._calls import SuiteObjects
from ctxpact.conformance.harness._connection import (
    DEFAULT_MAX_CALLS,
    DEFAULT_TIMEOUT,
    PROTOCOL_VERSION,
    HarnessConnection,
    describe_request,
    schema_name,
)
from ctxpact.conformance.harness._errors import (
    HarnessCrashedError,
    HarnessFault,
    HarnessLookupError,
    HarnessOperationError,
    HarnessProtocolError,
    HarnessSkippedError,
    HarnessStartError,
    HarnessStateError,
    HarnessTimeoutError,
    HarnessTypeError,
    HarnessValueError,
    HarnessWaitError,
)
from ctxpact.conformance.harness._process import (
    DEFAULT_MAX_LINE_BYTES,
    STDERR_TAIL_BYTES,
    STDERR_TAIL_LINES,
)
from ctxpact.conformance.harness._proxies import (
    MAX_MODEL_CALLS,
    AgentMemoryProxy,
    CompactPolicyProxy,
    FunctionsProxy,
    MemoryCompressorProxy,
    ProjectorProxy,
    SessionStoreProxy,
    SummaryParserProxy,
)
from ctxpact.conformance.harness._runtime import RuntimeSessionProxy, runtime_factory
from ctxpact.conformance.harness._targets import (
    SERVED_COMPONENTS,
    harness_targets,
    python_options,
)

__all__ = [
    "DEFAULT_MAX_CALLS",
    "DEFAULT_MAX_LINE_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_MODEL_CALLS",
    "PROTOCOL_VERSION",
    "SERVED_COMPONENTS",
    "STDERR_TAIL_BYTES",
    "STDERR_TAIL_LINES",
    "AgentMemoryProxy",
    "CompactPolicyProxy",
    "FunctionsProxy",
    "HarnessConnection",
    "HarnessCrashedError",
    "HarnessFault",
    "HarnessLookupError",
    "HarnessOperationError",
    "HarnessProtocolError",
    "HarnessSkippedError",
    "HarnessStartError",
    "HarnessStateError",
    "HarnessTimeoutError",
    "HarnessTypeError",
    "HarnessValueError",
    "HarnessWaitError",
    "MemoryCompressorProxy",
    "ProjectorProxy",
    "RuntimeSessionProxy",
    "SessionStoreProxy",
    "SuiteObjects",
    "SummaryParserProxy",
    "describe_request",
    "harness_targets",
    "python_options",
    "runtime_factory",
    "schema_name",
]
