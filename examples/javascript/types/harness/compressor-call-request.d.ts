/* eslint-disable */
/**
 * Generated from schemas/harness/compressor-call-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Call a method of a memory compressor (HRN-28). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface CompressorCallRequest {
  seq: unknown;
  /**
   * The command: compressor_call.
   */
  cmd: 'compressor_call';
  /**
   * The compressor's handle, from compressor_new.
   */
  handle: string;
  /**
   * The method.
   */
  method: 'compress' | 'get_last_result';
  /**
   * compress: [MemorySnapshot]; get_last_result: [].
   */
  args: unknown[];
}
