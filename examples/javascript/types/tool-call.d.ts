/* eslint-disable */
/**
 * Generated from schemas/tool-call.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

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
