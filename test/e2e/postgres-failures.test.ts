// Every way the PostgreSQL store can fail ends in a documented code and exit, never exit 1 and never a
// hang: a role with a low statement_timeout, a role without CREATE, a lock wait, a server restarted
// while a run reads or holds the lock, a SIGTERM while a statement waits. Against real servers: the
// shared one, and one of this file's own for the restarts (the others must not see them).
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/state/index.js';
import { SCHEMA_SQL } from '../../src/state/postgres.js';
import type { StateKey } from '../../src/state/types.js';
import { encodePayload } from '../../src/contract/json-array.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { membersCsv, range, writeMembers } from '../helpers/members.js';
import { uploadWithQuestion } from '../helpers/question.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { HANG_MS } from '../helpers/hang.js';
import { startCli } from '../helpers/spawn.js';
import { startPostgres, type Postgres } from '../setup/servers.js';
import { readFileSync } from 'node:fs';

const TEAM = '/integrations/teamMembers';
let sb: TestSandbox | undefined;
const held: pg.Client[] = [];
afterEach(async () => {
  for (const c of held.splice(0)) await c.end().catch(() => {});
  await sb?.stop();
  sb = undefined;
});

/** The URL as another role. */
function as(url: string, role: string): string {
  const u = new URL(url);
  u.username = role;
  return u.href;
}

/** A role with exactly the grants docs/state.md gives, in a database whose tables the owner created with its SQL. */
async function leastPrivilegeRole(db: string): Promise<string> {
  const role = `r_${randomBytes(4).toString('hex')}`;
  const doc = readFileSync(join(ROOT, 'docs/state.md'), 'utf8');
  const grants = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!).find((sql) => sql.includes('GRANT'))!;
  await asAdmin(db, SCHEMA_SQL);
  const name = new URL(db).pathname.slice(1);
  await asAdmin(db, grants.replaceAll(" PASSWORD 'choose-one'", '').replaceAll('uploader', role).replaceAll('DATABASE scheduling', `DATABASE ${name}`));
  return role;
}

/** Holds a table lock in an open transaction, as another session (a migration, a long report) might. */
async function lockTable(url: string, table: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => {});
  await c.connect();
  held.push(c);
  await c.query(`BEGIN; LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return c;
}

/** Until `sql` (a count, as n) counts a session of the tool on `url`'s server; the bound only catches a hang. */
async function toolSession(url: string, sql: string, what: string): Promise<void> {
  for (const end = Date.now() + HANG_MS; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const { rows } = await asAdmin(url, sql);
    if (rows[0].n > 0) return;
  }
  throw new Error(`the tool never ${what}`);
}

/** Until a session of the tool waits for a lock on `url`'s server. */
const toolWaits = (url: string) =>
  toolSession(
    url,
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'scheduling-upload' AND wait_event_type = 'Lock'`,
    'waited for the lock',
  );

/** A real upload of `file` whose confirmation runs `meanwhile` first (the question stands open). */
function withQuestion(state: string, file: string, meanwhile: () => Promise<void> | void) {
  return uploadWithQuestion(sb!.env, state, file, meanwhile);
}

/** A body of one record and its provenance, for tests that commit to a store directly. */
function oneRecord() {
  const p = encodePayload([JSON.stringify({ employeeID: 'E1' })]);
  const meta = {
    uploadedAt: new Date().toISOString(),
    user: 'hr',
    host: 'h',
    toolVersion: '0',
    source: 's',
    records: 1,
    bytes: p.bytes,
    sha256: p.sha256,
    restoredFrom: null,
    plan: null,
  };
  return { p, meta };
}

const upload = (state: string, file: string, extra: string[] = [], env: Record<string, string> = {}) =>
  runCli(['team-members', file, '--yes', '--json', '--state', state, ...extra], { env: { ...sb!.env, ...env } });

describe('PostgreSQL rights and timeouts', () => {
  it("a role with exactly the doc's grants uploads; with a low statement_timeout it stops with STATE_UNREACHABLE (exit 2), sending nothing", async () => {
    sb = await sandbox();
    const db = await freshDatabase();
    const role = await leastPrivilegeRole(db);
    const state = as(db, role);
    const first = await upload(state, writeMembers(sb.dir, 'a.csv', range(1, 10)), ['--no-baseline']);
    expect(first.json(), first.stderr).toMatchObject({ outcome: 'uploaded', generation: 1 });

    await asAdmin(db, `ALTER ROLE ${role} SET statement_timeout = '200ms'`);
    await lockTable(db, 'upload_heads');
    const slow = await upload(state, writeMembers(sb.dir, 'b.csv', range(1, 11)));
    expect(slow.json()).toMatchObject({ outcome: 'usage-error', exitCode: 2, error: { code: 'STATE_UNREACHABLE' } });
    expect(slow.json().error.message).toMatch(/statement_timeout/);
    expect(slow.json().error.hint).toMatch(/ALTER ROLE/);
    expect(await sb.stored(TEAM)).toHaveLength(10);
  });

  it('a role that may not create the tables: a dry run reads an empty store; the first upload stops with STATE_UNUSABLE naming the SQL', async () => {
    sb = await sandbox();
    const db = await freshDatabase();
    const role = `r_${randomBytes(4).toString('hex')}`;
    await asAdmin(db, `CREATE ROLE ${role} LOGIN`);
    const state = as(db, role);
    const file = writeMembers(sb.dir, 'a.csv', range(1, 10));
    expect((await runCli(['team-members', file, '--dry-run', '--no-baseline', '--state', state], { env: sb.env })).code).toBe(0);
    const refused = (await upload(state, file, ['--no-baseline'])).json();
    expect(refused).toMatchObject({ outcome: 'usage-error', exitCode: 2, error: { code: 'STATE_UNUSABLE' } });
    expect(refused.error.message).toMatch(/may not create them .*permission denied/);
    expect(refused.error.hint).toMatch(/SQL in docs\/state\.md/);
    expect(await sb.stored(TEAM)).toHaveLength(0);
  });

  it('every wait is bounded: a read behind a table lock, and a commit behind one, stop with STATE_UNREACHABLE within the bound', async () => {
    sb = await sandbox();
    const db = await freshDatabase();
    expect((await upload(db, writeMembers(sb.dir, 'a.csv', range(1, 10)), ['--no-baseline'])).code).toBe(0);
    const env = { UPLOAD_STATE_TIMEOUT_SECONDS: '1' };
    const locker = await lockTable(db, 'upload_heads');
    // Each stop names the bound that ended the wait; a wait without one would never end (the test's timeout).
    const read = (await upload(db, writeMembers(sb.dir, 'b.csv', range(1, 11)), [], env)).json();
    expect(read).toMatchObject({ exitCode: 2, error: { code: 'STATE_UNREACHABLE', message: expect.stringMatching(/did not answer within 2 s/) } });
    await locker.query('ROLLBACK');

    // Under the lock, the commit's wait for a row another session holds is bounded on the server (lock_timeout).
    const key: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'team-members' };
    const store = await openStore(db, { env });
    try {
      const lease = await store.lock(key, { user: 'hr', host: 'h', pid: process.pid, what: 'x' });
      await lockTable(db, 'upload_heads');
      const { p, meta } = oneRecord();
      await expect(store.commit(key, 0, p.chunks, meta, 10)).rejects.toMatchObject({
        code: 'STATE_UNREACHABLE',
        message: expect.stringMatching(/waited too long for a lock/),
      });
      await lease.release();
    } finally {
      await store.close();
    }
  });

  it('SIGTERM while a statement waits: the run ends at once as interrupted (exit 130), its connection closed', async () => {
    sb = await sandbox();
    const db = await freshDatabase();
    expect((await upload(db, writeMembers(sb.dir, 'a.csv', range(1, 10)), ['--no-baseline'])).code).toBe(0);
    await lockTable(db, 'upload_heads');
    const run = startCli(['team-members', writeMembers(sb.dir, 'b.csv', range(1, 11)), '--yes', '--state', db], sb.env);
    await toolWaits(db);
    run.child.kill('SIGTERM');
    // The wait behind the lock has no end of its own here: only the signal ends the run (a run that
    // ignored it would be killed by startCli's hang bound, with no exit code).
    const done = await run.done;
    expect(done.code).toBe(130);
    expect(done.stderr).toMatch(/INTERRUPTED|interrupted/);
  });
});

describe('PostgreSQL sessions ended and servers that never answer', () => {
  it("the run's sessions ended by a DBA while the question is open: the lease row is still the run's, and the upload goes out", async () => {
    sb = await sandbox();
    const state = await freshDatabase();
    expect((await upload(state, writeMembers(sb.dir, 'a.csv', range(1, 10)), ['--no-baseline'])).code).toBe(0);
    const { failure, facts } = await withQuestion(state, writeMembers(sb.dir, 'b.csv', range(1, 11)), async () => {
      const { rows } = await asAdmin(
        state,
        // This test's database only: the server is shared with files running at the same time.
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'scheduling-upload' AND datname = current_database()`,
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(2);
    });
    expect(failure).toBeUndefined();
    expect(facts.executed?.generation).toBe(2);
    expect(await sb.stored(TEAM)).toHaveLength(11);
  });

  it('a server that accepts the connection and never answers: STATE_UNREACHABLE within the connect bound', async () => {
    sb = await sandbox();
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const state = `postgres://postgres@127.0.0.1:${(silent.address() as { port: number }).port}/postgres`;
      // A server that never answers: only the connect bound ends the wait (without one, the test's timeout).
      const result = (await upload(state, writeMembers(sb.dir, 'a.csv', range(1, 10)), ['--no-baseline'], { UPLOAD_STATE_TIMEOUT_SECONDS: '1' })).json();
      expect(result).toMatchObject({ exitCode: 2, error: { code: 'STATE_UNREACHABLE' } });
    } finally {
      silent.close();
    }
  });
});

describe('a PostgreSQL server restarted under a run', () => {
  let server: Postgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());

  it('while the input file is being read: the run reconnects and uploads', async () => {
    sb = await sandbox();
    const db = await freshDatabase(server.url);
    expect((await upload(db, writeMembers(sb.dir, 'a.csv', range(1, 10)), ['--no-baseline'])).code).toBe(0);
    const fifo = join(sb.dir, 'slow.csv');
    execFileSync('mkfifo', [fifo]);
    const running = upload(db, fifo);
    // The run has opened the store and waits for the file's writer; the server restarts meanwhile.
    await toolSession(db, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'scheduling-upload'`, 'opened the store');
    server.restart();
    await writeFile(fifo, membersCsv(range(1, 11)));
    expect((await running).json()).toMatchObject({ outcome: 'uploaded', exitCode: 0, generation: 2 });
  });

  it('while the lock is held and the question is open: the lease outlives the restart, and the upload goes out', async () => {
    sb = await sandbox();
    const state = await freshDatabase(server.url);
    expect((await upload(state, writeMembers(sb.dir, 'a.csv', range(1, 10)), ['--no-baseline'])).code).toBe(0);
    const { facts, failure } = await withQuestion(state, writeMembers(sb.dir, 'b.csv', range(1, 11)), () => server.restart());
    expect(failure).toBeUndefined();
    expect(facts.executed?.generation).toBe(2);
    expect(await sb.stored(TEAM)).toHaveLength(11);
    // And the lock was released: the next run takes it.
    expect((await upload(state, writeMembers(sb.dir, 'c.csv', range(1, 12)))).code).toBe(0);
  });

  it('during a statement: the read is sent again on a new connection; a server that stays down is STATE_UNREACHABLE (exit 2)', async () => {
    const db = await freshDatabase(server.url);
    const key: StateKey = { baseUrl: 'https://scheduling.example.com', kind: 'team-members' };
    const store = await openStore(db, { env: {} });
    try {
      const lease = await store.lock(key, { user: 'hr', host: 'h', pid: process.pid, what: 'x' });
      const { p, meta } = oneRecord();
      await store.commit(key, 0, p.chunks, meta, 10);
      await lease.release();
      // A restart while the read waits: the read is sent again once, and answered.
      await lockTable(db, 'upload_generations');
      const reading = store.readSnapshot(key, 1).catch((e: unknown) => e);
      await toolWaits(db);
      server.restart();
      expect(await reading).toEqual(Buffer.concat(p.chunks));
      // A server that goes down and stays down: named, promptly, and the store works again once it is back.
      await lockTable(db, 'upload_generations');
      const failing = store.readSnapshot(key, 1).catch((e: unknown) => e);
      await toolWaits(db);
      server.halt();
      try {
        expect(await failing).toMatchObject({
          code: 'STATE_UNREACHABLE',
          exitCode: 2,
          message: expect.stringMatching(/cannot reach the state store .*ECONNREFUSED/),
        });
      } finally {
        server.start();
      }
      expect(await store.readSnapshot(key, 1)).toEqual(Buffer.concat(p.chunks));
    } finally {
      await store.close();
    }
  });
});
