// A stale plan never goes out, and a guard never compares against a set the service may no longer
// hold: the lock is proved just before sending, and what is about to be sent is recorded first
// (write-ahead), so an upload whose outcome was never learnt stops the next run until it is settled.
// Both backends, against the real sandbox and a scripted server.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settle } from '../../src/cli/main.js';
import { assembleReport } from '../../src/report/assemble.js';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { uploadWithQuestion } from '../helpers/question.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { scriptedServer, serversForFile } from '../helpers/scripted-server.js';
import { keyDir, lockOf } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';
import { mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAST_RETRIES } from '../helpers/canary.js';

const TEAM = '/integrations/teamMembers';
const { serve, track } = serversForFile();
let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

/**
 * How another party takes the lock from a run that holds it: the directory lease is taken over (as
 * after a suspend longer than the lease), as is the PostgreSQL lease row's.
 */
const backends = {
  directory: {
    make: async () => join(tempDir().dir, 'state'),
    loseLock: (state: string, url: string) => Promise.resolve(rmSync(lockOf(state, url), { force: true })),
    // A folder where the next generation's record belongs: the commit cannot write it.
    breakRecord: (state: string, url: string) => Promise.resolve(void mkdirSync(join(keyDir(state, url), 'generations', '2.json'))),
    mendRecord: (state: string, url: string) => Promise.resolve(void rmdirSync(join(keyDir(state, url), 'generations', '2.json'))),
  },
  postgres: {
    make: () => freshDatabase(),
    // Its lease lapses (a suspend, a network cut longer than the lease): another run may take it over.
    loseLock: async (state: string) => void (await asAdmin(state, `UPDATE upload_leases SET expires_at = now() - interval '1 second'`)),
    // The database refuses every new generation (as a full disk or a revoked right would).
    breakRecord: async (state: string) =>
      void (await asAdmin(
        state,
        `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no space left'; END $$;
         CREATE TRIGGER refuse BEFORE INSERT ON upload_generations FOR EACH ROW EXECUTE FUNCTION refuse();`,
      )),
    mendRecord: async (state: string) => void (await asAdmin(state, `DROP TRIGGER refuse ON upload_generations; DROP FUNCTION refuse();`)),
  },
};

describe.each(Object.entries(backends))('with the %s store', (_name, backend) => {
  it('the lock lost while the question is open, and another upload landed: answering yes sends nothing (LOCK_LOST, exit 4)', async () => {
    sb = await sandbox();
    const state = await backend.make();
    const cli = (args: string[]) => runCli([...args, '--state', state], { env: sb!.env });
    expect((await cli(['team-members', writeMembers(sb.dir, 'first.csv', range(1, 20)), '--yes', '--no-baseline'])).code).toBe(0);

    let other: number | null = null;
    const { facts, failure } = await uploadWithQuestion(sb.env, state, writeMembers(sb.dir, 'mine.csv', range(1, 21)), async () => {
      // While the person reads the question: the lock goes, and a colleague's upload lands.
      await backend.loseLock(state, sb!.url);
      other = (await cli(['team-members', writeMembers(sb!.dir, 'theirs.csv', range(1, 22)), '--yes'])).code;
    });
    const report = assembleReport(facts, failure === undefined ? { outcome: facts.done!, exitCode: 0, error: null } : settle(failure));
    expect(other).toBe(0);
    expect(report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'LOCK_LOST' } });
    expect(await sb.stored(TEAM)).toHaveLength(22);
  });

  it('an upload whose answer never came is "sent, not confirmed"; a different file then refuses (BASELINE_UNCERTAIN) until it is settled', async () => {
    const state = await backend.make();
    // Night 1 recorded; night 2's 40 records are sent but the answer is lost (the connection breaks).
    const server = await serve({ ok: true }, { reset: true });
    const dir = tempDir().dir;
    const night = (file: string, extra: string[] = []) =>
      runCli(['team-members', file, '--yes', '--json', '--retries', '0', '--state', state, '--base-url', server.url, ...extra], {
        env: { UPLOAD_TOKEN: 'token-for-the-write-ahead-test' },
        tuning: FAST_RETRIES,
      });
    expect((await night(writeMembers(dir, 'n1.csv', range(1, 30)), ['--no-baseline'])).code).toBe(0);
    const lost = await night(writeMembers(dir, 'n2.csv', range(1, 40)));
    expect(lost.json()).toMatchObject({ outcome: 'unknown', exitCode: 6, error: { code: 'OUTCOME_UNKNOWN' } });

    // Night 3: a truncated export. It must not be compared with night 1 as if night 2 never happened.
    const truncated = await night(writeMembers(dir, 'n3.csv', range(1, 10)), ['--max-removals', '100%']);
    expect(truncated.json()).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'BASELINE_UNCERTAIN' } });
    expect(truncated.json().error.hint).toMatch(/upload state resolve team-members --sent/);
    expect(server.requests).toHaveLength(2);

    const history = await runCli(['history', 'team-members', '--state', state, '--base-url', server.url], {});
    expect(history.stdout).toMatch(/#2\? .*n2\.csv {2}40 records {2}sent, not confirmed/);
    expect((await runCli(['history', 'team-members', '--json', '--state', state, '--base-url', server.url], {})).json().pending).toMatchObject({
      generation: 2,
      records: 40,
    });

    // The two ways to settle it, as data: each the command for this run's store and service.
    const fixes = truncated.json().error.fixes as { kind: string; args: string[] }[];
    expect(fixes).toEqual(
      ['--sent', '--previous'].map((how) => ({ kind: 'command', args: ['state', 'resolve', 'team-members', how, '--state', state, '--base-url', server.url] })),
    );
    // Checked on the service: it holds night 2. Settled by the first fix, as given, the truncated file is now a removal of 30.
    const resolved = await runCli(fixes[0]!.args, {});
    expect(resolved.code).toBe(0);
    expect(resolved.stderr).toMatch(/is now upload #2/);
    const again = await night(writeMembers(dir, 'n3.csv', range(1, 10)));
    expect(again.json()).toMatchObject({ outcome: 'refused', error: { code: 'TOO_MANY_REMOVALS' }, diff: { removed: 30 } });
    expect(server.requests).toHaveLength(2);
  });

  it('the lock lost while sending: the confirmed upload is reported as unknown (LOCK_LOST_WHILE_SENDING, exit 6), and left to settle', async () => {
    const state = await backend.make();
    let url = '';
    const server = track(
      await scriptedServer(async (_req, i) => {
        // The second request is this run's: its lock goes while the service is working on it.
        if (i === 1) await backend.loseLock(state, url);
        return { ok: true };
      }),
    );
    url = server.url;
    const dir = tempDir().dir;
    const run = (file: string, extra: string[] = []) =>
      runCli(['team-members', file, '--yes', '--json', '--state', state, '--base-url', server.url, ...extra], {
        env: { UPLOAD_TOKEN: 'token-for-the-write-ahead-test' },
        tuning: FAST_RETRIES,
      });
    expect((await run(writeMembers(dir, 'a.csv', range(1, 30)), ['--no-baseline'])).code).toBe(0);
    const lost = await run(writeMembers(dir, 'b.csv', range(1, 31)));
    expect(lost.json()).toMatchObject({ outcome: 'unknown', exitCode: 6, error: { code: 'LOCK_LOST_WHILE_SENDING' }, response: { status: 200 } });
    expect(lost.json().error.message).toMatch(/another upload may have run at the same time/);
    const history = (await runCli(['history', 'team-members', '--json', '--state', state, '--base-url', server.url], {})).json();
    expect(history.pending).toMatchObject({ generation: 2, records: 31 });
    // Its first fix, as given (the service confirmed it: --sent), settles it as upload #2.
    const settled = await runCli((lost.json().error.fixes as { args: string[] }[])[0]!.args, {});
    expect(settled.code, settled.stderr).toBe(0);
    expect((await runCli(['history', 'team-members', '--json', '--state', state, '--base-url', server.url], {})).json()).toMatchObject({
      pending: null,
      generations: [{ generation: 2, records: 31 }, { generation: 1 }],
    });
  });

  it('the same file sent again after an unknown outcome is allowed, and confirms it', async () => {
    const state = await backend.make();
    const server = await serve({ ok: true }, { reset: true }, { ok: true });
    const dir = tempDir().dir;
    const run = (file: string, extra: string[] = []) =>
      runCli(['team-members', file, '--yes', '--json', '--retries', '0', '--state', state, '--base-url', server.url, ...extra], {
        env: { UPLOAD_TOKEN: 'token-for-the-write-ahead-test' },
        tuning: FAST_RETRIES,
      });
    expect((await run(writeMembers(dir, 'a.csv', range(1, 30)), ['--no-baseline'])).code).toBe(0);
    const b = writeMembers(dir, 'b.csv', range(1, 31));
    expect((await run(b)).json().error.code).toBe('OUTCOME_UNKNOWN');
    const retried = await run(b);
    expect(retried.json()).toMatchObject({ outcome: 'uploaded', exitCode: 0, diff: { added: 1 } });
    const history = (await runCli(['history', 'team-members', '--json', '--state', state, '--base-url', server.url], {})).json();
    expect(history.pending).toBeNull();
    expect(history.generations[0]).toMatchObject({ generation: 2, records: 31 });
  });

  it('a service that refused the upload leaves nothing to settle', async () => {
    const state = await backend.make();
    const server = await serve({ ok: true }, { status: 400, body: { message: 'no', status: 400 } });
    const dir = tempDir().dir;
    const run = (file: string, extra: string[] = []) =>
      runCli(['team-members', file, '--yes', '--json', '--state', state, '--base-url', server.url, ...extra], {
        env: { UPLOAD_TOKEN: 'token-for-the-write-ahead-test' },
        tuning: FAST_RETRIES,
      });
    expect((await run(writeMembers(dir, 'a.csv', range(1, 30)), ['--no-baseline'])).code).toBe(0);
    expect((await run(writeMembers(dir, 'b.csv', range(1, 31)))).code).toBe(5);
    const settled = await runCli(['state', 'resolve', 'team-members', '--previous', '--state', state, '--base-url', server.url], {});
    expect(settled.code).toBe(2);
    expect(settled.stderr).toMatch(/no upload of team-members .* is waiting to be settled/);
  });

  it('a service that answered 503 every time, or a body cut off mid-send, is a failure with nothing to settle', async () => {
    const state = await backend.make();
    const dir = tempDir().dir;
    const busy = await serve({ ok: true }, { status: 503, body: { message: 'busy', status: 503 } });
    const run = (url: string, file: string, extra: string[] = []) =>
      runCli(['team-members', file, '--yes', '--json', '--retries', '1', '--state', state, '--base-url', url, ...extra], {
        env: { UPLOAD_TOKEN: 'token-for-the-write-ahead-test' },
        tuning: FAST_RETRIES,
      });
    expect((await run(busy.url, writeMembers(dir, 'a.csv', range(1, 30)), ['--no-baseline'])).code).toBe(0);
    const refused = await run(busy.url, writeMembers(dir, 'b.csv', range(1, 31)));
    expect(refused.json()).toMatchObject({ outcome: 'unreachable', exitCode: 6, error: { code: 'UNREACHABLE' } });
    expect(busy.requests).toHaveLength(3);
    const history = await runCli(['history', 'team-members', '--state', state, '--base-url', busy.url], {});
    expect(history.stdout).not.toMatch(/not confirmed/);
    expect(history.stdout).toMatch(/✗ .*b\.csv {2}31 records: unreachable \(UNREACHABLE, HTTP 503\)/);

    // A service that drops the connection while the body is still arriving: it never had the whole set.
    const cut = createServer((req) => req.once('data', () => req.socket.destroy()));
    await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
    const cutUrl = `http://127.0.0.1:${(cut.address() as AddressInfo).port}`;
    try {
      const big = await run(cutUrl, writeMembers(dir, 'd.csv', range(1, 100_000)), ['--no-baseline']);
      expect(big.json()).toMatchObject({ outcome: 'unreachable', exitCode: 6 });
      expect((await runCli(['history', 'team-members', '--json', '--state', state, '--base-url', cutUrl], {})).json().pending).toBeNull();
    } finally {
      cut.closeAllConnections();
      await new Promise((resolve) => cut.close(resolve));
    }
  });

  it('the service confirmed, the store could not record: its own outcome (unrecorded, exit 6), left to settle', async () => {
    const state = await backend.make();
    let url = '';
    const server = track(
      await scriptedServer(async (_req, i) => {
        if (i === 1) await backend.breakRecord(state, url);
        return { ok: true };
      }),
    );
    url = server.url;
    const dir = tempDir().dir;
    const run = (file: string, extra: string[] = []) =>
      runCli(['team-members', file, '--yes', '--json', '--state', state, '--base-url', server.url, ...extra], {
        env: { UPLOAD_TOKEN: 'token-for-the-write-ahead-test' },
        tuning: FAST_RETRIES,
      });
    expect((await run(writeMembers(dir, 'a.csv', range(1, 30)), ['--no-baseline'])).code).toBe(0);
    const unrecorded = await run(writeMembers(dir, 'b.csv', range(1, 50)));
    expect(unrecorded.code).toBe(6);
    expect(unrecorded.json()).toMatchObject({ outcome: 'unrecorded', exitCode: 6, error: { code: 'NOT_RECORDED' }, response: { status: 200 } });
    expect(unrecorded.json().error.message).toMatch(/the service confirmed the upload .* could not record it/);
    expect(unrecorded.json().error.message).not.toMatch(/nothing was changed/);
    // The next run does not compare with #1 as if the service still held it.
    const next = await run(writeMembers(dir, 'c.csv', range(1, 10)));
    expect(next.json()).toMatchObject({ outcome: 'refused', error: { code: 'BASELINE_UNCERTAIN' } });
    const history = (await runCli(['history', 'team-members', '--json', '--state', state, '--base-url', server.url], {})).json();
    expect(history.pending).toMatchObject({ generation: 2, records: 50 });
    // NOT_RECORDED's fix, as given (the service holds it: --sent), records it as upload #2.
    expect(unrecorded.json().error.fixes).toEqual([
      { kind: 'command', args: ['state', 'resolve', 'team-members', '--sent', '--state', state, '--base-url', server.url] },
    ]);
    // Followed before the store is mended, it is the store's refusal (exit 2), never an internal error.
    const early = await runCli([...(unrecorded.json().error.fixes as { args: string[] }[])[0]!.args, '--json'], {});
    expect(early.json().error.code).toBe('STATE_UNUSABLE');
    await backend.mendRecord(state, url);
    const settled = await runCli((unrecorded.json().error.fixes as { args: string[] }[])[0]!.args, {});
    expect(settled.code, settled.stderr).toBe(0);
    expect((await runCli(['history', 'team-members', '--json', '--state', state, '--base-url', server.url], {})).json().pending).toBeNull();
  });
});
