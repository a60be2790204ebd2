// The projectors against the worked examples of SPEC.md §5.3, §5.4 and §8, the properties
// of §5.1 and §5.4 (PRJ-3, PRJ-28, PRJ-29), and Tier-1 and Tier-2 on every shape of tool
// result (§7, §8).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DefaultContextProjector,
  InvalidBudgetError,
  TypeAwareContextProjector,
  compactJson,
  parseJson,
} from '../src/index.js';

/** @typedef {import('../src/json.js').JsonValue} JsonValue */
/** @typedef {import('../types/index.js').ContextBudget} ContextBudget */

const defaultProjector = new DefaultContextProjector();
const typeAware = new TypeAwareContextProjector();

/**
 * Items from JSON text.
 * @param {string} text a JSON array
 * @returns {JsonValue[]}
 */
const items = (text) => /** @type {JsonValue[]} */ (parseJson(text));

/**
 * The compact JSON text of a projection, for exact comparison.
 * @param {unknown} projection
 */
const text = (projection) => compactJson(projection);

/**
 * A full report with defaults for the members a row of the spec does not mention.
 * @param {object} fields
 */
const report = (fields) => ({
  sourceItemCount: 0,
  projectedItemCount: 0,
  droppedItemCount: 0,
  sourceApproxChars: 0,
  projectedApproxChars: 0,
  itemLimitApplied: false,
  characterLimitApplied: false,
  notes: [],
  droppedIndices: [],
  clearedIndices: [],
  ...fields,
});

/**
 * A tool result with an output of `count` times `x`.
 * @param {string} callId
 * @param {number} count
 */
const bigResult = (callId, count) =>
  `{"type":"function_call_output","call_id":"${callId}","output":"${'x'.repeat(count)}"}`;

describe('DefaultContextProjector worked examples (§5.3)', () => {
  /** @type {Array<[string, string, ContextBudget | null, string, object]>} */
  const rows = [
    [
      'pinned head and recent tail',
      '["system-summary","old-1","old-2","recent-1","recent-2"]',
      { maxItems: 3, pinnedPrefixItems: 1 },
      '["system-summary","recent-1","recent-2"]',
      { sourceItemCount: 5, projectedItemCount: 3, droppedItemCount: 2, sourceApproxChars: 40, projectedApproxChars: 30, itemLimitApplied: true, notes: ['maxItems applied: 3'], droppedIndices: [1, 2] },
    ],
    [
      'pinned prefix larger than maxItems',
      '["a","b","c","d","e"]',
      { maxItems: 3, pinnedPrefixItems: 5 },
      '["a","b","c"]',
      { sourceItemCount: 5, projectedItemCount: 3, droppedItemCount: 2, sourceApproxChars: 5, projectedApproxChars: 3, itemLimitApplied: true, notes: ['maxItems applied: 3'], droppedIndices: [3, 4] },
    ],
    [
      'maxItems 0',
      '["a","b","c","d","e"]',
      { maxItems: 0 },
      '[]',
      { sourceItemCount: 5, droppedItemCount: 5, sourceApproxChars: 5, itemLimitApplied: true, notes: ['maxItems applied: 0'], droppedIndices: [0, 1, 2, 3, 4] },
    ],
    ['empty source', '[]', { maxItems: 0 }, '[]', {}],
    [
      'character stage with a gap',
      `["AA","${'B'.repeat(10)}","${'D'.repeat(6)}"]`,
      { maxApproxChars: 9 },
      '["AA","DDDDDD"]',
      { sourceItemCount: 3, projectedItemCount: 2, droppedItemCount: 1, sourceApproxChars: 18, projectedApproxChars: 8, characterLimitApplied: true, notes: ['maxApproxChars applied: 9'], droppedIndices: [1] },
    ],
    [
      'a single item larger than the limit',
      `["${'x'.repeat(20)}"]`,
      { maxApproxChars: 5 },
      `["${'x'.repeat(20)}"]`,
      { sourceItemCount: 1, projectedItemCount: 1, sourceApproxChars: 20, projectedApproxChars: 20 },
    ],
    [
      'the first pinned item is always taken',
      `["${'P'.repeat(10)}","a","bb"]`,
      { maxApproxChars: 5, pinnedPrefixItems: 1 },
      `["${'P'.repeat(10)}","bb"]`,
      { sourceItemCount: 3, projectedItemCount: 2, droppedItemCount: 1, sourceApproxChars: 13, projectedApproxChars: 12, characterLimitApplied: true, notes: ['maxApproxChars applied: 5'], droppedIndices: [1] },
    ],
    ['empty strings fit a zero limit', '["",""]', { maxApproxChars: 0 }, '["",""]', { sourceItemCount: 2, projectedItemCount: 2 }],
    [
      'a zero limit drops everything',
      '["a","bb"]',
      { maxApproxChars: 0 },
      '[]',
      { sourceItemCount: 2, droppedItemCount: 2, sourceApproxChars: 3, characterLimitApplied: true, notes: ['maxApproxChars applied: 0'], droppedIndices: [0, 1] },
    ],
    [
      'goal and recent',
      '["goal","done","pending","decision","recent"]',
      { maxItems: 2, pinnedPrefixItems: 1 },
      '["goal","recent"]',
      { sourceItemCount: 5, projectedItemCount: 2, droppedItemCount: 3, sourceApproxChars: 29, projectedApproxChars: 10, itemLimitApplied: true, notes: ['maxItems applied: 2'], droppedIndices: [1, 2, 3] },
    ],
    [
      'four large tool results',
      `[${['call-1', 'call-2', 'call-3', 'call-4'].map((id) => bigResult(id, 200)).join(',')}]`,
      { maxApproxChars: 600 },
      `[${bigResult('call-3', 200)},${bigResult('call-4', 200)}]`,
      { sourceItemCount: 4, projectedItemCount: 2, droppedItemCount: 2, sourceApproxChars: 1048, projectedApproxChars: 524, characterLimitApplied: true, notes: ['maxApproxChars applied: 600'], droppedIndices: [0, 1] },
    ],
  ];
  for (const [name, source, budget, output, fields] of rows) {
    it(name, () => {
      for (const projector of [defaultProjector, typeAware]) {
        const projection = projector.project(items(source), budget);
        assert.equal(compactJson(projection.items), compactJson(parseJson(output)));
        assert.deepEqual(projection.report, report(fields));
      }
    });
  }

  it('without a budget returns the source list unchanged', () => {
    const source = items('["a",{"b":1.0},null,[2]]');
    const projection = defaultProjector.project(source, null);
    assert.deepEqual(projection.items, source);
    assert.equal(projection.report.notes.length, 0);
    assert.equal(defaultProjector.project(null).report.sourceItemCount, 0);
  });

  it('ignores the tier fields of the budget', () => {
    const source = items(`[${bigResult('a', 3)},${bigResult('b', 3)}]`);
    const projection = defaultProjector.project(source, { maxRecentToolResults: 0, trimOldReasoning: true });
    assert.equal(text(projection.items), text(source));
  });
});

// The worked example of §5.4 and §7.
const TIER1_SOURCE = `[
  {"type":"message","role":"assistant","tool_calls":[{"id":"call-1","type":"function","function":{"name":"read","arguments":"{\\"path\\":\\"a.txt\\"}"}}]},
  {"type":"function_call_output","call_id":"call-1","output":"alpha"},
  {"type":"function_call","call_id":"call-2","name":"grep","arguments":"{}"},
  {"type":"function_call_output","call_id":"call-2","output":"beta","status":"completed"},
  {"type":"function_call_output","call_id":"orphan","output":"gamma"},
  {"type":"function_call_output","output":"delta"},
  {"type":"function_call_output","call_id":"call-6","output":"[tool result cleared: x]"},
  {"type":"function_call_output","call_id":"call-7","output":"newest"}
]`;

describe('TypeAwareContextProjector (§5.4, §7, §8)', () => {
  it('Tier-1 worked example', () => {
    const source = items(TIER1_SOURCE);
    const projection = typeAware.project(source, { maxRecentToolResults: 1 });
    const expected = items(TIER1_SOURCE);
    expected[1] = parseJson('{"type":"function_call_output","call_id":"call-1","output":"[tool result cleared: read(call-1)]"}');
    expected[3] = parseJson('{"type":"function_call_output","call_id":"call-2","output":"[tool result cleared: grep(call-2)]"}');
    expected[4] = parseJson('{"type":"function_call_output","call_id":"orphan","output":"[tool result cleared: orphan]"}');
    expected[5] = parseJson('{"type":"function_call_output","output":"[tool result cleared]"}');
    assert.equal(text(projection.items), text(expected));
    assert.deepEqual(
      projection.report,
      report({
        sourceItemCount: 8,
        projectedItemCount: 8,
        sourceApproxChars: 645,
        projectedApproxChars: 725,
        notes: ['tier1 microcompact: cleared 4 old tool result(s), kept recent 1'],
        clearedIndices: [1, 3, 4, 5],
      }),
    );
    // The source is untouched (PRJ-3), and projecting again changes nothing (PRJ-29).
    assert.equal(text(source), text(items(TIER1_SOURCE)));
    const again = typeAware.project(projection.items, { maxRecentToolResults: 1 });
    assert.equal(text(again.items), text(projection.items));
    assert.deepEqual(again.report.notes, []);
    assert.deepEqual(again.report.clearedIndices, []);
  });

  it('Tier-1 before the character stage', () => {
    const source = items(`[${['call-1', 'call-2', 'call-3', 'call-4'].map((id) => bigResult(id, 200)).join(',')}]`);
    const projection = typeAware.project(source, { maxRecentToolResults: 1, maxApproxChars: 600 });
    assert.deepEqual(
      projection.report,
      report({
        sourceItemCount: 4,
        projectedItemCount: 4,
        sourceApproxChars: 1048,
        projectedApproxChars: 535,
        notes: ['tier1 microcompact: cleared 3 old tool result(s), kept recent 1'],
        clearedIndices: [0, 1, 2],
      }),
    );
    assert.equal(compactJson(projection.items[0]), '{"type":"function_call_output","call_id":"call-1","output":"[tool result cleared: call-1]"}');
  });

  it('a replaced item that a limit drops is only in droppedIndices (RPT-7)', () => {
    const source = items(`["head",${bigResult('a', 5)},${bigResult('b', 5)},"tail"]`);
    const projection = typeAware.project(source, { maxRecentToolResults: 0, maxItems: 2, pinnedPrefixItems: 1 });
    assert.deepEqual(projection.report.droppedIndices, [1, 2]);
    assert.deepEqual(projection.report.clearedIndices, []);
    assert.deepEqual(projection.report.notes, ['tier1 microcompact: cleared 2 old tool result(s), kept recent 0', 'maxItems applied: 2']);
  });

  it('Tier-1 takes the last named call and the result\'s own name (T1-5)', () => {
    const source = items(`[
      {"type":"function_call","call_id":"c","name":"first"},
      {"content":[{"type":"tool_use","id":"c","name":"second"},{"type":"tool_use","id":"c"}]},
      {"type":"function_call_output","call_id":"c","output":"1"},
      {"type":"function_call_output","call_id":"d","name":"own","output":"2","id":"x"},
      {"type":"function_call_output","name":"bare","output":"3"},
      {"type":"function_call_output","call_id":7,"output":"4"},
      {"type":"function_call_output","call_id":"z","output":"keep"}
    ]`);
    const projection = typeAware.project(source, { maxRecentToolResults: 1 });
    assert.deepEqual(
      projection.items.slice(2, 6).map((item) => compactJson(item)),
      [
        '{"type":"function_call_output","call_id":"c","output":"[tool result cleared: second(c)]"}',
        '{"type":"function_call_output","call_id":"d","output":"[tool result cleared: own(d)]"}',
        '{"type":"function_call_output","output":"[tool result cleared: bare]"}',
        '{"type":"function_call_output","output":"[tool result cleared]"}',
      ],
    );
  });

  it('Tier-2 worked example', () => {
    const source = items(`[
      {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"thinking about A"}],"encrypted_content":"gAAA"},
      {"type":"message","role":"user","content":[{"type":"input_text","text":"next"}]},
      {"type":"reasoning","id":"rs_2","summary":[]}
    ]`);
    const projection = typeAware.project(source, { trimOldReasoning: true });
    assert.equal(
      compactJson(projection.items[0]),
      '{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"[reasoning cleared]"}]}',
    );
    assert.equal(projection.items[2], source[2]);
    assert.deepEqual(
      projection.report,
      report({
        sourceItemCount: 3,
        projectedItemCount: 3,
        sourceApproxChars: 246,
        projectedApproxChars: 222,
        notes: ['tier2 reasoning-trim: cleared 1 reasoning item(s)'],
        clearedIndices: [0],
      }),
    );
    const withoutUser = typeAware.project([source[0], source[2]], { trimOldReasoning: true });
    assert.deepEqual(withoutUser.report.notes, []);
  });

  it('Tier-2 leaves the cleared form alone, whatever its member order (T2-4, T2-5)', () => {
    const source = items(`[
      {"type":"reasoning","summary":[{"text":"[reasoning cleared]","type":"summary_text"}],"id":"r"},
      {"type":"reasoning","summary":[{"type":"summary_text","text":"[reasoning cleared]"}],"text":"x"},
      {"role":"user"}
    ]`);
    const projection = typeAware.project(source, { trimOldReasoning: true });
    assert.equal(projection.items[0], source[0]);
    assert.deepEqual(projection.report.clearedIndices, [1]);
  });

  it('Tier-2 takes no result item for the boundary, cleared or not (T2-2)', () => {
    const source = items(`[
      {"type":"reasoning","id":"r","summary":[]},
      {"role":"user","content":"q"},
      {"type":"reasoning","id":"s","summary":[]},
      {"type":"function_call_output","role":"user","call_id":"c","output":"o"},
      {"type":"function_call_output","call_id":"d","output":"o"}
    ]`);
    const projection = typeAware.project(source, { maxRecentToolResults: 1, trimOldReasoning: true });
    assert.deepEqual(projection.report.clearedIndices, [0, 3]);
  });

  it('equals the default projector when the tiers replace nothing (PRJ-28)', () => {
    const source = items('["a",{"type":"function_call_output","call_id":"c","output":"[tool result cleared]"},"b"]');
    const budget = { maxRecentToolResults: 0, trimOldReasoning: true, maxItems: 2 };
    assert.equal(text(typeAware.project(source, budget)), text(defaultProjector.project(source, budget)));
  });

  it('rejects invalid budgets naming the field (BUD-4)', () => {
    assert.throws(() => typeAware.project([], { maxItems: -1 }), InvalidBudgetError);
    assert.throws(() => typeAware.project([], { pinnedPrefixItems: 1.5 }), /pinnedPrefixItems/);
  });
});

describe('Tier-1 in every shape (§7)', () => {
  it('keeps a Chat tool message\'s members in order, the label in content (T1-4)', () => {
    const source = items(`[
      {"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"read"}}]},
      {"role":"tool","tool_call_id":"c1","content":"long","name":"own","x":[1]},
      {"role":"tool","name":"fallback","tool_call_id":"c9"},
      {"role":"tool","tool_call_id":5,"content":"n"},
      {"role":"tool","tool_call_id":"c1","content":"newest"}
    ]`);
    const projection = typeAware.project(source, { maxRecentToolResults: 1 });
    assert.deepEqual(projection.items.slice(1, 4).map((item) => compactJson(item)), [
      '{"role":"tool","tool_call_id":"c1","content":"[tool result cleared: read(c1)]","name":"own","x":[1]}',
      // Without content the label comes last; the message's own name labels it.
      '{"role":"tool","name":"fallback","tool_call_id":"c9","content":"[tool result cleared: fallback(c9)]"}',
      // A tool_call_id that is no string is no call id, but it is a member and it stays.
      '{"role":"tool","tool_call_id":5,"content":"[tool result cleared]"}',
    ]);
    assert.equal(/** @type {Map<string, JsonValue>} */ (projection.items[1]).get('x'), /** @type {Map<string, JsonValue>} */ (source[1]).get('x'));
    assert.deepEqual(projection.report.clearedIndices, [1, 2, 3]);
    assert.equal(compactJson(source[1]), '{"role":"tool","tool_call_id":"c1","content":"long","name":"own","x":[1]}');
  });

  it('counts result parts one by one and rebuilds their carrier around them (T1-2, T1-9)', () => {
    const source = items(`[
      {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"grep"},{"type":"tool_use","id":"t2","name":"read"}]},
      {"role":"user","id":"m","content":[{"type":"text","text":"before"},{"type":"tool_result","tool_use_id":"t1","is_error":true},{"type":"tool_result","tool_use_id":"t2","content":"keep"}],"z":{}}
    ]`);
    const projection = typeAware.project(source, { maxRecentToolResults: 1 });
    const carrier = /** @type {Map<string, JsonValue>} */ (projection.items[1]);
    const original = /** @type {Map<string, JsonValue>} */ (source[1]);
    assert.equal(
      compactJson(carrier),
      '{"role":"user","id":"m","content":[{"type":"text","text":"before"},' +
        '{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"[tool result cleared: grep(t1)]"},' +
        '{"type":"tool_result","tool_use_id":"t2","content":"keep"}],"z":{}}',
    );
    const parts = /** @type {JsonValue[]} */ (carrier.get('content'));
    const originalParts = /** @type {JsonValue[]} */ (original.get('content'));
    assert.notEqual(parts, originalParts);
    assert.equal(parts[0], originalParts[0]);
    assert.equal(parts[2], originalParts[2]);
    assert.equal(carrier.get('z'), original.get('z'));
    assert.deepEqual(projection.report.notes, ['tier1 microcompact: cleared 1 old tool result(s), kept recent 1']);
    assert.deepEqual(projection.report.clearedIndices, [1]);
    assert.equal(compactJson(originalParts[1]), '{"type":"tool_result","tool_use_id":"t1","is_error":true}');
  });

  it('counts every shape towards K, in list order, and the note counts parts (T1-7)', () => {
    const source = items(`[
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"},{"type":"tool_result","tool_use_id":"b","content":"2"}]},
      {"role":"tool","tool_call_id":"c","content":"3"},
      {"type":"function_call_output","call_id":"d","output":"4"},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"e","content":"5"},{"type":"tool_result","tool_use_id":"f","content":"6"}]}
    ]`);
    const projection = typeAware.project(source, { maxRecentToolResults: 1 });
    assert.deepEqual(projection.report.notes, ['tier1 microcompact: cleared 5 old tool result(s), kept recent 1']);
    assert.deepEqual(projection.report.clearedIndices, [0, 1, 2, 3]);
    assert.equal(
      compactJson(projection.items[3]),
      '{"role":"user","content":[{"type":"tool_result","tool_use_id":"e","content":"[tool result cleared: e]"},{"type":"tool_result","tool_use_id":"f","content":"6"}]}',
    );
  });

  it('leaves placeholders of every shape alone, and a carrier whose results all are (T1-3, PRJ-29)', () => {
    const source = items(`[
      {"role":"tool","tool_call_id":"c","content":"[tool result cleared: x]"},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"[tool result cleared]"}]},
      {"type":"function_call_output","call_id":"d","output":"[tool result cleared: d]"}
    ]`);
    const projection = typeAware.project(source, { maxRecentToolResults: 0 });
    assert.deepEqual(projection.items, source);
    projection.items.forEach((item, index) => assert.equal(item, source[index]));
    assert.deepEqual(projection.report.notes, []);
  });

  it('projects its own output to itself, in every shape (PRJ-29)', () => {
    const source = items(`[
      {"role":"user","content":"go"},
      {"type":"reasoning","id":"r1","summary":[{"type":"summary_text","text":"think"}]},
      {"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"read"}}]},
      {"role":"tool","tool_call_id":"c1"},
      {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"grep"}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1"},{"type":"text","text":"t"}]},
      {"type":"function_call","call_id":"f1","name":"run"},
      {"type":"function_call_output","call_id":"f1","output":"o","status":"completed"},
      {"role":"user","content":"next"}
    ]`);
    const budget = { maxRecentToolResults: 0, trimOldReasoning: true };
    const first = typeAware.project(source, budget);
    assert.deepEqual(first.report.clearedIndices, [1, 3, 5, 7]);
    const again = typeAware.project(first.items, budget);
    assert.equal(text(again.items), text(first.items));
    assert.deepEqual(again.report.notes, []);
  });
});

describe('Tier-2 with every shape (§8)', () => {
  it('takes the last user input item for the boundary, not a message delivering results (T2-2)', () => {
    const source = items(`[
      {"type":"reasoning","id":"r0","summary":[]},
      {"role":"user","content":"plain chat input"},
      {"type":"reasoning","id":"r1","summary":[]},
      {"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f"}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"r"}]},
      {"type":"reasoning","id":"r2","summary":[]}
    ]`);
    const projection = typeAware.project(source, { trimOldReasoning: true });
    assert.deepEqual(projection.report.clearedIndices, [0]);
  });

  it('never takes a reasoning item for a tool result, so only Tier-2 replaces it (§1.4, PRJ-29)', () => {
    for (const odd of [
      '{"type":"reasoning","id":"r","content":[{"type":"tool_result","tool_use_id":"x","content":"a"}]}',
      '{"type":"reasoning","id":"r","role":"tool","tool_call_id":"x","content":"a"}',
    ]) {
      const source = items(`[${odd}, {"role":"user","content":"hi"}]`);
      const budget = { maxRecentToolResults: 0, trimOldReasoning: true };
      const projection = typeAware.project(source, budget);
      assert.equal(compactJson(projection.items[0]).includes('"content"'), false);
      assert.deepEqual(projection.report.notes, ['tier2 reasoning-trim: cleared 1 reasoning item(s)']);
      const again = typeAware.project(projection.items, budget);
      assert.equal(text(again.items), text(projection.items));
      assert.deepEqual(again.report.notes, []);
    }
  });
});
