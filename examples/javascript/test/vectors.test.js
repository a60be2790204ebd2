// The language-neutral vectors of conformance/vectors/ that this implementation covers:
// project, project_pair_safe, approx_chars, turn_boundary_cut, extract_file_operations,
// parse_summary and render_summary. A file that does
// not exist (yet) is skipped. Files are read with the module's own parser, so `1` and `1.0` stay apart.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  DefaultContextProjector,
  PairSafeContextProjector,
  TypeAwareContextProjector,
  approxChars,
  compactJson,
  isObject,
  parseJson,
  pairing,
  parseStructuredSummary,
  readBudget,
  extractFileOperations,
  renderStructuredSummary,
  turnBoundaryCut,
} from '../src/index.js';

/** @typedef {import('../src/json.js').JsonValue} JsonValue */
/** @typedef {import('../src/json.js').JsonObject} JsonObject */
/** @typedef {import('../types/index.js').StructuredSummary} StructuredSummary */

const VECTORS = new URL('../../../conformance/vectors/', import.meta.url);

/**
 * @param {JsonValue | undefined} value
 * @returns {JsonObject}
 */
function object(value) {
  assert.ok(isObject(value), 'expected a JSON object');
  return value;
}

/**
 * A JSON value (from a vector) as a plain value: objects become plain objects, numbers
 * JavaScript numbers. For record documents only, whose members are strings, booleans and
 * small integers.
 * @param {JsonValue | undefined} value
 * @returns {any}
 */
function plain(value) {
  if (isObject(value)) return Object.fromEntries([...value].map(([name, member]) => [name, plain(member)]));
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Number(value.token);
  return value;
}

/**
 * The expected ContextProjection with the report's defaults filled in (JSON-15); index lists
 * that the vector does not report are taken from the actual report.
 * @param {JsonObject} expected
 * @param {import('../src/projection.js').ContextProjection} actual
 */
function expectedProjection(expected, actual) {
  const report = new Map(object(expected.get('report')));
  if (!report.has('notes')) report.set('notes', []);
  for (const name of ['droppedIndices', 'clearedIndices']) {
    const given = report.get(name);
    if (given === undefined || given === null) {
      report.set(name, /** @type {any} */ (actual.report)[name]);
    }
  }
  return new Map([['items', expected.get('items') ?? null], ['report', report]]);
}

/** @type {Array<[string, JsonValue]>} */
const SUMMARY_DEFAULTS = [
  ['goal', null],
  ['completed', []],
  ['pending', []],
  ['decisions', []],
  ['errors', []],
  ['testResults', []],
  ['openQuestions', []],
  ['readFiles', []],
  ['modifiedFiles', []],
  ['parsed', true],
  ['text', ''],
];

/**
 * A StructuredSummary document with its defaults filled in, in the record's member order.
 * @param {JsonObject} document
 * @returns {JsonObject}
 */
function fullSummary(document) {
  return new Map(SUMMARY_DEFAULTS.map(([name, fallback]) => [name, document.get(name) ?? fallback]));
}

/** @type {Record<string, import('../src/projection.js').ContextProjector>} */
const projectors = {
  DefaultContextProjector: new DefaultContextProjector(),
  TypeAwareContextProjector: new TypeAwareContextProjector(),
};

/** @type {Record<string, (input: JsonObject, expected: JsonObject, features: string[]) => void>} */
const OPERATIONS = {
  project(input, expected, features) {
    const items = input.get('items');
    assert.ok(Array.isArray(items));
    const budget = readBudget(input.get('budget') ?? null);
    for (const [name, projector] of Object.entries(projectors)) {
      // A case that needs a tier is for the type-aware projector only.
      if (features.length > 0 && name === 'DefaultContextProjector') continue;
      const actual = projector.project(items, budget);
      assert.equal(compactJson(actual), compactJson(expectedProjection(expected, actual)), name);
    }
    // Where every unit is one item, or no limit is set, the pair-safe projector gives the same
    // result: with tiers the type-aware one's, without them the default one's (PRJ-35).
    const singletons = pairing(items).units.every((unit) => unit.length === 1);
    const limited = budget !== null && (budget.maxItems !== null || budget.maxApproxChars !== null);
    if (singletons || !limited) {
      for (const tiers of features.length > 0 ? [true] : [true, false]) {
        const actual = new PairSafeContextProjector({ tiers }).project(items, budget);
        assert.equal(compactJson(actual), compactJson(expectedProjection(expected, actual)), `PairSafeContextProjector tiers ${tiers}`);
      }
    }
  },
  project_pair_safe(input, expected) {
    const items = input.get('items');
    assert.ok(Array.isArray(items));
    const tiers = input.get('tiers');
    assert.equal(typeof tiers, 'boolean');
    const budget = readBudget(input.get('budget') ?? null);
    const actual = new PairSafeContextProjector({ tiers: /** @type {boolean} */ (tiers) }).project(items, budget);
    assert.equal(compactJson(actual), compactJson(expectedProjection(expected, actual)));
  },
  approx_chars(input, expected) {
    const item = input.get('item');
    assert.ok(item !== undefined);
    assert.equal(approxChars(item), plain(expected.get('size')));
  },
  turn_boundary_cut(input, expected) {
    const items = input.get('items');
    assert.ok(Array.isArray(items));
    assert.equal(turnBoundaryCut(items, plain(input.get('naiveCut'))), plain(expected.get('cut')));
  },
  extract_file_operations(input, expected) {
    const items = input.get('items');
    assert.ok(Array.isArray(items));
    const reads = input.get('reads');
    assert.equal(typeof reads, 'boolean');
    assert.deepEqual(extractFileOperations(items, /** @type {boolean} */ (reads)), plain(expected.get('files')));
  },
  parse_summary(input, expected) {
    const text = input.get('text');
    assert.equal(typeof text, 'string');
    const actual = parseStructuredSummary(/** @type {string} */ (text));
    assert.equal(compactJson(actual, { wire: true }), compactJson(fullSummary(expected), { wire: true }));
  },
  render_summary(input, expected) {
    /** @type {StructuredSummary} */
    const summary = plain(input);
    assert.equal(renderStructuredSummary(summary), expected.get('text'));
  },
};

for (const [operation, run] of Object.entries(OPERATIONS)) {
  const file = new URL(`${operation}.json`, VECTORS);
  describe(`vectors: ${operation}.json`, { skip: !existsSync(file) && `${operation}.json does not exist yet` }, () => {
    if (!existsSync(file)) return;
    const document = object(parseJson(readFileSync(file, 'utf8'), { maxDepth: 1024 }));
    assert.equal(document.get('operation'), operation);
    const cases = document.get('cases');
    assert.ok(Array.isArray(cases));
    for (const entry of cases) {
      const vector = object(entry);
      const features = /** @type {string[]} */ (plain(vector.get('features') ?? []));
      it(`${vector.get('id')}: ${vector.get('description')}`, () => {
        run(object(vector.get('input')), object(vector.get('expected')), features);
      });
    }
  });
}
