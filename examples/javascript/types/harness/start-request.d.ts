/* eslint-disable */
/**
 * Generated from schemas/harness/start-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The first request: the suite's protocol version. The harness answers with its implementation's metadata and targets. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StartRequest {
  seq: unknown;
  /**
   * The command: start.
   */
  cmd: 'start';
  /**
   * The protocol version the suite speaks: 1.
   */
  version: number;
}
