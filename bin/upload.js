#!/usr/bin/env node
// A shim: the program lives in dist/program/, bundled by the build's last step (scripts/bundle-program.mjs).
// The package carries it built (npm pack builds it first); a git checkout builds it with `npm run build`
// (`npm test` and `npm run demo` do so themselves).
// The Node is checked before the program loads (supported-node.cjs imports nothing): on one below the
// floor the program's dependencies fail in ways that say nothing useful. Keep this file in plain syntax
// that old Nodes parse. CommonJS (bin/package.json), as the program is: no ES module loader to start.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const nodeModule = require('node:module');

const program = join(__dirname, '..', 'dist', 'program');
if (existsSync(join(program, 'main.cjs'))) {
  const { unsupportedNode } = require(join(program, 'supported-node.cjs'));
  const refusal = unsupportedNode(process.versions.node, process.execPath);
  if (refusal) {
    process.stderr.write(refusal + '\n');
    process.exitCode = 2;
  } else {
    // V8's compiled code kept between runs (in the system's temp folder; NODE_DISABLE_COMPILE_CACHE=1
    // turns it off): Node's own for the packages, and for the program the one its loader keeps, which
    // holds what a whole run compiled (src/cli/load-program.ts). Start-up is most of a small run's time.
    if (nodeModule.enableCompileCache) nodeModule.enableCompileCache();
    const { programLoader, runKind } = require(join(program, 'load-program.cjs'));
    const load = programLoader(program, runKind(process.argv.slice(2)));
    const { main } = load('main.cjs');
    const { leave } = load('leave.cjs');
    main(process.argv.slice(2)).then(leave);
  }
} else {
  process.stderr.write('upload: this checkout is not built yet (there is no dist/)\n  → run npm run build in it, then run the command again\n');
  process.exitCode = 2;
}
