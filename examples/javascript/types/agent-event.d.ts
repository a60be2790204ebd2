/* eslint-disable */
/**
 * Generated from schemas/agent-event.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Something the runtime did, as an event listener receives it and a host persists or forwards it (EVT-1, EVT-2, EVT-4, EVT-5). Its payload is any JSON value, by type and message: a ContextReport document (MEMORY_COMPRESS 'context projection'), a CompactResult document (MEMORY_COMPRESS 'compacted'), an EventError document (COMPACT_FAILED, ERROR), a ToolCall document (TOOL_CALL), the output text (TOOL_RESULT, FINAL_OUTPUT), or null.
 */
export interface AgentEvent {
  /**
   * The event's type as its upper-case name: STEP_START, STEP_END, MEMORY_COMPRESS, COMPACT_FAILED, TOOL_CALL, TOOL_RESULT, FINAL_OUTPUT, ERROR, or another an implementation adds (EVT-1).
   */
  type: string;
  /**
   * The event's message, exact for the events EVT-4 names (e.g. 'compacted', 'lifecycle hook failed: <name>').
   */
  message: string | null;
  /**
   * The step of the run, counting from 0 within one run; null outside a run (a manual compaction, the start and end of a session).
   */
  step: number | null;
  payload?: unknown;
  /**
   * The id of the session the event belongs to (SES-17).
   */
  sessionId: string;
}
