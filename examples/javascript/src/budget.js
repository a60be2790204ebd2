// The context budget (SPEC.md §4): reading and checking one, from a document or from fields.

import { JsonNumber, isObject } from './json.js';

/** @typedef {import('../types/index.js').ContextBudget} ContextBudget */
/** @typedef {import('./json.js').JsonValue} JsonValue */

/**
 * A budget with every field given its default (BUD-1, BUD-2): what the projectors work from.
 * @typedef {object} ResolvedBudget
 * @property {number | null} maxItems
 * @property {number | null} maxApproxChars
 * @property {number} pinnedPrefixItems
 * @property {number | null} maxRecentToolResults
 * @property {boolean} trimOldReasoning
 */

const INTEGER_FIELDS = /** @type {const} */ ([
  'maxItems',
  'maxApproxChars',
  'pinnedPrefixItems',
  'maxRecentToolResults',
]);
const FIELDS = new Set([...INTEGER_FIELDS, 'trimOldReasoning']);

/** A budget field holds a value the spec does not allow (BUD-3, BUD-4, JSON-14). */
export class InvalidBudgetError extends Error {
  /** @param {string[]} violations each naming its JSON path */
  constructor(violations) {
    super(violations.join('\n'));
    this.name = 'InvalidBudgetError';
    this.violations = violations;
  }
}

/**
 * Give every field of a budget its value or default, checking it (BUD-1 to BUD-4). Integers
 * beyond 2^53 - 1 are held as 2^53 - 1: no list is that long, so no limit differs.
 * @param {ContextBudget | null | undefined} budget
 * @returns {ResolvedBudget | null}
 * @throws {InvalidBudgetError} a field is negative, not an integer, or unknown
 */
export function resolveBudget(budget) {
  if (budget == null) return null;
  /** @type {string[]} */
  const violations = [];
  for (const name of Object.keys(budget)) {
    if (!FIELDS.has(name)) violations.push(`$.${name}: unknown budget field`);
  }
  /**
   * @param {typeof INTEGER_FIELDS[number]} name
   * @param {boolean} nullable
   */
  const integer = (name, nullable) => {
    const value = budget[name];
    if (value === undefined || (value === null && nullable)) return nullable ? null : 0;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      violations.push(`$.${name}: ${String(value)} is not an integer`);
      return 0;
    }
    if (value < 0) {
      violations.push(`$.${name}: ${value} is less than the minimum of 0`);
      return 0;
    }
    return Math.min(value, Number.MAX_SAFE_INTEGER);
  };
  const resolved = {
    maxItems: integer('maxItems', true),
    maxApproxChars: integer('maxApproxChars', true),
    pinnedPrefixItems: /** @type {number} */ (integer('pinnedPrefixItems', false)),
    maxRecentToolResults: integer('maxRecentToolResults', true),
    trimOldReasoning: budget.trimOldReasoning === undefined ? false : budget.trimOldReasoning,
  };
  if (typeof resolved.trimOldReasoning !== 'boolean') {
    // Absent is false; null is not allowed (BUD-2).
    violations.push(`$.trimOldReasoning: ${String(resolved.trimOldReasoning)} is not a boolean`);
  }
  if (violations.length > 0) throw new InvalidBudgetError(violations);
  return resolved;
}

/**
 * Read a ContextBudget document (a parsed JSON value, or null for no budget) and check it
 * (JSON-14, BUD-2 to BUD-4). Numbers must be integers in the sense of JSON-5: `3.0` is not.
 * @param {JsonValue} document
 * @returns {ResolvedBudget | null}
 * @throws {InvalidBudgetError}
 */
export function readBudget(document) {
  if (document === null) return null;
  if (!isObject(document)) throw new InvalidBudgetError(['$: a budget must be an object or null']);
  /** @type {Record<string, unknown>} */
  const fields = Object.create(null); // so that a member named __proto__ is a field like any other
  /** @type {string[]} */
  const violations = [];
  for (const [name, value] of document) {
    if (value instanceof JsonNumber) {
      if (!value.isInteger) {
        violations.push(`$.${name}: ${value.token} is not an integer`);
        continue;
      }
      const big = BigInt(value.token);
      fields[name] = big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
    } else if (
      value !== null &&
      typeof value !== 'boolean' &&
      FIELDS.has(name)
    ) {
      violations.push(`$.${name}: ${typeof value === 'string' ? JSON.stringify(value) : 'a non-scalar value'} has the wrong type`);
    } else {
      fields[name] = value;
    }
  }
  if (violations.length > 0) throw new InvalidBudgetError(violations);
  return resolveBudget(/** @type {ContextBudget} */ (fields));
}
