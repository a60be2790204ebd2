/* eslint-disable */
/**
 * Generated from schemas/event-error.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * An error as the payload of an event (COMPACT_FAILED, ERROR; EVT-5): what kind of error it was and its message.
 */
export interface EventError {
  /**
   * The error's kind: the name its language gives the error's type or class (RuntimeError, TypeError, ...).
   */
  error: string;
  /**
   * The error's message (may be empty).
   */
  message: string;
}
