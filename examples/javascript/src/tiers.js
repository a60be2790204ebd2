// Tier-1 (old tool results become placeholders, SPEC.md §7) and Tier-2 (old reasoning is
// trimmed, §8), as the type-aware and the pair-safe projectors run them on their working list.
// A tier never changes an item: every replacement is a newly built value, and whatever it
// leaves in place (other members, other content parts) is the caller's value itself.

import { isObject } from './json.js';
import { isReasoning, isUserInput, stringMember, toolCalls, toolResults } from './items.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./json.js').JsonObject} JsonObject */
/** @typedef {import('./items.js').ToolResultRef} ToolResultRef */
/** @typedef {import('./budget.js').ResolvedBudget} ResolvedBudget */

export const TOOL_RESULT_CLEARED = '[tool result cleared]';
export const PLACEHOLDER_PREFIX = '[tool result cleared: ';
export const REASONING_CLEARED_TEXT = '[reasoning cleared]';
const REASONING_PAYLOAD = new Set(['summary', 'content', 'text', 'encrypted_content']);

/**
 * The note of Tier-1 (T1-7).
 * @param {number} cleared
 * @param {number} kept
 */
export function tier1Note(cleared, kept) {
  return `tier1 microcompact: cleared ${cleared} old tool result(s), kept recent ${kept}`;
}

/**
 * The note of Tier-2 (T2-7).
 * @param {number} cleared
 */
export function tier2Note(cleared) {
  return `tier2 reasoning-trim: cleared ${cleared} reasoning item(s)`;
}

/**
 * Whether a value is a placeholder output (§1.4): `[tool result cleared]`, or a string that
 * starts with `[tool result cleared: ` and ends with `]`.
 * @param {JsonValue | undefined} output
 * @returns {boolean}
 */
export function isPlaceholderOutput(output) {
  return (
    typeof output === 'string' &&
    (output === TOOL_RESULT_CLEARED || (output.startsWith(PLACEHOLDER_PREFIX) && output.endsWith(']')))
  );
}

/**
 * The tool name of every call id: the name of the last tool call (in list order, and within
 * an item in the order of §1.4) that has both an id and a name (T1-5).
 * @param {readonly JsonValue[]} items
 * @returns {Map<string, string>}
 */
function toolNames(items) {
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const item of items) {
    for (const call of toolCalls(item)) {
      if (call.id !== null && call.name !== null) names.set(call.id, call.name);
    }
  }
  return names;
}

/**
 * The label of a cleared tool result (T1-5, T1-6): the name of its call id, else the result's
 * own string `name`; then `name(call id)`, `name`, `call id` or the bare form.
 * @param {string | null} callId
 * @param {JsonObject} holder the result's object (the item, or the result part)
 * @param {ReadonlyMap<string, string>} names
 * @returns {string}
 */
export function placeholderLabel(callId, holder, names) {
  const name = (callId === null ? undefined : names.get(callId)) ?? stringMember(holder, 'name');
  if (callId === null) return name === null ? TOOL_RESULT_CLEARED : `${PLACEHOLDER_PREFIX}${name}]`;
  return name === null ? `${PLACEHOLDER_PREFIX}${callId}]` : `${PLACEHOLDER_PREFIX}${name}(${callId})]`;
}

/**
 * A copy of an object with member `name` set to `value`: in its place when the object has
 * it, last otherwise.
 * @param {JsonObject} object
 * @param {string} name
 * @param {JsonValue} value
 * @returns {JsonObject}
 */
function withMember(object, name, value) {
  /** @type {JsonObject} */
  const copy = new Map(object);
  copy.set(name, value); // a Map keeps an existing key's position
  return copy;
}

/**
 * The placeholder item of a result item (T1-4): for a Responses `function_call_output` a new
 * `{type, call_id (only when it is a string), output: label}` and nothing else; for a Chat tool
 * message the message's members in order with `content` holding the label.
 * @param {JsonObject} item
 * @param {ReadonlyMap<string, string>} names
 * @returns {JsonObject}
 */
export function toolResultPlaceholder(item, names) {
  const [result] = toolResults(item);
  const label = placeholderLabel(result.callId, item, names);
  if (result.shape === 'chat') return withMember(item, 'content', label);
  /** @type {JsonObject} */
  const placeholder = new Map();
  placeholder.set('type', 'function_call_output');
  if (result.callId !== null) placeholder.set('call_id', result.callId);
  placeholder.set('output', label);
  return placeholder;
}

/**
 * The replacement of a result carrier (T1-4, T1-9): its members in order, `content` a new
 * array of its parts in order, the parts at `parts` standing as their placeholders (the part's
 * members with `content` holding the label) and every other part the carrier's own.
 * @param {JsonObject} carrier
 * @param {readonly ToolResultRef[]} parts the result parts to clear
 * @param {ReadonlyMap<string, string>} names
 * @returns {JsonObject}
 */
export function carrierPlaceholder(carrier, parts, names) {
  const content = /** @type {JsonValue[]} */ (carrier.get('content')).slice();
  for (const result of parts) {
    content[/** @type {number} */ (result.part)] = withMember(result.holder, 'content', placeholderLabel(result.callId, result.holder, names));
  }
  return withMember(carrier, 'content', content);
}

/**
 * Tier-1 (§7): every tool result of the list counts (result parts one by one, placeholders
 * included); all but the newest `keep` are candidates, and each candidate whose output is not
 * already a placeholder is cleared. The result item, or the carrier of the parts, is replaced.
 * @param {readonly JsonValue[]} items the working list
 * @param {number} keep K, `maxRecentToolResults`
 * @param {Map<number, JsonValue>} replaced where the new items go, by position
 * @returns {number} how many tool results were cleared (the N of T1-7)
 */
function tier1(items, keep, replaced) {
  /** @type {Array<[number, ToolResultRef]>} */
  const results = [];
  items.forEach((item, position) => {
    for (const result of toolResults(item)) results.push([position, result]);
  });
  /** @type {Map<number, ToolResultRef[]>} the results to clear, by position */
  const plan = new Map();
  let cleared = 0;
  for (const [position, result] of results.slice(0, Math.max(0, results.length - keep))) {
    if (isPlaceholderOutput(result.holder.get(result.outputKey))) continue;
    const parts = plan.get(position);
    if (parts === undefined) plan.set(position, [result]);
    else parts.push(result);
    cleared += 1;
  }
  if (cleared === 0) return 0;
  const names = toolNames(items);
  for (const [position, parts] of plan) {
    const item = /** @type {JsonObject} */ (items[position]);
    replaced.set(position, parts[0].part === null ? toolResultPlaceholder(item, names) : carrierPlaceholder(item, parts, names));
  }
  return cleared;
}

/** @returns {JsonValue[]} the summary of a cleared reasoning item */
function clearedSummary() {
  return [
    new Map([
      ['type', 'summary_text'],
      ['text', REASONING_CLEARED_TEXT],
    ]),
  ];
}

/**
 * Whether a reasoning item is in cleared form (T2-4): no `content`, `text` or
 * `encrypted_content`, and a `summary` equal to the cleared summary.
 * @param {JsonObject} item
 * @returns {boolean}
 */
export function isClearedReasoning(item) {
  if (item.has('content') || item.has('text') || item.has('encrypted_content')) return false;
  const summary = item.get('summary');
  if (!Array.isArray(summary) || summary.length !== 1) return false;
  const part = summary[0];
  return (
    isObject(part) &&
    part.size === 2 &&
    part.get('type') === 'summary_text' &&
    part.get('text') === REASONING_CLEARED_TEXT
  );
}

/**
 * The cleared item of a reasoning item (T2-6): its members in order without `summary`,
 * `content`, `text` and `encrypted_content`, then the cleared `summary`.
 * @param {JsonObject} item
 * @returns {JsonObject}
 */
export function clearedReasoning(item) {
  /** @type {JsonObject} */
  const cleared = new Map();
  for (const [name, value] of item) {
    if (!REASONING_PAYLOAD.has(name)) cleared.set(name, value);
  }
  cleared.set('summary', clearedSummary());
  return cleared;
}

/**
 * Tier-2 (§8) on the working list as Tier-1 left it: every reasoning item before the last
 * user input item that is not in cleared form is replaced by its cleared item. Without a user
 * input item the whole list is the current turn. (Tier-1 never makes or unmakes a user input
 * item, so the boundary is the source list's.)
 * @param {readonly JsonValue[]} items the source list
 * @param {Map<number, JsonValue>} replaced Tier-1's new items, and where Tier-2's go
 * @returns {number} how many reasoning items were cleared (the N of T2-7)
 */
function tier2(items, replaced) {
  /** @param {number} position */
  const working = (position) => replaced.get(position) ?? items[position];
  let boundary = 0;
  for (let i = items.length - 1; i >= 0; i -= 1) {
    if (isUserInput(working(i))) {
      boundary = i;
      break;
    }
  }
  let cleared = 0;
  for (let i = 0; i < boundary; i += 1) {
    const item = working(i);
    if (isReasoning(item) && !isClearedReasoning(item)) {
      replaced.set(i, clearedReasoning(item));
      cleared += 1;
    }
  }
  return cleared;
}

/**
 * Run the tiers the budget enables, Tier-1 then Tier-2 (T1-1, T2-1), on the source list:
 * the new items by position, and the tier notes (T1-7, T2-7).
 * @param {readonly JsonValue[]} items
 * @param {ResolvedBudget | null} budget
 * @returns {{notes: string[], replaced: Map<number, JsonValue>}}
 */
export function runTiers(items, budget) {
  /** @type {string[]} */
  const notes = [];
  /** @type {Map<number, JsonValue>} */
  const replaced = new Map();
  if (budget === null) return { notes, replaced };
  if (budget.maxRecentToolResults !== null) {
    const cleared = tier1(items, budget.maxRecentToolResults, replaced);
    if (cleared > 0) notes.push(tier1Note(cleared, budget.maxRecentToolResults));
  }
  if (budget.trimOldReasoning) {
    const cleared = tier2(items, replaced);
    if (cleared > 0) notes.push(tier2Note(cleared));
  }
  return { notes, replaced };
}
