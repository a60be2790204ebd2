// The item shapes of SPEC.md §1.4: user items, tool results, tool calls, reasoning items.
// Only JSON objects have structure, and a member counts only when its value has the JSON type
// the rule asks for; any other item is passed over, never an error.

import { isObject } from './json.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./json.js').JsonObject} JsonObject */

/**
 * A tool call found in an item (§1.4 "tool call"): its id and name when they are strings.
 * @typedef {object} ToolCallRef
 * @property {string | null} id
 * @property {string | null} name
 */

/**
 * The value of member `name` of `item` when `item` is a JSON object and that value is a string.
 * @param {JsonValue} item
 * @param {string} name
 * @returns {string | null}
 */
export function stringMember(item, name) {
  if (!isObject(item)) return null;
  const value = item.get(name);
  return typeof value === 'string' ? value : null;
}

/**
 * A user item: a JSON object whose `role` is "user" (its `type` is not examined).
 * @param {JsonValue} item
 * @returns {item is JsonObject}
 */
export function isUserItem(item) {
  return stringMember(item, 'role') === 'user';
}

/**
 * A tool result: a JSON object whose `type` is "function_call_output".
 * @param {JsonValue} item
 * @returns {item is JsonObject}
 */
export function isToolResult(item) {
  return stringMember(item, 'type') === 'function_call_output';
}

/**
 * A reasoning item: a JSON object whose `type` is "reasoning".
 * @param {JsonValue} item
 * @returns {item is JsonObject}
 */
export function isReasoning(item) {
  return stringMember(item, 'type') === 'reasoning';
}

/**
 * The tool calls of a JSON value, in the order of §1.4: (a) a Responses `function_call`,
 * (b) an Anthropic `tool_use`, (c) each object of a Chat `tool_calls` array, (d) the tool calls
 * of each element of a `content` array, recursively.
 * @param {JsonValue} value
 * @param {ToolCallRef[]} [into] the list to append to
 * @returns {ToolCallRef[]}
 */
export function toolCalls(value, into = []) {
  if (!isObject(value)) return into;
  const type = stringMember(value, 'type');
  if (type === 'function_call') {
    into.push({ id: stringMember(value, 'call_id'), name: stringMember(value, 'name') });
  } else if (type === 'tool_use') {
    into.push({ id: stringMember(value, 'id'), name: stringMember(value, 'name') });
  }
  const calls = value.get('tool_calls');
  if (Array.isArray(calls)) {
    for (const call of calls) {
      if (!isObject(call)) continue;
      let name = stringMember(call, 'name');
      if (name === null) {
        const fn = call.get('function');
        if (isObject(fn)) name = stringMember(fn, 'name');
      }
      into.push({ id: stringMember(call, 'id'), name });
    }
  }
  const content = value.get('content');
  if (Array.isArray(content)) {
    for (const part of content) toolCalls(part, into);
  }
  return into;
}
