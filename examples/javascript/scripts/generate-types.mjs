#!/usr/bin/env node
// Generate the TypeScript declarations of the ctxpact records from the JSON Schemas in the
// repository's schemas/ directory, with json-schema-to-typescript (pinned in package.json).
//
//   node scripts/generate-types.mjs [OUT_DIR]     (default: types/)
//
// One module, OUT_DIR/index.d.ts, declares every schema's record once, under its schema's
// title: `import('../types/index.js').ContextReport` wherever a JSDoc comment needs one. The
// generator is given one schema, built here and never written to disk, whose members refer to
// every file of schemas/ and schemas/harness/ (as `ctxpact schemas export` writes
// index.schema.json for tools/codegen); json-schema-to-typescript then reaches each record by
// the same reference from every file that holds it and declares it once, where given the files
// one by one it declares a referenced record again in each file that refers to it. That schema
// is itself declared, as `CtxpactDocuments`: one member per schema file, named by its path
// under schemas/ (`'harness/start-response'`), of that schema's type. The output is written as
// json-schema-to-typescript gives it, with no post-processing.
//
// Writing into a directory, the generator deletes the declaration files it generated there
// earlier and no longer writes (the one file per schema of the layout before this one), so
// that `npm run types` alone brings types/ up to date. test/types-drift.test.js regenerates
// the declarations into a temporary directory and fails when they differ from types/ by a
// single byte.

import { mkdir, readFile, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCHEMAS_DIR = path.resolve(here, '../../../schemas');
export const TYPES_DIR = path.resolve(here, '../types');
/** The one declaration file, relative to the output directory. */
export const MODULE_FILE = 'index.d.ts';
/** The title of the schema that refers to every other one, and so of its declaration. */
export const INDEX_TITLE = 'CtxpactDocuments';
const SUFFIX = '.schema.json';
// '' is schemas/ itself.
const SUBDIRECTORIES = ['', 'harness'];
/** What every file this generator writes says of itself, in its banner. */
const GENERATED_MARK = 'by json-schema-to-typescript';

const BANNER = [
  '/* eslint-disable */',
  '/**',
  ` * Generated from schemas/ and schemas/harness/ ${GENERATED_MARK}`,
  ' * (examples/javascript/scripts/generate-types.mjs): each record once, named by its schema\'s',
  ' * title. Do not edit: run `npm run types`.',
  ' */',
].join('\n');

/**
 * The schema files to generate from, as paths relative to schemas/ (the records in schemas/,
 * the harness protocol messages in schemas/harness/), sorted.
 * @returns {Promise<string[]>}
 */
export async function schemaFiles() {
  const found = [];
  for (const sub of SUBDIRECTORIES) {
    let names;
    try {
      names = await readdir(path.join(SCHEMAS_DIR, sub));
    } catch {
      continue;
    }
    found.push(...names.filter((name) => name.endsWith(SUFFIX)).map((name) => path.posix.join(sub, name)));
  }
  return found.sort();
}

/**
 * The schema that refers to every schema file, with the `$id` it would have beside them: every
 * file's `$id` is the same base followed by its path under schemas/ (JSON-19).
 * @param {string[]} files the schema files, relative to schemas/
 * @returns {Promise<import('json-schema-to-typescript').JSONSchema>}
 */
async function indexSchema(files) {
  /** @type {Set<string>} */
  const bases = new Set();
  for (const file of files) {
    const schema = JSON.parse(await readFile(path.join(SCHEMAS_DIR, file), 'utf8'));
    const id = String(schema.$id);
    if (!id.endsWith(`/${file}`)) {
      throw new Error(`Expected the $id of schemas/${file} to end with /${file} but got ${JSON.stringify(schema.$id)}`);
    }
    bases.add(id.slice(0, -file.length));
  }
  if (bases.size !== 1) {
    throw new Error(`Expected one $id base for every schema file but got ${[...bases].join(', ')}`);
  }
  const names = files.map((file) => file.slice(0, -SUFFIX.length));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${[...bases][0]}index${SUFFIX}`,
    title: INDEX_TITLE,
    description:
      'Not a document: one member per ctxpact schema, named by its path under schemas/ and of ' +
      'its type, so that each record is declared once.',
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(names.map((name) => [name, { $ref: `${name}${SUFFIX}` }])),
    required: names,
  };
}

/**
 * The .d.ts files under `dir` that this generator wrote, relative to it.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function generatedFiles(dir) {
  /** @type {string[]} */
  const found = [];
  /** @param {string} sub */
  const walk = async (sub) => {
    let entries;
    try {
      entries = await readdir(path.join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const relative = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) await walk(relative);
      else if (entry.name.endsWith('.d.ts')) {
        const head = (await readFile(path.join(dir, relative), 'utf8')).slice(0, 400);
        if (head.includes(GENERATED_MARK)) found.push(relative);
      }
    }
  };
  await walk('');
  return found;
}

/**
 * Generate the declarations into `outDir` and delete the ones generated there before that it
 * no longer writes; returns the paths written, relative to `outDir`.
 * @param {string} outDir
 * @returns {Promise<string[]>}
 */
export async function generateTypes(outDir) {
  const files = await schemaFiles();
  if (files.length === 0) throw new Error(`Expected schema files in ${SCHEMAS_DIR} but found none`);
  const declarations = await compile(await indexSchema(files), INDEX_TITLE, {
    bannerComment: BANNER,
    cwd: SCHEMAS_DIR,
    style: { singleQuote: true },
  });
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, MODULE_FILE), declarations, 'utf8');
  for (const stale of await generatedFiles(outDir)) {
    if (stale === MODULE_FILE) continue;
    await rm(path.join(outDir, stale));
    // A subdirectory of the old layout (harness/) goes once it is empty.
    const sub = path.dirname(stale);
    if (sub !== '.') await rmdir(path.join(outDir, sub)).catch(() => {});
  }
  return [MODULE_FILE];
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outDir = path.resolve(process.argv[2] ?? TYPES_DIR);
  await generateTypes(outDir);
  console.log(`Wrote ${path.join(outDir, MODULE_FILE)}`);
}
