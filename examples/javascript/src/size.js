// The approximate size of items (SPEC.md §3): code points, never bytes or UTF-16 units.

import { codePointLength, compactJson } from './json.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */

/**
 * The approximate size of one item: a string counts its own code points (SIZE-1), null counts
 * 0 (SIZE-3), anything else the code points of its compact JSON text (SIZE-2).
 * @param {JsonValue} item
 * @returns {number}
 */
export function approxChars(item) {
  if (typeof item === 'string') return codePointLength(item);
  if (item === null) return 0;
  return codePointLength(compactJson(item));
}

/**
 * The size of a list of items: the sum of their sizes (SIZE-5).
 * @param {Iterable<JsonValue>} items
 * @returns {number}
 */
export function totalApproxChars(items) {
  let total = 0;
  for (const item of items) total += approxChars(item);
  return total;
}
