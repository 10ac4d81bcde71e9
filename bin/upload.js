#!/usr/bin/env node
// A shim: the program lives in dist/. The package carries it built (npm pack builds it first); a git
// checkout builds it with `npm run build` (`npm test` and `npm run demo` do so themselves).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(entry)) {
  const { main } = await import(entry.href);
  process.exitCode = await main(process.argv.slice(2));
  // The run has ended and said how: a signal in the last moments (connections closing) does not turn
  // its exit code into a signal's. A second one still ends the process at once.
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => {});
} else {
  process.stderr.write('upload: this checkout is not built yet (there is no dist/)\n  → run npm run build in it, then run the command again\n');
  process.exitCode = 2;
}
