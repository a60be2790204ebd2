/* eslint-disable */
/**
 * Generated from schemas/harness/stop-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The last request: the harness answers, then exits with status 0. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StopRequest {
  seq: unknown;
  /**
   * The command: stop.
   */
  cmd: 'stop';
}
