/* eslint-disable */
/**
 * Generated from schemas/harness/store-call-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Call one method of a session store created by store_new. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StoreCallRequest {
  seq: unknown;
  /**
   * The command: store_call.
   */
  cmd: 'store_call';
  /**
   * The opaque handle the harness returned when it created the object.
   */
  handle: string;
  /**
   * The session-store method to call (SES-n). Arguments and results in JSON: save [AgentSessionSnapshot document] -> null; load [sessionId] -> an AgentSessionSnapshot document or null; delete [sessionId] -> whether there was one; session_ids [] -> the ids, sorted. A harness whose store lacks delete or session_ids answers skipped.
   */
  method: 'save' | 'load' | 'delete' | 'session_ids';
  /**
   * The method's arguments, in order.
   */
  args: unknown[];
}
