#!/usr/bin/env node
// Generate the TypeScript declarations of the ctxpact records from the JSON Schemas in the
// repository's schemas/ directory, with json-schema-to-typescript (pinned in package.json).
//
//   node scripts/generate-types.mjs [OUT_DIR]     (default: types/)
//
// One declaration file per schema: schemas/context-report.schema.json becomes
// types/context-report.d.ts, schemas/harness/project-request.schema.json becomes
// types/harness/project-request.d.ts. test/types-drift.test.js regenerates them into a temporary
// directory and fails when they differ from types/ by a single byte.

import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCHEMAS_DIR = path.resolve(here, '../../../schemas');
export const TYPES_DIR = path.resolve(here, '../types');
const SUFFIX = '.schema.json';
// '' is schemas/ itself.
const SUBDIRECTORIES = ['', 'harness'];

/**
 * The banner of a generated file.
 * @param {string} file the schema's file name
 */
function banner(file) {
  return [
    '/* eslint-disable */',
    '/**',
    ` * Generated from schemas/${file} by json-schema-to-typescript`,
    ' * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.',
    ' */',
  ].join('\n');
}

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
 * Generate every declaration file into `outDir`; returns the paths written, relative to it.
 * @param {string} outDir
 * @returns {Promise<string[]>}
 */
export async function generateTypes(outDir) {
  const written = [];
  for (const file of await schemaFiles()) {
    const schemaPath = path.join(SCHEMAS_DIR, file);
    const schema = JSON.parse(await readFile(schemaPath, 'utf8'));
    const declarations = await compile(schema, schema.title ?? file, {
      bannerComment: banner(file),
      cwd: path.dirname(schemaPath),
      additionalProperties: false,
      style: { singleQuote: true },
    });
    const target = `${file.slice(0, -SUFFIX.length)}.d.ts`;
    await mkdir(path.dirname(path.join(outDir, target)), { recursive: true });
    await writeFile(path.join(outDir, target), declarations, 'utf8');
    written.push(target);
  }
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outDir = path.resolve(process.argv[2] ?? TYPES_DIR);
  const written = await generateTypes(outDir);
  console.log(`Wrote ${written.length} declaration files to ${outDir}`);
}
