// The JSON model of SPEC.md §2: strict parsing (JSON-7), number forms (JSON-5), member order
// and repeated names (JSON-3, JSON-4), compact JSON text (JSON-6), code points (SIZE-4).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  JsonNumber,
  approxChars,
  codePointLength,
  compactJson,
  formatFloat,
  javaTrim,
  parseJson,
  quoteString,
  tryParseJson,
} from '../src/index.js';

/**
 * Parse and write back.
 * @param {string} text
 */
const roundTrip = (text) => compactJson(parseJson(text));

describe('strict JSON (JSON-7)', () => {
  it('accepts RFC 8259 values surrounded by JSON whitespace', () => {
    assert.equal(roundTrip(' \t\r\n{"a" : [1 , -2.5e3, true, false, null, "x"]} \n'), '{"a":[1,-2500.0,true,false,null,"x"]}');
    assert.equal(roundTrip('"\\u00e9\\/\\b\\f\\n\\r\\t\\"\\\\"'), '"é/\\b\\f\\n\\r\\t\\"\\\\"');
  });

  for (const text of [
    '',
    ' ',
    '{',
    '{"a":1,}',
    '[1,]',
    '[1 2]',
    "{'a':1}",
    '{a:1}',
    'NaN',
    'Infinity',
    '-Infinity',
    '+1',
    '01',
    '-',
    '1.',
    '.5',
    '1e',
    '0x10',
    '"\u0001"',
    '"\n"',
    '"\\x41"',
    '"\\u12"',
    '"unterminated',
    '[1] [2]',
    '// comment\n1',
    '\ufeff{}',
    'tru',
    'nul',
    '\u00a01',
  ]) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      assert.throws(() => parseJson(text), SyntaxError);
      assert.equal(tryParseJson(text), undefined);
    });
  }

  it('accepts escapes that produce lone surrogates and joins escaped pairs', () => {
    const lone = parseJson('"\\ud800x"');
    assert.equal(lone, '\ud800x');
    assert.equal(codePointLength(/** @type {string} */ (lone)), 2);
    const pair = parseJson('"\\ud83d\\ude00"');
    assert.equal(pair, '😀');
    assert.equal(codePointLength(/** @type {string} */ (pair)), 1);
  });

  it('limits nesting to 256 levels, the outermost counting 1', () => {
    const deep = (/** @type {number} */ n) => '['.repeat(n) + ']'.repeat(n);
    assert.notEqual(tryParseJson(deep(256)), undefined);
    assert.equal(tryParseJson(deep(257)), undefined);
    assert.equal(tryParseJson(`${'{"a":'.repeat(256)}1${'}'.repeat(256)}`) instanceof Map, true);
    assert.equal(tryParseJson(`${'{"a":'.repeat(257)}1${'}'.repeat(257)}`), undefined);
    assert.equal(tryParseJson('['.repeat(100000)), undefined);
    assert.notEqual(tryParseJson(deep(300), { maxDepth: 300 }), undefined);
  });
});

describe('objects (JSON-3, JSON-4)', () => {
  it('keep member order, even for names that look like indices', () => {
    assert.equal(roundTrip('{"b":1,"a":2,"2":3,"1":4,"__proto__":5}'), '{"b":1,"a":2,"2":3,"1":4,"__proto__":5}');
  });

  it('give a repeated name the position of its first occurrence and its last value', () => {
    assert.equal(roundTrip('{"a":1,"b":2,"a":3}'), '{"a":3,"b":2}');
  });
});

describe('numbers (JSON-5, JSON-6 (b) and (c))', () => {
  it('keep integers and non-integers apart', () => {
    assert.equal(roundTrip('[1,1.0,-0,-0.0,0,0.0,1e2,1E+2,100]'), '[1,1.0,0,-0.0,0,0.0,100.0,100.0,100]');
    const one = /** @type {JsonNumber} */ (parseJson('1'));
    const oneFloat = /** @type {JsonNumber} */ (parseJson('1.0'));
    assert.equal(one.isInteger, true);
    assert.equal(oneFloat.isInteger, false);
    assert.notEqual(compactJson(one), compactJson(oneFloat));
  });

  it('hold integers exactly, at any precision', () => {
    const big = '123456789012345678901234567890';
    assert.equal(roundTrip(`[${big},-${big}]`), `[${big},-${big}]`);
  });

  it('write non-integers as Python repr does', () => {
    /** @type {Array<[string, string]>} */
    const cases = [
      ['1.5', '1.5'],
      ['100000.0', '100000.0'],
      ['0.0001', '0.0001'],
      ['0.00001', '1e-05'],
      ['1e16', '1e+16'],
      ['1.5e300', '1.5e+300'],
      ['9999999999999998.0', '9999999999999998.0'],
      ['12345678901234567890.0', '1.2345678901234567e+19'],
      ['0.1', '0.1'],
      ['-0.0', '-0.0'],
      ['5e-324', '5e-324'],
      ['1.7976931348623157e308', '1.7976931348623157e+308'],
      ['123.456e-7', '1.23456e-05'],
      ['2.50', '2.5'],
      ['1.0000000000000001', '1.0'],
      ['0.30000000000000004', '0.30000000000000004'],
    ];
    for (const [token, expected] of cases) {
      assert.equal(new JsonNumber(token).canonical(), expected, token);
    }
    assert.equal(formatFloat(1e22), '1e+22');
    assert.equal(formatFloat(-1234.5), '-1234.5');
    assert.equal(JsonNumber.float(3).canonical(), '3.0');
    assert.equal(JsonNumber.integer(3).canonical(), '3');
  });

  it('refuse non-finite values', () => {
    assert.throws(() => new JsonNumber('1e400').canonical(), RangeError);
    assert.throws(() => formatFloat(Number.NaN), RangeError);
  });

  it('keep the token for the summary parser (PRS-6)', () => {
    assert.equal(compactJson(parseJson('[1.50,1e5,-0]'), { numbers: 'token' }), '[1.50,1e5,-0]');
  });
});

describe('compact JSON text of strings (JSON-6 (d))', () => {
  it('escapes only quotes, backslashes and control characters', () => {
    assert.equal(quoteString('"\\\b\f\n\r\t\u0000\u001f/\u007f\u2028é😀'), '"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f/\u007f\u2028é😀"');
  });

  it('writes lone surrogates as themselves, or escaped on the wire', () => {
    assert.equal(quoteString('a\ud800b\udc00'), '"a\ud800b\udc00"');
    assert.equal(quoteString('a\ud800b\udc00😀', true), '"a\\ud800b\\udc00😀"');
  });

  it('writes plain objects, JavaScript numbers and nulls for records', () => {
    assert.equal(compactJson({ a: 1, b: 1.5, c: null, d: undefined, e: [true] }), '{"a":1,"b":1.5,"c":null,"e":[true]}');
  });
});

describe('sizes (SIZE-1 to SIZE-5)', () => {
  /** @type {Array<[string, number]>} */
  const table = [
    ['"hello"', 5],
    ['"héllo"', 5],
    ['""', 0],
    ['null', 0],
    ['42', 2],
    ['1.5', 3],
    ['true', 4],
    ['["a", null, "b"]', 14],
    ['{"t": "é"}', 9],
    ['{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}', 81],
    ['{"type":"function_call_output","call_id":"call-1","output":"payload-1"}', 71],
    ['{"type":"function_call_output","call_id":"call-1","output":null}', 64],
    [`{"type":"function_call_output","call_id":"call-1","output":"${'x'.repeat(200)}"}`, 262],
    ['{"type":"function_call_output","call_id":"call-1","output":"[tool result cleared: call-1]"}', 91],
    ['"😀"', 1],
    ['["😀"]', 5],
    ['1.0', 3],
    ['1E2', 5],
  ];
  for (const [text, size] of table) {
    it(`${text.slice(0, 40)} counts ${size}`, () => assert.equal(approxChars(parseJson(text)), size));
  }
});

describe('trim (§1.4)', () => {
  it('removes U+0000 to U+0020 only', () => {
    assert.equal(javaTrim('\u0000\t x \n\u0020'), 'x');
    assert.equal(javaTrim('\u00a0x\u3000'), '\u00a0x\u3000');
    assert.equal(javaTrim(' \u0001 '), '');
  });
});
