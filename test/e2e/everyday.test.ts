// Everyday work end to end, through the real CLI against the real sandbox, on both state stores: a
// merge, a removal by key, and a nightly sync whose removals are held back — each through the same
// diff, guards, lock, STATE_MOVED check, send and record as any upload, and named in the history.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { id, range, writeMembers } from '../helpers/members.js';
import { freshDatabase } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/spawn.js';

const TEAM = '/integrations/teamMembers';
let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const ids = (records: unknown[]) => (records as { employeeID: string }[]).map((r) => r.employeeID);

for (const backend of ['directory', 'postgres'] as const) {
  describe(`everyday tasks (${backend} state)`, () => {
    async function start(count = 20) {
      sb = await sandbox();
      const state = backend === 'directory' ? sb.stateDir : await freshDatabase();
      const run = (args: string[], env: Record<string, string> = {}) => runCli([...args, '--state', state], { env: { ...sb!.env, ...env } });
      expect((await run(['team-members', writeMembers(sb.dir, 'all.csv', range(1, count)), '--yes', '--no-baseline'])).code).toBe(0);
      return { s: sb, run, state };
    }

    it('--merge adds and replaces by key and keeps every other record; it needs a recorded set', async () => {
      const { s, run } = await start();
      // Three new people and one renamed: only those four rows in the file.
      const file = join(s.dir, 'new.csv');
      writeFileSync(
        file,
        [
          'employeeID,email,name,roleCode,parentKey',
          `${id(7)},m7@example.com,Renamed 7,3,STORE-001`,
          ...[21, 22, 23].map((n) => `${id(n)},m${n}@example.com,New ${n},3,STORE-001`),
        ].join('\n'),
      );
      const diffOut = join(s.dir, 'changes.csv');
      const dry = await run(['team-members', file, '--merge', '--dry-run', '--json', '--diff-out', diffOut]);
      expect(dry.code).toBe(0);
      // The review file lists what the merged set changes: three added, one renamed, nothing removed.
      const rows = readFileSync(diffOut, 'utf8').trim().split(/\r?\n/).slice(1);
      expect(rows.map((r) => r.split(',')[0])).toEqual(['changed', 'added', 'added', 'added']);
      expect(dry.json()).toMatchObject({ outcome: 'dry-run', records: 4, diff: { added: 3, removed: 0, changed: 1, unchanged: 19 } });
      expect(await s.stored(TEAM)).toHaveLength(20);

      const r = await run(['team-members', file, '--merge', '--yes', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ outcome: 'uploaded', generation: 2, diff: { added: 3, removed: 0, changed: 1 }, heldRemovals: [] });
      const stored = await s.stored(TEAM);
      expect(ids(stored)).toEqual([...range(1, 20), 21, 22, 23].map(id));
      expect(stored[6]).toMatchObject({ employeeID: id(7), name: 'Renamed 7' });

      // The same merge again changes nothing.
      const again = await run(['team-members', file, '--merge', '--yes', '--json']);
      expect(again.json()).toMatchObject({ unchanged: true, diff: { added: 0, removed: 0, changed: 0, unchanged: 23 } });

      const history = (await run(['history', 'team-members', '--json'])).json();
      expect(history.generations.map((g: any) => [g.generation, g.operation, g.added, g.changed])).toEqual([
        [3, 'merge', 0, 0],
        [2, 'merge', 3, 1],
        [1, 'upload', 20, 0],
      ]);
      expect((await run(['history', 'team-members'])).stdout).toMatch(/#2 .* merge of .*new\.csv {2}23 records {2}\+3 −0 ~1/);

      // A merge onto another service, where nothing is recorded, is refused before anything is sent.
      const other = sb!.url.replace('127.0.0.1', 'localhost');
      const none = await run(['team-members', file, '--merge', '--yes', '--json', '--base-url', other]);
      expect(none.code).toBe(2);
      expect(none.json().error).toMatchObject({ code: 'NO_HISTORY', message: expect.stringContaining(`nothing to merge ${file}'s records onto`) });
      const mixed = await run(['team-members', file, '--merge', '--baseline', file, '--yes']);
      expect(mixed.code).toBe(2);
      expect(mixed.stderr).toContain('cannot be combined with --baseline');
    });

    it('remove sends the recorded set without the keys; an unknown key is named and nothing is sent', async () => {
      const { s, run } = await start();
      const unknown = await run(['remove', 'team-members', id(3), 'E9999', '--yes', '--json']);
      expect(unknown.code).toBe(3);
      expect(unknown.json().error).toMatchObject({
        code: 'UNKNOWN_KEY',
        message: expect.stringContaining("employeeID 'E9999' is not in the last recorded set"),
      });
      expect(await s.stored(TEAM)).toHaveLength(20);

      // Two of 20 is 10 %, but the named keys are the exact count: no --max-removals needed.
      const keys = join(s.dir, 'leavers.txt');
      writeFileSync(keys, `${id(5)}\n\n${id(9)}\n`);
      const r = await run(['remove', 'team-members', id(3), '--keys-file', keys, '--yes', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({
        outcome: 'uploaded',
        source: `keys ${id(3)} and in ${keys}`,
        diff: { added: 0, removed: 3, changed: 0, unchanged: 17 },
      });
      expect(ids(await s.stored(TEAM))).toEqual(
        range(1, 20)
          .filter((n) => ![3, 5, 9].includes(n))
          .map(id),
      );
      const history = (await run(['history', 'team-members'])).stdout;
      expect(history).toContain(`removal of keys ${id(3)} and in ${keys}  17 records  +0 −3 ~0`);
    });

    it('--hold-removals uploads the new hires, keeps every record it would have deleted, and exits 9 until released', async () => {
      const { s, run } = await start();
      // The nightly file lost E0016–E0020 (25 %, over the 10 % default) and gained two new hires.
      const shrunk = writeMembers(s.dir, 'nightly.csv', [...range(1, 15), 21, 22]);
      const plain = await run(['team-members', shrunk, '--yes', '--json']);
      expect(plain.code).toBe(4);
      expect(plain.json().error.code).toBe('TOO_MANY_REMOVALS');

      const held = [16, 17, 18, 19, 20].map(id);
      const dry = await run(['team-members', shrunk, '--yes', '--json', '--hold-removals', '--dry-run']);
      expect(dry.code).toBe(0);
      expect(dry.json()).toMatchObject({ outcome: 'dry-run', heldRemovals: held, diff: { added: 2, removed: 0 } });

      const r = await run(['team-members', shrunk, '--yes', '--json', '--hold-removals']);
      expect(r.code, r.stderr).toBe(9);
      expect(r.json()).toMatchObject({ outcome: 'uploaded', exitCode: 9, heldRemovals: held, diff: { added: 2, removed: 0, changed: 0, unchanged: 20 } });
      expect(r.stderr).toContain('Removals held back');
      expect(ids(await s.stored(TEAM)).sort()).toEqual([...range(1, 22)].map(id));

      // The next night the file still omits them: held again, nothing deleted, exit 9 again.
      const next = await run(['team-members', shrunk, '--yes', '--json', '--hold-removals']);
      expect(next.code).toBe(9);
      expect(next.json()).toMatchObject({ heldRemovals: held, unchanged: true });
      const history = (await run(['history', 'team-members', '--json'])).json();
      expect(history.generations[0]).toMatchObject({ operation: 'upload', heldRemovals: held });
      expect((await run(['history', 'team-members'])).stdout).toContain(`held back 5 removals: ${held.join(', ')}`);

      // Released the usual way: the exact --max-removals removes them, and nothing is held after.
      const released = await run(['team-members', shrunk, '--yes', '--json', '--hold-removals', '--max-removals', '5']);
      expect(released.code).toBe(0);
      expect(released.json()).toMatchObject({ heldRemovals: [], diff: { removed: 5 } });
      expect(ids(await s.stored(TEAM))).toHaveLength(17);

      // A run whose file no longer omits anything holds nothing.
      const whole = await run(['team-members', writeMembers(s.dir, 'whole.csv', [...range(1, 15), 21, 22]), '--yes', '--json', '--hold-removals']);
      expect(whole.code).toBe(0);
      expect(whole.json().heldRemovals).toEqual([]);
    });
  });
}

describe('the new operations under a moving store and an interruption', () => {
  /** A merge whose records come from standard input, which the test writes when it chooses (no --json: its "Reading" line says it has started). */
  function slowMerge(state: string, env: Record<string, string>) {
    const child = spawn(process.execPath, [BIN, 'team-members', '-', '--merge', '--yes', '--state', state], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.resume();
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    return { child, done, stderr: () => stderr };
  }

  /** Ten members uploaded to a new sandbox, then a merge that has started reading and waits for its records. */
  async function mergeUnderWay(backend: 'directory' | 'postgres') {
    sb = await sandbox();
    const state = backend === 'directory' ? sb.stateDir : await freshDatabase();
    const env = sb.env;
    const run = (args: string[]) => runCli([...args, '--state', state], { env });
    expect((await run(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 10)), '--yes', '--no-baseline'])).code).toBe(0);
    const merge = slowMerge(state, env);
    await until(() => merge.stderr().includes('Reading'));
    return { run, merge };
  }

  it.each(['directory', 'postgres'] as const)(
    'a merge planned against an upload that another run replaced meanwhile is refused (STATE_MOVED, %s state)',
    async (backend) => {
      const { run, merge } = await mergeUnderWay(backend);
      // Meanwhile another upload lands.
      expect((await run(['team-members', writeMembers(sb!.dir, 'b.csv', range(1, 11)), '--yes'])).code).toBe(0);
      merge.child.stdin.end(`employeeID,email,name\n${id(30)},m30@example.com,New 30\n`);
      expect(await merge.done).toBe(4);
      expect(merge.stderr()).toContain('changed while this upload was being prepared: it was compared with upload #1, but the latest is now upload #2');
      expect(ids(await sb!.stored(TEAM))).toEqual(range(1, 11).map(id));
    },
  );

  it.each(['directory', 'postgres'] as const)('an interrupted merge sends nothing and records nothing (%s state)', async (backend) => {
    const { run, merge } = await mergeUnderWay(backend);
    merge.child.kill('SIGINT');
    merge.child.stdin.end(`employeeID,email,name\n${id(30)},m30@example.com,New 30\n`);
    expect(await merge.done).toBe(130);
    expect(merge.stderr()).toContain('interrupted (Ctrl-C) before the upload was sent');
    expect(await sb!.stored(TEAM)).toHaveLength(10);
    const history = (await run(['history', 'team-members', '--json'])).json();
    expect(history.generations).toHaveLength(1);
  });
});
