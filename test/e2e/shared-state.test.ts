// Shared state and what it makes possible (history, restore, saved plans), end to end: the real CLI against the
// real sandbox, with one store — a directory or a real PostgreSQL database — for every "machine".
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { freshDatabase } from '../helpers/postgres.js';
import { scriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const TEAM = '/integrations/teamMembers';
let sb: TestSandbox | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await sb?.stop();
  await server?.close();
  sb = server = undefined;
});

const backends = {
  directory: async () => join(tempDir().dir, 'shared-state'),
  postgres: () => freshDatabase(),
};

/** One machine: who it says it is, and the store every machine shares. */
const machine = (user: string, host: string, state: string, env: Record<string, string>) => (args: string[]) =>
  runCli([...args, '--state', state], { env: { ...env, UPLOAD_USER: user, UPLOAD_HOST: host } });

describe.each(Object.entries(backends))('with one shared %s store', (_name, make) => {
  it('the laptop sees what the server uploaded, and its stale file is refused', async () => {
    sb = await sandbox();
    const state = await make();
    const laptop = machine('hr', 'laptop-7', state, sb.env);
    const server = machine('cron', 'sync-01', state, sb.env);
    const hundred = writeMembers(sb.dir, 'hundred.csv', range(1, 100));
    const seventy = writeMembers(sb.dir, 'seventy.csv', range(1, 70));
    expect((await laptop(['team-members', hundred, '--yes', '--no-baseline'])).code).toBe(0);
    expect((await laptop(['team-members', seventy, '--yes', '--max-removals', '30'])).code).toBe(0);
    expect((await server(['team-members', writeMembers(sb.dir, 'nightly.csv', range(1, 500)), '--yes'])).code).toBe(0);

    // Back on the laptop: the diff is against the server's upload, not the laptop's own last one.
    const dry = await laptop(['team-members', seventy, '--dry-run', '--json']);
    expect(dry.code).toBe(4);
    const report = dry.json();
    expect(report.diff).toMatchObject({ baseline: 'snapshot', added: 0, removed: 430, changed: 0, unchanged: 70 });
    expect(report.baseline).toMatchObject({
      source: 'snapshot',
      generation: 3,
      user: 'cron',
      host: 'sync-01',
      records: 500,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(report.error).toMatchObject({ code: 'TOO_MANY_REMOVALS' });
    const human = await laptop(['team-members', seventy, '--yes']);
    expect(human.code).toBe(4);
    expect(human.stderr).toMatch(/Changes against upload #3 of \d{4}-\d\d-\d\d \d\d:\d\d UTC by cron@sync-01, 500 team members: \+0 −430 ~0 =70/);
    expect(await sb.stored(TEAM)).toHaveLength(500);
  });

  it("a fresh machine's first unattended upload is refused without --baseline or --no-baseline", async () => {
    sb = await sandbox();
    const state = await make();
    const cron = machine('cron', 'container-1', state, sb.env);
    const eight = writeMembers(sb.dir, 'eight.csv', range(1, 8));
    const refused = await cron(['team-members', eight, '--yes', '--json']);
    expect(refused.code).toBe(4);
    expect(refused.json()).toMatchObject({
      outcome: 'refused',
      baseline: { source: 'none', generation: null },
      error: { code: 'NO_BASELINE', hint: expect.stringMatching(/--baseline FILE.*--no-baseline/) },
    });
    expect(await sb.stored(TEAM)).toEqual([]);
    // A dry run reaches the same verdict.
    expect((await cron(['team-members', eight, '--dry-run', '--json'])).json().error.code).toBe('NO_BASELINE');
    // The export that was last uploaded is a baseline: every guard applies against it.
    const last = writeMembers(sb.dir, 'last.csv', range(1, 50));
    expect((await cron(['team-members', eight, '--yes', '--json', '--baseline', last])).json().error.code).toBe('TOO_MANY_REMOVALS');
    const ok = await cron(['team-members', eight, '--yes', '--json', '--no-baseline']);
    expect(ok.json()).toMatchObject({ outcome: 'uploaded', generation: 1 });
    // Where a baseline exists, --no-baseline changes nothing: the removal guard still applies.
    expect((await cron(['team-members', writeMembers(sb.dir, 'one.csv', [1]), '--yes', '--json', '--no-baseline'])).json().error.code).toBe(
      'TOO_MANY_REMOVALS',
    );
  });

  it('two hosts at once: one uploads, the other is refused naming who holds the lock', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    server = await scriptedServer(async () => {
      await held;
      return { ok: true };
    });
    const state = await make();
    const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: server.url };
    const t = tempDir();
    const first = machine('hr', 'laptop-7', state, env)(['team-members', writeMembers(t.dir, 'a.csv', range(1, 5)), '--yes', '--no-baseline']);
    await server.nextRequest();
    const second = await machine(
      'cron',
      'sync-01',
      state,
      env,
    )(['team-members', writeMembers(t.dir, 'b.csv', range(1, 5)), '--yes', '--no-baseline', '--json']);
    expect(second.code).toBe(4);
    expect(second.json().error).toMatchObject({ code: 'LOCK_HELD', message: expect.stringContaining('of hr on laptop-7') });
    release();
    expect((await first).code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('history lists every upload with its changes and the failed attempts between them', async () => {
    sb = await sandbox();
    const state = await make();
    const hr = machine('hr', 'laptop-7', state, sb.env);
    expect((await hr(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 10)), '--yes', '--no-baseline'])).code).toBe(0);
    expect((await hr(['team-members', writeMembers(sb.dir, 'b.csv', range(1, 12), [3]), '--yes'])).code).toBe(0);
    const failed = await runCli(['team-members', writeMembers(sb.dir, 'c.csv', range(1, 12)), '--yes', '--state', state], {
      env: { ...sb.env, UPLOAD_TOKEN: 'wrong-token-123' },
    });
    expect(failed.code).toBe(5);
    const h = await hr(['history', 'team-members', '--json']);
    expect(h.code).toBe(0);
    const history = h.json();
    expect(history.generations.map((g: any) => [g.generation, g.records, g.added, g.removed, g.changed, g.user, g.host])).toEqual([
      [2, 12, 2, 0, 1, 'hr', 'laptop-7'],
      [1, 10, 10, 0, 0, 'hr', 'laptop-7'],
    ]);
    expect(history.generations[0].failed).toMatchObject([{ outcome: 'rejected', error: 'UNAUTHORIZED', status: 401, records: 12 }]);
    const text = await hr(['history', 'team-members', '--limit', '1']);
    expect(text.stdout).toMatch(/#2 {2}\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}hr@laptop-7 {2}.*b\.csv {2}12 records {2}\+2 −0 ~1/);
    expect(text.stdout).toContain('✗');
    expect(text.stdout).not.toContain('#1 ');
  });

  it('restore sends an earlier upload again through the guards, and records it as a new upload', async () => {
    sb = await sandbox();
    const state = await make();
    const hr = machine('hr', 'laptop-7', state, sb.env);
    const v1 = range(1, 20);
    expect((await hr(['team-members', writeMembers(sb.dir, 'v1.csv', v1), '--yes', '--no-baseline'])).code).toBe(0);
    const gen1 = await sb.stored(TEAM);
    expect((await hr(['team-members', writeMembers(sb.dir, 'v2.csv', range(1, 21), [4]), '--yes'])).code).toBe(0);
    expect((await hr(['team-members', writeMembers(sb.dir, 'v3.csv', range(1, 19)), '--yes', '--max-removals', '2'])).code).toBe(0);

    // The default is the one before the latest: #2.
    const dry = await hr(['restore', 'team-members', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json()).toMatchObject({ outcome: 'dry-run', source: 'upload #2', diff: { added: 2, removed: 0, changed: 1 }, baseline: { generation: 3 } });
    // Back to #1 would remove one record: the guard allows it, the person confirms with --yes.
    const older = await hr(['restore', 'team-members', '--generation', '1', '--yes', '--json']);
    expect(older.code).toBe(0);
    expect(older.json()).toMatchObject({ outcome: 'uploaded', generation: 4 });
    expect(await sb.stored(TEAM)).toEqual(gen1);
    const h = (await hr(['history', 'team-members', '--json'])).json();
    expect(h.generations[0]).toMatchObject({ generation: 4, restoredFrom: 1, source: 'upload #1' });
    // And no further: restoring #3 over #1 would be fine, but a restore is still bound by --max-removals.
    expect((await hr(['team-members', writeMembers(sb.dir, 'big.csv', range(1, 100)), '--yes'])).code).toBe(0);
    const tooMany = await hr(['restore', 'team-members', '--generation', '1', '--yes', '--json']);
    expect(tooMany.code).toBe(4);
    expect(tooMany.json().error).toMatchObject({ code: 'TOO_MANY_REMOVALS', hint: expect.stringContaining('--max-removals 80') });
    expect((await hr(['restore', 'team-members', '--generation', '1', '--yes', '--max-removals', '80'])).code).toBe(0);
    expect(await sb.stored(TEAM)).toEqual(gen1);
  });

  it('a reviewed plan is applied byte for byte, or not at all', async () => {
    sb = await sandbox();
    const state = await make();
    const hr = machine('hr', 'laptop-7', state, sb.env);
    const cron = machine('cron', 'sync-01', state, sb.env);
    expect((await hr(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 10)), '--yes', '--no-baseline'])).code).toBe(0);
    const plan = join(sb.dir, 'reviewed.plan.json');
    const made = await hr(['team-members', writeMembers(sb.dir, 'b.csv', range(1, 11)), '--dry-run', '--plan-out', plan]);
    expect(made.code).toBe(0);
    expect(made.stderr).toContain(`upload apply ${plan}`);
    // The file changes after the review: the plan still sends what was reviewed.
    writeMembers(sb.dir, 'b.csv', range(1, 3));
    const doc = JSON.parse(readFileSync(plan, 'utf8'));
    expect(doc).toMatchObject({ kind: 'team-members', baseUrl: sb.url, generation: 1, diff: { added: 1, removed: 0 }, body: { records: 11 } });
    expect(JSON.stringify(doc)).not.toContain(TOKEN);
    const applied = await cron(['apply', plan, '--yes', '--json']);
    expect(applied.code).toBe(0);
    expect(applied.json()).toMatchObject({ outcome: 'uploaded', generation: 2 });
    const body = readFileSync(join(sb.dir, doc.body.file));
    expect(createHash('sha256').update(body).digest('hex')).toBe(doc.body.sha256);
    expect(await sb.stored(TEAM)).toEqual(JSON.parse(body.toString('utf8')));
    const h = (await cron(['history', 'team-members', '--json'])).json();
    expect(h.generations[0]).toMatchObject({ generation: 2, sha256: doc.body.sha256, plan, user: 'cron' });

    // Another upload moved the store: the plan is stale, nothing is sent.
    const plan2 = join(sb.dir, 'second.plan.json');
    expect((await hr(['team-members', writeMembers(sb.dir, 'c.csv', range(1, 12)), '--dry-run', '--plan-out', plan2])).code).toBe(0);
    expect((await hr(['team-members', writeMembers(sb.dir, 'd.csv', range(1, 11), [1]), '--yes'])).code).toBe(0);
    const stale = await cron(['apply', plan2, '--yes', '--json']);
    expect(stale.code).toBe(4);
    expect(stale.json().error).toMatchObject({ code: 'PLAN_STALE', message: expect.stringContaining('upload #3') });
    expect(await sb.stored(TEAM)).toHaveLength(11);

    // A changed or cut plan is refused before anything is checked or sent.
    const plan3 = join(sb.dir, 'third.plan.json');
    expect((await hr(['team-members', writeMembers(sb.dir, 'e.csv', range(1, 12)), '--dry-run', '--plan-out', plan3])).code).toBe(0);
    const good = readFileSync(plan3, 'utf8');
    const tampered = [good.replace('"records": 12', '"records": 13'), good.slice(0, good.length / 2), good.replace(sb.url, 'https://evil.example.com')];
    for (const text of tampered) {
      writeFileSync(plan3, text);
      const r = await cron(['apply', plan3, '--yes', '--json']);
      expect(r.code, text.slice(0, 80)).toBe(3);
      expect(r.json().error.code).toBe('PLAN_INVALID');
    }
    writeFileSync(plan3, good);
    const bodyFile = join(sb.dir, JSON.parse(good).body.file);
    writeFileSync(bodyFile, readFileSync(bodyFile, 'utf8').replace('E0001', 'E9999'));
    expect((await cron(['apply', plan3, '--yes', '--json'])).json().error).toMatchObject({
      code: 'PLAN_INVALID',
      message: expect.stringContaining('has changed'),
    });
    expect(await sb.stored(TEAM)).toHaveLength(11);
  });

  it('--detailed-exitcode tells a nightly job whether anything changed', async () => {
    sb = await sandbox();
    const state = await make();
    const cron = machine('cron', 'sync-01', state, sb.env);
    const file = writeMembers(sb.dir, 'a.csv', range(1, 5));
    expect((await cron(['team-members', file, '--yes', '--no-baseline', '--detailed-exitcode'])).code).toBe(8);
    const same = await cron(['team-members', file, '--dry-run', '--json', '--detailed-exitcode']);
    expect(same.code).toBe(0);
    expect(same.json()).toMatchObject({ unchanged: true, exitCode: 0 });
    const more = writeMembers(sb.dir, 'b.csv', range(1, 6));
    const changed = await cron(['team-members', more, '--dry-run', '--json', '--detailed-exitcode']);
    expect(changed.code).toBe(8);
    expect(changed.json()).toMatchObject({ unchanged: false, exitCode: 8, outcome: 'dry-run' });
    // Without the flag, success is 0 whatever changed.
    expect((await cron(['team-members', more, '--dry-run'])).code).toBe(0);
  });
});
