// Two real CLIs racing, each paused at a named step of the write-ahead protocol (UPLOAD_TEST_PAUSE_AT:
// the run stops itself there, deterministically) and then resumed, killed or terminated, on the
// directory store, on PostgreSQL and on PostgreSQL behind PgBouncer. However it ends, what the service
// holds is what the state says, or the next run refuses until a person settles it: a set planned
// against a generation that is no longer the head is never sent, and an upload that may have landed
// never loses its record.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { freshDatabase, throughBouncer } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startCli, until, type Running } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

const TEAM = '/integrations/teamMembers';
/** A short lease, so a suspended holder's lock lapses within the test. */
const LEASE_SECONDS = 1;
const lapse = () => new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 800));

const backends = {
  directory: async () => join(tempDir().dir, 'state'),
  PostgreSQL: () => freshDatabase(),
  'PostgreSQL through PgBouncer': async () => throughBouncer(await freshDatabase()),
};

let sb: TestSandbox | undefined;
const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    r.child.kill('SIGKILL');
    await r.done;
  }
  await sb?.stop();
  sb = undefined;
});

interface Race {
  state: string;
  dir: string;
  /** A run of its own process, paused at `step` when given. */
  start(file: string, step?: string, extra?: string[]): Running;
  /** A run to its end, in a process of its own. */
  run(file: string, extra?: string[]): Promise<{ code: number | null; report: Record<string, any> }>;
}

/** `leaseSeconds`: long, where a suspended run must still count as holding its lock. */
async function race(make: () => Promise<string>, leaseSeconds = LEASE_SECONDS): Promise<Race> {
  sb = await sandbox();
  const state = await make();
  const dir = tempDir().dir;
  const env = (step?: string) => ({
    ...sb!.env,
    UPLOAD_LEASE_SECONDS: String(leaseSeconds),
    UPLOAD_STATE_TIMEOUT_SECONDS: '3',
    ...(step ? { UPLOAD_TEST_PAUSE_AT: step } : {}),
  });
  const args = (file: string, extra: string[]) => ['team-members', file, '--yes', '--json', '--state', state, ...extra];
  const start = (file: string, step?: string, extra: string[] = []) => {
    const r = startCli(args(file, extra), env(step));
    running.push(r);
    return r;
  };
  return {
    state,
    dir,
    start,
    run: async (file, extra = []) => {
      const { code, stdout } = await start(file, undefined, extra).done;
      return { code, report: JSON.parse(stdout) as Record<string, any> };
    },
  };
}

const pausedAt = (r: Running, step: string) => until(() => r.stderr().includes(`paused at ${step}`));
const resume = (r: Running) => r.child.kill('SIGCONT');
async function kill(r: Running): Promise<void> {
  r.child.kill('SIGKILL');
  await r.done;
}
async function ended(r: Running): Promise<{ code: number | null; report: Record<string, any> }> {
  const { code, stdout } = await r.done;
  return { code, report: JSON.parse(stdout) as Record<string, any> };
}

/**
 * The invariant: with nothing waiting to be settled, the latest recorded upload is exactly what the
 * service holds (a dry run of the service's own records changes nothing); with an upload waiting, the
 * next run refuses (BASELINE_UNCERTAIN) whatever it would send.
 */
async function consistent(r: Race): Promise<'recorded' | 'refusing'> {
  const history = await runCli(['history', 'team-members', '--json', '--state', r.state], { env: sb!.env });
  expect(history.code).toBe(0);
  if (history.json().pending) {
    const next = await runCli(['team-members', writeMembers(r.dir, 'next.csv', range(1, 3)), '--dry-run', '--json', '--state', r.state], { env: sb!.env });
    expect(next.json()).toMatchObject({ exitCode: 4, error: { code: 'BASELINE_UNCERTAIN' } });
    return 'refusing';
  }
  const held = join(r.dir, 'held.json');
  writeFileSync(held, JSON.stringify(await sb!.stored(TEAM)));
  const same = await runCli(['team-members', held, '--dry-run', '--json', '--state', r.state], { env: sb!.env });
  expect(same.json()).toMatchObject({ exitCode: 0, diff: { added: 0, removed: 0, changed: 0 } });
  return 'recorded';
}

describe.each(Object.entries(backends))('on the %s store', (_name, make) => {
  it('a run suspended after the fence, past its lease, while another records: its stale set is never sent (LOCK_LOST)', async () => {
    const r = await race(make);
    expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
    // A plans against #1 (40 people renamed) and stops just before writing its intent.
    const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 40), range(1, 40)), 'fenced', ['--max-changes', '100%']);
    await pausedAt(a, 'fenced');
    await lapse();
    // B takes the lapsed lock over and records #2.
    const b = await r.run(writeMembers(r.dir, 'b.csv', range(1, 41)));
    expect(b.report).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
    resume(a);
    const stale = await ended(a);
    expect(stale.code).toBe(stale.report.exitCode);
    expect(stale.report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_LOST' } });
    expect(await sb!.stored(TEAM)).toHaveLength(41);
    expect(await consistent(r)).toBe('recorded');
  });

  it('a run suspended while writing its intent, past its lease: either it sends nothing or the next run refuses', async () => {
    const r = await race(make);
    expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
    const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 40), range(1, 40)), 'writing-intent', ['--max-changes', '100%']);
    await pausedAt(a, 'writing-intent');
    await lapse();
    const b = await r.run(writeMembers(r.dir, 'b.csv', range(1, 41)));
    // PostgreSQL: A's transaction holds the lease row, so B waits and gives up (STATE_TIMEOUT, nothing
    // sent). Directory: B takes the lapsed lock over and records #2.
    expect([0, 2]).toContain(b.report.exitCode);
    resume(a);
    const late = await ended(a);
    expect(late.code).toBe(late.report.exitCode);
    if (b.report.exitCode === 0) expect(late.report).toMatchObject({ exitCode: 4, error: { code: 'LOCK_LOST' } });
    else expect(['LOCK_LOST_WHILE_SENDING', null]).toContain(late.report.error?.code ?? null);
    await consistent(r);
  });

  it('a run that planned with nothing pending, then took a killed run\'s lock over: it sees that run\'s intent and sends nothing', async () => {
    const r = await race(make);
    expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
    // B plans (nothing pending) and stops before taking the lock.
    const b = r.start(writeMembers(r.dir, 'b.csv', range(1, 40), [1]), 'planned');
    await pausedAt(b, 'planned');
    // A adds 1,000 people; the service applies it; A is killed before it can record.
    const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 1040)), 'answered');
    await pausedAt(a, 'answered');
    await kill(a);
    expect(await sb!.stored(TEAM)).toHaveLength(1040);
    resume(b);
    const late = await ended(b);
    expect(late.code).toBe(late.report.exitCode);
    expect(late.report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'BASELINE_UNCERTAIN' } });
    // Nothing deleted: the service still holds A's set, and its record waits to be settled.
    expect(await sb!.stored(TEAM)).toHaveLength(1040);
    expect(await consistent(r)).toBe('refusing');
    const settled = await runCli(['state', 'resolve', 'team-members', '--sent', '--state', r.state], { env: sb!.env });
    expect(settled.code).toBe(0);
    expect(await consistent(r)).toBe('recorded');
  });

  it('a run started while another upload is in flight says LOCK_HELD, and the first one ends recorded', async () => {
    const r = await race(make, 60);
    expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
    const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 45)), 'intended');
    await pausedAt(a, 'intended');
    const b = await r.run(writeMembers(r.dir, 'b.csv', range(1, 39)));
    expect(b.report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_HELD' } });
    resume(a);
    expect((await ended(a)).report).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
    expect(await consistent(r)).toBe('recorded');
  });

  it('a run stopped while sending, its lock taken over by a second run that is then stopped too: the sent set keeps its record', async () => {
    const r = await race(make);
    expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
    // B plans first (nothing pending yet), then A sends and stops before it can record.
    const b = r.start(writeMembers(r.dir, 'b.csv', range(1, 39)), 'planned,locked');
    await pausedAt(b, 'planned');
    const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 45)), 'answered');
    await pausedAt(a, 'answered');
    await lapse();
    // B takes the lapsed lease over and stops right there.
    resume(b);
    await pausedAt(b, 'locked');
    resume(a);
    const first = await ended(a);
    expect(first.code).toBe(first.report.exitCode);
    expect(first.report).toMatchObject({ outcome: 'unknown', exitCode: 6, error: { code: 'LOCK_LOST_WHILE_SENDING' } });
    resume(b);
    const second = await ended(b);
    expect(second.report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'BASELINE_UNCERTAIN' } });
    expect(await sb!.stored(TEAM)).toHaveLength(45);
    expect(await consistent(r)).toBe('refusing');
  });

  it('SIGTERM between the answer and the record: the upload is recorded, and the exit code is the report\'s', async () => {
    // A lease that outlasts the pause on a busy machine: what is tested is the signal, not a lapse.
    const r = await race(make, 60);
    expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
    const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 50)), 'answered');
    await pausedAt(a, 'answered');
    a.child.kill('SIGTERM');
    resume(a);
    const done = await ended(a);
    expect(done.code).toBe(done.report.exitCode);
    expect(done.report).toMatchObject({ outcome: 'uploaded', exitCode: 0, generation: 2 });
    expect(await consistent(r)).toBe('recorded');
  });

  it.each(['planned', 'locked', 'fenced', 'writing-intent', 'intended', 'answered', 'recorded'])(
    'a run killed at %s: the next run uploads on a true baseline, or refuses until it is settled',
    async (step) => {
      const r = await race(make);
      expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
      const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 45)), step);
      await pausedAt(a, step);
      await kill(a);
      const next = await r.run(writeMembers(r.dir, 'next.csv', range(1, 44)));
      expect([0, 4]).toContain(next.code);
      if (next.code === 4) expect(next.report.error.code).toBe('BASELINE_UNCERTAIN');
      // Before the intent is written nothing can have been sent, and nothing is left to settle.
      if (['planned', 'locked', 'fenced', 'writing-intent'].includes(step)) expect(next.report).toMatchObject({ exitCode: 0, diff: { added: 4 } });
      // Recorded before the kill: the next run compares with A's set.
      if (step === 'recorded') expect(next.report).toMatchObject({ exitCode: 0, diff: { removed: 1 } });
      await consistent(r);
    },
  );
});
