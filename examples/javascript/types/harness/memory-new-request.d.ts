/* eslint-disable */
/**
 * Generated from schemas/harness/memory-new-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Create a fresh, empty agent memory of a agent-memory target; the harness keeps it under a new handle until memory_drop. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface MemoryNewRequest {
  seq: unknown;
  /**
   * The command: memory_new.
   */
  cmd: 'memory_new';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The name of one of the suite's objects, a memory compressor the memory calls back after each add that appends (compress [MemorySnapshot] -> a MemorySnapshot document; HRN-30), or null for none. A target that takes no compressor answers skipped.
   */
  compressor?: string | null;
}
