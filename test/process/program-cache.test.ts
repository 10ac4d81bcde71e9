// The program's code cache (src/cli/load-program.ts): what a run compiled, kept for the next run of the
// same command in a folder of its own inside Node's compile cache folder; only a folder no one else can
// write to is used; a cache that does not fit is compiled past and replaced; an older build's cache is
// dropped.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKind, worthKeeping } from '../../src/cli/load-program.js';
import { BIN, fixture } from '../helpers/cli.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { startCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

/** The real CLI with its compile cache in `cache`. */
function upload(cache: string, args: readonly string[], extra: NodeJS.ProcessEnv = {}, bin = BIN) {
  const { NODE_DISABLE_COMPILE_CACHE: _, ...env } = process.env;
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...env, NODE_COMPILE_CACHE: cache, ...extra } });
}

/** A dry run of the real CLI with its compile cache in `cache`; returns what it said (its report, on stderr). */
function dryRun(cache: string, extra: NodeJS.ProcessEnv = {}, bin = BIN): string {
  const run = upload(cache, ['team-members', fixture('team-members.csv'), '--dry-run', '--state', join(cache, 'state')], extra, bin);
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
/** The cache of a chunk, for a kind of run: `team-members.upload-B4xq1a2Z.cjs`. */
const cacheOf = (folder: string, kind: string, chunk: string) => readdirSync(folder).find((f) => f.startsWith(`${kind}.${chunk}-`));
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
      expect(f.startsWith('team-members.')).toBe(true);
      expect(chunks()).toContain(f.slice('team-members.'.length));
      expect(statSync(join(folder, f)).mode & 0o777).toBe(0o600);
    }
    const before = mtimes(folder);
    expect(dryRun(dir)).toBe(first);
    // Accepted as it was: nothing rewritten.
    expect(mtimes(folder)).toEqual(before);
  });

  it("keeps each command's runs apart from its help's: a help run first leaves the next dry run's cache whole", () => {
    const { dir } = tempDir();
    expect(upload(dir, ['team-members', '--help']).status).toBe(0);
    dryRun(dir);
    const folder = programFolder(dir)!;
    const help = cacheOf(folder, 'team-members-help', 'upload')!;
    const run = cacheOf(folder, 'team-members', 'upload')!;
    expect(help).toBeDefined();
    expect(run).toBeDefined();
    // The dry run's holds what it compiled, far more than the help's.
    expect(statSync(join(folder, run)).size).toBeGreaterThan(1.3 * statSync(join(folder, help)).size);
  });

  it('tells the kinds of run apart by the first word naming a command, with help and version apart', () => {
    const commands = ['team-members', 'history'];
    expect(runKind(['team-members', 'staff.csv', '--dry-run'], commands)).toBe('team-members');
    expect(runKind(['history', 'team-members', '--json'], commands)).toBe('history');
    expect(runKind(['team-members', 'history'], commands)).toBe('team-members');
    expect(runKind(['team-members', '-h'], commands)).toBe('team-members-help');
    expect(runKind(['--version'], commands)).toBe('upload-help');
    expect(runKind([], commands)).toBe('upload-help');
    expect(runKind(['staff.csv'], commands)).toBe('upload');
  });

  it('compiles past a cache that does not fit, and replaces it', () => {
    const { dir } = tempDir();
    const first = dryRun(dir);
    const folder = programFolder(dir)!;
    const cached = cacheOf(folder, 'team-members', 'upload')!;
    writeFileSync(join(folder, cached), 'not a code cache');
    expect(dryRun(dir)).toBe(first);
    expect(statSync(join(folder, cached)).size).toBeGreaterThan(1000);
  });

  it("drops every kind of run's cache of a chunk's earlier build when it keeps the new one", () => {
    const { dir } = tempDir();
    dryRun(dir);
    const folder = programFolder(dir)!;
    const cached = cacheOf(folder, 'team-members', 'upload')!;
    rmSync(join(folder, cached));
    const planted = [
      'team-members.upload-OLDBUILD.cjs',
      'history.upload-OLDBUILD.cjs',
      'team-members.upload2-OLDBUILD.cjs',
      `history.${cached.slice('team-members.'.length)}`,
    ];
    for (const f of planted) writeFileSync(join(folder, f), 'an older build, or another chunk, or this build for another command');
    dryRun(dir);
    expect(readdirSync(folder)).toContain(cached);
    expect(readdirSync(folder)).not.toContain('team-members.upload-OLDBUILD.cjs');
    expect(readdirSync(folder)).not.toContain('history.upload-OLDBUILD.cjs');
    expect(readdirSync(folder)).toContain('team-members.upload2-OLDBUILD.cjs');
    expect(readdirSync(folder)).toContain(planted[3]);
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

  it('loads files that hold no import(): vm.Script needs no dynamic-import callback, which Node would warn of', () => {
    const folder = join(BIN, '..', '..', 'dist', 'program');
    const files = readdirSync(folder).filter((f) => f.endsWith('.cjs'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect({ f, imports: readFileSync(join(folder, f), 'utf8').match(/(?<![\w$.])import\(/g) }).toEqual({ f, imports: null });
    // A package an import() brought in (undici, ora) is required instead, and loads as before: a run
    // that fails (here: no such file) sends its notification through undici.
    const { dir } = tempDir();
    const run = upload(dir, ['team-members', join(dir, 'missing.csv'), '--dry-run', '--notify', 'http://127.0.0.1:9/hook', '--state', join(dir, 'state')]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('the notification to 127.0.0.1:9 was not delivered');
    expect(run.stderr).not.toMatch(/Warning|\(node:/);
  });

  it('is made only by a run that succeeded: one stopped by a mistake leaves none, and the next run makes it whole', () => {
    const { dir } = tempDir();
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'employeeID,email,name\nE1,not an email,A\n');
    const failed = upload(dir, ['team-members', bad, '--dry-run', '--state', join(dir, 'state')]);
    expect(failed.status).toBe(3);
    expect(readdirSync(programFolder(dir)!)).toEqual([]);
    expect(upload(dir, ['team-members', '--no-such-flag']).status).toBe(2);
    expect(readdirSync(programFolder(dir)!)).toEqual([]);
    dryRun(dir);
    expect(cacheOf(programFolder(dir)!, 'team-members', 'upload')).toBeDefined();
  });

  it('is made only by a short run: one that took longer leaves none (V8 may have dropped the code of its start)', async () => {
    // Succeeded: 0; 8, changes under --detailed-exitcode; 9, removals held back.
    expect([0, 8, 9, 1, 2, 3, 4, 130].map((code) => worthKeeping(code, 80))).toEqual([true, true, true, false, false, false, false, false]);
    expect([worthKeeping(0, 999), worthKeeping(0, 1000), worthKeeping(8, 5000)]).toEqual([true, false, false]);
    const { dir } = tempDir();
    // A real upload that succeeds after waiting a second and more for the service's answer.
    const server = await scriptedServer([{ ok: true, delayMs: 1_200 }]);
    const run = startCli(['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--state', join(dir, 'state')], {
      NODE_COMPILE_CACHE: dir,
      UPLOAD_TOKEN: 'a-token-for-the-test',
      UPLOAD_BASE_URL: server.url,
    });
    const { code } = await run.done;
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(readdirSync(programFolder(dir)!)).toEqual([]);
    dryRun(dir);
    expect(cacheOf(programFolder(dir)!, 'team-members', 'upload')).toBeDefined();
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1', () => {
    const { dir } = tempDir();
    dryRun(dir, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(programFolder(dir)).toBeUndefined();
  });
});
