/* eslint-disable */
/**
 * Generated from schemas/harness/created.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * A handle naming an object that lives in the harness.
 */
export interface Created {
  /**
   * Opaque, unique within the harness process; later requests name the object by it.
   */
  handle: string;
}
