/* eslint-disable */
/**
 * Generated from schemas/harness/memory-call-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Call one method of a agent memory created by memory_new. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface MemoryCallRequest {
  seq: unknown;
  /**
   * The command: memory_call.
   */
  cmd: 'memory_call';
  /**
   * The opaque handle the harness returned when it created the object.
   */
  handle: string;
  /**
   * The AgentMemory method to call (MEM-n). Arguments and results in JSON: add_user_input [value] -> null; add_output_items [items] -> null; add_tool_output [callId, output] -> null; get_items [] -> items; get_summary [] -> string or null; set_summary [summary] -> null; clear [] -> null; snapshot [] -> a MemorySnapshot document; restore [MemorySnapshot document] -> null.
   */
  method:
    | 'add_user_input'
    | 'add_output_items'
    | 'add_tool_output'
    | 'get_items'
    | 'get_summary'
    | 'set_summary'
    | 'clear'
    | 'snapshot'
    | 'restore';
  /**
   * The method's arguments, in order.
   */
  args: unknown[];
}
