/* eslint-disable */
/**
 * Generated from schemas/harness/start-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to start: the protocol version the harness speaks and what it implements. Besides seq, exactly one of result, skipped and errored.
 */
export interface StartResponse {
  /**
   * The seq of the request answered, echoed unchanged.
   */
  seq: unknown;
  result?: Started;
  skipped?: Skipped;
  errored?: Errored;
}
/**
 * The protocol version and the implementation.
 */
export interface Started {
  /**
   * The protocol version the harness speaks; the suite stops unless it is the one it sent (1).
   */
  version: number;
  implementation: Implementation;
}
/**
 * What is being checked.
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
  options?: TargetOptions;
}
/**
 * What the checks need to know about it (absent: {}).
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
  budget?: ContextBudget;
  /**
   * false for a projector that does not apply Tier-1 and Tier-2 (DefaultContextProjector); absent: true.
   */
  tiers?: boolean;
  /**
   * true for a projector whose exact algorithm is PairSafeContextProjector's (SPEC §5.5); absent: false.
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
   * A memory compressor's constructor arguments for the generic checks (HRN-28); absent: none.
   *
   * Items: One argument: a JSON value (a compact policy is given as its options: kind and parameters).
   */
  args?: unknown[];
  /**
   * false for a runtime without a step bound (RUN-9 is a MAY); absent: the runtime has one.
   */
  maxSteps?: false;
}
/**
 * A structured policy's budget.
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
 * The harness does not implement the request.
 */
export interface Skipped {
  /**
   * Why, for the report (e.g. 'memory is not implemented').
   */
  reason: string;
}
/**
 * The operation raised an error inside the harness.
 */
export interface Errored {
  /**
   * What went wrong, in one line if possible.
   */
  message: string;
  /**
   * The implementation's stack trace, or null (absent: null).
   */
  traceback?: string | null;
}
