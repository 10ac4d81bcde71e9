// A PostgreSQL session and a signal (Ctrl-C, SIGTERM), on a real server: an ordinary statement is cut
// short by it, while what decides that an upload the service confirmed is recorded — the lease's check
// after the answer, the record's transaction — is cut short only by the store's bounds.
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/state/pg-session.js';
import { freshDatabase } from '../helpers/postgres.js';

const bounds = { connectMs: 10_000, statementMs: 30_000 };

async function opened(): Promise<{ session: Session; controller: AbortController }> {
  const controller = new AbortController();
  const session = new Session(await freshDatabase(), 'the test store', bounds, controller.signal);
  await session.open();
  return { session, controller };
}

const interrupted = () => new Error('interrupted (SIGTERM)');

describe('a signal during a statement', () => {
  it('cuts an ordinary statement short', async () => {
    const { session, controller } = await opened();
    try {
      const running = session.query('SELECT pg_sleep(1.5)');
      setTimeout(() => controller.abort(interrupted()), 200);
      await expect(running).rejects.toThrow('interrupted (SIGTERM)');
    } finally {
      await session.end();
    }
  });

  it('does not cut a shielded statement short: it answers', async () => {
    const { session, controller } = await opened();
    try {
      const running = session.shieldedQuery<{ n: number }>('SELECT 1 AS n FROM pg_sleep(1.5)');
      setTimeout(() => controller.abort(interrupted()), 200);
      expect((await running).rows).toEqual([{ n: 1 }]);
    } finally {
      await session.end();
    }
  });

  it('a shielded statement after the signal gets the full bound, not the short one for tidying up (2 s)', async () => {
    const { session, controller } = await opened();
    try {
      controller.abort(interrupted());
      expect((await session.shieldedQuery<{ n: number }>('SELECT 1 AS n FROM pg_sleep(2.5)')).rows).toEqual([{ n: 1 }]);
      // The same statement unshielded is bounded by the 2 s given to what is left after a signal.
      await expect(session.query('SELECT pg_sleep(2.5)')).rejects.toMatchObject({ code: 'STATE_UNREACHABLE' });
    } finally {
      await session.end();
    }
  });

  it('does not cut a shielded transaction short, from its BEGIN to its COMMIT', async () => {
    const { session, controller } = await opened();
    try {
      const running = session.transaction(async (q) => {
        await q('SELECT pg_sleep(0.8)');
        return (await q<{ n: number }>('SELECT 2 AS n')).rows[0]!.n;
      }, true);
      setTimeout(() => controller.abort(interrupted()), 100);
      expect(await running).toBe(2);
    } finally {
      await session.end();
    }
  });
});
