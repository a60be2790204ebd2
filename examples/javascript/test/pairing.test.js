// Tool calls and tool results in the three wire formats (SPEC.md §1.4), how they pair and the
// units they form (§1.5, PAIR-1 to PAIR-4).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactJson, isUserInput, pairProblems, pairing, parseJson, toolResults } from '../src/index.js';

/** @typedef {import('../src/json.js').JsonValue} JsonValue */

/**
 * Items from JSON text.
 * @param {string} text a JSON array
 * @returns {JsonValue[]}
 */
const items = (text) => /** @type {JsonValue[]} */ (parseJson(text));

describe('tool results (§1.4)', () => {
  it('recognises the three shapes, in order, and only string call ids', () => {
    const found = items(`[
      {"type":"function_call_output","call_id":"a","output":"x","role":"tool"},
      {"role":"tool","tool_call_id":"b","content":[{"type":"tool_result","tool_use_id":"z"}]},
      {"role":"user","content":[{"type":"text","text":"t"},{"type":"tool_result","tool_use_id":"c"},{"type":"tool_result","tool_use_id":7}]},
      {"role":"tool","tool_call_id":null},
      {"content":"tool_result"},
      "function_call_output"
    ]`).map((item) => toolResults(item).map(({ callId, shape, part, outputKey }) => ({ callId, shape, part, outputKey })));
    assert.deepEqual(found, [
      [{ callId: 'a', shape: 'responses', part: null, outputKey: 'output' }],
      [{ callId: 'b', shape: 'chat', part: null, outputKey: 'content' }],
      [
        { callId: 'c', shape: 'anthropic', part: 1, outputKey: 'content' },
        { callId: null, shape: 'anthropic', part: 2, outputKey: 'content' },
      ],
      [{ callId: null, shape: 'chat', part: null, outputKey: 'content' }],
      [],
      [],
    ]);
  });

  it('a user message that only delivers results is no user input item', () => {
    const [input, carrier, chatUser, result] = items(`[
      {"role":"user","content":[{"type":"input_text","text":"go"}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]},
      {"role":"user","content":"plain"},
      {"type":"function_call_output","role":"user","call_id":"c","output":"o"}
    ]`);
    assert.deepEqual([input, carrier, chatUser, result].map(isUserInput), [true, false, true, false]);
  });
});

describe('pairing (PAIR-1 to PAIR-3)', () => {
  it('pairs each shape by call id and makes a unit of a call with all its results', () => {
    const source = items(`[
      {"role":"user","content":"go"},
      {"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"read"}},{"id":"c2","name":"grep"}]},
      {"role":"tool","tool_call_id":"c1","content":"1"},
      {"role":"tool","tool_call_id":"c2","content":"2"},
      {"role":"assistant","content":[{"type":"text","text":"t"},{"type":"tool_use","id":"t1","name":"grep"}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"3"}]},
      {"type":"reasoning","id":"rs"},
      {"type":"function_call","call_id":"f1","name":"a"},
      {"type":"function_call","call_id":"f2","name":"b"},
      {"type":"function_call_output","call_id":"f2","output":"5"},
      {"type":"function_call_output","call_id":"f1","output":"4"},
      {"role":"assistant","content":"done"}
    ]`);
    const { units, unitOf, results, calls } = pairing(source);
    assert.deepEqual(units, [[0], [1, 2, 3], [4, 5], [6, 7, 8, 9, 10], [11]]);
    assert.deepEqual(unitOf, [0, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 4]);
    assert.deepEqual(results.map(({ position, call }) => [position, call]), [[2, 1], [3, 1], [5, 4], [9, 8], [10, 7]]);
    assert.deepEqual(calls.map(({ position, call, results: answers }) => [position, call.id, call.shape, answers]), [
      [1, 'c1', 'chat', [2]],
      [1, 'c2', 'chat', [3]],
      [4, 't1', 'anthropic', [5]],
      [7, 'f1', 'responses', [10]],
      [8, 'f2', 'responses', [9]],
    ]);
  });

  it('makes orphans of results before their call, without an id or in the calling item', () => {
    const source = items(`[
      {"type":"function_call_output","call_id":"a","output":"early"},
      {"type":"function_call","call_id":"a","name":"f"},
      {"type":"function_call_output","output":"no id"},
      {"role":"assistant","content":[{"type":"tool_use","id":"b"},{"type":"tool_result","tool_use_id":"b"}]}
    ]`);
    const { results, calls, units } = pairing(source);
    assert.deepEqual(results.map(({ position, call }) => [position, call]), [[0, null], [2, null], [3, null]]);
    assert.deepEqual(calls.map(({ call, results: answers }) => [call.id, answers]), [['a', []], ['b', []]]);
    assert.deepEqual(units, [[0], [1], [2], [3]]);
  });

  it('lets a later call with the same id take over the results after it, across shapes', () => {
    const source = items(`[
      {"type":"function_call","call_id":"x","name":"f"},
      {"role":"tool","tool_call_id":"x","content":"first"},
      {"role":"assistant","content":[{"type":"tool_use","id":"x","name":"g"}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"x"},{"type":"tool_result","tool_use_id":"x"}]}
    ]`);
    const { results, calls, units } = pairing(source);
    assert.deepEqual(results.map(({ call }) => call), [0, 2, 2]);
    assert.deepEqual(calls.map(({ results: answers }) => answers), [[1], [3]]);
    assert.deepEqual(units, [[0, 1], [2, 3]]);
  });

  it('joins units that interleave, and passes over values that are not objects', () => {
    const source = items(`[
      {"type":"function_call","call_id":"a"},
      "text",
      {"role":"assistant","tool_calls":[{"id":"b"}, 3, {"id": 4}]},
      null,
      {"type":"function_call_output","call_id":"a"},
      [{"role":"tool","tool_call_id":"b"}],
      {"role":"tool","tool_call_id":"b"},
      {"type":"reasoning"},
      {"role":"assistant"},
      {"type":"reasoning"}
    ]`);
    assert.deepEqual(pairing(source).units, [[0, 4], [1], [2, 6], [3], [5], [7, 8], [9]]);
  });
});

describe('pairProblems (PAIR-4)', () => {
  const source = items(`[
    {"type":"function_call_output","call_id":"z","output":"orphan"},
    {"role":"assistant","tool_calls":[{"id":"c1"},{"id":"c2"}]},
    {"role":"tool","tool_call_id":"c1","content":"1"},
    {"role":"tool","tool_call_id":"c2","content":"2"},
    {"type":"function_call","call_id":"p","name":"pending"}
  ]`);

  it('accepts whole units, orphans and pending calls alone', () => {
    assert.deepEqual(pairProblems(source, [0, 1, 2, 3, 4]), []);
    assert.deepEqual(pairProblems(source, [0, 4]), []);
    assert.deepEqual(pairProblems(source, []), []);
  });

  it('names a result kept without its call and a call kept without all its results', () => {
    assert.deepEqual(pairProblems(source, [3]), ['the result of c2 at 3 is kept without its call at 1']);
    assert.deepEqual(pairProblems(source, [1, 2]), ['the call c2 at 1 is kept without its results at 3']);
  });

  it('changes nothing in the list it reads', () => {
    const before = compactJson(source);
    pairing(source);
    assert.equal(compactJson(source), before);
  });
});
