/* eslint-disable */
/**
 * Generated from schemas/harness/store-drop-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Forget the object behind a handle; the suite never uses the handle again.
 */
export interface StoreDropRequest {
  /**
   * The request's id: any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
   */
  seq: unknown;
  /**
   * The command: store_drop.
   */
  cmd: 'store_drop';
  /**
   * The opaque handle the harness returned when it created the object.
   */
  handle: string;
}
