// The harness protocol (spec/HARNESS.md): one request line in, one response line out.
// harness.js runs it over stdin and stdout; tests call handleLine directly.

import { readFileSync } from 'node:fs';
import {
  DefaultContextProjector,
  PairSafeContextProjector,
  TypeAwareContextProjector,
  compactJson,
  isObject,
  parseJson,
  parseStructuredSummary,
  readBudget,
} from './index.js';

/** @typedef {import('./json.js').JsonValue} JsonValue */
/** @typedef {import('./json.js').JsonObject} JsonObject */
/** @typedef {import('../types/harness/start-response.js').Started} Started */
/** @typedef {import('../types/harness/start-response.js').Target} Target */
/** @typedef {import('../types/harness/start-response.js').Errored} Errored */
/** @typedef {import('../types/harness/start-response.js').Skipped} Skipped */
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

/** @type {Record<string, (request: JsonObject) => unknown>} */
const COMMANDS = {
  start,
  project,
  parse_summary: parseSummary,
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
