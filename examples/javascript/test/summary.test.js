// The forgiving summary parser and the renderer against the worked examples of SPEC.md §13,
// and the promises of PRS-1: never throws, linear time.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStructuredSummary, renderStructuredSummary } from '../src/index.js';

const LOGIN = '{"goal":"Implement the login flow","completed":["Added LoginController","Wired the form"],"pending":["Add tests"],"decisions":["Use JWT sessions"],"errors":["mvn test: 3 failures"],"testResults":["17 passed, 3 failed"],"openQuestions":["Refresh-token expiry?"]}';

describe('parse_structured_summary and render_structured_summary (§13)', () => {
  it('renders the worked example', () => {
    assert.equal(
      renderStructuredSummary(parseStructuredSummary(LOGIN)),
      [
        '## Goal',
        'Implement the login flow',
        '',
        '## Progress',
        '- Added LoginController',
        '- Wired the form',
        '',
        '## Pending',
        '- Add tests',
        '',
        '## Key Decisions',
        '- Use JWT sessions',
        '',
        '## Errors',
        '- mvn test: 3 failures',
        '',
        '## Test Results',
        '- 17 passed, 3 failed',
        '',
        '## Open Questions',
        '- Refresh-token expiry?',
      ].join('\n'),
    );
  });

  /** @type {Array<[string, boolean, string]>} */
  const table = [
    ['```json\n{"goal":"g","pending":"one"}\n```', true, '## Goal\ng\n\n## Pending\n- one'],
    ['Here {is} the JSON: {"goal":"x"}', true, '## Goal\nx'],
    ['{"goal": "a {b}"} trailing }', true, '## Goal\na {b}'],
    ['I think { see {"goal":"y"}', true, '## Goal\ny'],
    ['{"x": NaN} {"goal":"y"}', true, '## Goal\ny'],
    ['{"a":1}', true, '{"a":1}'],
    ['{}', true, '{}'],
    ['{"goal":"  "}', true, '{"goal":"  "}'],
    ['{"goal":42}', true, '## Goal\n42'],
    ['no json here', false, 'no json here'],
    ['[1,2]', false, '[1,2]'],
  ];
  for (const [answer, parsed, rendered] of table) {
    it(`reads ${JSON.stringify(answer)}`, () => {
      const summary = parseStructuredSummary(answer);
      assert.equal(summary.parsed, parsed);
      assert.equal(renderStructuredSummary(summary), rendered);
    });
  }

  it('renders file sections after the text (PRS-13)', () => {
    const files = { readFiles: ['/a/b.py'], modifiedFiles: ['c.txt'] };
    assert.equal(
      renderStructuredSummary({ ...parseStructuredSummary('plain prose'), ...files }),
      'plain prose\n\n## Files Read\n- /a/b.py\n\n## Files Modified\n- c.txt',
    );
    assert.equal(
      renderStructuredSummary({ ...parseStructuredSummary('{"goal":"G"}'), ...files }),
      '## Goal\nG\n\n## Files Read\n- /a/b.py\n\n## Files Modified\n- c.txt',
    );
  });

  it('coerces list members (PRS-9) and keeps number tokens (PRS-6)', () => {
    const summary = parseStructuredSummary('{"pending": [1, 1.50, true, null, "  ", {"a":1e5}, ["x"]], "completed": "one", "errors": 7, "decisions": {"k": -0}, "testResults": null, "openQuestions": "   "}');
    assert.deepEqual(summary.pending, ['1', '1.50', 'true', '{"a":1e5}', '["x"]']);
    assert.deepEqual(summary.completed, ['one']);
    assert.deepEqual(summary.errors, ['7']);
    assert.deepEqual(summary.decisions, ['{"k":-0}']);
    assert.deepEqual(summary.testResults, []);
    assert.deepEqual(summary.openQuestions, []);
    assert.equal(summary.text, '{"pending":[1,1.50,true,null,"  ",{"a":1e5},["x"]],"completed":"one","errors":7,"decisions":{"k":-0},"testResults":null,"openQuestions":"   "}');
  });

  it('reads goals of every type (PRS-10) and ignores file lists from the model (PRS-12)', () => {
    assert.equal(parseStructuredSummary('{"goal":"  g  "}').goal, 'g');
    assert.equal(parseStructuredSummary('{"goal":null}').goal, null);
    assert.equal(parseStructuredSummary('{"goal":[1.0, {"b":true}]}').goal, '[1.0,{"b":true}]');
    assert.equal(parseStructuredSummary('{"goal":false}').goal, 'false');
    const summary = parseStructuredSummary('{"readFiles":["a.py"],"modifiedFiles":["b.py"]}');
    assert.deepEqual([summary.readFiles, summary.modifiedFiles], [[], []]);
  });

  it('treats a repeated name as JSON-4 says, and member order as written (PRS-11)', () => {
    const summary = parseStructuredSummary('{"goal":"a","2":0,"1":0,"goal":"b"}');
    assert.equal(summary.goal, 'b');
    assert.equal(summary.text, '{"goal":"b","2":0,"1":0}');
  });

  it('trims the answer first (PRS-2, PRS-5)', () => {
    const summary = parseStructuredSummary('\u0000 \n plain \t');
    assert.deepEqual(summary, {
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
      text: 'plain',
    });
  });

  it('skips braces and quotes in prose, and strings in spans (PRS-4)', () => {
    assert.equal(parseStructuredSummary('say "hi" {"goal":"q\\"}"} and }').goal, 'q"}');
    assert.equal(parseStructuredSummary('{ {"goal":"inner"} {"goal":"second"}').goal, 'inner');
    assert.equal(parseStructuredSummary('{"goal":"a"}{"goal":"b"}').goal, 'a');
    assert.equal(parseStructuredSummary('{"a": {"goal": "nested"} x} {"goal":"out"}').goal, 'out');
    assert.equal(parseStructuredSummary('{"unterminated: {"goal":"z"}').parsed, false);
  });

  it('accepts 256 levels of nesting and refuses 257 (JSON-7)', () => {
    const nested = (/** @type {number} */ depth) => `{"goal":"d","x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    assert.equal(parseStructuredSummary(nested(256)).parsed, true);
    assert.equal(parseStructuredSummary(nested(257)).parsed, false);
  });

  it('never throws (PRS-1)', () => {
    const odd = ['', '{', '}', '}{', '{"a":"\ud800"}', '\ud800{', '{"goal":"\\ud800"}', '"{', '{\\', '{"', '{"a":1e400}', '{'.repeat(50000), `${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}`];
    for (const text of odd) {
      const summary = parseStructuredSummary(text);
      assert.equal(typeof summary.parsed, 'boolean');
    }
    assert.equal(parseStructuredSummary('{"goal":"\\ud800"}').goal, '\ud800');
    assert.equal(parseStructuredSummary('{"a":1e400}').text, '{"a":1e400}');
  });

  it('runs in linear time on adversarial answers (PRS-1)', () => {
    /** @type {Array<(n: number) => string>} */
    const makers = [
      (n) => '{'.repeat(n),
      (n) => '{}'.repeat(n),
      (n) => `${'{"a":'.repeat(n)}`,
      (n) => `{${'"'.repeat(n)}}`,
      (n) => `{${'{x}'.repeat(n)} }`,
      (n) => `${'{"a":1} '.repeat(n)}}`,
      (n) => `{${'\\'.repeat(n)}"}`,
      (n) => `${'{ '.repeat(n)}${'} '.repeat(n)}`,
      (n) => `${'{"a":['.repeat(n)}`,
    ];
    for (const make of makers) {
      // The fastest of three runs, to keep a loaded machine from failing the test.
      const time = (/** @type {number} */ n) => {
        const text = make(n);
        let best = Infinity;
        for (let run = 0; run < 3; run += 1) {
          const start = process.hrtime.bigint();
          parseStructuredSummary(text);
          best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
        }
        return best;
      };
      const small = time(20000);
      const large = time(200000);
      // Linear: about 10 times as long; quadratic would be about 100 times, and seconds.
      assert.ok(large < small * 30 + 500, `${make(3)}: ${small} ms at 20k, ${large} ms at 200k`);
    }
  });
});
