// Write back every document of documents.ts, which the test generates: each one a literal
// checked against its type from ctxpact.ts (json-schema-to-typescript) with `satisfies`, so
// that tsc --strict refuses a document the generated types do not accept
// (tests/spec/test_codegen.py). One line a document on stdout: {"document": WRITTEN}.
import { documents } from './documents';

for (const document of documents) {
  process.stdout.write(`${JSON.stringify({ document })}\n`);
}
