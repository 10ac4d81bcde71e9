// No run prints a Node warning (issue 43): every command's --help and the runs that once did (a dry
// run that notifies, an xlsx export, a workbook read), through bin/upload.js as a checkout runs it and
// through the packed tarball installed as a user installs it. The single executable's runs are in
// ./executable.test.ts, which builds it once.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { scene, warningsOf, type Scene } from '../helpers/no-warning.js';
import { tempDir } from '../helpers/tmp.js';

/** npm as `npm test` runs it (its own entry point: no shell needed to find npm.cmd on Windows). */
function npm(args: readonly string[], cwd: string): void {
  const npmCli = process.env.npm_execpath;
  if (npmCli?.endsWith('.js')) execFileSync(process.execPath, [npmCli, ...args], { cwd, stdio: 'ignore' });
  else execFileSync('npm', args, { cwd, stdio: 'ignore', shell: process.platform === 'win32' });
}

let s: Scene;
beforeAll(async () => {
  s = await scene();
});
afterAll(async () => {
  await s?.close();
});

describe('no Node warning on any run', () => {
  it('through bin/upload.js', { timeout: 120_000 }, async () => {
    expect(await warningsOf({ command: process.execPath, prefix: [BIN] }, s)).toEqual([]);
  });

  it('through the packed tarball, installed into a prefix of its own', { timeout: 300_000 }, async () => {
    const { dir } = tempDir();
    try {
      // `npm test` has built dist/ already: packed as it is, and installed from npm's cache where it can.
      npm(['pack', '--ignore-scripts', '--pack-destination', dir, '--loglevel=error'], ROOT);
      const tarball = join(
        dir,
        readdirSync(dir).find((f) => f.endsWith('.tgz'))!,
      );
      const prefix = join(dir, 'prefix');
      npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], dir);
      const installed = join(prefix, ...(process.platform === 'win32' ? [] : ['lib']), 'node_modules', 'scheduling-upload', 'bin', 'upload.js');
      expect(await warningsOf({ command: process.execPath, prefix: [installed] }, s)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
