// The program's code cache (src/cli/load-program.ts): what a run compiled, kept for the next run in a
// folder of its own inside Node's compile cache folder; only a folder no one else can write to is used;
// a cache that does not fit is compiled past and replaced; an older build's cache is dropped.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/** A dry run of the real CLI with its compile cache in `cache`; returns what it said (its report, on stderr). */
function dryRun(cache: string, extra: NodeJS.ProcessEnv = {}, bin = BIN): string {
  const { NODE_DISABLE_COMPILE_CACHE: _, ...env } = process.env;
  const run = spawnSync(process.execPath, [bin, 'team-members', fixture('team-members.csv'), '--dry-run', '--state-dir', join(cache, 'state')], {
    encoding: 'utf8',
    env: { ...env, NODE_COMPILE_CACHE: cache, ...extra },
  });
  expect(run.status).toBe(0);
  expect(run.stderr).toContain('Dry run: 3 team members would replace every team member');
  return run.stderr;
}

/** The folder of the program's folders, one per installed copy. */
function copiesFolder(cache: string): string {
  const version = readdirSync(cache).find((v) => v.startsWith('v') && statSync(join(cache, v)).isDirectory())!;
  return join(
    cache,
    version,
    readdirSync(join(cache, version)).find((f) => f.startsWith('scheduling-upload-'))!,
  );
}

/** The program's own folder in the compile cache folder (Node makes one per version inside it; ours, one per installed copy). */
function programFolder(cache: string): string | undefined {
  for (const version of readdirSync(cache)) {
    const inside = join(cache, version);
    if (!statSync(inside).isDirectory()) continue;
    const ours = readdirSync(inside).find((f) => f.startsWith('scheduling-upload-'));
    if (ours) {
      const [copy, ...others] = readdirSync(join(inside, ours));
      expect(others).toEqual([]);
      return join(inside, ours, copy!);
    }
  }
  return undefined;
}

const chunks = () => readdirSync(join(BIN, '..', '..', 'dist', 'program')).filter((f) => /-[\w-]{8}\.cjs$/.test(f));
const mtimes = (folder: string) => Object.fromEntries(readdirSync(folder).map((f) => [f, statSync(join(folder, f)).mtimeMs]));

describe("the program's code cache", () => {
  it('keeps what a run compiled, privately, one file per chunk it loaded, and the next run uses it as it is', () => {
    const { dir } = tempDir();
    const first = dryRun(dir);
    const folder = programFolder(dir)!;
    expect(folder).toBeDefined();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const kept = readdirSync(folder);
    expect(kept.length).toBeGreaterThan(1);
    for (const f of kept) {
      expect(chunks()).toContain(f);
      expect(statSync(join(folder, f)).mode & 0o777).toBe(0o600);
    }
    const before = mtimes(folder);
    expect(dryRun(dir)).toBe(first);
    // Accepted as it was: nothing rewritten.
    expect(mtimes(folder)).toEqual(before);
  });

  it('compiles past a cache that does not fit, and replaces it', () => {
    const { dir } = tempDir();
    const first = dryRun(dir);
    const folder = programFolder(dir)!;
    const upload = readdirSync(folder).find((f) => f.startsWith('upload-'))!;
    writeFileSync(join(folder, upload), 'not a code cache');
    expect(dryRun(dir)).toBe(first);
    expect(statSync(join(folder, upload)).size).toBeGreaterThan(1000);
  });

  it("drops an earlier build's cache of a chunk when it keeps the new one", () => {
    const { dir } = tempDir();
    dryRun(dir);
    const folder = programFolder(dir)!;
    const upload = readdirSync(folder).find((f) => f.startsWith('upload-'))!;
    rmSync(join(folder, upload));
    writeFileSync(join(folder, 'upload-OLDBUILD.cjs'), 'an older build');
    writeFileSync(join(folder, 'upload2-OLDBUILD.cjs'), 'another chunk');
    dryRun(dir);
    expect(readdirSync(folder)).toContain(upload);
    expect(readdirSync(folder)).not.toContain('upload-OLDBUILD.cjs');
    expect(readdirSync(folder)).toContain('upload2-OLDBUILD.cjs');
  });

  it('keeps one folder per installed copy: two copies on one machine never drop each other’s caches', () => {
    const { dir } = tempDir();
    const copy = tempDir().dir;
    for (const part of ['bin', 'dist']) cpSync(join(BIN, '..', '..', part), join(copy, part), { recursive: true });
    symlinkSync(join(BIN, '..', '..', 'node_modules'), join(copy, 'node_modules'));
    const other = join(copy, 'bin', 'upload.js');
    dryRun(dir);
    dryRun(dir, {}, other);
    const copies = copiesFolder(dir);
    const folders = readdirSync(copies);
    expect(folders).toHaveLength(2);
    const before = folders.map((f) => mtimes(join(copies, f)));
    dryRun(dir);
    dryRun(dir, {}, other);
    expect(folders.map((f) => mtimes(join(copies, f)))).toEqual(before);
  });

  it('neither reads nor writes a folder someone else can write to', () => {
    const { dir } = tempDir();
    const first = dryRun(dir);
    const folder = programFolder(dir)!;
    for (const f of readdirSync(folder)) writeFileSync(join(folder, f), 'planted');
    chmodSync(folder, 0o777);
    expect(dryRun(dir)).toBe(first);
    for (const f of readdirSync(folder)) expect(statSync(join(folder, f)).size).toBe('planted'.length);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1', () => {
    const { dir } = tempDir();
    dryRun(dir, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(programFolder(dir)).toBeUndefined();
  });
});
