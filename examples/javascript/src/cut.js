// The turn-boundary cut (SPEC.md §11): where a compaction splits a memory into the summarized
// head and the kept tail, so that the head ends on a turn and no unit is split.

import { isUserInput } from './items.js';
import { pairing } from './pairing.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */

/**
 * For each cut 0..items.length, whether it separates some unit (PAIR-3): a unit from `low` to
 * `high` forbids every cut in low + 1 .. high. Linear, with a difference array.
 * @param {readonly JsonValue[]} items
 * @returns {boolean[]}
 */
function separatedCuts(items) {
  const { unitOf } = pairing(items);
  /** @type {Map<number, number>} the lowest and the highest position of each unit */
  const lowest = new Map();
  /** @type {Map<number, number>} */
  const highest = new Map();
  unitOf.forEach((unit, position) => {
    if (!lowest.has(unit)) lowest.set(unit, position);
    highest.set(unit, position);
  });
  const difference = new Array(items.length + 2).fill(0);
  for (const [unit, low] of lowest) {
    const high = /** @type {number} */ (highest.get(unit));
    if (high > low) {
      difference[low + 1] += 1;
      difference[high + 1] -= 1;
    }
  }
  const separated = [];
  let open = 0;
  for (let cut = 0; cut <= items.length; cut += 1) {
    open += difference[cut];
    separated.push(open > 0);
  }
  return separated;
}

/**
 * The cut of a compaction that would summarize the first `naiveCut` items (CUT-1 to CUT-6):
 * `naiveCut` clamped into [0, items.length]; 0 and items.length as they are; otherwise the
 * greatest i in [1, naiveCut] where items[i] is a user input and no unit is split, failing
 * that the greatest i that splits no unit, failing that 0.
 * @param {readonly JsonValue[]} items
 * @param {number} naiveCut
 * @returns {number}
 */
export function turnBoundaryCut(items, naiveCut) {
  const count = items.length;
  const cut = Math.min(Math.max(naiveCut, 0), count);
  if (cut === 0 || cut === count) return cut;
  const separated = separatedCuts(items);
  for (let index = cut; index > 0; index -= 1) {
    if (!separated[index] && isUserInput(items[index])) return index;
  }
  for (let index = cut; index > 0; index -= 1) {
    if (!separated[index]) return index;
  }
  return 0;
}
