// A read never writes: dry runs, `restore --dry-run` and `history` leave the state store byte for byte
// as they found it, on both backends — a fresh store, one with uploads, and (directory) a folder an
// earlier version wrote or one everyone can read. Migrating and tightening happen on the first upload,
// under its lock, and say so.
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { siteName } from '../../src/state/paths.js';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { freshDatabase } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

/** Every file and folder under the root: its path, mode and the sha256 of its bytes. */
function directoryImage(root: string): string[] {
  const walk = (path: string): string[] => {
    let info;
    try {
      info = lstatSync(path);
    } catch {
      return [`${path} absent`];
    }
    const mode = (info.mode & 0o7777).toString(8);
    if (!info.isDirectory()) return [`${path} ${mode} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`];
    return [
      `${path}/ ${mode}`,
      ...readdirSync(path)
        .sort()
        .flatMap((name) => walk(join(path, name))),
    ];
  };
  return walk(root);
}

/** Every table of the database with its rows, as text. */
async function databaseImage(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    const out: string[] = [];
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${name} t`);
      out.push(`table ${name}`, ...rows.map((r) => r.row).sort());
    }
    return out;
  } finally {
    await client.end();
  }
}

const backends = {
  directory: { make: () => Promise.resolve(join(tempDir().dir, 'state')), image: (spec: string) => Promise.resolve(directoryImage(spec)) },
  postgres: { make: freshDatabase, image: databaseImage },
};

describe.each(Object.entries(backends))('the %s store, read by dry runs and history', (_name, { make, image }) => {
  it('is left exactly as it was, empty or with uploads', async () => {
    sb = await sandbox();
    const state = await make();
    const run = (args: string[]) => runCli([...args, '--state', state], { env: sb!.env });
    const hundred = writeMembers(sb.dir, 'hundred.csv', range(1, 100));
    const ninety = writeMembers(sb.dir, 'ninety.csv', range(1, 90));
    const reads = [
      ['team-members', hundred, '--dry-run'],
      ['team-members', ninety, '--dry-run', '--max-removals', '5'],
      ['team-members', ninety, '--dry-run', '--payload-out', join(sb.dir, 'body.json'), '--diff-out', join(sb.dir, 'diff.csv')],
      ['team-members', ninety, '--dry-run', '--plan-out', join(sb.dir, 'plan.json')],
      ['restore', 'team-members', '--dry-run'],
      ['history', 'team-members'],
      ['history', 'store-cards', '--json'],
    ];

    const empty = await image(state);
    for (const args of reads) await run(args);
    expect(await image(state)).toEqual(empty);

    expect((await run(['team-members', hundred, '--yes', '--no-baseline'])).code).toBe(0);
    expect((await run(['team-members', ninety, '--yes', '--max-removals', '10'])).code).toBe(0);
    const uploaded = await image(state);
    const codes: (number | null)[] = [];
    for (const args of reads) codes.push((await run(args)).code);
    // Each read really ran, to the end.
    expect(codes).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(await image(state)).toEqual(uploaded);
  });
});

describe('the directory store, read before its first upload', () => {
  it('keeps a folder everyone can read as it is on a dry run, and tightens it on the first upload', async () => {
    sb = await sandbox();
    const state = join(tempDir().dir, 'state');
    mkdirSync(state, { mode: 0o755 });
    chmodSync(state, 0o755);
    const file = writeMembers(sb.dir, 'staff.csv', range(1, 5));
    const before = directoryImage(state);
    const dry = await runCli(['team-members', file, '--dry-run', '--state', state], { env: sb.env });
    expect(dry.stderr).toContain('the next upload removes access for others');
    expect(directoryImage(state)).toEqual(before);
    const real = await runCli(['team-members', file, '--yes', '--no-baseline', '--state', state], { env: sb.env });
    expect(real.code).toBe(0);
    expect(real.stderr).toContain('access for others is now removed');
    expect(lstatSync(state).mode & 0o777).toBe(0o750);
  });

  it('compares with an earlier version’s snapshot without migrating it; the first upload migrates it and says so', async () => {
    sb = await sandbox();
    const state = join(tempDir().dir, 'state');
    const site = siteName(new URL(sb.url));
    // What an earlier version left: the exact body it sent, under snapshots/<site>.<kind>.json.
    const other = join(tempDir().dir, 'other');
    const file = writeMembers(sb.dir, 'staff.csv', range(1, 10));
    expect((await runCli(['team-members', file, '--yes', '--no-baseline', '--state', other], { env: sb.env })).code).toBe(0);
    mkdirSync(join(state, 'snapshots'), { recursive: true, mode: 0o700 });
    copyFileSync(join(other, 'stores', `${site}.team-members`, 'snapshots', '1.json'), join(state, 'snapshots', `${site}.team-members.json`));
    const before = directoryImage(state);

    const dry = await runCli(['team-members', file, '--dry-run', '--json', '--state', state], { env: sb.env });
    expect(dry.json()).toMatchObject({ outcome: 'dry-run', baseline: { source: 'snapshot', generation: 1 } });
    expect(directoryImage(state)).toEqual(before);

    const real = await runCli(['team-members', file, '--yes', '--state', state], { env: sb.env });
    expect(real.code).toBe(0);
    expect(real.stderr).toContain('into the history as upload #1');
    const history = await runCli(['history', 'team-members', '--json', '--state', state], { env: sb.env });
    expect(history.json<{ generations: { generation: number }[] }>().generations.map((g) => g.generation)).toEqual([2, 1]);
  });
});
