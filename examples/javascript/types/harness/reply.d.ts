/* eslint-disable */
/**
 * Generated from schemas/harness/reply.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The suite's answer to a call (HRN-24). Besides seq, cmd and id, exactly one of result and errored.
 */
export interface Reply {
  /**
   * The seq of the request being answered.
   */
  seq: unknown;
  /**
   * Always reply.
   */
  cmd: 'reply';
  /**
   * The id of the call answered.
   */
  id: number;
  /**
   * What the call returned: any JSON value.
   */
  result?: unknown;
  errored?: CallError;
}
/**
 * The call raised.
 */
export interface CallError {
  /**
   * The error's text.
   */
  message: string;
  /**
   * The name of the error's type in the suite.
   */
  type: string;
}
