/* eslint-disable */
/**
 * Generated from schemas/harness/turn-boundary-cut-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to turn_boundary_cut. Besides seq, exactly one of result, skipped and errored.
 */
export interface TurnBoundaryCutResponse {
  /**
   * The seq of the request answered, echoed unchanged.
   */
  seq: unknown;
  /**
   * The cut: the items before it are summarized, the rest kept.
   */
  result?: number;
  skipped?: Skipped;
  errored?: Errored;
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
