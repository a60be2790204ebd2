/* eslint-disable */
/**
 * Generated from schemas/harness/turn-boundary-cut-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to turn_boundary_cut: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type TurnBoundaryCutResponse = TurnBoundaryCutResultOutcome | SkippedOutcome | ErroredOutcome;

/**
 * The answer to turn_boundary_cut when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface TurnBoundaryCutResultOutcome {
  seq: unknown;
  /**
   * The cut: the items before it are summarized, the rest kept.
   */
  result: number;
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
