// The policy in the store, on PostgreSQL with real roles: a planner, an approver, a cron role and the
// store's administrator, each given exactly the grants docs/state.md lists (the four-eyes section and
// "The policy of an address"). The policy a target asks is recorded in the store; a run with no config
// file at all (another folder, an empty XDG_CONFIG_HOME) obeys it; only the administrator weakens it;
// the database itself refuses history written by hand; and a night under autoApply sends what the
// bounds allow and keeps the rest waiting, with the approve command in the notification.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_SQL } from '../../src/state/postgres.js';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { membersCsv, range } from '../helpers/members.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const tag = randomBytes(3).toString('hex');
const ROLES = { planner: `alice_${tag}`, approver: `bob_${tag}`, cron: `cron_${tag}`, admin: `carol_${tag}`, reader: `upload_reader_${tag}` };
const ADMIN_GROUP = `upload_admin_${tag}`;

let sb: TestSandbox;
let db: string;
/** The team's folder, with the shared config. */
let work: string;
/** A folder with no config; XDG_CONFIG_HOME is empty too. */
let bare: string;
let xdg: string;
/** The store's URL as a config names it: the server, no role. */
let store: string;

/** The SQL of a section of docs/state.md, for this test's roles and database. */
function documented(heading: string, database: string): string {
  const doc = readFileSync(join(ROOT, 'docs/state.md'), 'utf8');
  const sql = /```sql\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf(heading)))![1]!;
  return sql
    .replaceAll('upload_reader', ROLES.reader)
    .replaceAll('upload_admin', ADMIN_GROUP)
    .replaceAll(/\balice\b/g, ROLES.planner)
    .replaceAll(/\bbob\b/g, ROLES.approver)
    .replaceAll(/\bcron\b/g, ROLES.cron)
    .replaceAll(/\bcarol\b/g, ROLES.admin)
    .replace('ON DATABASE scheduling', `ON DATABASE ${database}`);
}

/** A person's run, as their own role: in the team's folder, or (bare) where there is no config at all. */
function as(role: keyof typeof ROLES, where: 'work' | 'bare', args: readonly string[]): Promise<CliResult> {
  return runCli(args, { cwd: where === 'work' ? work : bare, env: { PGUSER: ROLES[role], UPLOAD_TOKEN: TOKEN, XDG_CONFIG_HOME: xdg } });
}

const members = () => sb.stored('/integrations/teamMembers') as Promise<{ employeeID: string; name: string }[]>;
const generations = async () => Number((await asAdmin(db, 'SELECT count(*) AS n FROM upload_generations')).rows[0].n);
/** The flags a run without a config file names the service and the store by. */
const bareFlags = () => ['--base-url', sb.url, '--state', store];
const production = (extra: Record<string, unknown> = {}) => ({ targets: { production: { baseUrl: sb.url, state: store, approvals: 1, ...extra } } });
const BOUNDS = { maxAdded: 5, maxChanged: 2, maxRemoved: 0 };

beforeAll(async () => {
  sb = await sandbox();
  db = await freshDatabase();
  work = tempDir().dir;
  bare = tempDir().dir;
  xdg = join(tempDir().dir, 'config-home');
  mkdirSync(xdg);
  const database = new URL(db).pathname.slice(1);
  // The tables, functions and triggers belong to the administrator who made them; the roles get the documented grants.
  await asAdmin(db, SCHEMA_SQL);
  await asAdmin(db, documented('## Four eyes: who planned, who approved', database));
  await asAdmin(db, documented('## The policy of an address', database));
  const url = new URL(db);
  url.username = '';
  store = url.href;
  writeFileSync(join(work, 'upload.config.json'), JSON.stringify(production()));
  writeFileSync(join(work, 'strong.json'), JSON.stringify(production({ approvals: 2 })));
  writeFileSync(join(work, 'auto.json'), JSON.stringify(production({ autoApply: BOUNDS })));
  for (const folder of [work, bare]) {
    writeFileSync(join(folder, 'v1.csv'), membersCsv(range(1, 20)));
    writeFileSync(join(folder, 'v2.csv'), membersCsv(range(1, 20), [3]));
    writeFileSync(join(folder, 'v3.csv'), membersCsv(range(1, 30), [3]));
  }
  // The first set through four eyes; the planner's run records the target's policy in the store.
  const plan = await as('planner', 'work', ['team-members', 'v1.csv', '--dry-run', '--no-baseline', '--plan-out', 'v1.plan.json', '--target', 'production']);
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stderr).toContain('Recorded in');
  expect((await as('approver', 'work', ['approve', 'v1.plan.json', '--target', 'production', '--yes'])).code).toBe(0);
  const apply = await as('cron', 'work', ['apply', 'v1.plan.json', '--target', 'production', '--yes']);
  expect(apply.code, apply.stderr).toBe(0);
  expect(await members()).toHaveLength(20);
}, 120_000);

afterAll(async () => {
  await sb?.stop();
  for (const role of [ROLES.planner, ROLES.approver, ROLES.cron, ROLES.admin, ADMIN_GROUP, ROLES.reader])
    await asAdmin(db, `DROP OWNED BY ${role}; DROP ROLE IF EXISTS ${role}`).catch(() => {});
});

describe('the policy in a PostgreSQL store, each person their own role', () => {
  it('records the target’s policy, and a run with no config file anywhere obeys it', async () => {
    const shown = await as('cron', 'bare', ['policy', 'show', ...bareFlags(), '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ policy: { approvals: 1, approvalHours: 24, protected: false, autoApply: null }, setBy: ROLES.planner });
    const before = await generations();
    const direct = await as('cron', 'bare', ['team-members', 'v2.csv', ...bareFlags(), '--yes', '--json']);
    expect(direct.code).toBe(4);
    expect(direct.json().error.code).toBe('PLAN_REQUIRED');
    expect(direct.json().error.message).toContain('by the policy recorded in');
    const remove = await as('cron', 'bare', ['remove', 'team-members', 'E0001', ...bareFlags(), '--yes']);
    expect(remove.code, remove.stderr).toBe(4);
    expect(await generations()).toBe(before);
    expect((await members()).map((m) => m.name)).not.toContain('Renamed 3');
    expect(await members()).toHaveLength(20);
  });

  it('refuses, in the database, an upload record of the protected address written by hand', async () => {
    const row = (approval: string) =>
      `SET ROLE ${ROLES.cron}; INSERT INTO upload_generations (base_url, kind, generation, uploaded_at, uploaded_by, host, tool_version, source, records, bytes, sha256, approval)
       VALUES ('${sb.url}', 'team-members', 99, now(), 'cron', 'h', '0', 'x.csv', 1, 2, 'x', ${approval})`;
    await expect(asAdmin(db, row('NULL'))).rejects.toThrow(/asks 1 approval\(s\), and this upload records none/);
    const forged = JSON.stringify({
      digest: 'f'.repeat(64),
      planner: ROLES.planner,
      plannedAt: '2026-01-01',
      approvers: [{ name: ROLES.approver, at: '2026-01-01' }],
      appliedBy: ROLES.cron,
    });
    await expect(asAdmin(db, row(`'${forged}'`))).rejects.toThrow(/approval\(s\) of the plan by others than its planner, and it has 0/);
    const byPolicy = JSON.stringify({
      digest: 'f'.repeat(64),
      planner: ROLES.cron,
      plannedAt: '2026-01-01',
      approvers: [],
      appliedBy: ROLES.cron,
      policy: BOUNDS,
    });
    await expect(asAdmin(db, row(`'${byPolicy}'`))).rejects.toThrow(/allows no upload approved by policy/);
    const intent = `SET ROLE ${ROLES.cron}; INSERT INTO upload_intents (base_url, kind, generation, meta, snapshot) VALUES ('${sb.url}', 'team-members', 2, '{}', '\\x5b5d')`;
    await expect(asAdmin(db, intent)).rejects.toThrow(/records none/);
    // Nor may any role but the administrator write the policy itself.
    await expect(asAdmin(db, `SET ROLE ${ROLES.planner}; UPDATE upload_policies SET policy = '{"approvals": 0}'`)).rejects.toThrow(/permission denied/);
    expect(await generations()).toBe(1);
  });

  it('records a stronger policy from a stronger config; only the administrator weakens it', async () => {
    const strong = await as('planner', 'work', [
      'team-members',
      'v2.csv',
      '--dry-run',
      '--plan-out',
      's.plan.json',
      '--config',
      'strong.json',
      '--target',
      'production',
    ]);
    expect(strong.code, strong.stderr).toBe(0);
    const show = async () => JSON.parse((await as('cron', 'bare', ['policy', 'show', ...bareFlags(), '--json'])).stdout) as Record<string, any>;
    expect((await show()).policy.approvals).toBe(2);
    // A config that asks less is outvoted by the store: the run needs 2.
    const plan = await as('planner', 'work', ['team-members', 'v2.csv', '--dry-run', '--plan-out', 'w.plan.json', '--target', 'production', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'w.plan.json'), 'utf8')).approval.approvals).toBe(2);
    for (const role of ['planner', 'approver', 'cron'] as const) {
      const weaken = await as(role, 'work', ['policy', 'set', '--target', 'production', '--json']);
      expect(weaken.code, weaken.stderr).toBe(4);
      expect(weaken.json().error.code).toBe('POLICY_WEAKER');
      expect(weaken.json().error.message).toContain(ROLES[role]);
    }
    expect((await show()).policy.approvals).toBe(2);
    const set = await as('admin', 'work', ['policy', 'set', '--target', 'production']);
    expect(set.code, set.stderr).toBe(0);
    expect(await show()).toMatchObject({ policy: { approvals: 1 }, setBy: ROLES.admin });
    const text = await as('cron', 'bare', ['policy', 'show', ...bareFlags()]);
    expect(text.stdout).toContain(`set by         ${ROLES.admin}`);
  });

  it('autoApply: a night within the bounds is sent, approved by policy; one outside is kept waiting, and approve → apply sends it', async () => {
    // A config asking autoApply is weaker than the store: the store wins until the administrator records it.
    const early = await as('cron', 'work', ['team-members', 'v2.csv', '--config', 'auto.json', '--target', 'production', '--yes', '--json']);
    expect(early.code).toBe(4);
    expect(early.json().error.code).toBe('PLAN_REQUIRED');
    expect((await as('admin', 'work', ['policy', 'set', '--config', 'auto.json', '--target', 'production'])).code).toBe(0);
    // The team's shared config says it too from now on (an older one would record the stricter policy again).
    writeFileSync(join(work, 'upload.config.json'), JSON.stringify(production({ autoApply: BOUNDS })));

    // Within the bounds (one renamed), with no config file at all: sent, approved by policy.
    const within = await as('cron', 'bare', ['team-members', 'v2.csv', ...bareFlags(), '--yes', '--json']);
    expect(within.code, within.stderr).toBe(0);
    expect(within.json().approval).toMatchObject({ planner: ROLES.cron, approvers: [], appliedBy: ROLES.cron, policy: BOUNDS });
    expect((await members()).find((m) => m.employeeID === 'E0003')?.name).toBe('Renamed 3');
    const history = await as('cron', 'bare', ['history', 'team-members', ...bareFlags()]);
    expect(history.stdout).toContain('approved by policy (autoApply: at most 5 added, 2 changed, 0 removed)');

    // Outside (ten added): nothing sent, the plan kept, the notification names the command that approves it.
    const notified: Record<string, any>[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        notified.push(JSON.parse(body) as Record<string, any>);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const before = await members();
    const outside = await as('cron', 'work', [
      'team-members',
      'v3.csv',
      '--target',
      'production',
      '--yes',
      '--json',
      '--notify',
      hookUrl,
      '--notify-on',
      'always',
    ]);
    hook.close();
    expect(outside.code).toBe(4);
    const error = outside.json().error;
    expect(error.code).toBe('AWAITING_APPROVAL');
    expect(error.message).toContain('10 added (at most 5)');
    const fix = { kind: 'command', args: ['approve', '--target', 'production', '--plan', '1'] };
    expect(error.fixes).toEqual([fix]);
    expect(await members()).toEqual(before);
    expect(notified[0]?.errorCode).toBe('AWAITING_APPROVAL');
    expect(notified[0]?.next.command).toBe('upload approve --target production --plan 1');
    expect(notified[0]?.text).toContain('next: upload approve --target production --plan 1');
    const kept = await asAdmin(db, 'SELECT planned_by, digest, octet_length(body) AS bytes FROM upload_waiting');
    expect(kept.rows).toEqual([expect.objectContaining({ planned_by: ROLES.cron })]);

    // The approver follows the fix as written: without a terminal it asks for --yes, then approves plan #1.
    const asWritten = await as('approver', 'work', fix.args);
    expect(asWritten.code).toBe(2);
    expect(asWritten.stderr).toContain('--yes');
    const approved = await as('approver', 'work', [...fix.args, '--yes', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.json().approval).toMatchObject({ planner: ROLES.cron, approvers: [{ name: ROLES.approver }] });
    // The cron role applies the approved plan from the store, the next night, without a file.
    const apply = await as('cron', 'work', ['apply', '--target', 'production', '--yes', '--json']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.json().approval).toMatchObject({ planner: ROLES.cron, approvers: [{ name: ROLES.approver }], appliedBy: ROLES.cron });
    expect(await members()).toHaveLength(30);
    // Applied once: nothing is left waiting.
    const none = await as('approver', 'work', ['approve', '--target', 'production', '--yes', '--json']);
    expect(none.code).toBe(2);
    expect(none.json().error.code).toBe('NO_WAITING_PLAN');
    const again = await as('cron', 'work', ['apply', '--target', 'production', '--plan', '1', '--yes', '--json']);
    expect(again.code).toBe(4);
    expect(again.json().error.code).toBe('PLAN_USED');
  });

  it('upload config says where each protective setting comes from: the config, the store, or both', async () => {
    const named = await as('cron', 'work', ['config', '--target', 'production', '--json']);
    expect(named.code, named.stderr).toBe(0);
    const protection = (JSON.parse(named.stdout) as { protection: Record<string, { value: unknown; from: string }> }).protection;
    expect(protection.approvals).toEqual({ value: 1, from: 'both' });
    expect(protection.autoApply).toMatchObject({ value: BOUNDS, from: 'both' });
    const bareRun = await as('cron', 'bare', ['config', ...bareFlags()]);
    expect(bareRun.code, bareRun.stderr).toBe(0);
    expect(bareRun.stdout).toMatch(new RegExp(`approvals\\s+1\\s+← store \\(.*set by ${ROLES.admin}`));
  });
});
