// Seeded random transcripts for the property tests: the three wire formats, alone and mixed,
// with the oddities real memories hold (orphans, results before their calls, calls without
// results, reused and missing ids, values that are not objects), and budgets aimed at the
// edges of the units (a unit's size, one below and one above, 0 and 1). Not a test file.

import { parseJson } from '../src/index.js';
import { pairing } from '../src/pairing.js';

/** @typedef {import('../src/json.js').JsonValue} JsonValue */
/** @typedef {import('../types/index.js').ContextBudget} ContextBudget */

/**
 * A pseudo-random source (mulberry32): the same seed gives the same sequence.
 * @param {number} seed
 */
export function randomSource(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    /** @param {number} low @param {number} high @returns {number} an integer in [low, high] */
    int: (low, high) => low + Math.floor(next() * (high - low + 1)),
    /** @template T @param {readonly T[]} options @returns {T} */
    pick: (options) => options[Math.floor(next() * options.length)],
    /** @param {number} [probability] */
    chance: (probability = 0.5) => next() < probability,
  };
}

/** @typedef {ReturnType<typeof randomSource>} Random */

const OUTPUTS = ['ok', '', 'a much longer tool output '.repeat(3), '[tool result cleared]', '[tool result cleared: old]'];
const ODDITIES = [
  'plain text',
  7,
  null,
  [1, { role: 'tool', tool_call_id: 'c1' }],
  { type: 'function_call_output', call_id: 'nobody', output: 'orphan' },
  { type: 'function_call_output', output: 'no call id' },
  { role: 'tool', tool_call_id: 5, content: 'numeric id' },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c2', content: 'early' }] },
  { type: 'reasoning', id: 'rs_x', content: [{ type: 'reasoning_text', text: 'raw' }] },
  { role: 'system', content: 'be brief' },
  { role: 'assistant', content: 'an answer' },
  { type: 'function_call', call_id: 'pending', name: 'wait' },
];

/**
 * One model step: optional reasoning, one to three calls in one shape (or a mixture), and
 * most of their results, in some order.
 * @param {Random} random
 * @param {{next: number}} ids
 * @returns {object[]}
 */
function step(random, ids) {
  /** @type {object[]} */
  const items = [];
  if (random.chance(0.3)) items.push({ type: 'reasoning', id: `rs_${ids.next}`, summary: [{ type: 'summary_text', text: 'plan' }] });
  const calls = [];
  for (let n = random.int(1, 3); n > 0; n -= 1) {
    ids.next += 1;
    // Now and then an id is reused, or empty.
    calls.push({ id: random.chance(0.1) ? random.pick(['c1', 'c2', '']) : `c${ids.next}`, name: random.pick(['read', 'grep', 'bash']) });
  }
  const shape = random.pick(['responses', 'chat', 'anthropic', 'mixed']);
  const answered = calls.filter(() => random.chance(0.85));
  if (random.chance(0.3)) answered.reverse();
  /** @param {{id: string, name: string}} call @param {string} as */
  const result = (call, as) => {
    const output = random.pick(OUTPUTS);
    if (as === 'responses') return { type: 'function_call_output', call_id: call.id, output };
    if (as === 'chat') return { type: 'message', role: 'tool', tool_call_id: call.id, content: output };
    return { type: 'message', role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: output }] };
  };
  if (shape === 'responses') {
    for (const call of calls) items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: '{}' });
    for (const call of answered) items.push(result(call, 'responses'));
  } else if (shape === 'chat') {
    items.push({ type: 'message', role: 'assistant', tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: '{}' } })) });
    for (const call of answered) items.push(result(call, 'chat'));
  } else if (shape === 'anthropic') {
    items.push({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'on it' }, ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: {} }))] });
    /** @type {object[]} */
    const parts = answered.map((call) => ({ type: 'tool_result', tool_use_id: call.id, content: random.pick(OUTPUTS) }));
    if (random.chance(0.3)) parts.push({ type: 'text', text: 'and a remark' });
    if (parts.length > 0) items.push({ type: 'message', role: 'user', content: parts });
  } else {
    items.push({ type: 'function_call', call_id: calls[0].id, name: calls[0].name });
    items.push({ role: 'assistant', tool_calls: calls.slice(1).map((call) => ({ id: call.id, name: call.name })) });
    for (const call of answered) items.push(result(call, random.pick(['responses', 'chat', 'anthropic'])));
  }
  return items;
}

/**
 * A transcript: turns of user input, tool-calling steps, answers and oddities.
 * @param {Random} random
 * @returns {JsonValue[]}
 */
export function transcript(random) {
  const ids = { next: 0 };
  /** @type {unknown[]} */
  const items = [];
  for (let turn = random.int(0, 4); turn > 0; turn -= 1) {
    if (random.chance(0.8)) items.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'please' }] });
    for (let steps = random.int(0, 3); steps > 0; steps -= 1) {
      items.push(...step(random, ids));
      if (random.chance(0.2)) items.push(random.pick(ODDITIES));
    }
    if (random.chance(0.4)) items.push({ type: 'message', role: 'assistant', content: 'done' });
  }
  return /** @type {JsonValue[]} */ (parseJson(JSON.stringify(items)));
}

/**
 * A budget for the transcript, its item limit often at the edge of one of its units.
 * @param {Random} random
 * @param {readonly JsonValue[]} items
 * @returns {ContextBudget}
 */
export function edgeBudget(random, items) {
  const sizes = pairing(items).units.map((unit) => unit.length);
  const edges = [0, 1, items.length, Math.max(0, items.length - 1), ...sizes, ...sizes.map((size) => size + 1), ...sizes.map((size) => Math.max(0, size - 1))];
  const chars = JSON.stringify(items).length;
  return {
    maxItems: random.chance(0.2) ? null : random.chance(0.6) ? random.pick(edges) : random.int(0, items.length + 1),
    maxApproxChars: random.chance(0.6) ? null : random.pick([0, 1, random.int(0, chars + 5)]),
    pinnedPrefixItems: random.int(0, 3),
    maxRecentToolResults: random.chance(0.5) ? null : random.int(0, 4),
    trimOldReasoning: random.chance(0.5),
  };
}
