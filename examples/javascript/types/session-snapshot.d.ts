/* eslint-disable */
/**
 * Generated from schemas/session-snapshot.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Everything needed to resume a session (SES).
 */
export interface AgentSessionSnapshot {
  /**
   * The session's id: not blank, so at least one character above U+0020 (SES-17).
   */
  sessionId: string;
  /**
   * The session memory's snapshot.
   */
  memory?: MemorySnapshot;
  /**
   * The last compaction's result, manual or automatic, or null.
   */
  compactResult?: CompactResult | null;
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
