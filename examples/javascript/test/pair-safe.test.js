// PairSafeContextProjector (SPEC.md §5.5): the worked example, and the properties of PAIR-4 to
// PAIR-7, PRJ-3, PRJ-7, PRJ-9, PRJ-12, PRJ-30 and PRJ-35 on seeded random transcripts in every
// wire format, with budgets at the edges of their units.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DefaultContextProjector,
  InvalidBudgetError,
  PairSafeContextProjector,
  TypeAwareContextProjector,
  approxChars,
  compactJson,
  pairProblems,
  pairing,
  parseJson,
  resolveBudget,
  unitsOf,
} from '../src/index.js';
import { edgeBudget, randomSource, transcript } from './transcripts.js';

/** @typedef {import('../src/json.js').JsonValue} JsonValue */
/** @typedef {import('../types/index.js').ContextBudget} ContextBudget */
/** @typedef {import('../src/projection.js').ContextProjection} ContextProjection */

/**
 * Items from JSON text.
 * @param {string} text a JSON array
 * @returns {JsonValue[]}
 */
const items = (text) => /** @type {JsonValue[]} */ (parseJson(text));

const pairSafe = new PairSafeContextProjector();
const withoutTiers = new PairSafeContextProjector({ tiers: false });

const WORKED_EXAMPLE = `[
  {"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]},
  {"type":"message","role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"grep","arguments":"{}"}}]},
  {"type":"message","role":"tool","tool_call_id":"c1","content":"alpha"},
  {"type":"message","role":"tool","tool_call_id":"c2","content":"beta"},
  {"type":"message","role":"user","content":[{"type":"input_text","text":"next"}]}
]`;

describe('PairSafeContextProjector worked example (§5.5)', () => {
  const source = items(WORKED_EXAMPLE);

  it('passes over the step that does not fit beside the newest item', () => {
    const projection = pairSafe.project(source, { maxItems: 3 });
    assert.deepEqual(projection.items, [source[0], source[4]]);
    assert.deepEqual(projection.report.droppedIndices, [1, 2, 3]);
    assert.deepEqual(projection.report.notes, ['maxItems applied: 3']);
    assert.equal(projection.report.projectedApproxChars, 158);
    // The default projector keeps a tool message without its call.
    const byItem = new DefaultContextProjector().project(source, { maxItems: 3 });
    assert.deepEqual(byItem.report.droppedIndices, [0, 1]);
    assert.deepEqual(pairProblems(source, [2, 3, 4]), [
      'the result of c1 at 2 is kept without its call at 1',
      'the result of c2 at 3 is kept without its call at 1',
    ]);
  });

  it('keeps the step whole after Tier-1 cleared one of its tool messages', () => {
    const projection = pairSafe.project(source, { maxRecentToolResults: 1, maxItems: 4 });
    assert.equal(compactJson(projection.items[1]), '{"type":"message","role":"tool","tool_call_id":"c1","content":"[tool result cleared: read(c1)]"}');
    assert.deepEqual(projection.report.droppedIndices, [0]);
    assert.deepEqual(projection.report.clearedIndices, [2]);
    assert.deepEqual(projection.report.notes, ['tier1 microcompact: cleared 1 old tool result(s), kept recent 1', 'maxItems applied: 4']);
  });

  it('drops a newest unit that does not fit, and says so (PAIR-7)', () => {
    const projection = pairSafe.project(source.slice(0, 4), { maxItems: 2 });
    assert.deepEqual(projection.items, [source[0]]);
    assert.deepEqual(projection.report.notes, ['maxItems applied: 2', 'newest unit dropped: 3 item(s) do not fit maxItems 2']);
  });

  it('without tiers ignores the tier fields, and still checks the budget (PRJ-30, BUD-4)', () => {
    const projection = withoutTiers.project(source, { maxRecentToolResults: 0, trimOldReasoning: true, maxItems: 4 });
    assert.deepEqual(projection.report.clearedIndices, []);
    assert.deepEqual(projection.report.notes, ['maxItems applied: 4']);
    assert.throws(() => withoutTiers.project(source, { maxRecentToolResults: -1 }), InvalidBudgetError);
    assert.deepEqual(withoutTiers.project(null).items, []);
  });
});

/**
 * The number of items of the pinned units taken in list order, each while it fits (PAIR-7's w).
 * @param {ReturnType<typeof unitsOf>} units
 * @param {number | null} maxItems
 */
function pinnedTaken(units, maxItems) {
  let taken = 0;
  units.members.forEach((positions, unit) => {
    if (units.pinned[unit] && (maxItems === null || taken + positions.length <= maxItems)) taken += positions.length;
  });
  return taken;
}

/**
 * Every problem a pair-safe projection has, by the clauses it must keep, for one source list
 * and budget; empty when there is none.
 * @param {readonly JsonValue[]} source
 * @param {ContextBudget} budget
 * @param {ContextProjection} projection
 * @returns {string[]}
 */
function problems(source, budget, projection) {
  const found = [];
  const { report } = projection;
  const b = /** @type {import('../src/budget.js').ResolvedBudget} */ (resolveBudget(budget));
  const dropped = new Set(report.droppedIndices);
  const represented = source.map((_, position) => position).filter((position) => !dropped.has(position));
  // PRJ-7, RPT-7: a selection in order; an unreplaced item is the caller's value itself.
  if (represented.length !== projection.items.length) found.push('PRJ-7: droppedIndices do not match the output');
  const cleared = new Set(report.clearedIndices);
  represented.forEach((position, index) => {
    const same = projection.items[index] === source[position];
    if (same === cleared.has(position)) found.push(`RPT-7: position ${position} is ${same ? 'identical but cleared' : 'replaced but not cleared'}`);
  });
  // PAIR-4, PAIR-5: pairs kept; and more, every unit kept or dropped whole.
  found.push(...pairProblems(source, represented).map((problem) => `PAIR-4: ${problem}`));
  const units = unitsOf(source, b.pinnedPrefixItems);
  for (const positions of units.members) {
    const kept = positions.filter((position) => !dropped.has(position)).length;
    if (kept !== 0 && kept !== positions.length) found.push(`PRJ-30: unit ${positions} is split`);
  }
  // PRJ-9.
  if (b.maxItems !== null && projection.items.length > b.maxItems) found.push('PRJ-9: too many items');
  // PAIR-6.
  const pinnedUnits = units.members.filter((_, unit) => units.pinned[unit]);
  const pinnedCount = pinnedUnits.reduce((total, positions) => total + positions.length, 0);
  if (b.maxApproxChars === null && (b.maxItems === null || pinnedCount <= b.maxItems)) {
    for (const positions of pinnedUnits) if (dropped.has(positions[0])) found.push(`PAIR-6: pinned unit ${positions} dropped`);
  }
  const first = units.members[0];
  if (b.pinnedPrefixItems >= 1 && source.length >= 1 && (b.maxItems === null || first.length <= b.maxItems) && b.maxApproxChars !== 0 && dropped.has(0)) {
    found.push('PAIR-6: the unit of position 0 dropped');
  }
  // PAIR-7: the newest unit, and the note when it is dropped where one item would have fit.
  if (source.length > 0 && !units.pinned[units.newest] && b.maxApproxChars !== 0) {
    const newest = units.members[units.newest];
    const room = b.maxItems === null ? Infinity : b.maxItems - pinnedTaken(units, b.maxItems);
    const isDropped = dropped.has(newest[0]);
    if (isDropped && newest.length <= room) found.push('PAIR-7: the newest unit fits but was dropped');
    const note = `newest unit dropped: ${newest.length} item(s) do not fit maxItems ${b.maxItems}`;
    if (report.notes.includes(note) !== (isDropped && room >= 1)) found.push(`PAIR-7: note ${report.notes.includes(note) ? 'without' : 'missing for'} a dropped newest unit`);
  }
  // PRJ-12.
  let sourceChars = 0;
  for (const item of source) sourceChars += approxChars(item);
  let projectedChars = 0;
  for (const item of projection.items) projectedChars += approxChars(item);
  const consistent =
    report.sourceItemCount === source.length &&
    report.projectedItemCount === projection.items.length &&
    report.droppedItemCount === source.length - projection.items.length &&
    report.sourceApproxChars === sourceChars &&
    report.projectedApproxChars === projectedChars &&
    (b.maxItems !== null || !report.itemLimitApplied) &&
    (b.maxApproxChars !== null || !report.characterLimitApplied) &&
    (!(report.itemLimitApplied || report.characterLimitApplied) || report.droppedItemCount > 0);
  if (!consistent) found.push('PRJ-12: the report does not match the output');
  return found;
}

describe('PairSafeContextProjector properties (PAIR-4 to PAIR-7, PRJ-30 to PRJ-35)', () => {
  const CASES = 400;
  const typeAware = new TypeAwareContextProjector();
  const byItem = new DefaultContextProjector();

  for (const [name, projector, reference] of /** @type {const} */ ([
    ['with tiers', pairSafe, typeAware],
    ['without tiers', withoutTiers, byItem],
  ])) {
    it(`keeps every pair and every clause on ${CASES} random transcripts, ${name}`, () => {
      const random = randomSource(name === 'with tiers' ? 9 : 10);
      let singletons = 0;
      let droppedSome = 0;
      for (let n = 0; n < CASES; n += 1) {
        const source = transcript(random);
        const budget = edgeBudget(random, source);
        const before = compactJson(source);
        const projection = projector.project(source, budget);
        const context = `case ${n}: ${before} with ${JSON.stringify(budget)}`;
        assert.deepEqual(problems(source, budget, projection), [], context);
        assert.equal(compactJson(source), before, `PRJ-3, ${context}`);
        assert.equal(compactJson(projector.project(source, budget)), compactJson(projection), `PRJ-4, ${context}`);
        if (pairing(source).units.every((unit) => unit.length === 1)) {
          singletons += 1;
          assert.equal(compactJson(projection), compactJson(reference.project(source, budget)), `PRJ-35, ${context}`);
        }
        if (projection.report.droppedItemCount > 0) droppedSome += 1;
      }
      // The generator reaches both kinds of list, and budgets that drop something.
      assert.ok(singletons > 20 && singletons < CASES - 100, `${singletons} lists of single-item units`);
      assert.ok(droppedSome > CASES / 4, `${droppedSome} projections dropped something`);
    });
  }

  it('finds the orphan a per-item projector leaves, so the property can fail', () => {
    const random = randomSource(9);
    const byItemProjector = new DefaultContextProjector();
    let orphaned = 0;
    for (let n = 0; n < CASES; n += 1) {
      const source = transcript(random);
      const budget = edgeBudget(random, source);
      if (problems(source, budget, byItemProjector.project(source, budget)).some((problem) => problem.startsWith('PAIR-4'))) orphaned += 1;
    }
    assert.ok(orphaned > 20, `${orphaned} cases`);
  });

  it('equals the type-aware projector when no limit is set, whatever the units (PRJ-30)', () => {
    const random = randomSource(11);
    for (let n = 0; n < 100; n += 1) {
      const source = transcript(random);
      const budget = { ...edgeBudget(random, source), maxItems: null, maxApproxChars: null };
      assert.equal(compactJson(pairSafe.project(source, budget)), compactJson(typeAware.project(source, budget)));
    }
  });
});
