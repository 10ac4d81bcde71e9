// PostgreSQL's own rule of what may be recorded without the administrator (upload_policy_at_least, in
// src/state/pg-policy.ts) says what the tool's says (atLeastAsStrict, src/guard/policy.ts), for every
// pair of policies: the database refuses exactly the weakening the tool refuses.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atLeastAsStrict } from '../../src/guard/policy.js';
import { SCHEMA_SQL } from '../../src/state/postgres.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';

const policies = fc.record({
  protected: fc.boolean(),
  approvals: fc.integer({ min: 0, max: 3 }),
  approvalHours: fc.constantFrom(1, 12, 24),
  autoApply: fc.option(
    fc.record({
      maxAdded: fc.integer({ min: 0, max: 30 }),
      maxChanged: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constantFrom('0%', '2%', '5%', '2.5%')),
      maxRemoved: fc.integer({ min: 0, max: 5 }),
    }),
    { nil: null },
  ),
  limits: fc.option(
    fc.record(
      { maxRemovals: fc.constantFrom('0', '2', '10', '5%', '10%'), maxChanges: fc.constantFrom('3', '50', '2%'), maxEmptied: fc.constantFrom('1', '20%') },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  ),
});

let client: pg.Client;

beforeAll(async () => {
  const db = await freshDatabase();
  await asAdmin(db, SCHEMA_SQL);
  client = new pg.Client({ connectionString: db });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
});

describe('upload_policy_at_least', () => {
  it('agrees with the tool on every pair of policies', async () => {
    await fc.assert(
      fc.asyncProperty(policies, policies, async (next, recorded) => {
        const { rows } = await client.query<{ ok: boolean }>('SELECT upload_policy_at_least($1::jsonb, $2::jsonb) AS ok', [
          JSON.stringify(next),
          JSON.stringify(recorded),
        ]);
        expect(rows[0]!.ok).toBe(atLeastAsStrict(next, recorded));
      }),
      { numRuns: 300 },
    );
  });
});
