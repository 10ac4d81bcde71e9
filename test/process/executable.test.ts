// The single executable, built once by the Node that runs the suite (Node 22 and 24 in CI): it ignores
// NODE_OPTIONS (a module it names is not loaded into the program, docs/install.md; the same command
// run by node itself does load it, which shows the plant would work if it were honoured), and no run of
// it prints a Node warning (../helpers/no-warning.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { scene, warningsOf } from '../helpers/no-warning.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir().dir;
const exe = join(dir, process.platform === 'win32' ? 'upload.exe' : 'upload');
beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-exe.mjs')], { env: { ...process.env, EXE_OUT_DIR: dir }, stdio: 'ignore' });
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true })); // 130 MB

describe('the single executable', () => {
  it('does not load what NODE_OPTIONS names (--require), where the node-run package does', () => {
    const planted = join(dir, 'planted.cjs');
    const marker = join(dir, 'planted-ran');
    writeFileSync(planted, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    const env = { PATH: process.env.PATH ?? '', NODE_OPTIONS: `--require ${JSON.stringify(planted)}` };

    // No test hook in what ships (scripts/test-hooks.mjs).
    const bytes = readFileSync(exe, 'latin1');
    expect(bytes).not.toContain('UPLOAD_TEST_PAUSE_AT');

    const run = spawnSync(exe, ['--version'], { env, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^scheduling-upload \S+ \(Node v/);
    expect(existsSync(marker)).toBe(false);

    const byNode = spawnSync(process.execPath, [BIN, '--version'], { env, encoding: 'utf8' });
    expect(byNode.status).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('prints no Node warning: every command, a dry run of a CSV file and of a workbook, a notification, an xlsx export', { timeout: 120_000 }, async () => {
    const s = await scene();
    try {
      expect(await warningsOf({ command: exe, prefix: [] }, s)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
