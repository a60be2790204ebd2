/* eslint-disable */
/**
 * Generated from schemas/harness/project-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Project items under a budget with a projector target (PRJ-n). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ProjectRequest {
  seq: unknown;
  /**
   * The command: project.
   */
  cmd: 'project';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The items to project, oldest first.
   */
  items: unknown[];
  /**
   * The budget, or null for no limits and no tiers.
   */
  budget: ContextBudget | null;
}
/**
 * How much one turn's prompt may carry, and which projection tiers are on (BUD). Absent or null limits mean no limit.
 */
export interface ContextBudget {
  /**
   * Most items the projection may keep; null or absent: no item limit.
   */
  maxItems?: number | null;
  /**
   * Most approximate characters (SIZE) the projection aims for; null or absent: no character limit.
   */
  maxApproxChars?: number | null;
  /**
   * Number of leading items protected as the pinned prefix.
   */
  pinnedPrefixItems?: number;
  /**
   * Tier-1 keep-N: how many of the newest tool results keep their output; null or absent: Tier-1 off.
   */
  maxRecentToolResults?: number | null;
  /**
   * Tier-2 switch: clear reasoning items before the last user message.
   */
  trimOldReasoning?: boolean;
}
