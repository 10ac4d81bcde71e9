// What a small dry run reads of the bundled program (scripts/bundle-program.mjs): the `start`, `program`
// and `upload` files, never `more`, which holds the features a dry run does not run. A static import
// from the dry run's path into one of those would load `more` on every run (docs/performance.md,
// start-up): this names it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, fixture, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * The bundle's files a run of `args` loaded, by the name before their hash: those Node's require()
 * loaded (the Node check, the loader) and those the loader read to compile (src/cli/load-program.ts).
 */
function filesLoaded(args: readonly string[]): string[] {
  const { dir, write } = tempDir();
  const list = join(dir, 'loaded.json');
  const preload = write(
    'preload.cjs',
    `const fs = require('node:fs');
const read = new Set();
const readFileSync = fs.readFileSync;
fs.readFileSync = function (path, ...rest) { if (typeof path === 'string') read.add(path); return readFileSync.call(this, path, ...rest); };
process.on('exit', () => fs.writeFileSync(${JSON.stringify(list)}, JSON.stringify([...new Set([...Object.keys(require.cache), ...read])])));`,
  );
  const run = spawnSync(process.execPath, ['-r', preload, BIN, ...args, '--state', join(dir, 'state')], { cwd: ROOT, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(readFileSync(list, 'utf8')) as string[])
    .filter((path) => path.includes(join('dist', 'program')))
    .map((path) => basename(path).replace(/-[\w-]{8}\.cjs$|\.cjs$/, ''))
    .sort();
}

describe('the files of the program a dry run reads', () => {
  it('a CSV dry run of either kind: start, program and upload, not more', () => {
    const expected = ['leave', 'load-program', 'main', 'program', 'rolldown-runtime', 'start', 'supported-node', 'upload'];
    expect(filesLoaded(['team-members', fixture('team-members.csv'), '--dry-run', '--quiet'])).toEqual(expected);
    expect(filesLoaded(['store-cards', fixture('store-cards.csv'), '--dry-run', '--json'])).toEqual(expected);
  });

  it('another command, its help included, reads more', () => {
    expect(filesLoaded(['history', '--help'])).toContain('more');
  });
});
