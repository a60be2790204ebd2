/* eslint-disable */
/**
 * Generated from schemas/context-projection.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The items one turn's prompt carries and the report of how they were chosen (PRJ).
 */
export interface ContextProjection {
  /**
   * The projected items, in their original order.
   */
  items: unknown[];
  /**
   * What the projection kept and dropped.
   */
  report: ContextReport;
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
