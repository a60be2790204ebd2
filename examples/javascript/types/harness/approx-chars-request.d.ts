/* eslint-disable */
/**
 * Generated from schemas/harness/approx-chars-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Measure one item with a functions target's approx_chars (SIZE-1 .. SIZE-6). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ApproxCharsRequest {
  seq: unknown;
  /**
   * The command: approx_chars.
   */
  cmd: 'approx_chars';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  item: unknown;
}
