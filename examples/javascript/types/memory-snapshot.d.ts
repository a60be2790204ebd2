/* eslint-disable */
/**
 * Generated from schemas/memory-snapshot.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * An agent memory's state: its raw items (without the summary message) and its summary (MEM).
 */
export interface MemorySnapshot {
  /**
   * The memory's items, oldest first.
   */
  items?: unknown[];
  /**
   * The memory's summary, or null when it has none.
   */
  summary?: string | null;
}
