// The two exact projectors (SPEC.md §5 to §8): DefaultContextProjector keeps a pinned prefix
// and the recent tail under the budget's limits; TypeAwareContextProjector first replaces old
// tool results (Tier-1) and old reasoning (Tier-2). Neither changes the list or any item it is
// given: a replaced position gets a newly built item.

import { resolveBudget } from './budget.js';
import { isObject } from './json.js';
import { isReasoning, isToolResult, isUserItem, stringMember, toolCalls } from './items.js';
import { approxChars } from './size.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./json.js').JsonObject} JsonObject */
/** @typedef {import('./budget.js').ContextBudget} ContextBudget */
/** @typedef {import('./budget.js').ResolvedBudget} ResolvedBudget */
/** @typedef {import('../types/context-report.js').ContextReport} ContextReport */
/** @typedef {import('../types/context-projection.js').ContextProjection} ContextProjectionDocument */

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
export const TOOL_RESULT_CLEARED = '[tool result cleared]';
export const PLACEHOLDER_PREFIX = '[tool result cleared: ';
export const REASONING_CLEARED_TEXT = '[reasoning cleared]';
const REASONING_PAYLOAD = new Set(['summary', 'content', 'text', 'encrypted_content']);

/**
 * The note of Tier-1 (T1-7).
 * @param {number} cleared
 * @param {number} kept
 */
export function tier1Note(cleared, kept) {
  return `tier1 microcompact: cleared ${cleared} old tool result(s), kept recent ${kept}`;
}

/**
 * The note of Tier-2 (T2-7).
 * @param {number} cleared
 */
export function tier2Note(cleared) {
  return `tier2 reasoning-trim: cleared ${cleared} reasoning item(s)`;
}

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
  const sourceSizes = source.map(approxChars);
  const sizes = replaced.size === 0 ? sourceSizes : sourceSizes.slice();
  for (const [position, item] of replaced) sizes[position] = approxChars(item);

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
  const keptSet = new Set(keptPositions);
  const droppedIndices = [];
  for (let i = 0; i < count; i += 1) if (!keptSet.has(i)) droppedIndices.push(i);
  const clearedIndices = keptPositions.filter((position) => replaced.has(position));
  let sourceApproxChars = 0;
  for (const size of sourceSizes) sourceApproxChars += size;
  let projectedApproxChars = 0;
  for (const position of keptPositions) projectedApproxChars += sizes[position];
  const items = keptPositions.map((position) =>
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
      itemLimitApplied,
      characterLimitApplied,
      notes,
      droppedIndices,
      clearedIndices,
    },
  };
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
 * Whether a value is a placeholder output (§1.4): `[tool result cleared]`, or a string that
 * starts with `[tool result cleared: ` and ends with `]`.
 * @param {JsonValue | undefined} output
 * @returns {boolean}
 */
export function isPlaceholderOutput(output) {
  return (
    typeof output === 'string' &&
    (output === TOOL_RESULT_CLEARED || (output.startsWith(PLACEHOLDER_PREFIX) && output.endsWith(']')))
  );
}

/**
 * The tool name of every call id: the name of the last tool call (in list order, and within
 * an item in the order of §1.4) that has both an id and a name (T1-5).
 * @param {readonly JsonValue[]} items
 * @returns {Map<string, string>}
 */
function toolNames(items) {
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const item of items) {
    for (const call of toolCalls(item)) {
      if (call.id !== null && call.name !== null) names.set(call.id, call.name);
    }
  }
  return names;
}

/**
 * The placeholder item of a tool result (T1-4 to T1-6): `type`, `call_id` when the result has
 * a string one, and `output`, the label.
 * @param {JsonObject} result
 * @param {Map<string, string>} names
 * @returns {JsonObject}
 */
export function toolResultPlaceholder(result, names) {
  const callId = stringMember(result, 'call_id');
  let name = callId === null ? undefined : names.get(callId);
  if (name === undefined) name = stringMember(result, 'name') ?? undefined;
  /** @type {JsonObject} */
  const placeholder = new Map();
  placeholder.set('type', 'function_call_output');
  if (callId !== null) {
    placeholder.set('call_id', callId);
    placeholder.set(
      'output',
      name === undefined ? `${PLACEHOLDER_PREFIX}${callId}]` : `${PLACEHOLDER_PREFIX}${name}(${callId})]`,
    );
  } else {
    placeholder.set('output', name === undefined ? TOOL_RESULT_CLEARED : `${PLACEHOLDER_PREFIX}${name}]`);
  }
  return placeholder;
}

/** @returns {JsonValue[]} the summary of a cleared reasoning item */
function clearedSummary() {
  return [
    new Map([
      ['type', 'summary_text'],
      ['text', REASONING_CLEARED_TEXT],
    ]),
  ];
}

/**
 * Whether a reasoning item is in cleared form (T2-4): no `content`, `text` or
 * `encrypted_content`, and a `summary` equal to the cleared summary.
 * @param {JsonObject} item
 * @returns {boolean}
 */
export function isClearedReasoning(item) {
  if (item.has('content') || item.has('text') || item.has('encrypted_content')) return false;
  const summary = item.get('summary');
  if (!Array.isArray(summary) || summary.length !== 1) return false;
  const part = summary[0];
  return (
    isObject(part) &&
    part.size === 2 &&
    part.get('type') === 'summary_text' &&
    part.get('text') === REASONING_CLEARED_TEXT
  );
}

/**
 * The cleared item of a reasoning item (T2-6): its members in order without `summary`,
 * `content`, `text` and `encrypted_content`, then the cleared `summary`.
 * @param {JsonObject} item
 * @returns {JsonObject}
 */
export function clearedReasoning(item) {
  /** @type {JsonObject} */
  const cleared = new Map();
  for (const [name, value] of item) {
    if (!REASONING_PAYLOAD.has(name)) cleared.set(name, value);
  }
  cleared.set('summary', clearedSummary());
  return cleared;
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
    /** @type {string[]} */
    const notes = [];
    /** @type {Map<number, JsonValue>} */
    const replaced = new Map();
    if (resolved === null) return runStages(source, resolved, notes, replaced);

    const keep = resolved.maxRecentToolResults;
    if (keep !== null) {
      const results = [];
      for (let i = 0; i < source.length; i += 1) if (isToolResult(source[i])) results.push(i);
      /** @type {Map<string, string> | undefined} */
      let names;
      let cleared = 0;
      for (const position of results.slice(0, Math.max(0, results.length - keep))) {
        const result = /** @type {JsonObject} */ (source[position]);
        if (isPlaceholderOutput(result.get('output'))) continue;
        names ??= toolNames(source);
        replaced.set(position, toolResultPlaceholder(result, names));
        cleared += 1;
      }
      if (cleared > 0) notes.push(tier1Note(cleared, keep));
    }

    if (resolved.trimOldReasoning) {
      let boundary = 0;
      for (let i = source.length - 1; i >= 0; i -= 1) {
        // The list as Tier-1 left it: a replaced tool result has no role.
        if (isUserItem(source[i]) && !replaced.has(i)) {
          boundary = i;
          break;
        }
      }
      let cleared = 0;
      for (let i = 0; i < boundary; i += 1) {
        const item = source[i];
        if (isReasoning(item) && !isClearedReasoning(item)) {
          replaced.set(i, clearedReasoning(item));
          cleared += 1;
        }
      }
      if (cleared > 0) notes.push(tier2Note(cleared));
    }
    return runStages(source, resolved, notes, replaced);
  }
}
