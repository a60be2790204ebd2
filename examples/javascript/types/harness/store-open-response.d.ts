/* eslint-disable */
/**
 * Generated from schemas/harness/store-open-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to store_open: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type StoreOpenResponse = StoreOpenResultOutcome | SkippedOutcome | RaisedOutcome;

/**
 * The answer to store_open when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface StoreOpenResultOutcome {
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
 * The answer to a request of a runtime, a memory compressor, a memory or a session store whose operation raised an error (HRN-27): the request's seq (any JSON value, echoed unchanged) and the error, as the suite rebuilds it; a check that expects the error reads its kind and message, any other check is reported as errored.
 */
export interface RaisedOutcome {
  seq: unknown;
  errored: RaisedError;
}
/**
 * An error the operation raised, as the suite rebuilds it (HRN-27): its message, what kind of error it is, and which error it is, so that the same error seen twice (an event's payload and the failed request) is one error in the suite.
 */
export interface RaisedError {
  /**
   * What went wrong, in one line if possible.
   */
  message: string;
  /**
   * The implementation's stack trace, or null.
   */
  traceback?: string | null;
  /**
   * What kind of error, for a check that asks: a bad value, a value of the wrong type, something not found, an operation the object's state does not allow, or a wait that ran out (a database another connection held past the busy timeout, MEM-21) (null: none of these).
   */
  kind?: 'value' | 'type' | 'lookup' | 'state' | 'timeout' | null;
  /**
   * A name for this error, unique within the harness process: every report of the same error carries the same id.
   */
  id?: string | null;
  /**
   * The id of the call whose error this is or wraps: an error of one of the suite's objects, passed on.
   */
  call?: number | null;
}
