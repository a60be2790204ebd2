/* eslint-disable */
/**
 * Generated from schemas/lifecycle-event.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * A point in a session's life, as a lifecycle hook receives it (EVT-3, EVT-8). Its payload is any JSON value, by type: the user input (SESSION_START), the final output or null (SESSION_END), a ModelPrompt document (BEFORE_MODEL_REQUEST), a ModelResult document (AFTER_MODEL_RESPONSE, AFTER_TURN), a ToolCall document (BEFORE_TOOL_CALL), the tool's output (AFTER_TOOL_CALL), a MemorySnapshot document (BEFORE_COMPACT), a CompactResult document (ON_COMPACT), or null.
 */
export interface LifecycleEvent {
  /**
   * The event's type as its upper-case name: BEFORE_COMPACT, ON_COMPACT, and the others an implementation has (the reference's: SESSION_START, SESSION_END, BEFORE_TURN, AFTER_TURN, BEFORE_MODEL_REQUEST, AFTER_MODEL_RESPONSE, BEFORE_TOOL_CALL, AFTER_TOOL_CALL; EVT-3).
   */
  type: string;
  /**
   * The event's message: 'auto' or 'manual' for BEFORE_COMPACT and ON_COMPACT (EVT-4), the tool's name for the tool events of the reference.
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
