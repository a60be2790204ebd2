// File tracking (SPEC.md §12): which files the tool calls of a list read and modified. A tool
// is classified by the words of its name, never by substring, so `tools`, `details`, `format`
// and `location` are not file tools.

import { toolCalls } from './items.js';
import { MAX_JSON_DEPTH, isObject, javaTrim, tryParseJson } from './json.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./json.js').JsonObject} JsonObject */

/** A tool whose name has one of these words reads files. */
export const READ_TOOL_WORDS = new Set(['read', 'cat', 'grep', 'find', 'ls', 'head', 'tail', 'less', 'view']);
/** A tool whose name has one of these words modifies files. */
export const MODIFY_TOOL_WORDS = new Set(['write', 'edit', 'create', 'delete', 'mkdir', 'mv', 'rm', 'patch', 'save', 'append']);
/** The argument keys that may name a file, in the order they are read. */
export const PATH_KEYS = ['path', 'file', 'filename', 'filepath', 'file_path'];

// Separators: "_", "-", "." and the code points up to U+0020 (the spec's whitespace).
const SEPARATORS = /[_\-.\u0000-\u0020]+/;
// camelCase boundaries: lower or digit then upper ("readFile"), and the end of an acronym
// ("HTTPFile" is HTTP, File). ASCII only, so case rules do not depend on a locale.
const CAMEL_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

/**
 * The lower-cased words of a tool name (FIL-3): `readHTTPFile` is read, http, file.
 * @param {string} name
 * @returns {string[]}
 */
export function toolNameWords(name) {
  const words = [];
  for (const chunk of name.split(SEPARATORS)) {
    for (const word of chunk.split(CAMEL_BOUNDARY)) {
      if (word !== '') words.push(word.replace(/[A-Z]/g, (c) => c.toLowerCase()));
    }
  }
  return words;
}

/**
 * A path: non-empty, no line feed (it would break the line-based file sections), and one of
 * `/`, `.` or `\`.
 * @param {string} text
 * @returns {boolean}
 */
function isPath(text) {
  return text !== '' && !text.includes('\n') && /[/.\\]/.test(text);
}

/**
 * A call's arguments as an object: JSON text parsed strictly, or an object as it is.
 * @param {JsonValue | undefined} value
 * @returns {JsonObject | null}
 */
function argumentObject(value) {
  if (typeof value === 'string') {
    const parsed = tryParseJson(value, { maxDepth: MAX_JSON_DEPTH });
    return isObject(parsed) ? parsed : null;
  }
  return isObject(value) ? value : null;
}

/**
 * The files the tool calls of `items` read (`reads`) or modified (FIL-1 to FIL-7): for each
 * call whose name has a read (modify) word, the string values of the path keys of its
 * arguments, trimmed, that are paths; each once, in first-seen order.
 * @param {readonly JsonValue[]} items
 * @param {boolean} reads
 * @returns {string[]}
 */
export function extractFileOperations(items, reads) {
  const words = reads ? READ_TOOL_WORDS : MODIFY_TOOL_WORDS;
  /** @type {Set<string>} */
  const found = new Set();
  for (const item of items) {
    for (const call of toolCalls(item)) {
      if (call.name === null || !toolNameWords(call.name).some((word) => words.has(word))) continue;
      const args = argumentObject(call.arguments);
      if (args === null) continue;
      for (const key of PATH_KEYS) {
        const value = args.get(key);
        if (typeof value !== 'string') continue;
        const path = javaTrim(value);
        if (isPath(path)) found.add(path);
      }
    }
  }
  return [...found];
}
