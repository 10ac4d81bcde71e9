// The single executable's entry point (scripts/build-exe.mjs): what bin/upload.js does, without the
// top-level await that a CommonJS bundle, the only kind Node 22 and 24 run as an executable, cannot hold.
// The executable carries the Node that built it; one built with an unsupported Node still refuses,
// before the program (a lazily run module in the bundle) is loaded.
import { unsupportedNode } from './supported-node.js';

const refusal = unsupportedNode(process.versions.node, process.execPath);
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exitCode = 2;
} else {
  void Promise.all([import('./main.js'), import('./leave.js')]).then(async ([{ main }, { leave }]) => {
    await leave(await main(process.argv.slice(2)));
  });
}
