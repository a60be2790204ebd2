// The declarations in types/ are generated from the schemas (npm run types); regenerating
// them must give the same files, byte for byte.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { TYPES_DIR, generateTypes } from '../scripts/generate-types.mjs';

/**
 * Every .d.ts file under `dir`, relative to it, sorted.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function declarationFiles(dir) {
  /** @type {string[]} */
  const found = [];
  /** @param {string} sub */
  const walk = async (sub) => {
    for (const entry of await readdir(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) await walk(relative);
      else if (entry.name.endsWith('.d.ts')) found.push(relative);
    }
  };
  await walk('');
  return found.sort();
}

it('types/ matches the declarations generated from schemas/ (run `npm run types` to update)', async () => {
  const fresh = await mkdtemp(path.join(tmpdir(), 'ctxpact-types-'));
  try {
    const written = await generateTypes(fresh);
    assert.ok(written.length >= 10, 'the record schemas were found');
    assert.deepEqual(await declarationFiles(TYPES_DIR), await declarationFiles(fresh), 'the same files');
    for (const file of written) {
      const [committed, generated] = await Promise.all([
        readFile(path.join(TYPES_DIR, file), 'utf8'),
        readFile(path.join(fresh, file), 'utf8'),
      ]);
      assert.equal(committed, generated, `types/${file} is out of date`);
    }
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
});
