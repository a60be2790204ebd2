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
     * The session whose state the memory holds; a blank one is the target's to refuse (MEM-15), and a check sends one on purpose.
     */
    sessionId: string;
    /**
     * The table the state is kept in, or null for the target's default; a name MEM-16 refuses is the target's to refuse, and a check sends some on purpose.
     */
    table?: string | null;
    /**
     * The seconds an operation waits for a database another connection holds before it fails (MEM-21, MEM-27), or null for the target's default.
     */
    busyTimeout?: number | null;
  };
  /**
   * The name of one of the suite's objects, a memory compressor the memory calls back after each add that appends (compress [MemorySnapshot] -> a MemorySnapshot document; HRN-30), or null for none. A target that takes no compressor answers skipped.
   */
  compressor?: string | null;
}
