/* eslint-disable */
/**
 * Generated from schemas/harness/call.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * A line a harness writes, before its response, to call one of the suite's objects (HRN-24); the suite answers with a reply line. Its seq is the seq of the request being answered.
 */
export interface Call {
  seq: unknown;
  /**
   * What to call.
   */
  call: {
    /**
     * Unique among the calls of the harness process; the reply carries it, and an error can name it (HRN-27).
     */
    id: number;
    /**
     * The name of the suite's object, as a request gave it (or a call's result, for a memory).
     */
    object: string;
    /**
     * The method (HRN-25).
     */
    method: string;
    /**
     * The method's arguments.
     */
    args: unknown[];
  };
}
