// The write-ahead protocol's races and kills on the directory store (test/helpers/write-ahead-suite.ts),
// and what is the directory store's own.
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { range, writeMembers } from '../helpers/members.js';
import { backends, consistent, ended, kill, pausedAt, race, resume, TEAM } from '../helpers/race.js';
import { lockOf } from '../helpers/state.js';
import { writeAheadOn } from '../helpers/write-ahead-suite.js';

writeAheadOn('directory');

it('a run adopting the pending intent of its very bytes proves its lock first: lost while it wrote, nothing is sent (LOCK_LOST)', async () => {
  const r = await race(backends.directory);
  expect((await r.run(writeMembers(r.dir, 'first.csv', range(1, 40)), ['--no-baseline'])).code).toBe(0);
  // A run killed once its intent was written: its upload waits to be settled.
  const file = writeMembers(r.dir, 'a.csv', range(1, 45));
  const killed = r.start(file, 'intended');
  await pausedAt(killed, 'intended');
  await kill(killed);
  // The same file again may be sent (its bytes are the pending ones): this run adopts that intent,
  // but its lock goes while it writes (a suspend longer than the lease, another run taking it over).
  const again = r.start(file, 'writing-intent');
  await pausedAt(again, 'writing-intent');
  rmSync(lockOf(r.state, r.sb.url), { force: true });
  resume(again);
  const late = await ended(again);
  expect(late.code).toBe(late.report.exitCode);
  expect(late.report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_LOST' } });
  // Nothing sent, and the killed run's upload still waits for a person.
  expect(await r.sb.stored(TEAM)).toHaveLength(40);
  expect(await consistent(r)).toBe('refusing');
});
