/* eslint-disable */
/**
 * Generated from schemas/harness/compact-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Compact a memory with a compact-policy target. The harness builds a scripted model client that answers the policy's calls with model.responses in order and raises once they are used up, and reports the prompts it received. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface CompactRequest {
  seq: unknown;
  /**
   * The command: compact.
   */
  cmd: 'compact';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The policy's kind and parameters: the target's options from the start response, unchanged.
   */
  policy: TargetOptions;
  /**
   * The memory to judge or compact.
   */
  snapshot: MemorySnapshot;
  /**
   * The scripted model the policy calls.
   */
  model: ScriptedModel;
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
 * An agent memory's state: its raw items (without the summary message) and its summary (MEM).
 */
export interface MemorySnapshot {
  /**
   * The memory's items, oldest first.
   */
  items?: unknown[];
  /**
   * The memory's summary, or null when it has none.
   */
  summary?: string | null;
}
/**
 * The answers of a scripted model client, one per call, in order.
 */
export interface ScriptedModel {
  /**
   * Call n gets element n: a ModelResult document to return, a ModelError to raise, or null to return no result. A call beyond the last raises.
   */
  responses: (ModelResult | ModelError | null)[];
}
/**
 * A model's answer.
 */
export interface ModelResult {
  /**
   * The answer's text, or null.
   */
  outputText?: string | null;
  /**
   * Items to append to memory (assistant messages, tool-call messages, reasoning).
   */
  memoryItems?: unknown[];
  /**
   * Tools to call before the next step; none means this is the final answer.
   */
  toolCalls?: ToolCall[];
}
/**
 * A tool call the model requested.
 */
export interface ToolCall {
  /**
   * The call's id; its tool result carries it as call_id.
   */
  callId: string;
  /**
   * The tool's name.
   */
  name: string;
  /**
   * The arguments as JSON text.
   */
  arguments: string;
}
/**
 * A scripted model call that raises instead of answering.
 */
export interface ModelError {
  /**
   * The message of the error the scripted model raises.
   */
  error: string;
}
