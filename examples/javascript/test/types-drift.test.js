// The declarations in types/ are generated from the schemas (npm run types); regenerating
// them must give the same files, byte for byte.

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { MODULE_FILE, TYPES_DIR, generateTypes } from '../scripts/generate-types.mjs';

/**
 * Every file under `dir`, relative to it, sorted.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function filesUnder(dir) {
  /** @type {string[]} */
  const found = [];
  /** @param {string} sub */
  const walk = async (sub) => {
    for (const entry of await readdir(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) await walk(relative);
      else found.push(relative);
    }
  };
  await walk('');
  return found.sort();
}

/**
 * Run `body` with a fresh temporary directory, removed afterwards.
 * @param {(dir: string) => Promise<void>} body
 */
async function inTemporaryDirectory(body) {
  const dir = await mkdtemp(path.join(tmpdir(), 'ctxpact-types-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

it('types/ matches the declarations generated from schemas/ (run `npm run types` to update)', async () => {
  await inTemporaryDirectory(async (fresh) => {
    const written = await generateTypes(fresh);
    assert.deepEqual(written, [MODULE_FILE], 'one module');
    assert.deepEqual(await filesUnder(TYPES_DIR), await filesUnder(fresh), 'the same files');
    for (const file of written) {
      const [committed, generated] = await Promise.all([
        readFile(path.join(TYPES_DIR, file), 'utf8'),
        readFile(path.join(fresh, file), 'utf8'),
      ]);
      assert.equal(committed, generated, `types/${file} is out of date`);
    }
  });
});

it('generating deletes the declaration files it wrote before and keeps any other file', async () => {
  await inTemporaryDirectory(async (dir) => {
    // A file of the layout before one module (one per schema), and one written by hand.
    const stale = '/* eslint-disable */\n/**\n * Generated from schemas/harness/call.schema.json by json-schema-to-typescript\n */\n';
    await mkdir(path.join(dir, 'harness'));
    await writeFile(path.join(dir, 'harness', 'call.d.ts'), stale, 'utf8');
    await writeFile(path.join(dir, 'context-report.d.ts'), stale, 'utf8');
    await writeFile(path.join(dir, 'extra.d.ts'), 'export type Extra = 1;\n', 'utf8');
    await generateTypes(dir);
    assert.deepEqual(await filesUnder(dir), ['extra.d.ts', MODULE_FILE]);
  });
});
