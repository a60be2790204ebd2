/* eslint-disable */
/**
 * Generated from schemas/harness/store-open-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Open a session-store target's persistent form on stored state, as a new object behind a handle (HRN-29); store_drop closes it. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StoreOpenRequest {
  seq: unknown;
  /**
   * The command: store_open.
   */
  cmd: 'store_open';
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
     * The table the state is kept in, or null for the target's default; a name MEM-16 refuses is the target's to refuse, and a check sends some on purpose.
     */
    table?: string | null;
    /**
     * The seconds an operation waits for a database another connection holds before it fails (MEM-21, MEM-27), or null for the target's default.
     */
    busyTimeout?: number | null;
  };
}
