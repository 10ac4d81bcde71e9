// `npm run build:exe`: one file, exe/upload (exe/upload.exe on Windows), that runs with no Node on the
// machine: Node's single-executable application of the node binary running this script.
//   1. rolldown bundles src/cli/exe.ts and every dependency into one CommonJS file (the only format
//      Node 22 and 24 take as an executable's main script), with the version written in;
//   2. node --experimental-sea-config turns it into a blob;
//   3. a copy of this node binary gets the blob injected (postject), on macOS re-signed ad hoc.
// The licences of the bundled packages go beside it, in exe/THIRD-PARTY-LICENSES.txt.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundleTool } from './bundle.mjs';
import { inject } from 'postject';

const root = join(import.meta.dirname, '..');
// EXE_OUT_DIR: elsewhere than exe/ (a test builds one of its own); the work folder goes beside it.
const outDir = process.env.EXE_OUT_DIR ?? join(root, 'exe');
const work = process.env.EXE_OUT_DIR ? join(outDir, '.work') : join(root, '.tmp', 'exe');
const windows = process.platform === 'win32';
const macos = process.platform === 'darwin';
const output = join(outDir, windows ? 'upload.exe' : 'upload');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
mkdirSync(outDir, { recursive: true });

const bundle = join(work, 'upload.cjs');
const { inputs } = await bundleTool(bundle, version);

const blob = join(work, 'upload.blob');
const config = join(work, 'sea-config.json');
// execArgvExtension "none": the executable ignores NODE_OPTIONS (docs/install.md, "NODE_OPTIONS"). A
// distributed program need not let a variable in its environment load code into it (--require,
// --import) or open an inspector port; what it needs from Node is built in. A Node that does not know
// the field would leave it unread: the executable is checked below, and the build fails.
writeFileSync(config, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, execArgvExtension: 'none' }));
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });

rmSync(output, { force: true });
copyFileSync(process.execPath, output);
if (macos) execFileSync('codesign', ['--remove-signature', output], { stdio: 'inherit' });
await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ...(macos ? { machoSegmentName: 'NODE_SEA' } : {}),
});
if (macos) execFileSync('codesign', ['--sign', '-', output], { stdio: 'inherit' });
ignoresNodeOptions(output);

writeFileSync(join(outDir, 'THIRD-PARTY-LICENSES.txt'), licences({ inputs }));
console.log(`built ${output} (Node ${process.version}, scheduling-upload ${version})`);

/** Fails the build unless the executable starts without running a module NODE_OPTIONS asks it to load. */
function ignoresNodeOptions(exe) {
  const planted = join(work, 'planted.cjs');
  const marker = join(work, 'planted-ran');
  writeFileSync(planted, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
  execFileSync(exe, ['--version'], { env: { ...process.env, NODE_OPTIONS: `--require ${JSON.stringify(planted)}` }, stdio: 'ignore' });
  if (existsSync(marker)) {
    rmSync(output, { force: true });
    throw new Error(
      `${process.version} does not honour execArgvExtension: the executable would run what NODE_OPTIONS names; build with Node 22.20 or 24.6 or later`,
    );
  }
}

/** Each bundled package's name, version and licence text, plus Node's own (the executable is a node binary). */
function licences(meta) {
  const packages = new Map();
  for (const input of Object.keys(meta.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.set(match[1], true);
  }
  const sections = [...packages.keys()].sort().map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'LICENCE'].map((f) => join(root, dir, f)).find(existsSync);
    return `${pkg.name} ${pkg.version} (${pkg.license ?? 'see its package'})\n\n${file ? readFileSync(file, 'utf8').trim() : '(no licence file in the package)'}`;
  });
  const nodeLicence = [join(dirname(process.execPath), '..', 'LICENSE'), join(dirname(process.execPath), 'LICENSE')].find(existsSync);
  if (nodeLicence) sections.unshift(`Node.js ${process.version}\n\n${readFileSync(nodeLicence, 'utf8').trim()}`);
  return `${sections.join(`\n\n${'='.repeat(78)}\n\n`)}\n`;
}
