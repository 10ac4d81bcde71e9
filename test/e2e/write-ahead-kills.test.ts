// A run killed (SIGKILL) at each step of the write-ahead protocol, on the directory store, on
// PostgreSQL and on PostgreSQL behind PgBouncer: the next run uploads on a true baseline, or refuses
// until a person settles what the killed run may have sent.
import { describe, expect, it } from 'vitest';
import { range, writeMembers } from '../helpers/members.js';
import { backends, consistent, kill, pausedAt, race } from '../helpers/race.js';

describe.each(Object.entries(backends))('on the %s store', (_name, make) => {
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
