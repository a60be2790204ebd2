"""The ctxpact contract: records, protocols, the JSON converter, schema access and errors.

Everything here mirrors ``spec/SPEC.md`` and the JSON Schemas in ``schemas/``; this package
imports neither the reference implementation nor the conformance suite.
"""

from ctxpact.spec._converter import SCHEMA_OF, camel_case, converter, from_json, to_json
from ctxpact.spec._errors import (
    CtxpactError,
    InvalidValueError,
    SchemaNotFoundError,
    SchemaValidationError,
    Violation,
)
from ctxpact.spec._json import JsonObject, JsonValue, compact_json, copy_json
from ctxpact.spec._pairing import (
    CallLink,
    Pairing,
    ResultLink,
    Shape,
    ToolCallRef,
    ToolResultRef,
    is_user_input,
    pairing,
    tool_calls,
    tool_results,
)
from ctxpact.spec._protocols import (
    AgentMemory,
    CompactPolicy,
    ContextProjector,
    MemoryCompressor,
    ModelClient,
    SummaryParser,
)
from ctxpact.spec._records import (
    AgentSessionSnapshot,
    CompactResult,
    ContextBudget,
    ContextProjection,
    ContextReport,
    MemorySnapshot,
    ModelPrompt,
    ModelResult,
    StructuredSummary,
    ToolCall,
)
from ctxpact.spec._schemas import json_path, load_schema, schema_names, validate, violations
from ctxpact.spec._version import SCHEMA_VERSION, SPEC_VERSION
from ctxpact.spec._wire import PROVIDERS, WireProblem, WireProblemError, wire_problems

__all__ = [
    "PROVIDERS",
    "SCHEMA_OF",
    "SCHEMA_VERSION",
    "SPEC_VERSION",
    "AgentMemory",
    "AgentSessionSnapshot",
    "CallLink",
    "CompactPolicy",
    "CompactResult",
    "ContextBudget",
    "ContextProjection",
    "ContextProjector",
    "ContextReport",
    "CtxpactError",
    "InvalidValueError",
    "JsonObject",
    "JsonValue",
    "MemoryCompressor",
    "MemorySnapshot",
    "ModelClient",
    "ModelPrompt",
    "ModelResult",
    "Pairing",
    "ResultLink",
    "SchemaNotFoundError",
    "SchemaValidationError",
    "Shape",
    "StructuredSummary",
    "SummaryParser",
    "ToolCall",
    "ToolCallRef",
    "ToolResultRef",
    "Violation",
    "WireProblem",
    "WireProblemError",
    "camel_case",
    "compact_json",
    "converter",
    "copy_json",
    "from_json",
    "is_user_input",
    "json_path",
    "load_schema",
    "pairing",
    "schema_names",
    "to_json",
    "tool_calls",
    "tool_results",
    "validate",
    "violations",
    "wire_problems",
]
