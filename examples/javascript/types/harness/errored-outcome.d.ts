/* eslint-disable */
/**
 * Generated from schemas/harness/errored-outcome.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

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
