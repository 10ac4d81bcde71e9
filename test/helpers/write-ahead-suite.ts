// The write-ahead protocol tried on one store, as the three test files test/e2e/write-ahead.*.test.ts
// do for the directory, PostgreSQL and PostgreSQL behind PgBouncer (one file each, so the three run side
// by side: almost all of their time is waiting on leases and child processes).
//
// Races: two real CLIs, each paused at a named step of the protocol and then resumed, killed or
// terminated. However it ends, what the service holds is what the state says, or the next run refuses
// until a person settles it: a set planned against a generation that is no longer the head is never
// sent, and an upload that may have landed never loses its record.
// Kills: a run killed (SIGKILL) at each step: the next run uploads on a true baseline, or refuses until
// a person settles what the killed run may have sent.
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { range, writeMembers } from './members.js';
import { backends, consistent, ended, kill, lapse, pausedAt, race, resume, TEAM, type Race } from './race.js';

export function writeAheadOn(backend: keyof typeof backends): void {
  const make = backends[backend];

  describe(`races on the ${backend} store`, () => {
    it('a run suspended after the fence, past its lease, while another records: its stale set is never sent (LOCK_LOST)', async () => {
      const r = await race(make);
      expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
      // A plans against #1 (40 people renamed) and stops just before writing its intent.
      const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 40), range(1, 40)), 'fenced', ['--max-changes', '100%'], true);
      await pausedAt(a, 'fenced');
      await lapse();
      // B takes the lapsed lock over and records #2.
      const b = await r.run(writeMembers(r.dir, 'b.csv', range(1, 41)));
      expect(b.report).toMatchObject({ outcome: 'uploaded', exitCode: 0 });
      resume(a);
      const stale = await ended(a);
      expect(stale.code).toBe(stale.report.exitCode);
      expect(stale.report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_LOST' } });
      expect(await r.sb.stored(TEAM)).toHaveLength(41);
      expect(await consistent(r)).toBe('recorded');
    });

    it('a run suspended while writing its intent, past its lease: either it sends nothing or the next run refuses', async () => {
      const r = await race(make);
      expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
      const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 40), range(1, 40)), 'writing-intent', ['--max-changes', '100%'], true);
      await pausedAt(a, 'writing-intent');
      await lapse();
      const b = await r.run(writeMembers(r.dir, 'b.csv', range(1, 41)));
      // PostgreSQL: A's transaction holds the lease row, so B waits and gives up (STATE_UNREACHABLE, nothing
      // sent). Directory: B takes the lapsed lock over and records #2.
      expect([0, 2]).toContain(b.report.exitCode);
      resume(a);
      const late = await ended(a);
      expect(late.code).toBe(late.report.exitCode);
      if (b.report.exitCode === 0) expect(late.report).toMatchObject({ exitCode: 4, error: { code: 'LOCK_LOST' } });
      else expect(['LOCK_LOST_WHILE_SENDING', null]).toContain(late.report.error?.code ?? null);
      await consistent(r);
    });

    it("a run that planned with nothing pending, then took a killed run's lock over: it sees that run's intent and sends nothing", async () => {
      const r = await race(make);
      expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
      // B plans (nothing pending) and stops before taking the lock.
      const b = r.start(writeMembers(r.dir, 'b.csv', range(1, 40), [1]), 'planned');
      await pausedAt(b, 'planned');
      // A adds 1,000 people; the service applies it; A is killed before it can record.
      const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 1040)), 'answered');
      await pausedAt(a, 'answered');
      await kill(a);
      expect(await r.sb.stored(TEAM)).toHaveLength(1040);
      resume(b);
      const late = await ended(b);
      expect(late.code).toBe(late.report.exitCode);
      expect(late.report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'BASELINE_UNCERTAIN' } });
      // Nothing deleted: the service still holds A's set, and its record waits to be settled.
      expect(await r.sb.stored(TEAM)).toHaveLength(1040);
      expect(await consistent(r)).toBe('refusing');
      const settled = await runCli(['state', 'resolve', 'team-members', '--sent', '--state', r.state], { env: r.sb.env });
      expect(settled.code).toBe(0);
      expect(await consistent(r)).toBe('recorded');
    });

    it('a run started while another upload is in flight says LOCK_HELD, and the first one ends recorded', async () => {
      const r = await race(make);
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
      const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 45)), 'answered', [], true);
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
      expect(await r.sb.stored(TEAM)).toHaveLength(45);
      expect(await consistent(r)).toBe('refusing');
    });

    it("SIGTERM between the answer and the record: the upload is recorded, and the exit code is the report's", async () => {
      await termedAfterAnswer(await race(make));
    });
  });

  describe(`a run killed on the ${backend} store`, () => {
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
}

/**
 * A run stopped between the service's answer and its record, `meanwhile` done, then SIGTERM and
 * SIGCONT: the upload is recorded, and the exit code is the report's.
 */
export async function termedAfterAnswer(r: Race, meanwhile: () => Promise<void> = async () => {}): Promise<void> {
  expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
  const a = r.start(writeMembers(r.dir, 'a.csv', range(1, 50)), 'answered');
  await pausedAt(a, 'answered');
  await meanwhile();
  a.child.kill('SIGTERM');
  resume(a);
  const done = await ended(a);
  expect(done.code).toBe(done.report.exitCode);
  expect(done.report).toMatchObject({ outcome: 'uploaded', exitCode: 0, generation: 2 });
  expect(await consistent(r)).toBe('recorded');
}
