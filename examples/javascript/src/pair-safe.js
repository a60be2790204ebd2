// PairSafeContextProjector (SPEC.md §5.5): the pinned prefix and the recent tail of the
// default projector, chosen by whole units (PAIR-3) instead of single items, so that no tool
// result loses its call and no call loses its results, in any of the three wire formats.

import { resolveBudget } from './budget.js';
import { pairing } from './pairing.js';
import { MAX_APPROX_CHARS_NOTE, MAX_ITEMS_NOTE, projectionOf, workingSizes } from './projection.js';
import { runTiers } from './tiers.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./budget.js').ContextBudget} ContextBudget */
/** @typedef {import('./projection.js').ContextProjection} ContextProjection */
/** @typedef {import('./projection.js').ContextProjector} ContextProjector */

/**
 * The units of a list as the stages see them (PRJ-31): each unit's positions (ascending),
 * the units in list order; whether each holds a pinned position; the unit of the last position.
 * @typedef {object} Units
 * @property {readonly (readonly number[])[]} members
 * @property {readonly boolean[]} pinned
 * @property {number} newest the index of the newest unit, -1 for an empty list
 */

/**
 * The note of a newest unit that the item stage dropped (PAIR-7, PRJ-32).
 * @param {number} count the newest unit's item count
 * @param {number} maxItems
 */
export function newestUnitDroppedNote(count, maxItems) {
  return `newest unit dropped: ${count} item(s) do not fit maxItems ${maxItems}`;
}

/**
 * Unit indices in recency order: by greatest position, the newest first (PRJ-31).
 * @param {Units} units
 * @param {readonly number[]} chosen
 * @returns {number[]}
 */
function byRecency(units, chosen) {
  const last = (/** @type {number} */ unit) => units.members[unit][units.members[unit].length - 1];
  return chosen.slice().sort((a, b) => last(b) - last(a));
}

/**
 * The unit item stage (PRJ-32), run when `maxItems` is set: null when every position fits;
 * otherwise the units taken (a prefix pass over the pinned units in list order, then a tail
 * pass over the others by recency, each unit taken while its item count fits what is left),
 * and whether the newest unit must be reported as dropped.
 * @param {Units} units
 * @param {number} count the number of positions
 * @param {number} maxItems M
 * @returns {{kept: number[], newestDropped: boolean} | null}
 */
export function unitItemStage(units, count, maxItems) {
  if (count <= maxItems) return null;
  if (maxItems === 0) return { kept: [], newestDropped: false };
  const all = units.members.map((_, unit) => unit);
  let left = maxItems;
  /** @type {number[]} */
  const kept = [];
  /** @param {number} unit */
  const take = (unit) => {
    const size = units.members[unit].length;
    if (size > left) return;
    kept.push(unit);
    left -= size;
  };
  for (const unit of all) if (units.pinned[unit]) take(unit);
  const leftAfterPrefix = left;
  for (const unit of byRecency(units, all.filter((unit) => !units.pinned[unit]))) take(unit);
  const newest = units.newest;
  const newestDropped = !units.pinned[newest] && !kept.includes(newest) && leftAfterPrefix >= 1;
  return { kept, newestDropped };
}

/**
 * The unit character stage (PRJ-33), run when `maxApproxChars` is set, on the units the item
 * stage kept: null when they fit; otherwise the units taken by a greedy prefix pass over the
 * pinned ones in list order and a greedy tail pass over the others by recency, where the first
 * unit of each pass is always taken. Null too when that takes every unit.
 * @param {Units} units
 * @param {readonly number[]} received unit indices
 * @param {readonly number[]} sizes the size of each unit
 * @param {number} maxChars C
 * @returns {number[] | null}
 */
export function unitCharStage(units, received, sizes, maxChars) {
  let total = 0;
  for (const unit of received) total += sizes[unit];
  if (total <= maxChars) return null;
  if (maxChars === 0) return [];
  const inListOrder = received.slice().sort((a, b) => a - b);
  let used = 0;
  /** @type {number[]} */
  const taken = [];
  const passes = [
    inListOrder.filter((unit) => units.pinned[unit]),
    byRecency(units, inListOrder.filter((unit) => !units.pinned[unit])),
  ];
  for (const pass of passes) {
    let first = true;
    for (const unit of pass) {
      if (first || used + sizes[unit] <= maxChars) {
        used += sizes[unit];
        taken.push(unit);
        first = false;
      }
    }
  }
  return taken.length < received.length ? taken : null;
}

/**
 * The units of a list with its pinned prefix of `pinnedPrefixItems` positions (PAIR-6,
 * PRJ-31): a unit is pinned when its first position is in the prefix.
 * @param {readonly JsonValue[]} items
 * @param {number} pinnedPrefixItems
 * @returns {Units}
 */
export function unitsOf(items, pinnedPrefixItems) {
  const { units, unitOf } = pairing(items);
  return {
    members: units,
    pinned: units.map((positions) => positions[0] < pinnedPrefixItems),
    newest: items.length === 0 ? -1 : unitOf[items.length - 1],
  };
}

/**
 * Keeps the pinned prefix and the recent tail in whole units, so that no pair is split
 * (PRJ-30 to PRJ-35, PAIR-5 to PAIR-7). With `tiers` (the default) Tier-1 and Tier-2 run first,
 * as in TypeAwareContextProjector; without, the budget's tier fields are ignored, as in
 * DefaultContextProjector. A unit is a tool call with all its results (Responses, Chat and
 * Anthropic shapes, also mixed), the parallel calls of one Responses step, or a reasoning item
 * with the output after it; anything else is a unit of its own, so on a list without tool calls
 * the result is the type-aware (or default) projector's. The report is exact.
 * @implements {ContextProjector}
 */
export class PairSafeContextProjector {
  /** @param {{tiers?: boolean}} [options] */
  constructor({ tiers = true } = {}) {
    /** @readonly */
    this.tiers = tiers;
  }

  /**
   * @param {readonly JsonValue[] | null | undefined} items the source list (null: empty)
   * @param {ContextBudget | null} [budget]
   * @returns {ContextProjection}
   */
  project(items, budget = null) {
    const source = items ?? [];
    const resolved = resolveBudget(budget);
    const { notes, replaced } = runTiers(source, this.tiers ? resolved : null);
    const measured = workingSizes(source, replaced);
    const outcome = { notes, itemLimitApplied: false, characterLimitApplied: false };
    const every = source.map((_, position) => position);
    if (resolved === null || (resolved.maxItems === null && resolved.maxApproxChars === null)) {
      return projectionOf(source, measured, every, replaced, outcome);
    }
    // The units are the source list's (PAIR-6, PRJ-31). The tiers keep every member pairing
    // reads (PRJ-30), so they are the working list's too, but for an odd reasoning item that
    // declares calls or carries results, whose content Tier-2 clears.
    const units = unitsOf(source, resolved.pinnedPrefixItems);
    let kept = units.members.map((_, unit) => unit);
    if (resolved.maxItems !== null) {
      const stage = unitItemStage(units, source.length, resolved.maxItems);
      if (stage !== null) {
        kept = stage.kept;
        outcome.itemLimitApplied = true;
        notes.push(`${MAX_ITEMS_NOTE}${resolved.maxItems}`);
        if (stage.newestDropped) {
          notes.push(newestUnitDroppedNote(units.members[units.newest].length, resolved.maxItems));
        }
      }
    }
    if (resolved.maxApproxChars !== null) {
      const sizes = units.members.map((positions) => {
        let size = 0;
        for (const position of positions) size += measured.sizes[position];
        return size;
      });
      const taken = unitCharStage(units, kept, sizes, resolved.maxApproxChars);
      if (taken !== null) {
        kept = taken;
        outcome.characterLimitApplied = true;
        notes.push(`${MAX_APPROX_CHARS_NOTE}${resolved.maxApproxChars}`);
      }
    }
    const positions = kept.flatMap((unit) => units.members[unit]).sort((a, b) => a - b);
    return projectionOf(source, measured, positions, replaced, outcome);
  }
}
