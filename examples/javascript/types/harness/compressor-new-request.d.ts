/* eslint-disable */
/**
 * Generated from schemas/harness/compressor-new-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Build a memory compressor of a memory-compressor target from constructor arguments (HRN-28). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface CompressorNewRequest {
  seq: unknown;
  /**
   * The command: compressor_new.
   */
  cmd: 'compressor_new';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The constructor's arguments, in order: each a JSON value or one of the suite's objects by name.
   */
  args: (CompressorValueArgument | CompressorObjectArgument)[];
}
/**
 * A constructor argument given as its value, any JSON value.
 */
export interface CompressorValueArgument {
  value: unknown;
}
/**
 * A constructor argument that is one of the suite's objects, by name.
 */
export interface CompressorObjectArgument {
  /**
   * The name of one of the suite's objects (a compact policy: calls should_compact and compact, HRN-25).
   */
  object: string;
}
