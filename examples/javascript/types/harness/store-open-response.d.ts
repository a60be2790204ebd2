/* eslint-disable */
/**
 * Generated from schemas/harness/store-open-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to store_open. Besides seq, exactly one of result, skipped and errored.
 */
export interface StoreOpenResponse {
  /**
   * The seq of the request answered, echoed unchanged.
   */
  seq: unknown;
  result?: Created;
  skipped?: Skipped;
  errored?: Errored;
}
/**
 * The new object's handle.
 */
export interface Created {
  /**
   * Opaque, unique within the harness process; later requests name the object by it.
   */
  handle: string;
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
