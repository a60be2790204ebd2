/* eslint-disable */
/**
 * Generated from schemas/harness/runtime-call-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Call a method of a session of a runtime target (HRN-26). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface RuntimeCallRequest {
  seq: unknown;
  /**
   * The command: runtime_call.
   */
  cmd: 'runtime_call';
  /**
   * The session's handle, from runtime_new.
   */
  handle: string;
  /**
   * The method.
   */
  method: 'run' | 'compact' | 'snapshot' | 'restore' | 'save' | 'session_id' | 'last_compact_result';
  /**
   * The method's arguments (HRN-26).
   */
  args: unknown[];
}
