/* eslint-disable */
/**
 * Generated from schemas/harness/memory-open-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to memory_open: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type MemoryOpenResponse = MemoryOpenResultOutcome | SkippedOutcome | ErroredOutcome;

/**
 * The answer to memory_open when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface MemoryOpenResultOutcome {
  seq: unknown;
  /**
   * The new object's handle.
   */
  result: Created;
}
/**
 * A handle naming an object that lives in the harness.
 */
export interface Created {
  /**
   * Opaque, unique within the harness process; later requests name the object by it.
   */
  handle: string;
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
