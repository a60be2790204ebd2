/* eslint-disable */
/**
 * Generated from schemas/harness/store-new-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Create a fresh, empty session store of a session-store target; the harness keeps it under a new handle until store_drop. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StoreNewRequest {
  seq: unknown;
  /**
   * The command: store_new.
   */
  cmd: 'store_new';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
}
