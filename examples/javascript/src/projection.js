// Two of the exact projectors (SPEC.md §5 to §8), and the report every projector builds:
// DefaultContextProjector keeps a pinned prefix and the recent tail under the budget's limits;
// TypeAwareContextProjector first replaces old tool results (Tier-1) and old reasoning
// (Tier-2, both in tiers.js). Neither changes the list or any item it is given: a replaced
// position gets a newly built item. The pair-safe projector is in pair-safe.js.

import { resolveBudget } from './budget.js';
import { approxChars } from './size.js';
import { runTiers } from './tiers.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./budget.js').ContextBudget} ContextBudget */
/** @typedef {import('./budget.js').ResolvedBudget} ResolvedBudget */
/** @typedef {import('../types/index.js').ContextReport} ContextReport */
/** @typedef {import('../types/index.js').ContextProjection} ContextProjectionDocument */

/**
 * A projection: the items of this turn's prompt and the report of how they were chosen. Its
 * shape is the ContextProjection record, with items in the JsonValue model.
 * @typedef {Omit<ContextProjectionDocument, 'items' | 'report'> & {items: JsonValue[], report: Required<ContextReport>}} ContextProjection
 */

/**
 * A context projector (PRJ-1).
 * @typedef {object} ContextProjector
 * @property {(items: readonly JsonValue[] | null | undefined, budget?: ContextBudget | null) => ContextProjection} project
 */

export const MAX_ITEMS_NOTE = 'maxItems applied: ';
export const MAX_APPROX_CHARS_NOTE = 'maxApproxChars applied: ';

/**
 * The positions the item stage keeps of `count` items, or null when it keeps them all
 * (PRJ-14, PRJ-15): the first min(P, M) and the most recent, M in all.
 * @param {number} count
 * @param {number} maxItems
 * @param {number} pinned
 * @returns {number[] | null}
 */
export function itemStage(count, maxItems, pinned) {
  if (count <= maxItems) return null;
  const prefix = Math.min(pinned, maxItems);
  const kept = [];
  for (let i = 0; i < prefix; i += 1) kept.push(i);
  for (let i = count - (maxItems - prefix); i < count; i += 1) kept.push(i);
  return kept;
}

/**
 * The indices the character stage keeps of items with the given sizes, or null when it keeps
 * them all (PRJ-17 to PRJ-23): nothing changes when the total fits; a zero budget keeps
 * nothing; otherwise the greedy prefix pass, then the greedy tail pass from the newest item.
 * @param {readonly number[]} sizes
 * @param {number} maxChars
 * @param {number} pinned
 * @returns {number[] | null}
 */
export function charStage(sizes, maxChars, pinned) {
  const count = sizes.length;
  let total = 0;
  for (const size of sizes) total += size;
  if (total <= maxChars) return null;
  if (maxChars === 0) return [];
  const prefixCount = Math.min(pinned, count);
  let used = 0;
  const prefix = [];
  for (let i = 0; i < prefixCount; i += 1) {
    if (prefix.length === 0 || used + sizes[i] <= maxChars) {
      used += sizes[i];
      prefix.push(i);
    }
  }
  const tail = [];
  for (let i = count - 1; i >= prefixCount; i -= 1) {
    if (tail.length === 0 || used + sizes[i] <= maxChars) {
      used += sizes[i];
      tail.push(i);
    }
  }
  tail.reverse();
  const kept = prefix.concat(tail);
  return kept.length < count ? kept : null;
}

/**
 * The sizes (§3) of the working list: the source items' sizes, with those of the new items
 * the tiers built at their positions.
 * @param {readonly JsonValue[]} source
 * @param {ReadonlyMap<number, JsonValue>} replaced
 * @returns {{sourceSizes: number[], sizes: number[]}}
 */
export function workingSizes(source, replaced) {
  const sourceSizes = source.map(approxChars);
  const sizes = replaced.size === 0 ? sourceSizes : sourceSizes.slice();
  for (const [position, item] of replaced) sizes[position] = approxChars(item);
  return { sourceSizes, sizes };
}

/**
 * The projection of the working list that keeps `positions`, with its report (PRJ-12,
 * PRJ-27, RPT-1 to RPT-8): source figures from the caller's list, projected figures from the
 * output, `clearedIndices` the replaced positions that are kept.
 * @param {readonly JsonValue[]} source the caller's items
 * @param {{sourceSizes: readonly number[], sizes: readonly number[]}} measured see workingSizes
 * @param {readonly number[]} positions the kept positions, ascending
 * @param {ReadonlyMap<number, JsonValue>} replaced the new items the tiers built, by position
 * @param {{notes: string[], itemLimitApplied: boolean, characterLimitApplied: boolean}} outcome
 * @returns {ContextProjection}
 */
export function projectionOf(source, { sourceSizes, sizes }, positions, replaced, outcome) {
  const count = source.length;
  const keptSet = new Set(positions);
  const droppedIndices = [];
  for (let i = 0; i < count; i += 1) if (!keptSet.has(i)) droppedIndices.push(i);
  const clearedIndices = positions.filter((position) => replaced.has(position));
  let sourceApproxChars = 0;
  for (const size of sourceSizes) sourceApproxChars += size;
  let projectedApproxChars = 0;
  for (const position of positions) projectedApproxChars += sizes[position];
  const items = positions.map((position) =>
    replaced.has(position) ? /** @type {JsonValue} */ (replaced.get(position)) : source[position],
  );
  return {
    items,
    report: {
      sourceItemCount: count,
      projectedItemCount: items.length,
      droppedItemCount: count - items.length,
      sourceApproxChars,
      projectedApproxChars,
      itemLimitApplied: outcome.itemLimitApplied,
      characterLimitApplied: outcome.characterLimitApplied,
      notes: outcome.notes,
      droppedIndices,
      clearedIndices,
    },
  };
}

/**
 * Run the item stage and the character stage on the working list and build the report
 * (PRJ-13 to PRJ-27).
 * @param {readonly JsonValue[]} source the caller's items
 * @param {ResolvedBudget | null} budget
 * @param {string[]} notes the tier notes
 * @param {ReadonlyMap<number, JsonValue>} replaced the new items the tiers built, by position
 * @returns {ContextProjection}
 */
function runStages(source, budget, notes, replaced) {
  const count = source.length;
  const measured = workingSizes(source, replaced);
  const { sizes } = measured;

  /** @type {number[] | null} */
  let positions = null; // null: every position
  let itemLimitApplied = false;
  let characterLimitApplied = false;
  if (budget !== null && budget.maxItems !== null) {
    const kept = itemStage(count, budget.maxItems, budget.pinnedPrefixItems);
    if (kept !== null) {
      positions = kept;
      itemLimitApplied = true;
      notes.push(`${MAX_ITEMS_NOTE}${budget.maxItems}`);
    }
  }
  if (budget !== null && budget.maxApproxChars !== null) {
    const stage = positions;
    const stageSizes = stage === null ? sizes : stage.map((position) => sizes[position]);
    const kept = charStage(stageSizes, budget.maxApproxChars, budget.pinnedPrefixItems);
    if (kept !== null) {
      positions = stage === null ? kept : kept.map((index) => stage[index]);
      characterLimitApplied = true;
      notes.push(`${MAX_APPROX_CHARS_NOTE}${budget.maxApproxChars}`);
    }
  }
  const keptPositions = positions ?? source.map((_, index) => index);
  return projectionOf(source, measured, keptPositions, replaced, { notes, itemLimitApplied, characterLimitApplied });
}

/**
 * Keeps the pinned prefix and the most recent items within the budget's two limits (§5.3).
 * The tier fields of the budget are ignored. `clearedIndices` is always empty.
 * @implements {ContextProjector}
 */
export class DefaultContextProjector {
  /**
   * @param {readonly JsonValue[] | null | undefined} items the source list (null: empty)
   * @param {ContextBudget | null} [budget]
   * @returns {ContextProjection}
   */
  project(items, budget = null) {
    return runStages(items ?? [], resolveBudget(budget), [], new Map());
  }
}

/**
 * Tier-1 (§7) then Tier-2 (§8), then the limits of the default projector (PRJ-26 to PRJ-29).
 * @implements {ContextProjector}
 */
export class TypeAwareContextProjector {
  /**
   * @param {readonly JsonValue[] | null | undefined} items the source list (null: empty)
   * @param {ContextBudget | null} [budget]
   * @returns {ContextProjection}
   */
  project(items, budget = null) {
    const source = items ?? [];
    const resolved = resolveBudget(budget);
    const { notes, replaced } = runTiers(source, resolved);
    return runStages(source, resolved, notes, replaced);
  }
}
