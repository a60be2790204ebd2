/* eslint-disable */
/**
 * Generated from schemas/harness/project-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to project. Besides seq, exactly one of result, skipped and errored.
 */
export interface ProjectResponse {
  /**
   * The seq of the request answered, echoed unchanged.
   */
  seq: unknown;
  result?: ContextProjection;
  skipped?: Skipped;
  errored?: Errored;
}
/**
 * The projection.
 */
export interface ContextProjection {
  /**
   * The projected items, in their original order.
   *
   * Items: One memory item: any JSON value. Structure-aware rules look only at JSON objects (messages, tool results, reasoning items); other values pass through unchanged (JSON-1).
   */
  items: unknown[];
  report: ContextReport;
}
/**
 * What the projection kept and dropped.
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
