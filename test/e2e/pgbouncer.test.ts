// The PostgreSQL lock behind a real PgBouncer in transaction pooling (test/setup/servers.ts), where a
// session lock lands on whichever pooled server connection a statement got: two uploads at once never
// both proceed, and the lock never outlives its holder — ended normally, or killed with SIGKILL.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/state/index.js';
import { normaliseBaseUrl } from '../../src/state/paths.js';
import type { StateKey, StateStore } from '../../src/state/types.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { uploadWithQuestion } from '../helpers/question.js';
import { asAdmin, freshDatabase, throughBouncer } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

const KEY: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'team-members' };
const holder = (pid = process.pid) => ({ user: 'hr', host: 'laptop-7', pid, what: 'team members' });

let sb: TestSandbox | undefined;
const open: StateStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await sb?.stop();
  sb = undefined;
});
async function store(spec: string, leaseMs?: number): Promise<StateStore> {
  const s = await openStore(spec, { env: {}, leaseMs });
  open.push(s);
  return s;
}

describe('the PostgreSQL lock behind PgBouncer in transaction pooling', () => {
  it('is held by exactly one of eight runs taking it at once, and is free again once released', async () => {
    const direct = await freshDatabase();
    const spec = await throughBouncer(direct);
    const stores = await Promise.all(range(1, 8).map(() => store(spec)));
    // The tables first, so that all eight race for the lock itself.
    await (await stores[0]!.lock(KEY, holder())).release();
    const taken = await Promise.allSettled(stores.map((s) => s.lock(KEY, holder())));
    const won = taken.filter((t) => t.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const t of taken) if (t.status === 'rejected') expect(t.reason).toMatchObject({ code: 'LOCK_HELD', exitCode: 4 });
    await won[0]!.value.release();
    // Nothing is left behind on a pooled connection: the next run gets it, and the table is empty.
    await (await stores[1]!.lock(KEY, holder())).release();
    expect((await asAdmin(direct, 'SELECT count(*)::int AS n FROM upload_leases')).rows[0].n).toBe(0);
  });

  it('two uploads at once: the second is refused (LOCK_HELD) while the first waits for its yes; later ones proceed', async () => {
    sb = await sandbox();
    const state = await throughBouncer(await freshDatabase());
    const cli = (file: string, extra: string[] = []) => runCli(['team-members', file, '--yes', '--json', '--state', state, ...extra], { env: sb!.env });
    expect((await cli(writeMembers(sb.dir, 'first.csv', range(1, 20)), ['--no-baseline'])).code).toBe(0);

    let other: Record<string, any> | undefined;
    const { failure } = await uploadWithQuestion(sb.env, state, writeMembers(sb.dir, 'mine.csv', range(1, 21)), async () => {
      // While the question is open, a colleague's upload starts.
      other = (await cli(writeMembers(sb!.dir, 'theirs.csv', range(1, 22)))).json();
    });
    expect(failure).toBeUndefined();
    expect(other).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_HELD', message: expect.stringContaining(`process ${process.pid}`) } });
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(21);
    // The lock did not leak on a pooled connection: the colleague's next try goes through.
    expect((await cli(writeMembers(sb.dir, 'theirs.csv', range(1, 22)))).json()).toMatchObject({ outcome: 'uploaded', generation: 3 });
  });

  it('a holder killed with SIGKILL on another machine blocks others until its lease expires, then an upload proceeds', async () => {
    sb = await sandbox();
    const direct = await freshDatabase();
    const state = await throughBouncer(direct);
    const key = { baseUrl: normaliseBaseUrl(new URL(sb.url)), kind: 'team-members' };
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import { openStore } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/state/index.js')).href)};
      const store = await openStore(${JSON.stringify(state)}, { env: {}, leaseMs: 3000 });
      await store.lock(${JSON.stringify(key)}, { user: 'cron', host: 'sync-01', pid: process.pid, what: 'x' });
      console.log('locked');
      setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => b.toString().includes('locked') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    // As if it ran on another machine: its pid means nothing here, only its lease's expiry counts.
    await asAdmin(direct, `UPDATE upload_leases SET holder = jsonb_set(holder, '{machine}', '"sync-01.example.com"')`);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    const upload = () =>
      runCli(['team-members', writeMembers(sb!.dir, 'a.csv', range(1, 5)), '--yes', '--json', '--no-baseline', '--state', state], { env: sb!.env });
    const refused = (await upload()).json();
    expect(refused).toMatchObject({ exitCode: 4, error: { code: 'LOCK_HELD', message: expect.stringContaining('of cron on sync-01') } });
    expect(refused.error.hint).toMatch(/once its lease expires/);
    // Refused while the lease runs (above), then taken once it has expired: a lease that never expired
    // would keep this loop going until the test's timeout.
    let done: Record<string, any> = refused;
    while (done.exitCode === 4 && done.error?.code === 'LOCK_HELD') {
      await new Promise((r) => setTimeout(r, 250));
      done = (await upload()).json();
    }
    expect(done).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
  });
});
