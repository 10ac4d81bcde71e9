// The write-ahead protocol's races and kills on the PostgreSQL store (test/helpers/write-ahead-suite.ts),
// and what only a database connection can do: drop while the run is stopped.
import { describe, expect, it } from 'vitest';
import { asAdmin } from '../helpers/postgres.js';
import { backends, race } from '../helpers/race.js';
import { termedAfterAnswer, writeAheadOn } from '../helpers/write-ahead-suite.js';

writeAheadOn('PostgreSQL');

describe('a record that must reconnect after a SIGTERM', () => {
  it("the run's session ended while it was stopped between the answer and the record, then SIGTERM: it reconnects and records", async () => {
    const r = await race(backends.PostgreSQL);
    await termedAfterAnswer(r, async () => {
      const { rows } = await asAdmin(
        r.state,
        // This test's database only: the server is shared with files running at the same time.
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'scheduling-upload' AND datname = current_database()`,
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
    });
  });
});
