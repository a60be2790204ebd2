// The harness over a real process boundary: JSON lines in, JSON lines out, seq echoed,
// number forms and member order kept byte for byte, stop ends the process with status 0.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { handleLine } from '../src/harness.js';

const HARNESS = fileURLToPath(new URL('../harness.js', import.meta.url));

/**
 * Run the harness with the given request lines; its stdout lines and exit code.
 * @param {string[]} lines
 * @returns {Promise<{lines: string[], code: number | null, stderr: string}>}
 */
function runHarness(lines) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HARNESS], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ lines: stdout.split('\n').filter((line) => line !== ''), code, stderr }));
    // Write in small pieces, splitting multi-byte characters across chunks.
    const data = Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
    for (let offset = 0; offset < data.length; offset += 7) child.stdin.write(data.subarray(offset, offset + 7));
    child.stdin.end();
  });
}

const ITEMS = '[{"type":"function_call","call_id":"c1","name":"read"},{"type":"function_call_output","call_id":"c1","output":"é😀"},{"2":1.0,"1":-0,"big":123456789012345678901234567890,"e":1E2},1.50,"\\ud800"]';

describe('harness.js', () => {
  it('answers start, project, parse_summary, unknown commands and stop', async () => {
    const { lines, code, stderr } = await runHarness([
      '{"seq":0,"cmd":"start","version":1}',
      `{"seq":{"b":1.0,"a":[2]},"cmd":"project","target":"TypeAwareContextProjector","items":${ITEMS},"budget":{"maxRecentToolResults":0,"maxItems":null}}`,
      '{"seq":"p","cmd":"parse_summary","target":"parse_structured_summary","text":"x {\\"goal\\": 1.50}"}',
      '{"seq":3,"cmd":"compact","target":"x"}',
      '{"seq":4,"cmd":"project","target":"Nope","items":[],"budget":null}',
      'not json',
      '{"seq":5,"cmd":"stop"}',
      '{"seq":6,"cmd":"start","version":1}',
    ]);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.equal(lines.length, 7);
    const start = JSON.parse(lines[0]);
    assert.equal(start.seq, 0);
    assert.equal(start.result.version, 1);
    assert.equal(start.result.implementation.language, 'javascript');
    assert.deepEqual(
      start.result.implementation.targets.map((/** @type {{name: string}} */ target) => target.name),
      ['DefaultContextProjector', 'TypeAwareContextProjector', 'PairSafeContextProjector', 'parse_structured_summary', 'functions'],
    );
    assert.deepEqual(start.result.implementation.targets[2], {
      name: 'PairSafeContextProjector',
      component: 'projector',
      claims: ['generic', 'pair-integrity', 'wire-valid', 'exact'],
      options: { pairSafe: true, providers: ['openai-responses', 'openai-chat', 'anthropic'] },
    });
    assert.equal(
      lines[1],
      // Sizes as the Python reference computes them for the same request.
      '{"seq":{"b":1.0,"a":[2]},"result":{"items":[{"type":"function_call","call_id":"c1","name":"read"},' +
        '{"type":"function_call_output","call_id":"c1","output":"[tool result cleared: read(c1)]"},' +
        '{"2":1.0,"1":0,"big":123456789012345678901234567890,"e":100.0},1.5,"\\ud800"],' +
        '"report":{"sourceItemCount":5,"projectedItemCount":5,"droppedItemCount":0,"sourceApproxChars":179,' +
        '"projectedApproxChars":208,"itemLimitApplied":false,"characterLimitApplied":false,' +
        '"notes":["tier1 microcompact: cleared 1 old tool result(s), kept recent 0"],"droppedIndices":[],"clearedIndices":[1]}}}',
    );
    assert.equal(
      lines[2],
      '{"seq":"p","result":{"goal":"1.50","completed":[],"pending":[],"decisions":[],"errors":[],"testResults":[],' +
        '"openQuestions":[],"readFiles":[],"modifiedFiles":[],"parsed":true,"text":"{\\"goal\\":1.50}"}}',
    );
    assert.equal(lines[3], '{"seq":3,"skipped":{"reason":"compact is not implemented"}}');
    const unknownTarget = JSON.parse(lines[4]);
    assert.equal(unknownTarget.seq, 4);
    assert.match(unknownTarget.errored.message, /Nope is not a projector target/);
    const notJson = JSON.parse(lines[5]);
    assert.equal(notJson.seq, null);
    assert.equal(typeof notJson.errored.traceback, 'string');
    assert.equal(lines[6], '{"seq":5,"result":null}');
  });

  it('exits with status 0 at the end of its input', async () => {
    const { lines, code } = await runHarness(['{"seq":1,"cmd":"start","version":1}']);
    assert.equal(code, 0);
    assert.equal(lines.length, 1);
  });
});

describe('handleLine', () => {
  it('projects with the pair-safe target, keeping a Chat step whole', () => {
    // The answer the Python reference gives for the same request.
    const items =
      '[{"role":"user","content":"go"},{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"read"}}]},' +
      '{"role":"tool","tool_call_id":"c1","content":"alpha"},{"role":"user","content":"next"}]';
    const { response } = handleLine(`{"seq":7,"cmd":"project","target":"PairSafeContextProjector","items":${items},"budget":{"maxItems":2,"maxRecentToolResults":0}}`);
    assert.equal(
      response,
      '{"seq":7,"result":{"items":[{"role":"user","content":"go"},{"role":"user","content":"next"}],' +
        '"report":{"sourceItemCount":4,"projectedItemCount":2,"droppedItemCount":2,"sourceApproxChars":189,"projectedApproxChars":62,' +
        '"itemLimitApplied":true,"characterLimitApplied":false,' +
        '"notes":["tier1 microcompact: cleared 1 old tool result(s), kept recent 0","maxItems applied: 2"],' +
        '"droppedIndices":[1,2],"clearedIndices":[]}}}',
    );
  });

  it('answers the spec functions (HRN-23)', () => {
    const answer = (/** @type {string} */ line) => JSON.parse(handleLine(line).response);
    assert.deepEqual(answer('{"seq":1,"cmd":"approx_chars","target":"functions","item":{"b":1.0,"a":"é😀"}}'), { seq: 1, result: 18 });
    const items = '["u1","a1",{"type":"message","role":"user","content":"again"},"a2"]';
    assert.deepEqual(answer(`{"seq":2,"cmd":"turn_boundary_cut","target":"functions","items":${items},"naiveCut":3}`), { seq: 2, result: 2 });
    assert.deepEqual(answer(`{"seq":3,"cmd":"turn_boundary_cut","target":"functions","items":${items},"naiveCut":-123456789012345678901}`), { seq: 3, result: 0 });
    const summary = '{"goal":" ship ","completed":[],"pending":["test"],"decisions":[],"errors":[],"testResults":[],"openQuestions":[],"readFiles":["a.py"],"modifiedFiles":[],"parsed":true,"text":"{}"}';
    assert.deepEqual(answer(`{"seq":4,"cmd":"render_summary","target":"functions","summary":${summary}}`), {
      seq: 4,
      result: '## Goal\nship\n\n## Pending\n- test\n\n## Files Read\n- a.py',
    });
    const call = '{"type":"function_call","call_id":"c","name":"readFile","arguments":"{\\"path\\": \\" src/a.py \\"}"}';
    assert.deepEqual(answer(`{"seq":5,"cmd":"extract_file_operations","target":"functions","items":[${call}],"reads":true}`), { seq: 5, result: ['src/a.py'] });
    assert.deepEqual(answer(`{"seq":8,"cmd":"extract_file_operations","target":"functions","items":[${call}],"reads":false}`), { seq: 8, result: [] });
    assert.ok(answer('{"seq":6,"cmd":"turn_boundary_cut","target":"functions","items":[],"naiveCut":1.5}').errored);
    assert.ok(answer('{"seq":7,"cmd":"approx_chars","target":"parse_structured_summary","item":1}').errored);
  });

  it('reports an invalid budget as errored, naming the field', () => {
    const { response } = handleLine('{"seq":1,"cmd":"project","target":"DefaultContextProjector","items":[],"budget":{"maxItems":-1,"pinnedPrefixItems":1.0}}');
    const parsed = JSON.parse(response);
    assert.match(parsed.errored.message, /\$\.pinnedPrefixItems: 1\.0 is not an integer/);
  });

  it('refuses null where a budget field may not be null, and unknown fields (BUD-2, JSON-13)', () => {
    for (const budget of ['{"trimOldReasoning":null}', '{"pinnedPrefixItems":null}', '{"__proto__":1}', '{"maxItems":true}', '{"maxItems":"3"}']) {
      const { response } = handleLine(`{"seq":1,"cmd":"project","target":"DefaultContextProjector","items":[],"budget":${budget}}`);
      assert.ok(JSON.parse(response).errored, budget);
    }
    const { response } = handleLine('{"seq":1,"cmd":"project","target":"DefaultContextProjector","items":[],"budget":{"maxItems":null,"maxApproxChars":null,"maxRecentToolResults":null,"pinnedPrefixItems":0,"trimOldReasoning":false}}');
    assert.ok(JSON.parse(response).result);
  });

  it('reports a non-finite number in an item as errored', () => {
    const { response } = handleLine('{"seq":1,"cmd":"project","target":"DefaultContextProjector","items":[1e999],"budget":null}');
    assert.match(JSON.parse(response).errored.message, /not a finite JSON number/);
  });

  it('accepts items 256 levels deep inside a request', () => {
    const item = `${'['.repeat(256)}${']'.repeat(256)}`;
    const { response } = handleLine(`{"seq":1,"cmd":"project","target":"DefaultContextProjector","items":[${item}],"budget":null}`);
    assert.equal(JSON.parse(response).result.report.sourceApproxChars, 512);
  });
});
