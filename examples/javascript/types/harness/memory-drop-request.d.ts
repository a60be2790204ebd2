/* eslint-disable */
/**
 * Generated from schemas/harness/memory-drop-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Forget the object behind a handle; the suite never uses the handle again. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface MemoryDropRequest {
  seq: unknown;
  /**
   * The command: memory_drop.
   */
  cmd: 'memory_drop';
  /**
   * The opaque handle the harness returned when it created the object.
   */
  handle: string;
}
