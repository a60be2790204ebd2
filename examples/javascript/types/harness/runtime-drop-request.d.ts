/* eslint-disable */
/**
 * Generated from schemas/harness/runtime-drop-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Forget a session (HRN-26). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface RuntimeDropRequest {
  seq: unknown;
  /**
   * The command: runtime_drop.
   */
  cmd: 'runtime_drop';
  /**
   * The session's handle, from runtime_new.
   */
  handle: string;
}
