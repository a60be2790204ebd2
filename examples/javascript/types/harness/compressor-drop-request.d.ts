/* eslint-disable */
/**
 * Generated from schemas/harness/compressor-drop-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Forget a memory compressor (HRN-28). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface CompressorDropRequest {
  seq: unknown;
  /**
   * The command: compressor_drop.
   */
  cmd: 'compressor_drop';
  /**
   * The compressor's handle.
   */
  handle: string;
}
