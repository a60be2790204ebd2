// How the tool calls and tool results of one list pair up, and the units a pair-keeping
// selection works on (SPEC.md §1.5, PAIR-1 to PAIR-3), in all three wire formats and in lists
// that mix them. One pass over the list; nothing here reads more than §1.4 names, so odd items
// are units of their own and never an error.

import { isFunctionCall, isReasoning, stringMember, toolCalls, toolResults } from './items.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./items.js').ToolCallRef} ToolCallRef */
/** @typedef {import('./items.js').ToolResultRef} ToolResultRef */

/**
 * A tool result of the list and the position of its call (PAIR-1): the latest earlier
 * position that declares a tool call with the result's call id; null for an orphan.
 * @typedef {object} ResultLink
 * @property {number} position
 * @property {ToolResultRef} result
 * @property {number | null} call
 */

/**
 * A tool call of the list and the positions of its results (PAIR-2), ascending and without
 * repetition; none for a pending call.
 * @typedef {object} CallLink
 * @property {number} position
 * @property {ToolCallRef} call
 * @property {number[]} results
 */

/**
 * The pairing of a list. `results` and `calls` are in list order (within an item in the order
 * of §1.4). `units` partition the positions (PAIR-3): each unit is its positions in ascending
 * order, and the units are ordered by their first position; `unitOf[p]` is the index in
 * `units` of the unit of position p.
 * @typedef {object} Pairing
 * @property {ResultLink[]} results
 * @property {CallLink[]} calls
 * @property {number[][]} units
 * @property {number[]} unitOf
 */

/**
 * Whether position p and the next one are in one unit by PAIR-3 (b) or (c): two adjacent
 * `function_call` items (the parallel calls of a Responses step), or a reasoning item and the
 * `function_call` item or assistant message right after it (the output it produced).
 * @param {JsonValue} item
 * @param {JsonValue} next
 */
function joinsNext(item, next) {
  if (isFunctionCall(next)) return isFunctionCall(item) || isReasoning(item);
  return isReasoning(item) && stringMember(next, 'role') === 'assistant';
}

/**
 * Sets of positions that only ever merge; a set is named by its smallest position.
 */
class Partition {
  /** @param {number} count */
  constructor(count) {
    /** @type {number[]} */
    this.parent = Array.from({ length: count }, (_, position) => position);
  }

  /** @param {number} position */
  root(position) {
    const parent = this.parent;
    let root = position;
    while (parent[root] !== root) root = parent[root];
    while (parent[position] !== root) [parent[position], position] = [root, parent[position]];
    return root;
  }

  /**
   * @param {number} a
   * @param {number} b
   */
  join(a, b) {
    const ra = this.root(a);
    const rb = this.root(b);
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }
}

/**
 * Pair the tool results of a list with their calls and group its positions into units
 * (PAIR-1 to PAIR-3). A result is read before the calls of its own item are declared, so a
 * call never answers a result at its own position; a later call that reuses an id takes over
 * the results after it.
 * @param {readonly JsonValue[]} items
 * @returns {Pairing}
 */
export function pairing(items) {
  const count = items.length;
  const partition = new Partition(count);
  /** @type {Map<string, number>} the latest position that declares a call with the id */
  const latest = new Map();
  /** @type {ResultLink[]} */
  const results = [];
  /** @type {CallLink[]} */
  const calls = [];
  /** @type {Map<number, Map<string, number[]>>} result positions by call position and id */
  const answered = new Map();
  for (let position = 0; position < count; position += 1) {
    const item = items[position];
    for (const result of toolResults(item)) {
      const call = result.callId === null ? undefined : latest.get(result.callId);
      results.push({ position, result, call: call ?? null });
      if (call === undefined || result.callId === null) continue;
      partition.join(call, position);
      let byId = answered.get(call);
      if (byId === undefined) answered.set(call, (byId = new Map()));
      const positions = byId.get(result.callId);
      if (positions === undefined) byId.set(result.callId, [position]);
      else if (positions[positions.length - 1] !== position) positions.push(position);
    }
    for (const call of toolCalls(item)) {
      calls.push({ position, call, results: [] });
      if (call.id !== null) latest.set(call.id, position);
    }
    if (position + 1 < count && joinsNext(item, items[position + 1])) partition.join(position, position + 1);
  }
  for (const link of calls) {
    if (link.call.id !== null) link.results = answered.get(link.position)?.get(link.call.id)?.slice() ?? [];
  }
  /** @type {number[][]} */
  const units = [];
  /** @type {number[]} */
  const unitOf = [];
  /** @type {Map<number, number>} unit index by root */
  const indexOf = new Map();
  for (let position = 0; position < count; position += 1) {
    const root = partition.root(position);
    let index = indexOf.get(root);
    if (index === undefined) {
      index = units.length;
      indexOf.set(root, index);
      units.push([]);
    }
    units[index].push(position);
    unitOf.push(index);
  }
  return { results, calls, units, unitOf };
}

/**
 * Whether an output keeps the pairs of its source (PAIR-4): every result of the source that
 * has a call is represented only with its call, and every represented call with all its
 * results. Orphans and pending calls constrain nothing; a result part is represented with its
 * carrier.
 * @param {readonly JsonValue[]} source
 * @param {Iterable<number>} represented the source positions the output represents
 * @returns {string[]} what breaks the rule, one line per pair; empty when the pairs are kept
 */
export function pairProblems(source, represented) {
  const kept = new Set(represented);
  const { results, calls } = pairing(source);
  /** @type {string[]} */
  const problems = [];
  for (const link of results) {
    if (link.call !== null && kept.has(link.position) && !kept.has(link.call)) {
      problems.push(`the result of ${link.result.callId} at ${link.position} is kept without its call at ${link.call}`);
    }
  }
  for (const link of calls) {
    if (!kept.has(link.position)) continue;
    const lost = link.results.filter((position) => !kept.has(position));
    if (lost.length > 0) {
      problems.push(`the call ${link.call.id} at ${link.position} is kept without its results at ${lost.join(', ')}`);
    }
  }
  return problems;
}
