/* eslint-disable */
/**
 * Generated from schemas/harness/compressor-drop-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to compressor_drop. Besides seq, exactly one of result, skipped and errored.
 */
export interface CompressorDropResponse {
  /**
   * The seq of the request answered, echoed unchanged.
   */
  seq: unknown;
  /**
   * Nothing.
   */
  result?: null;
  skipped?: Skipped;
  errored?: RaisedError;
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
export interface RaisedError {
  /**
   * What went wrong, in one line if possible.
   */
  message: string;
  /**
   * The implementation's stack trace, or null (absent: null).
   */
  traceback?: string | null;
  /**
   * What kind of error, for a check that asks: a bad value, a value of the wrong type, something not found, or an operation the object's state does not allow (absent or null: none of these).
   */
  kind?: 'value' | 'type' | 'lookup' | 'state' | null;
  /**
   * A name for this error, unique within the harness process: every report of the same error carries the same id (absent: null).
   */
  id?: string | null;
  /**
   * The id of the call whose error this is or wraps: an error of one of the suite's objects, passed on (absent: null).
   */
  call?: number | null;
}
