/* eslint-disable */
/**
 * Generated from schemas/harness/start-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to start (the protocol version the harness speaks and what it implements): exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type StartResponse = StartResultOutcome | SkippedOutcome | ErroredOutcome;

/**
 * The answer to start when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface StartResultOutcome {
  seq: unknown;
  /**
   * The protocol version and the implementation.
   */
  result: Started;
}
/**
 * The protocol version and the implementation behind the harness.
 */
export interface Started {
  /**
   * The protocol version the harness speaks; the suite stops unless it is the one it sent (1).
   */
  version: number;
  /**
   * What is being checked.
   */
  implementation: Implementation;
}
/**
 * The implementation behind the harness; the report shows it.
 */
export interface Implementation {
  /**
   * The implementation's name; each target is reported as <name>:<target name>.
   */
  name: string;
  /**
   * The programming language, lower case (python, javascript, java, ...).
   */
  language: string;
  /**
   * The implementation's version (may be empty).
   */
  version: string;
  /**
   * Where to read about it (may be empty).
   */
  homepage: string;
  /**
   * The components it implements, each checked on its own.
   */
  targets: Target[];
}
/**
 * One implementation of one component, with the claims it makes.
 */
export interface Target {
  /**
   * Unique within the harness; requests name the target by it.
   */
  name: string;
  /**
   * Which component it implements, and so which requests it answers.
   */
  component:
    | 'projector'
    | 'compact-policy'
    | 'agent-memory'
    | 'summary-parser'
    | 'session-store'
    | 'functions'
    | 'runtime'
    | 'memory-compressor';
  /**
   * What it claims (SPEC §1.3): which checks apply.
   *
   * @minItems 1
   */
  claims: [
    'generic' | 'pair-integrity' | 'wire-valid' | 'exact' | 'llm-summary',
    ...('generic' | 'pair-integrity' | 'wire-valid' | 'exact' | 'llm-summary')[]
  ];
  /**
   * What the checks need to know about it.
   */
  options?: TargetOptions;
}
/**
 * What the suite needs to know about a target beyond its claims; for a compact policy, also the policy's kind and parameters, which every should_compact and compact request passes back as its policy; for a memory compressor, which of the spec's it ports and the arguments the generic checks build it with.
 */
export interface TargetOptions {
  /**
   * A compact policy's kind: llm (summarizes with a model, LLM-n clauses) or structured (StructuredSummaryCompactPolicy rules, no model); a memory compressor's: windowed (WindowedMemoryCompressor, CMP-8) or policy-adapter (CompactPolicyMemoryCompressor, CMP-6, CMP-7).
   */
  kind?: 'llm' | 'structured' | 'windowed' | 'policy-adapter';
  /**
   * An llm policy's keep-recent count: it compacts above this many items and keeps as many recent ones.
   */
  maxItems?: number;
  /**
   * A structured policy's budget.
   */
  budget?: ContextBudget;
  /**
   * false for a projector that does not apply Tier-1 and Tier-2 (DefaultContextProjector).
   */
  tiers?: boolean;
  /**
   * true for a projector whose exact algorithm is PairSafeContextProjector's (SPEC §5.5).
   */
  pairSafe?: boolean;
  /**
   * The providers a wire-valid claim is made for (SPEC §1.6, WIRE-18); required with that claim.
   *
   * @minItems 1
   */
  providers?: [
    'openai-responses' | 'openai-chat' | 'anthropic',
    ...('openai-responses' | 'openai-chat' | 'anthropic')[]
  ];
  /**
   * A memory compressor's constructor arguments for the generic checks (HRN-28), each a JSON value (a compact policy is given as its options: kind and parameters).
   */
  args?: unknown[];
  /**
   * Where an agent memory's or a session store's persistent form keeps its state, for memory_open and store_open (HRN-29): an SQLite database file, a PostgreSQL database (the suite passes a conninfo), or a directory of files (a store, SES-13). Absent: the target keeps nothing the suite can open again.
   */
  storage?: 'sqlite' | 'postgresql' | 'directory';
  /**
   * false for a runtime without a step bound (RUN-9 is a MAY); absent: the runtime has one.
   */
  maxSteps?: false;
}
/**
 * How much one turn's prompt may carry, and which projection tiers are on (BUD). Absent or null limits mean no limit.
 */
export interface ContextBudget {
  /**
   * Most items the projection may keep; null or absent: no item limit.
   */
  maxItems?: number | null;
  /**
   * Most approximate characters (SIZE) the projection aims for; null or absent: no character limit.
   */
  maxApproxChars?: number | null;
  /**
   * Number of leading items protected as the pinned prefix.
   */
  pinnedPrefixItems?: number;
  /**
   * Tier-1 keep-N: how many of the newest tool results keep their output; null or absent: Tier-1 off.
   */
  maxRecentToolResults?: number | null;
  /**
   * Tier-2 switch: clear reasoning items before the last user message.
   */
  trimOldReasoning?: boolean;
}
/**
 * The answer to any request the harness does not implement: the request's seq (any JSON value, echoed unchanged) and why; the suite reports the check as skipped.
 */
export interface SkippedOutcome {
  seq: unknown;
  skipped: Skipped;
}
/**
 * The harness does not implement this request; the suite reports the check as skipped.
 */
export interface Skipped {
  /**
   * Why, for the report (e.g. 'memory is not implemented').
   */
  reason: string;
}
/**
 * The answer to a request whose operation raised an error inside the harness: the request's seq (any JSON value, echoed unchanged) and the error; the suite reports the check as errored.
 */
export interface ErroredOutcome {
  seq: unknown;
  errored: Errored;
}
/**
 * The operation raised an error inside the harness; the suite reports the check as errored.
 */
export interface Errored {
  /**
   * What went wrong, in one line if possible.
   */
  message: string;
  /**
   * The implementation's stack trace, or null.
   */
  traceback?: string | null;
}
