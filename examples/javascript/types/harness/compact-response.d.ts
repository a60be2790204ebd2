/* eslint-disable */
/**
 * Generated from schemas/harness/compact-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to compact: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type CompactResponse = CompactResultOutcome | SkippedOutcome | ErroredOutcome;

/**
 * The answer to compact when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface CompactResultOutcome {
  seq: unknown;
  /**
   * The policy's result and the prompts the scripted model received.
   */
  result: Compacted;
}
/**
 * What a compaction produced, and what the policy asked the model.
 */
export interface Compacted {
  /**
   * The policy's result.
   */
  result: CompactResult;
  /**
   * Every prompt the scripted model received, in order, including one that found the script used up.
   */
  prompts: ModelPrompt[];
}
/**
 * What a compaction produced: the new memory, its summary and the structured fields (CMP).
 */
export interface CompactResult {
  /**
   * The memory after compaction, or null when the policy produced none.
   */
  memory?: MemorySnapshot | null;
  /**
   * The summary text written into the new memory.
   */
  summary?: string | null;
  /**
   * Work finished, one short line each.
   */
  completed?: string[];
  /**
   * Work still to do.
   */
  pending?: string[];
  /**
   * Decisions taken that later work must respect.
   */
  decisions?: string[];
  /**
   * Artifacts changed (not filled by the reference policies).
   */
  changedArtifacts?: string[];
  /**
   * Failed commands and errors (from the summary's errors).
   */
  failedCommands?: string[];
  /**
   * Test outcomes.
   */
  testResults?: string[];
  /**
   * Confirmations the user gave (not filled by the reference policies).
   */
  userConfirmations?: string[];
  /**
   * Sandbox state worth keeping (not filled by the reference policies).
   */
  sandboxState?: string[];
  /**
   * Questions still open.
   */
  openQuestions?: string[];
  /**
   * Files read, de-duplicated, first seen first (FIL).
   */
  readFiles?: string[];
  /**
   * Files modified, de-duplicated, first seen first (FIL).
   */
  modifiedFiles?: string[];
  /**
   * The projection report of a projector-based policy, or null.
   */
  contextReport?: ContextReport | null;
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
 * What a projection kept and what it dropped (RPT).
 */
export interface ContextReport {
  /**
   * Number of items the projector was given.
   */
  sourceItemCount: number;
  /**
   * Number of items in the projection.
   */
  projectedItemCount: number;
  /**
   * sourceItemCount minus projectedItemCount: items left out (replaced items are not dropped).
   */
  droppedItemCount: number;
  /**
   * Approximate size (SIZE) of the items the projector was given.
   */
  sourceApproxChars: number;
  /**
   * Approximate size (SIZE) of the projected items.
   */
  projectedApproxChars: number;
  /**
   * True exactly when the item stage dropped at least one item.
   */
  itemLimitApplied: boolean;
  /**
   * True exactly when the character stage dropped at least one item.
   */
  characterLimitApplied: boolean;
  /**
   * What each stage did, in stage order, e.g. 'tier1 microcompact: cleared 3 old tool result(s), kept recent 5' or 'maxItems applied: 40'.
   */
  notes?: string[];
  /**
   * ctxpact extension: ascending positions, in the given list, of the items left out; null or absent when not reported.
   */
  droppedIndices?: number[] | null;
  /**
   * ctxpact extension: ascending positions, in the given list, of the items replaced by a placeholder or a cleared reasoning item; null or absent when not reported.
   */
  clearedIndices?: number[] | null;
}
/**
 * One request to a model.
 */
export interface ModelPrompt {
  /**
   * The model's name (may be empty).
   */
  model: string;
  /**
   * The system prompt, or null.
   */
  systemPrompt: string | null;
  /**
   * The prompt's items.
   */
  items: unknown[];
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
