#!/usr/bin/env node
// The ctxpact conformance harness of the JavaScript implementation (spec/HARNESS.md).
//
//   ctxpact check --exec "node examples/javascript/harness.js"
//
// JSON lines over stdin and stdout, UTF-8, one object per line. Every request carries a
// `seq` that the response echoes unchanged; a response holds exactly one of `result`,
// `skipped` and `errored`. Requests and responses are read and written with the module's own
// JSON parser and serializer, so member order and the form of every number (1 versus 1.0)
// survive the round trip (JSON-3, JSON-5).

import { handleLine } from './src/harness.js';

/** Serve requests from stdin until `stop` or the end of input. */
function serve() {
  let buffer = '';
  let stopping = false;
  process.stdin.setEncoding('utf8'); // decodes UTF-8 across chunk boundaries
  process.stdin.on('data', (chunk) => {
    if (stopping) return;
    buffer += chunk;
    let start = 0;
    let newline = buffer.indexOf('\n', start);
    while (newline >= 0) {
      let line = buffer.slice(start, newline);
      start = newline + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.trim() !== '') {
        const { response, stop } = handleLine(line);
        if (stop) {
          stopping = true;
          process.stdout.write(`${response}\n`, () => process.exit(0));
          return;
        }
        process.stdout.write(`${response}\n`);
      }
      newline = buffer.indexOf('\n', start);
    }
    buffer = buffer.slice(start);
  });
  process.stdin.on('end', () => {
    if (!stopping && buffer.trim() !== '') process.stdout.write(`${handleLine(buffer).response}\n`);
  });
}

serve();
