// `upload state --from A --to B` copies through dump() and load(): the copy answers every read as the
// source does — generations, kept and pruned snapshots, the upload sent but not confirmed (with its
// bytes, its run's id and time), the audit log — and holds no lease. Directory → PostgreSQL →
// directory (and through PgBouncer), with an unsettled upload in it; then the CLI end to end.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodePayload } from '../../src/contract/json-array.js';
import { copyState, openStore } from '../../src/state/index.js';
import type { AuditEntry, StateKey, StateStore } from '../../src/state/types.js';
import { FAST_RETRIES } from '../helpers/canary.js';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { freshDatabase, throughBouncer } from '../helpers/postgres.js';
import { describeFresh, forThisRun } from '../helpers/system-run.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { generationFacts } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

const KEY: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'team-members' };
const OTHER: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'store-cards' };
const member = (id: string) => JSON.stringify({ employeeID: id, email: `${id}@example.com`, name: `N ${id}`, roleCode: null, parentKey: null });
const body = (...ids: string[]) => encodePayload(ids.map(member));
const who = { user: 'hr', host: 'laptop-7', pid: process.pid, what: 'team members' };

const meta = generationFacts;

const attempt = (outcome: string, generation: number | null): AuditEntry => ({
  time: new Date().toISOString(),
  user: 'cron',
  host: 'sync-01',
  pid: 7,
  kind: 'team-members',
  baseUrl: KEY.baseUrl,
  source: 's.csv',
  count: 1,
  bytes: 10,
  sha256: 'a'.repeat(64),
  baseGeneration: 0,
  diff: { baseline: 'none', added: null, removed: null, changed: null, unchanged: null },
  outcome,
  status: 503,
  error: 'UNREACHABLE',
  generation,
});

const open: StateStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});
async function store(spec: string): Promise<StateStore> {
  const s = await openStore(spec, { env: {} });
  open.push(s);
  return s;
}

/** Four uploads kept two at a time (so #1 and #2 are pruned), provenance of each kind, audit lines, and #5 sent but not confirmed. */
async function filled(s: StateStore): Promise<void> {
  const lease = await s.lock(KEY, who);
  try {
    await s.commit(KEY, 0, body('E1').chunks, meta(body('E1')), 2);
    await s.commit(KEY, 1, body('E1', 'E2').chunks, meta(body('E1', 'E2'), { operation: 'merge', source: 'new.csv' }), 2);
    await s.commit(KEY, 2, body('E2').chunks, meta(body('E2'), { operation: 'remove', source: 'keys E1', heldRemovals: ['E9'] }), 2);
    await s.commit(KEY, 3, body('E1', 'E2').chunks, meta(body('E1', 'E2'), { operation: 'restore', restoredFrom: 2 }), 2);
    await s.audit(KEY, attempt('unreachable', null));
    await s.audit(KEY, attempt('uploaded', 4));
    const sent = body('E1', 'E2', 'E3');
    await s.intend(KEY, 4, sent.chunks, () => meta(sent, { source: 'night.csv' }));
  } finally {
    await lease.release();
  }
  // A second key with only a failed attempt.
  await s.audit(OTHER, { ...attempt('rejected', null), kind: 'store-cards' });
}

const chains = {
  'directory → PostgreSQL → directory': [async () => join(tempDir().dir, 'a'), () => freshDatabase(), async () => join(tempDir().dir, 'b')],
  'PostgreSQL → directory → PostgreSQL through PgBouncer': [
    () => freshDatabase(),
    async () => join(tempDir().dir, 'a'),
    async () => throughBouncer(await freshDatabase()),
  ],
};

describe.each(forThisRun(chains, ['PostgreSQL → directory → PostgreSQL through PgBouncer']))('a copy %s', (_name, makers) => {
  it('answers every read as the source does, the unsettled upload included, and holds no lease', async () => {
    const [first, second, third] = await Promise.all(makers.map(async (make) => store(await make())));
    await filled(first!);
    const source = await first!.dump(KEY);
    expect(source.generations.map((g) => [g.generation, g.snapshot !== null])).toEqual([
      [1, false],
      [2, false],
      [3, true],
      [4, true],
    ]);
    expect(source.pending).toMatchObject({ generation: 5, source: 'night.csv', records: 3 });

    expect(await copyState(first!, second!)).toMatchObject({ keys: 2, generations: 4, attempts: 3, pending: 1 });
    expect(await copyState(second!, third!)).toMatchObject({ keys: 2, generations: 4, attempts: 3, pending: 1 });
    for (const copy of [second!, third!]) {
      expect(await copy.dump(KEY)).toEqual(source);
      expect(await copy.dump(OTHER)).toEqual(await first!.dump(OTHER));
      expect(await copy.readPending(KEY)).toEqual(await first!.readPending(KEY));
      expect(await copy.head(KEY)).toEqual(await first!.head(KEY));
      // No lease came with it: the lock is free.
      expect(await copy.inFlight(KEY, 'team members')).toBeUndefined();
    }
    // Nothing is copied over what a store already holds.
    await expect(copyState(first!, third!)).rejects.toMatchObject({ code: 'STATE_UNUSABLE' });
  });
});

describeFresh('upload state --from --to', () => {
  const { serve } = serversForFile();
  it.each([
    ['directory', 'PostgreSQL'],
    ['PostgreSQL', 'directory'],
  ])('from the %s store to the %s store keeps an upload whose answer never came unsettled', async (from, to) => {
    const spec = (which: string) => (which === 'directory' ? Promise.resolve(join(tempDir().dir, 'state')) : freshDatabase());
    const [a, b] = [await spec(from), await spec(to)];
    const server = await serve({ ok: true }, { reset: true });
    const dir = tempDir().dir;
    const upload = (state: string, file: string, extra: string[] = []) =>
      runCli(['team-members', file, '--yes', '--json', '--retries', '0', '--state', state, '--base-url', server.url, ...extra], {
        env: { UPLOAD_TOKEN: 'token-for-the-copy-test' },
        tuning: FAST_RETRIES,
      });
    expect((await upload(a, writeMembers(dir, 'n1.csv', range(1, 30)), ['--no-baseline'])).code).toBe(0);
    expect((await upload(a, writeMembers(dir, 'n2.csv', range(1, 40)))).json().error.code).toBe('OUTCOME_UNKNOWN');

    const copied = await runCli(['state', '--from', a, '--to', b]);
    expect(copied.code).toBe(0);
    expect(copied.stderr).toMatch(/1 upload\(s\) sent but not confirmed/);
    // On the copy, as on the source: a truncated file is not compared with night 1 as if night 2 never happened.
    const truncated = await upload(b, writeMembers(dir, 'n3.csv', range(1, 10)), ['--max-removals', '100%']);
    expect(truncated.json()).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'BASELINE_UNCERTAIN' } });
    const history = (await runCli(['history', 'team-members', '--json', '--state', b, '--base-url', server.url])).json();
    expect(history.pending).toMatchObject({ generation: 2, records: 40 });
    expect((await runCli(['state', 'resolve', 'team-members', '--sent', '--state', b, '--base-url', server.url])).code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });
});
