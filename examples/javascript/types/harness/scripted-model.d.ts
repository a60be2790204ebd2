/* eslint-disable */
/**
 * Generated from schemas/harness/scripted-model.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answers of a scripted model client, one per call, in order.
 */
export interface ScriptedModel {
  /**
   * Call n gets element n: a ModelResult document to return, a ModelError to raise, or null to return no result. A call beyond the last raises.
   */
  responses: (ModelResult | ModelError | null)[];
}
/**
 * A model's answer.
 */
export interface ModelResult {
  /**
   * The answer's text, or null.
   */
  outputText?: string | null;
  /**
   * Items to append to memory (assistant messages, tool-call messages, reasoning).
   */
  memoryItems?: unknown[];
  /**
   * Tools to call before the next step; none means this is the final answer.
   */
  toolCalls?: ToolCall[];
}
/**
 * A tool call the model requested.
 */
export interface ToolCall {
  /**
   * The call's id; its tool result carries it as call_id.
   */
  callId: string;
  /**
   * The tool's name.
   */
  name: string;
  /**
   * The arguments as JSON text.
   */
  arguments: string;
}
/**
 * A scripted model call that raises instead of answering.
 */
export interface ModelError {
  /**
   * The message of the error the scripted model raises.
   */
  error: string;
}
