// The item shapes of SPEC.md §1.4: user items, tool calls and tool results in the three wire
// formats (Responses, Chat, Anthropic), user input items, reasoning items. Only JSON objects
// have structure, and a member counts only when its value has the JSON type the rule asks for;
// any other item is passed over, never an error.

import { isObject } from './json.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./json.js').JsonObject} JsonObject */

/**
 * The wire format a tool call or a tool result is written in (§1.4 "shape").
 * @typedef {'responses' | 'chat' | 'anthropic'} Shape
 */

/**
 * A tool call found in an item (§1.4 "tool call"): its id and name when they are strings.
 * @typedef {object} ToolCallRef
 * @property {string | null} id
 * @property {string | null} name
 * @property {JsonValue | undefined} arguments its `arguments`, or else its `input` (absent: undefined)
 * @property {Shape} shape
 */

/**
 * A tool result found in an item (§1.4 "tool result"): the item itself (`part` null), or the
 * `tool_result` part at index `part` of its `content` array (the item is then a carrier).
 * @typedef {object} ToolResultRef
 * @property {string | null} callId its call id, when that is a string
 * @property {Shape} shape
 * @property {number | null} part
 * @property {JsonObject} holder the object that holds the result's members: the item or the part
 * @property {'output' | 'content'} outputKey the member that holds the tool's output
 */

/**
 * The value of member `name` of `item` when `item` is a JSON object and that value is a string.
 * @param {JsonValue | undefined} item
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
 * @param {JsonValue | undefined} item
 * @returns {item is JsonObject}
 */
export function isUserItem(item) {
  return stringMember(item, 'role') === 'user';
}

/**
 * A result item: a Responses `function_call_output` item, or else a Chat tool message (a JSON
 * object whose `role` is "tool").
 * @param {JsonValue | undefined} item
 * @returns {item is JsonObject}
 */
export function isResultItem(item) {
  if (stringMember(item, 'type') === 'reasoning') return false;
  return stringMember(item, 'type') === 'function_call_output' || stringMember(item, 'role') === 'tool';
}

/**
 * The tool results of an item, in order (§1.4): one for a result item; otherwise one for each
 * JSON object of its `content` array whose `type` is "tool_result" (an Anthropic result part).
 * A reasoning item is never a tool result and carries none.
 * @param {JsonValue | undefined} item
 * @returns {ToolResultRef[]}
 */
export function toolResults(item) {
  if (!isObject(item) || stringMember(item, 'type') === 'reasoning') return [];
  if (stringMember(item, 'type') === 'function_call_output') {
    return [{ callId: stringMember(item, 'call_id'), shape: 'responses', part: null, holder: item, outputKey: 'output' }];
  }
  if (stringMember(item, 'role') === 'tool') {
    return [{ callId: stringMember(item, 'tool_call_id'), shape: 'chat', part: null, holder: item, outputKey: 'content' }];
  }
  const content = item.get('content');
  if (!Array.isArray(content)) return [];
  /** @type {ToolResultRef[]} */
  const results = [];
  content.forEach((part, index) => {
    if (stringMember(part, 'type') === 'tool_result') {
      const holder = /** @type {JsonObject} */ (part);
      results.push({ callId: stringMember(holder, 'tool_use_id'), shape: 'anthropic', part: index, holder, outputKey: 'content' });
    }
  });
  return results;
}

/**
 * Whether an item is or carries a tool result.
 * @param {JsonValue | undefined} item
 * @returns {boolean}
 */
export function holdsToolResult(item) {
  return toolResults(item).length > 0;
}

/**
 * A user input item: a user item that is neither a result item nor a result carrier, so a
 * turn the user started rather than a message that delivers tool results.
 * @param {JsonValue | undefined} item
 * @returns {item is JsonObject}
 */
export function isUserInput(item) {
  return isUserItem(item) && !holdsToolResult(item);
}

/**
 * A reasoning item: a JSON object whose `type` is "reasoning".
 * @param {JsonValue | undefined} item
 * @returns {item is JsonObject}
 */
export function isReasoning(item) {
  return stringMember(item, 'type') === 'reasoning';
}

/**
 * A Responses tool call item: a JSON object whose `type` is "function_call".
 * @param {JsonValue | undefined} item
 * @returns {item is JsonObject}
 */
export function isFunctionCall(item) {
  return stringMember(item, 'type') === 'function_call';
}

/**
 * The arguments of a call: its `arguments` member, or `input` when that is absent or null.
 * @param {JsonObject} source
 * @returns {JsonValue | undefined}
 */
function callArguments(source) {
  const value = source.get('arguments');
  return value === undefined || value === null ? source.get('input') : value;
}

/**
 * The tool calls of a JSON value, in the order of §1.4: (a) a Responses `function_call`,
 * (b) an Anthropic `tool_use`, (c) each object of a Chat `tool_calls` array, (d) the tool calls
 * of each element of a `content` array, recursively. A reasoning item declares none.
 * @param {JsonValue | undefined} value
 * @param {ToolCallRef[]} [into] the list to append to
 * @returns {ToolCallRef[]}
 */
export function toolCalls(value, into = []) {
  if (!isObject(value)) return into;
  const type = stringMember(value, 'type');
  if (type === 'reasoning') return into;
  if (type === 'function_call') {
    into.push({ id: stringMember(value, 'call_id'), name: stringMember(value, 'name'), arguments: callArguments(value), shape: 'responses' });
  } else if (type === 'tool_use') {
    into.push({ id: stringMember(value, 'id'), name: stringMember(value, 'name'), arguments: callArguments(value), shape: 'anthropic' });
  }
  const calls = value.get('tool_calls');
  if (Array.isArray(calls)) {
    for (const call of calls) {
      if (!isObject(call)) continue;
      let name = stringMember(call, 'name');
      let source = call;
      if (name === null) {
        const fn = call.get('function');
        if (isObject(fn)) {
          source = fn;
          name = stringMember(fn, 'name');
        }
      }
      into.push({ id: stringMember(call, 'id'), name, arguments: callArguments(source), shape: 'chat' });
    }
  }
  const content = value.get('content');
  if (Array.isArray(content)) {
    for (const part of content) toolCalls(part, into);
  }
  return into;
}
