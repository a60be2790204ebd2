// The forgiving summary parser and the Markdown rendering of a structured summary
// (SPEC.md §13). The parser reads whatever a summarizer model answered: a bare JSON object,
// one in a code fence, one between sentences, or none at all. It never throws, and its time
// is linear in the length of the answer.

import { compactJson, isBlank, isObject, javaTrim, tryParseJson } from './json.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./json.js').JsonObject} JsonObject */
/** @typedef {import('../types/index.js').StructuredSummary} StructuredSummaryDocument */

/**
 * A structured summary with every member present (the StructuredSummary record).
 * @typedef {Required<StructuredSummaryDocument>} StructuredSummary
 */

/** The six lists, in the order they are read and rendered, with their section titles. */
export const SUMMARY_LISTS = /** @type {const} */ ([
  ['completed', 'Progress'],
  ['pending', 'Pending'],
  ['decisions', 'Key Decisions'],
  ['errors', 'Errors'],
  ['testResults', 'Test Results'],
  ['openQuestions', 'Open Questions'],
]);

// A JSON object opens with "{", optional JSON whitespace, then a member name or "}"; a span
// that does not is prose in braces and cannot parse as an object, so it is not tried.
const OBJECT_OPENING = /\{[ \t\n\r]*["}]/y;

/**
 * The maximal balanced `{…}` spans of `text` from `begin`, in order, as [start, end] (PRS-4).
 * One pass: inside braces JSON strings are skipped whole (a brace in a string does not count,
 * a backslash skips the next character); outside every brace, quotes are prose. A span is
 * maximal when no balanced span encloses it, that is when the opener below it on the stack
 * was absent or is never closed: so when an opener closes, the spans recorded since it opened
 * are dropped (it encloses them), and the spans left at the end are exactly the maximal ones.
 * Each span is recorded and dropped at most once, so the scan is linear.
 * @param {string} text
 * @param {number} begin
 * @returns {Array<[number, number]>}
 */
function maximalSpans(text, begin) {
  /** @type {number[]} */
  const openers = []; // positions of the open braces
  /** @type {number[]} */
  const marks = []; // for each open brace, how many spans were recorded when it opened
  // The recorded spans: starts[k] and ends[k] for k < count.
  /** @type {number[]} */
  const starts = [];
  /** @type {number[]} */
  const ends = [];
  let count = 0;
  const length = text.length;
  let i = begin;
  scan: while (i < length) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      openers.push(i);
      marks.push(count);
    } else if (openers.length === 0) {
      // prose: only "{" matters
    } else if (c === 0x7d /* } */) {
      count = /** @type {number} */ (marks.pop());
      starts[count] = /** @type {number} */ (openers.pop());
      ends[count] = i;
      count += 1;
    } else if (c === 0x22 /* " */) {
      i += 1;
      for (;;) {
        if (i >= length) break scan; // an unterminated string: the rest is inside it
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) break;
        else i += 1;
      }
    }
    i += 1;
  }
  /** @type {Array<[number, number]>} */
  const spans = [];
  for (let k = 0; k < count; k += 1) spans.push([starts[k], ends[k]]);
  return spans;
}

/**
 * Strict JSON (JSON-7) that is an object, or null; never throws.
 * @param {string} text
 * @returns {JsonObject | null}
 */
function loadObject(text) {
  const value = tryParseJson(text);
  return isObject(value) ? value : null;
}

/**
 * The object of a model answer (PRS-3, PRS-4), or null when there is none.
 * @param {string} text the trimmed answer
 * @returns {JsonObject | null}
 */
function findObject(text) {
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first < 0 || last <= first) return null;
  const whole = loadObject(text.slice(first, last + 1));
  if (whole !== null) return whole;
  for (const [start, end] of maximalSpans(text, first)) {
    if (start === first && end === last) continue;
    OBJECT_OPENING.lastIndex = start;
    if (!OBJECT_OPENING.test(text)) continue;
    const found = loadObject(text.slice(start, end + 1));
    if (found !== null) return found;
  }
  return null;
}

/**
 * The text form of a JSON value (PRS-8): a string itself, anything else its compact JSON text
 * with number tokens as written (PRS-6).
 * @param {JsonValue} value
 * @returns {string}
 */
function textForm(value) {
  return typeof value === 'string' ? value : compactJson(value, { numbers: 'token' });
}

/**
 * The entries of one list member (PRS-9).
 * @param {JsonValue | undefined} value
 * @returns {string[]}
 */
function entries(value) {
  if (value === undefined || value === null) return [];
  const members = Array.isArray(value) ? value : [value];
  /** @type {string[]} */
  const found = [];
  for (const member of members) {
    if (member === null) continue;
    const entry = javaTrim(textForm(member));
    if (entry !== '') found.push(entry);
  }
  return found;
}

/**
 * A summary of nothing: `parsed` false, the given text, no goal, every list empty (PRS-5).
 * @param {string} text
 * @returns {StructuredSummary}
 */
function unparsed(text) {
  return {
    goal: null,
    completed: [],
    pending: [],
    decisions: [],
    errors: [],
    testResults: [],
    openQuestions: [],
    readFiles: [],
    modifiedFiles: [],
    parsed: false,
    text,
  };
}

/**
 * Read a summarizer model's answer into a StructuredSummary (PRS-1 to PRS-12).
 *
 * The answer is trimmed; the span from its first `{` to its last `}` is parsed as strict
 * JSON; when that is not an object, each maximal balanced `{…}` span is tried in order and the
 * first object wins. Without an object the result has `parsed` false and `text` the trimmed
 * answer. Never throws, and runs in time linear in the length of the answer.
 * @param {string} text
 * @returns {StructuredSummary}
 */
export function parseStructuredSummary(text) {
  let trimmed = '';
  try {
    trimmed = javaTrim(String(text));
    const found = findObject(trimmed);
    if (found === null) return unparsed(trimmed);
    const goalValue = found.get('goal');
    const goal =
      goalValue === undefined || goalValue === null ? null : javaTrim(textForm(goalValue)) || null;
    const lists = SUMMARY_LISTS.map(([key]) => entries(found.get(key)));
    return {
      goal,
      completed: lists[0],
      pending: lists[1],
      decisions: lists[2],
      errors: lists[3],
      testResults: lists[4],
      openQuestions: lists[5],
      readFiles: [],
      modifiedFiles: [],
      parsed: true,
      text: compactJson(found, { numbers: 'token' }),
    };
  } catch {
    // Nothing above throws for a string; this keeps the promise for anything else.
    return unparsed(trimmed);
  }
}

/**
 * @param {string} title
 * @param {readonly string[]} lines
 * @returns {string}
 */
function section(title, lines) {
  return `\n## ${title}\n${lines.map((line) => `- ${line}\n`).join('')}`;
}

/**
 * The Markdown text of a structured summary, the form stored as a memory's summary
 * (PRS-13, PRS-14). Absent members take their schema defaults.
 * @param {StructuredSummaryDocument} summary
 * @returns {string}
 */
export function renderStructuredSummary(summary) {
  const parts = [];
  const parsed = summary.parsed ?? true;
  if (parsed) {
    const goal = summary.goal ?? null;
    if (!isBlank(goal)) parts.push(`## Goal\n${javaTrim(/** @type {string} */ (goal))}\n`);
    for (const [key, title] of SUMMARY_LISTS) {
      const list = summary[key] ?? [];
      if (list.length > 0) parts.push(section(title, list));
    }
  }
  if (parts.length === 0) parts.push(`${summary.text ?? ''}\n`);
  if ((summary.readFiles ?? []).length > 0) parts.push(section('Files Read', summary.readFiles ?? []));
  if ((summary.modifiedFiles ?? []).length > 0) {
    parts.push(section('Files Modified', summary.modifiedFiles ?? []));
  }
  return javaTrim(parts.join(''));
}
