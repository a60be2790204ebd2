// JSON values as ctxpact sees them (SPEC.md §2): ordered objects, integers distinct from
// non-integers, and the one canonical text every size and prompt is built from.
//
// JavaScript's own JSON.parse cannot be used for items: it turns `1` and `1.0` into the same
// number (JSON-5), reorders object members whose names look like array indices (JSON-3) and
// loses integers beyond 2^53. So this module has its own strict parser (JSON-7) and
// serializer (JSON-6):
//
// - a JSON object is a `Map` (insertion order is member order, whatever the names);
// - a JSON number is a `JsonNumber` holding the token exactly as it was written; it knows
//   whether it is an integer (no fraction, no exponent) and renders its canonical text;
// - null, booleans, strings and arrays are the JavaScript values themselves.

/** @typedef {import('./json-value.js').JsonValue} JsonValue */
/** @typedef {import('./json-value.js').JsonObject} JsonObject */

/** The greatest nesting depth strict JSON accepts (JSON-7); the outermost value counts 1. */
export const MAX_JSON_DEPTH = 256;

const NUMBER_TOKEN = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WHOLE_NUMBER_TOKEN = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * A JSON number, held as its token (the text it was written as).
 *
 * A token without a fraction and without an exponent is an *integer*, held exactly; any other
 * token is a *non-integer*, an IEEE 754 binary64 value (JSON-5). `canonical()` is its compact
 * JSON text (JSON-6 (b), (c)); `token` is what the writer wrote (used by the summary parser,
 * PRS-6).
 */
export class JsonNumber {
  /** @type {string | undefined} */
  #canonical;

  /** @param {string} token a JSON number token (RFC 8259 grammar) */
  constructor(token) {
    if (!WHOLE_NUMBER_TOKEN.test(token)) {
      throw new SyntaxError(`Not a JSON number token: ${JSON.stringify(token)}`);
    }
    /** @readonly */
    this.token = token;
    /** @readonly */
    this.isInteger = !/[.eE]/.test(token);
  }

  /**
   * An integer.
   * @param {number | bigint} value a safe integer or a bigint
   * @returns {JsonNumber}
   */
  static integer(value) {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new RangeError(`Not a safe integer: ${value}`);
    }
    return new JsonNumber(BigInt(value).toString());
  }

  /**
   * A non-integer with the given binary64 value (`JsonNumber.float(1)` is `1.0`).
   * @param {number} value a finite number
   * @returns {JsonNumber}
   */
  static float(value) {
    return new JsonNumber(formatFloat(value));
  }

  /** The binary64 value (an integer beyond 2^53 is rounded). */
  valueOf() {
    return Number(this.token);
  }

  /**
   * The compact JSON text of the number (JSON-6 (b) and (c)).
   * @returns {string}
   */
  canonical() {
    if (this.#canonical === undefined) {
      if (this.isInteger) {
        this.#canonical = this.token === '-0' ? '0' : this.token;
      } else {
        this.#canonical = formatFloat(Number(this.token));
      }
    }
    return this.#canonical;
  }

  toString() {
    return this.canonical();
  }
}

/**
 * The text of a binary64 value as JSON-6 (c) writes it: the shortest round-tripping digits,
 * positional when the decimal exponent x satisfies -4 <= x < 16, else d.ddde±XX; always with a
 * fraction or an exponent, so that it reads back as a non-integer (Python's `repr(float)`).
 * @param {number} value
 * @returns {string}
 */
export function formatFloat(value) {
  if (!Number.isFinite(value)) {
    throw new RangeError(`${value} is not a finite JSON number`);
  }
  if (value === 0) {
    return Object.is(value, -0) ? '-0.0' : '0.0';
  }
  const sign = value < 0 ? '-' : '';
  // Number::toString gives the shortest digits that read back as the same value, the closest
  // to it when several are shortest; only the layout differs from Python's repr.
  const text = String(Math.abs(value));
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const shift = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  let digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  // The decimal point sits after `point` digits of `digits`.
  let point = (dot < 0 ? mantissa.length : dot) + shift;
  let lead = 0;
  while (lead < digits.length - 1 && digits[lead] === '0') lead += 1;
  digits = digits.slice(lead);
  point -= lead;
  let end = digits.length;
  while (end > 1 && digits[end - 1] === '0') end -= 1;
  digits = digits.slice(0, end);
  const exponent = point - 1;
  if (exponent >= -4 && exponent < 16) {
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const magnitude = String(Math.abs(exponent)).padStart(2, '0');
  return `${sign}${head}e${exponent < 0 ? '-' : '+'}${magnitude}`;
}

/** Strict JSON could not be read: the message names the position. */
export class JsonSyntaxError extends SyntaxError {
  /**
   * @param {string} message
   * @param {number} position UTF-16 offset in the text
   */
  constructor(message, position) {
    super(`${message} at position ${position}`);
    this.name = 'JsonSyntaxError';
    this.position = position;
  }
}

class Parser {
  /**
   * @param {string} text
   * @param {number} maxDepth
   */
  constructor(text, maxDepth) {
    this.text = text;
    this.pos = 0;
    this.maxDepth = maxDepth;
  }

  /** @param {string} message */
  fail(message) {
    return new JsonSyntaxError(message, this.pos);
  }

  skipWhitespace() {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos += 1;
      else break;
    }
    this.pos = pos;
  }

  /**
   * @param {number} depth nesting depth of the value about to be read (the outermost is 1)
   * @returns {JsonValue}
   */
  value(depth) {
    this.skipWhitespace();
    const text = this.text;
    const c = text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b /* { */: {
        if (depth > this.maxDepth) throw this.fail('Nesting deeper than the limit');
        this.pos += 1;
        /** @type {JsonObject} */
        const object = new Map();
        this.skipWhitespace();
        if (text.charCodeAt(this.pos) === 0x7d) {
          this.pos += 1;
          return object;
        }
        for (;;) {
          this.skipWhitespace();
          if (text.charCodeAt(this.pos) !== 0x22) throw this.fail('Expected a member name');
          const name = this.string();
          this.skipWhitespace();
          if (text.charCodeAt(this.pos) !== 0x3a) throw this.fail("Expected ':'");
          this.pos += 1;
          // A repeated name keeps its first position and takes its last value (JSON-4).
          object.set(name, this.value(depth + 1));
          this.skipWhitespace();
          const next = text.charCodeAt(this.pos);
          this.pos += 1;
          if (next === 0x7d) return object;
          if (next !== 0x2c) {
            this.pos -= 1;
            throw this.fail("Expected ',' or '}'");
          }
        }
      }
      case 0x5b /* [ */: {
        if (depth > this.maxDepth) throw this.fail('Nesting deeper than the limit');
        this.pos += 1;
        /** @type {JsonValue[]} */
        const array = [];
        this.skipWhitespace();
        if (text.charCodeAt(this.pos) === 0x5d) {
          this.pos += 1;
          return array;
        }
        for (;;) {
          array.push(this.value(depth + 1));
          this.skipWhitespace();
          const next = text.charCodeAt(this.pos);
          this.pos += 1;
          if (next === 0x5d) return array;
          if (next !== 0x2c) {
            this.pos -= 1;
            throw this.fail("Expected ',' or ']'");
          }
        }
      }
      case 0x22 /* " */:
        return this.string();
      case 0x74 /* t */:
        return this.literal('true', true);
      case 0x66 /* f */:
        return this.literal('false', false);
      case 0x6e /* n */:
        return this.literal('null', null);
      default: {
        NUMBER_TOKEN.lastIndex = this.pos;
        const match = NUMBER_TOKEN.exec(text);
        if (match === null) throw this.fail('Expected a JSON value');
        this.pos += match[0].length;
        return new JsonNumber(match[0]);
      }
    }
  }

  /**
   * @template {JsonValue} T
   * @param {string} word
   * @param {T} value
   * @returns {T}
   */
  literal(word, value) {
    if (!this.text.startsWith(word, this.pos)) throw this.fail('Expected a JSON value');
    this.pos += word.length;
    return value;
  }

  /** @returns {string} the string starting at the opening quote at `pos` */
  string() {
    const text = this.text;
    let pos = this.pos + 1;
    let start = pos;
    let out = '';
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        this.pos = pos + 1;
        return out + text.slice(start, pos);
      }
      if (c === 0x5c) {
        out += text.slice(start, pos);
        const e = text.charCodeAt(pos + 1);
        switch (e) {
          case 0x22: out += '"'; break;
          case 0x5c: out += '\\'; break;
          case 0x2f: out += '/'; break;
          case 0x62: out += '\b'; break;
          case 0x66: out += '\f'; break;
          case 0x6e: out += '\n'; break;
          case 0x72: out += '\r'; break;
          case 0x74: out += '\t'; break;
          case 0x75: {
            const hex = text.slice(pos + 2, pos + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              this.pos = pos;
              throw this.fail('Invalid \\u escape');
            }
            // Lone surrogates are accepted; an escaped pair becomes one code point.
            out += String.fromCharCode(parseInt(hex, 16));
            pos += 4;
            break;
          }
          default:
            this.pos = pos;
            throw this.fail('Invalid escape');
        }
        pos += 2;
        start = pos;
      } else if (c < 0x20 || Number.isNaN(c)) {
        this.pos = pos;
        throw this.fail(Number.isNaN(c) ? 'Unterminated string' : 'Unescaped control character');
      } else {
        pos += 1;
      }
    }
  }
}

/**
 * Parse strict JSON (JSON-7): RFC 8259 and nothing more, JSON whitespace around the value.
 * Objects become `Map`s in member order, numbers `JsonNumber`s.
 * @param {string} text
 * @param {{maxDepth?: number}} [options] nesting limit, default 256 (JSON-7)
 * @returns {JsonValue}
 * @throws {JsonSyntaxError} the text is not strict JSON or is nested too deeply
 */
export function parseJson(text, options = {}) {
  const parser = new Parser(text, options.maxDepth ?? MAX_JSON_DEPTH);
  const value = parser.value(1);
  parser.skipWhitespace();
  if (parser.pos !== text.length) throw parser.fail('Extra data after the JSON value');
  return value;
}

/**
 * Parse strict JSON, or give `undefined` when the text is not parseable; never throws.
 * @param {string} text
 * @param {{maxDepth?: number}} [options]
 * @returns {JsonValue | undefined}
 */
export function tryParseJson(text, options) {
  try {
    return parseJson(text, options);
  } catch {
    return undefined;
  }
}

// Characters a JSON string must escape, and lone surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** @type {Record<string, string>} */
const SHORT_ESCAPES = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * @param {number} code
 * @returns {string}
 */
function unicodeEscape(code) {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * A JSON string literal as JSON-6 (d) writes it; with `wire`, lone surrogates are escaped too
 * (`\udxxx`), so the text is valid UTF-8 and reads back as the same string.
 * @param {string} text
 * @param {boolean} [wire]
 * @returns {string}
 */
export function quoteString(text, wire = false) {
  const escape = NEEDS_ESCAPE.test(text);
  const lone = wire && LONE_SURROGATE.test(text);
  if (!escape && !lone) return `"${text}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    /** @type {string | undefined} */
    let replacement;
    if (c < 0x20 || c === 0x22 || c === 0x5c) {
      replacement = SHORT_ESCAPES[text[i]] ?? unicodeEscape(c);
    } else if (lone && c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i += 1; // a valid pair is written as itself
        continue;
      }
      const previous = text.charCodeAt(i - 1);
      if (c >= 0xdc00 && previous >= 0xd800 && previous <= 0xdbff) continue;
      replacement = unicodeEscape(c);
    } else {
      continue;
    }
    out += text.slice(start, i) + replacement;
    start = i + 1;
  }
  return `${out}${text.slice(start)}"`;
}

/**
 * @typedef {object} SerializeOptions
 * @property {'canonical' | 'token'} [numbers] how a JsonNumber is written: its canonical text
 *   (JSON-6, the default) or its token as written (PRS-6)
 * @property {boolean} [wire] escape lone surrogates, for text that must be valid UTF-8
 */

/**
 * The compact JSON text of a value (JSON-6): no whitespace, members in order, non-ASCII
 * written as itself.
 *
 * Besides the JsonValue model this accepts what records are built from: plain objects (in
 * their own key order), JavaScript numbers (an integral number is written as an integer, any
 * other as a non-integer), bigints (integers) and `undefined` members (left out).
 * @param {unknown} value
 * @param {SerializeOptions} [options]
 * @returns {string}
 */
export function compactJson(value, options = {}) {
  const tokens = options.numbers === 'token';
  const wire = options.wire === true;
  /** @type {(value: unknown) => string} */
  const write = (value) => {
    switch (typeof value) {
      case 'string':
        return quoteString(value, wire);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'number':
        if (Number.isInteger(value)) return BigInt(value).toString();
        return formatFloat(value);
      case 'bigint':
        return value.toString();
      case 'object': {
        if (value === null) return 'null';
        if (value instanceof JsonNumber) return tokens ? value.token : value.canonical();
        if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
        /** @type {string[]} */
        const members = [];
        const entries = value instanceof Map ? value.entries() : Object.entries(value);
        for (const [name, member] of entries) {
          if (member === undefined) continue;
          if (typeof name !== 'string') throw new TypeError(`Object key ${String(name)} is not a string`);
          members.push(`${quoteString(name, wire)}:${write(member)}`);
        }
        return `{${members.join(',')}}`;
      }
      default:
        throw new TypeError(`Not a JSON value: ${typeof value}`);
    }
  };
  return write(value);
}

/**
 * The number of Unicode code points in a string: a valid surrogate pair counts 1, a lone
 * surrogate counts 1 (SIZE-4).
 * @param {string} text
 * @returns {number}
 */
export function codePointLength(text) {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        i += 1;
      }
    }
  }
  return count;
}

/**
 * Trim as Java's String.trim does: every leading and trailing code point U+0000..U+0020, and
 * nothing else (§1.4 "trim").
 * @param {string} text
 * @returns {string}
 */
export function javaTrim(text) {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end -= 1;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * Whether a string is blank: null, or empty after trimming (§1.4).
 * @param {string | null | undefined} text
 * @returns {boolean}
 */
export function isBlank(text) {
  return text == null || javaTrim(text) === '';
}

/**
 * Whether a value is a JSON object (a `Map`).
 * @param {unknown} value
 * @returns {value is JsonObject}
 */
export function isObject(value) {
  return value instanceof Map;
}
