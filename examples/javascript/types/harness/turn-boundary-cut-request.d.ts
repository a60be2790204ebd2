/* eslint-disable */
/**
 * Generated from schemas/harness/turn-boundary-cut-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Find where a compaction cuts items with a functions target's turn-boundary cut (CUT-1 .. CUT-6). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface TurnBoundaryCutRequest {
  seq: unknown;
  /**
   * The command: turn_boundary_cut.
   */
  cmd: 'turn_boundary_cut';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The items, oldest first.
   */
  items: unknown[];
  /**
   * The naive cut: how many leading items a compaction would summarize before the cut moves to a turn boundary. Any integer: the function clamps it into [0, len(items)] (CUT-1).
   */
  naiveCut: number;
}
