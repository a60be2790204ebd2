/* eslint-disable */
/**
 * Generated from schemas/harness/reply.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The suite's answer to a call (HRN-24): its seq (the seq of the request being answered), cmd and id, with exactly one of the call's result and its error.
 */
export type Reply = ReplyResult | ReplyErrored;

/**
 * A call that returned: the seq of the request being answered, the call's id and the result, any JSON value.
 */
export interface ReplyResult {
  seq: unknown;
  /**
   * Always reply.
   */
  cmd: 'reply';
  /**
   * The id of the call answered.
   */
  id: number;
  result: unknown;
}
/**
 * A call that raised: the seq of the request being answered, the call's id and the error.
 */
export interface ReplyErrored {
  seq: unknown;
  /**
   * Always reply.
   */
  cmd: 'reply';
  /**
   * The id of the call answered.
   */
  id: number;
  errored: CallError;
}
/**
 * The error a call raised in the suite; the harness raises it in turn, naming the call (HRN-27).
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
