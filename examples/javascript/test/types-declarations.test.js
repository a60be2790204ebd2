// The generated declarations name each schema once: every record, part and outcome of
// schemas/ and schemas/harness/ is declared exactly once across types/, under its schema's
// title, and everything else refers to that declaration. A record declared in two places (the
// layout of one file per schema did that: 132 extra declarations of 19 records) gives a user who
// imports both two incompatible types for one document; TypeScript would even merge two
// interfaces of one name in one file without a word, so tsc cannot catch it.

import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { INDEX_TITLE, SCHEMAS_DIR, TYPES_DIR, schemaFiles } from '../scripts/generate-types.mjs';

/** Members of a schema that hold JSON values rather than schemas: a `title` there is data. */
const VALUE_KEYWORDS = new Set(['examples', 'default', 'const', 'enum']);

/**
 * The names each top-level declaration of a TypeScript source declares, in order, with
 * repetitions.
 * @param {string} file the file's name, for the parser
 * @param {string} text
 * @returns {string[]}
 */
function declaredNames(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  /** @type {string[]} */
  const names = [];
  for (const statement of source.statements) {
    if (
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isEnumDeclaration(statement) ||
      ts.isClassDeclaration(statement)
    ) {
      if (statement.name) names.push(statement.name.text);
    }
  }
  return names;
}

/**
 * The names declared more than once across `files`, each with where.
 * @param {Map<string, string>} files the text of each file, by its path
 * @returns {Map<string, string[]>}
 */
function declaredTwice(files) {
  /** @type {Map<string, string[]>} */
  const where = new Map();
  for (const [file, text] of files) {
    for (const name of declaredNames(file, text)) where.set(name, [...(where.get(name) ?? []), file]);
  }
  return new Map([...where].filter(([, files]) => files.length > 1));
}

/**
 * The text of every .d.ts file under `dir`, by its path relative to it.
 * @param {string} dir
 * @returns {Promise<Map<string, string>>}
 */
async function declarationFiles(dir) {
  /** @type {Map<string, string>} */
  const found = new Map();
  /** @param {string} sub */
  const walk = async (sub) => {
    for (const entry of await readdir(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) await walk(relative);
      else if (entry.name.endsWith('.d.ts')) found.set(relative, await readFile(path.join(dir, relative), 'utf8'));
    }
  };
  await walk('');
  return found;
}

/**
 * Every `title` of every schema file, the file's own and its parts', with the file it is in.
 * @returns {Promise<Array<[string, string]>>}
 */
async function schemaTitles() {
  /** @type {Array<[string, string]>} */
  const titles = [];
  /**
   * @param {unknown} schema
   * @param {string} file
   */
  const walk = (schema, file) => {
    if (Array.isArray(schema)) {
      for (const member of schema) walk(member, file);
    } else if (schema !== null && typeof schema === 'object') {
      const object = /** @type {Record<string, unknown>} */ (schema);
      if (typeof object.title === 'string') titles.push([object.title, file]);
      for (const [keyword, member] of Object.entries(object)) {
        if (!VALUE_KEYWORDS.has(keyword)) walk(member, file);
      }
    }
  };
  for (const file of await schemaFiles()) {
    walk(JSON.parse(await readFile(path.join(SCHEMAS_DIR, file), 'utf8')), file);
  }
  return titles;
}

describe('the declarations in types/', async () => {
  const files = await declarationFiles(TYPES_DIR);
  const declared = [...files].flatMap(([file, text]) => declaredNames(file, text));
  const titles = await schemaTitles();

  it('declare no name twice', () => {
    assert.ok(declared.length >= 100, `the declarations were read (${declared.length})`);
    assert.deepEqual(Object.fromEntries(declaredTwice(files)), {});
  });

  it('declare every schema title', () => {
    assert.ok(titles.length >= 100, `the titles were read (${titles.length})`);
    const missing = titles.filter(([title]) => !declared.includes(title));
    assert.deepEqual(missing, [], 'titles without a declaration (title, schema file)');
  });

  it('declare nothing that is not a schema title, so no record under a second name', () => {
    const known = new Set([INDEX_TITLE, ...titles.map(([title]) => title)]);
    assert.deepEqual(declared.filter((name) => !known.has(name)), []);
  });

  it('declare every record of a schema file as a member of the index, of its own type', async () => {
    const index = ts.createSourceFile('index.d.ts', [...files.values()].join('\n'), ts.ScriptTarget.ES2022);
    const documents = index.statements.find(
      (statement) => ts.isInterfaceDeclaration(statement) && statement.name.text === INDEX_TITLE,
    );
    assert.ok(documents && ts.isInterfaceDeclaration(documents), `${INDEX_TITLE} is declared`);
    /** @type {Record<string, string>} */
    const members = {};
    for (const member of documents.members) {
      // A name that is an identifier (`vectors`) is written without quotes.
      if (ts.isPropertySignature(member) && member.type && (ts.isStringLiteral(member.name) || ts.isIdentifier(member.name))) {
        members[member.name.text] = member.type.getText(index);
      }
    }
    /** @type {Record<string, string>} */
    const expected = {};
    for (const file of await schemaFiles()) {
      const schema = JSON.parse(await readFile(path.join(SCHEMAS_DIR, file), 'utf8'));
      expected[file.slice(0, -'.schema.json'.length)] = schema.title;
    }
    assert.deepEqual(members, expected);
  });
});

describe('the check for names declared twice', () => {
  it('finds a record declared in two files, and one declared twice in one file', () => {
    const files = new Map([
      ['a.d.ts', 'export interface ContextReport { a: 1 }\nexport type Seq = unknown;\n'],
      ['b.d.ts', 'export interface ContextReport { a: 1 }\nexport interface Other {}\ninterface Other { b: 2 }\n'],
    ]);
    assert.deepEqual(Object.fromEntries(declaredTwice(files)), {
      ContextReport: ['a.d.ts', 'b.d.ts'],
      Other: ['b.d.ts', 'b.d.ts'],
    });
  });
});
