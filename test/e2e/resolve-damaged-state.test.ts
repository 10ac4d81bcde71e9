// `upload state resolve` never ends in an internal error: whatever state file is damaged or missing
// (the lease, the intent, its bytes, the history), it ends in a documented code with the command that
// repairs it. Both stores; the unconfirmed upload is made for real (the answer to it never comes).
import { readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAST_RETRIES } from '../helpers/canary.js';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { serversForFile } from '../helpers/scripted-server.js';
import { keyDir, lockOf } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

const { serve } = serversForFile();

interface Backend {
  make(): Promise<string>;
  /** The intent's bytes no longer match what was recorded of them. */
  damageBody(state: string, url: string): Promise<void>;
  /** The record of the intent is no longer one this tool wrote. */
  damageIntent(state: string, url: string): Promise<void>;
  /** The latest upload's record is gone or unreadable. */
  damageHistory(state: string, url: string): Promise<void>;
  /** A lease nobody can read, still within its time (true) or long past it (false). */
  plantDamagedLease(state: string, url: string, live: boolean): Promise<void>;
}

const intentRow = `UPDATE upload_intents SET`;

const backends: Record<string, Backend> = {
  directory: {
    make: () => Promise.resolve(join(tempDir().dir, 'state')),
    // The intent's bytes are named by the run that wrote them (intent.ID.body.json).
    damageBody: (state, url) =>
      Promise.resolve(
        readdirSync(keyDir(state, url))
          .filter((f) => /^intent\..*body\.json$/.test(f))
          .forEach((f) => rmSync(join(keyDir(state, url), f))),
      ),
    damageIntent: (state, url) => Promise.resolve(writeFileSync(join(keyDir(state, url), 'intent.json'), '{"generation": 2, "sha2')),
    damageHistory: (state, url) => Promise.resolve(writeFileSync(join(keyDir(state, url), 'head.json'), 'not json')),
    plantDamagedLease: (state, url, live) => {
      const lock = lockOf(state, url);
      writeFileSync(lock, '{"pid": 12');
      // A lock file cut short is one being written right now, for a few seconds; older, it is debris.
      if (!live) utimesSync(lock, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
      return Promise.resolve();
    },
  },
  postgres: {
    make: () => freshDatabase(),
    damageBody: async (state) => void (await asAdmin(state, `${intentRow} snapshot = '\\x5b5d'::bytea`)),
    damageIntent: async (state) => void (await asAdmin(state, `${intentRow} meta = '"damaged"'::jsonb`)),
    damageHistory: async (state) => void (await asAdmin(state, `DELETE FROM upload_generations`)),
    plantDamagedLease: async (state, url, live) =>
      void (await asAdmin(
        state,
        `INSERT INTO upload_leases (base_url, kind, token, holder, taken_at, renewed_at, expires_at)
         VALUES ($1, 'team-members', 'planted', 'null'::jsonb, now(), now(), now() + $2::interval)`,
        [url, live ? '1 hour' : '-1 hour'],
      )),
  },
};

/** A recorded upload (#1), then #2 sent whose answer never came: pending, waiting to be settled. */
async function unsettled(backend: Backend) {
  const state = await backend.make();
  const server = await serve({ ok: true }, { reset: true });
  const dir = tempDir().dir;
  const upload = (file: string, extra: string[] = []) =>
    runCli(['team-members', file, '--yes', '--json', '--retries', '0', '--state', state, '--base-url', server.url, ...extra], {
      env: { UPLOAD_TOKEN: 'token-for-the-resolve-test' },
      tuning: FAST_RETRIES,
    });
  expect((await upload(writeMembers(dir, 'n1.csv', range(1, 30)), ['--no-baseline'])).code).toBe(0);
  expect((await upload(writeMembers(dir, 'n2.csv', range(1, 40)))).json().error.code).toBe('OUTCOME_UNKNOWN');
  const resolve = (how: '--sent' | '--previous') => runCli(['state', 'resolve', 'team-members', how, '--state', state, '--base-url', server.url]);
  const pending = async () => (await runCli(['history', 'team-members', '--json', '--state', state, '--base-url', server.url])).json().pending;
  return { state, url: server.url, resolve, pending };
}

const REPAIR = 'upload state resolve team-members --previous';

describe.each(Object.entries(backends))('upload state resolve with the %s store', (_name, backend) => {
  it("the upload's recorded bytes missing or damaged: --sent is PENDING_DAMAGED (exit 4) naming the repair; --previous forgets it", async () => {
    const s = await unsettled(backend);
    await backend.damageBody(s.state, s.url);
    const sent = await s.resolve('--sent');
    expect(sent.code).toBe(4);
    expect(sent.stderr).toContain('cannot be settled as sent: what was recorded before sending is missing or damaged');
    expect(sent.stderr).toContain(REPAIR);
    expect(await s.pending()).toMatchObject({ generation: 2, records: 40 });
    // The repair as data is the command for this store; followed as given, it forgets the upload.
    const report = (await runCli(['state', 'resolve', 'team-members', '--sent', '--json', '--state', s.state, '--base-url', s.url])).json();
    expect(report.error.fixes).toEqual([
      { kind: 'command', args: ['state', 'resolve', 'team-members', '--previous', '--state', s.state, '--base-url', s.url] },
    ]);
    const previous = await runCli(report.error.fixes[0].args as string[]);
    expect(previous.code).toBe(0);
    expect(previous.stderr).toMatch(/Settled: the upload of 40 team member\(s\) from .*n2\.csv .* is forgotten; the next run compares with upload #1 again/);
    expect(await s.pending()).toBeNull();
  });

  it("the upload's record damaged: --sent is PENDING_DAMAGED (exit 4); --previous forgets it all the same", async () => {
    const s = await unsettled(backend);
    await backend.damageIntent(s.state, s.url);
    const sent = await s.resolve('--sent');
    expect(sent.code).toBe(4);
    expect(sent.stderr).toContain(REPAIR);
    const previous = await s.resolve('--previous');
    expect(previous.code).toBe(0);
    expect(previous.stderr).toContain('Settled: the unconfirmed upload, whose record was damaged, is forgotten');
    expect(await s.pending()).toBeNull();
    expect((await s.resolve('--previous')).stderr).toMatch(/no upload of team-members .* is waiting to be settled/);
  });

  it('the history damaged: a documented refusal (exit 4) with the way to repair it, nothing settled', async () => {
    const s = await unsettled(backend);
    await backend.damageHistory(s.state, s.url);
    const sent = await s.resolve('--sent');
    expect(sent.code).toBe(4);
    // The directory store cannot read its head; the database finds no record behind its head.
    expect(sent.stderr).toMatch(
      /damaged \(not JSON\)[\s\S]*restore .* from a backup|was to become #2, but the latest is #0[\s\S]*upload state resolve team-members --previous/,
    );
    expect(sent.stderr).not.toMatch(/internal error/);
  });

  it('a lease nobody can read: LOCK_HELD (exit 4) while it may be live, taken over once it cannot be', async () => {
    const s = await unsettled(backend);
    await backend.plantDamagedLease(s.state, s.url, true);
    const held = await s.resolve('--sent');
    expect(held.code).toBe(4);
    expect(held.stderr).toMatch(/another upload of team members to \S+ (is starting right now|is in progress: a holder whose lease row cannot be read)/);
    const fresh = await unsettled(backend);
    await backend.plantDamagedLease(fresh.state, fresh.url, false);
    const settled = await fresh.resolve('--sent');
    expect(settled.code).toBe(0);
    expect(settled.stderr).toMatch(/is now upload #2/);
  });
});
