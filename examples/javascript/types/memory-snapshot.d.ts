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
   *
   * Items: One memory item: any JSON value. Structure-aware rules look only at JSON objects (messages, tool results, reasoning items); other values pass through unchanged (JSON-1).
   */
  items?: unknown[];
  /**
   * The memory's summary, or null when it has none.
   */
  summary?: string | null;
}
