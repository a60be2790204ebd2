"""The ctxpact conformance suite: checks any implementation against spec/SPEC.md.

Three ways in: the ``ctxpact check`` command, the ``check_*`` functions here, and the pytest
base classes of :mod:`ctxpact.conformance.testing`. Strategies that generate agent
transcripts and records are public in :mod:`ctxpact.conformance.strategies`.
"""

from ctxpact.conformance._api import (
    RunOptions,
    check_agent_memory,
    check_compact_policy,
    check_projector,
    check_runtime,
    check_session_store,
    check_spec_functions,
    check_summary_parser,
    check_target,
)
from ctxpact.conformance._claims import CLAIM_MEANINGS, OPTIONS, MissingOptionError, OptionSpec
from ctxpact.conformance._context import (
    CheckContext,
    CheckFailure,
    CheckTimeout,
    SkipCheck,
    SubjectError,
)
from ctxpact.conformance._errors import TargetError
from ctxpact.conformance._model import (
    Check,
    CheckResult,
    Claim,
    Component,
    ConformanceReport,
    ExpectedFailure,
    Implementation,
    Mismatch,
    Outcome,
)
from ctxpact.conformance._profiles import (
    DEFAULT_PROFILE,
    PROFILES,
    SHRINK_LIMITS,
    TIME_LIMITS,
    profile_settings,
)
from ctxpact.conformance._references import reference_targets
from ctxpact.conformance._report import markdown, run_document
from ctxpact.conformance._runner import RunInterrupted, run_check, run_checks
from ctxpact.conformance._runtime import (
    EventListener,
    LifecycleHook,
    MemoryFactory,
    RuntimeConfig,
    RuntimeEvent,
    RuntimeFactory,
    RuntimeLifecycleEvent,
    RuntimeSession,
    Tool,
    observer_name,
    reference_runtime,
)
from ctxpact.conformance._target import Target, infer_target
from ctxpact.conformance.checks import ALL_CHECKS, checks_for
from ctxpact.conformance.checks._compaction_support import (
    ModelAnswer,
    ScriptedModelClient,
    ScriptedModelError,
)

__all__ = [
    "ALL_CHECKS",
    "CLAIM_MEANINGS",
    "DEFAULT_PROFILE",
    "OPTIONS",
    "PROFILES",
    "SHRINK_LIMITS",
    "TIME_LIMITS",
    "Check",
    "CheckContext",
    "CheckFailure",
    "CheckResult",
    "CheckTimeout",
    "Claim",
    "Component",
    "ConformanceReport",
    "EventListener",
    "ExpectedFailure",
    "Implementation",
    "LifecycleHook",
    "MemoryFactory",
    "Mismatch",
    "MissingOptionError",
    "ModelAnswer",
    "OptionSpec",
    "Outcome",
    "RunInterrupted",
    "RunOptions",
    "RuntimeConfig",
    "RuntimeEvent",
    "RuntimeFactory",
    "RuntimeLifecycleEvent",
    "RuntimeSession",
    "ScriptedModelClient",
    "ScriptedModelError",
    "SkipCheck",
    "SubjectError",
    "Target",
    "TargetError",
    "Tool",
    "check_agent_memory",
    "check_compact_policy",
    "check_projector",
    "check_runtime",
    "check_session_store",
    "check_spec_functions",
    "check_summary_parser",
    "check_target",
    "checks_for",
    "infer_target",
    "markdown",
    "observer_name",
    "profile_settings",
    "reference_runtime",
    "reference_targets",
    "run_check",
    "run_checks",
    "run_document",
]
