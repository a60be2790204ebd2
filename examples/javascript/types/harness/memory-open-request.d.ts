/* eslint-disable */
/**
 * Generated from schemas/harness/memory-open-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Open an agent-memory target's persistent form on stored state, as a new object behind a handle (HRN-29); memory_drop closes it. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface MemoryOpenRequest {
  seq: unknown;
  /**
   * The command: memory_open.
   */
  cmd: 'memory_open';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * Which stored state to open (HRN-29).
   */
  storage: {
    /**
     * Where the state is kept: a path the suite chose (an SQLite database file, or a directory for a store kept in files), or the address the target's backend takes (a PostgreSQL conninfo).
     */
    address: string;
    /**
     * The session whose state the memory holds (MEM-15).
     */
    sessionId: string;
    /**
     * The table the state is kept in, or null for the target's default.
     */
    table?: string | null;
  };
}
