// The harness protocol (spec/HARNESS.md): one request line in, one response line out.
// harness.js runs it over stdin and stdout; tests call handleLine directly.

import { readFileSync } from 'node:fs';
import {
  DefaultContextProjector,
  JsonNumber,
  PairSafeContextProjector,
  TypeAwareContextProjector,
  approxChars,
  compactJson,
  extractFileOperations,
  isObject,
  parseJson,
  parseStructuredSummary,
  readBudget,
  renderStructuredSummary,
  turnBoundaryCut,
} from './index.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./json.js').JsonObject} JsonObject */
/** @typedef {import('../types/index.js').Started} Started */
/** @typedef {import('../types/index.js').Target} Target */
/** @typedef {import('../types/index.js').Errored} Errored */
/** @typedef {import('../types/index.js').Skipped} Skipped */
/** @typedef {import('./projection.js').ContextProjector} ContextProjector */

/** The protocol version this harness speaks. */
export const PROTOCOL_VERSION = 1;

// Requests are nested two levels above their items (request, items array); JSON-8 asks for
// items 256 deep, so the wire accepts more.
const WIRE_DEPTH = 1024;

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** @type {Target[]} */
const TARGETS = [
  {
    name: 'DefaultContextProjector',
    component: 'projector',
    claims: ['generic', 'exact'],
    options: { tiers: false },
  },
  { name: 'TypeAwareContextProjector', component: 'projector', claims: ['generic', 'exact'], options: {} },
  {
    name: 'PairSafeContextProjector',
    component: 'projector',
    claims: ['generic', 'pair-integrity', 'wire-valid', 'exact'],
    options: { pairSafe: true, providers: ['openai-responses', 'openai-chat', 'anthropic'] },
  },
  { name: 'parse_structured_summary', component: 'summary-parser', claims: ['generic', 'exact'], options: {} },
  // The spec's functions: approx_chars, the turn-boundary cut, file tracking and rendering.
  { name: 'functions', component: 'functions', claims: ['generic', 'exact'], options: {} },
];

/** @type {Record<string, ContextProjector>} */
const PROJECTORS = {
  DefaultContextProjector: new DefaultContextProjector(),
  TypeAwareContextProjector: new TypeAwareContextProjector(),
  PairSafeContextProjector: new PairSafeContextProjector(),
};

/** A request the harness cannot answer because it is malformed. */
class BadRequest extends Error {
  /** @override */
  name = 'BadRequest';
}

/**
 * @param {JsonObject} request
 * @param {string} name
 * @returns {string}
 */
function stringField(request, name) {
  const value = request.get(name);
  if (typeof value !== 'string') throw new BadRequest(`The request's ${name} must be a string`);
  return value;
}

/**
 * @param {JsonObject} request
 * @returns {Started}
 */
function start(request) {
  const version = request.get('version');
  if (version === undefined) throw new BadRequest('start needs a version');
  return {
    version: PROTOCOL_VERSION,
    implementation: {
      name: 'ctxpact-js',
      language: 'javascript',
      version: pkg.version,
      homepage: 'https://ctxpact.dev',
      targets: TARGETS,
    },
  };
}

/**
 * @param {JsonObject} request
 */
function project(request) {
  const target = stringField(request, 'target');
  const projector = Object.hasOwn(PROJECTORS, target) ? PROJECTORS[target] : undefined;
  if (projector === undefined) throw new BadRequest(`${target} is not a projector target`);
  const items = request.get('items');
  if (!Array.isArray(items)) throw new BadRequest("project's items must be an array");
  const budget = readBudget(request.get('budget') ?? null);
  return projector.project(items, budget);
}

/**
 * @param {JsonObject} request
 */
function parseSummary(request) {
  const target = stringField(request, 'target');
  if (target !== 'parse_structured_summary') throw new BadRequest(`${target} is not a summary-parser target`);
  return parseStructuredSummary(stringField(request, 'text'));
}

/**
 * @param {JsonObject} request
 */
function functionsTarget(request) {
  const target = stringField(request, 'target');
  if (target !== 'functions') throw new BadRequest(`${target} is not a functions target`);
}

/**
 * @param {JsonObject} request
 * @param {string} name
 * @returns {JsonValue[]}
 */
function itemsField(request, name) {
  const items = request.get(name);
  if (!Array.isArray(items)) throw new BadRequest(`The request's ${name} must be an array`);
  return items;
}

/**
 * @param {JsonObject} request
 */
function approxCharsCommand(request) {
  functionsTarget(request);
  if (!request.has('item')) throw new BadRequest('approx_chars needs an item');
  return approxChars(/** @type {JsonValue} */ (request.get('item')));
}

/**
 * @param {JsonObject} request
 */
function turnBoundaryCutCommand(request) {
  functionsTarget(request);
  const naiveCut = request.get('naiveCut');
  if (!(naiveCut instanceof JsonNumber) || !naiveCut.isInteger) {
    throw new BadRequest("turn_boundary_cut's naiveCut must be an integer");
  }
  // Past the ends it is clamped (CUT-1), so a huge token only needs to stay huge.
  const big = BigInt(naiveCut.token);
  const limit = BigInt(Number.MAX_SAFE_INTEGER);
  const cut = Number(big > limit ? limit : big < -limit ? -limit : big);
  return turnBoundaryCut(itemsField(request, 'items'), cut);
}

/**
 * @param {JsonObject} request
 */
function extractFileOperationsCommand(request) {
  functionsTarget(request);
  const reads = request.get('reads');
  if (typeof reads !== 'boolean') throw new BadRequest("extract_file_operations's reads must be a boolean");
  return extractFileOperations(itemsField(request, 'items'), reads);
}

/**
 * A structured summary document as the renderer reads it: plain members, numbers as numbers.
 * @param {JsonValue | undefined} document
 * @returns {import('../types/index.js').StructuredSummary}
 */
function summaryDocument(document) {
  if (!isObject(document)) throw new BadRequest("render_summary's summary must be an object");
  /** @type {Record<string, unknown>} */
  const summary = Object.create(null);
  for (const [name, value] of document) summary[name] = value;
  return /** @type {import('../types/index.js').StructuredSummary} */ (summary);
}

/**
 * @param {JsonObject} request
 */
function renderSummaryCommand(request) {
  functionsTarget(request);
  return renderStructuredSummary(summaryDocument(request.get('summary')));
}

/** @type {Record<string, (request: JsonObject) => unknown>} */
const COMMANDS = {
  start,
  project,
  parse_summary: parseSummary,
  approx_chars: approxCharsCommand,
  turn_boundary_cut: turnBoundaryCutCommand,
  extract_file_operations: extractFileOperationsCommand,
  render_summary: renderSummaryCommand,
  stop: () => null,
};

/**
 * @param {unknown} error
 * @returns {Errored}
 */
function errored(error) {
  if (error instanceof Error) {
    return { message: `${error.name}: ${error.message}`, traceback: error.stack ?? null };
  }
  return { message: String(error), traceback: null };
}

/**
 * A response: `seq` and exactly one of `result`, `skipped` and `errored`.
 * @typedef {{seq: JsonValue, result?: unknown, skipped?: Skipped, errored?: Errored}} Response
 */

/**
 * Answer one request line: the response line (without its line feed) and whether to stop.
 * @param {string} line
 * @returns {{response: string, stop: boolean}}
 */
export function handleLine(line) {
  /** @type {JsonValue} */
  let seq = null;
  let stop = false;
  /** @type {Response} */
  let response;
  try {
    const request = parseJson(line, { maxDepth: WIRE_DEPTH });
    if (!isObject(request)) throw new BadRequest('A request must be a JSON object');
    seq = request.get('seq') ?? null;
    const cmd = stringField(request, 'cmd');
    const command = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
    if (command === undefined) {
      response = { seq, skipped: { reason: `${cmd} is not implemented` } };
    } else {
      response = { seq, result: command(request) };
      stop = cmd === 'stop';
    }
  } catch (error) {
    response = { seq, errored: errored(error) };
  }
  try {
    return { response: compactJson(response, { wire: true }), stop };
  } catch (error) {
    // A result that cannot be written (a non-finite number in an item, say) is an error too.
    return { response: compactJson({ seq, errored: errored(error) }, { wire: true }), stop };
  }
}
