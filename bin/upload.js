#!/usr/bin/env node
// A shim: the program lives in dist/. The package carries it built (npm pack builds it first); a git
// checkout builds it with `npm run build` (`npm test` and `npm run demo` do so themselves).
// The Node is checked before the program loads (dist/cli/supported-node.js imports nothing): on one
// below the floor the program's dependencies fail in ways that say nothing useful. Keep this file in
// plain syntax that old Nodes parse.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli/', import.meta.url);
if (existsSync(new URL('main.js', dist))) {
  const { unsupportedNode } = await import(new URL('supported-node.js', dist).href);
  const refusal = unsupportedNode(process.versions.node, process.execPath);
  if (refusal) {
    process.stderr.write(refusal + '\n');
    process.exitCode = 2;
  } else {
    // V8's compiled code of the program kept between runs (in the system's temp folder; Node's own
    // cache, NODE_DISABLE_COMPILE_CACHE=1 turns it off): start-up is most of a small run's time.
    const { enableCompileCache } = await import('node:module');
    enableCompileCache?.();
    const { main } = await import(new URL('main.js', dist).href);
    const { leave } = await import(new URL('leave.js', dist).href);
    await leave(await main(process.argv.slice(2)));
  }
} else {
  process.stderr.write('upload: this checkout is not built yet (there is no dist/)\n  → run npm run build in it, then run the command again\n');
  process.exitCode = 2;
}
