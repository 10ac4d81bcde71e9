// Four eyes on PostgreSQL, with real roles: the tables created by an administrator, and a planner, an
// approver and a cron role given exactly the grants docs/state.md lists. Each person is their own
// role (PGUSER, in their run's environment), the config file is shared, and each runs in the folder
// that holds it. Every
// way round — the address instead of the name, the planner approving, UPLOAD_USER, a changed plan, a
// used plan, an expired approval, a stale plan — is refused with exit 4 and nothing sent.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '../../src/pipeline/saved-plan.js';
import { SCHEMA_SQL } from '../../src/state/postgres.js';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { membersCsv, range } from '../helpers/members.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const tag = randomBytes(3).toString('hex');
const ROLES = { planner: `alice_${tag}`, approver: `bob_${tag}`, cron: `cron_${tag}` };
/** The group roles of docs/state.md, for this test alone (roles belong to the whole server). */
const GROUPS = ['upload_reader', 'upload_planner', 'upload_approver', 'upload_sender'].map((g) => `${g}_${tag}`);

let sb: TestSandbox;
let db: string;
let dir: string;
let config: string;
const notified: Record<string, any>[] = [];

/** The grants of docs/state.md ("Four eyes"), for this test's roles and database. */
function documentedGrants(database: string): string {
  const doc = readFileSync(join(ROOT, 'docs/state.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Four eyes: who planned, who approved'));
  const sql = /```sql\n([\s\S]*?)```/.exec(section)![1]!;
  return sql
    .replaceAll(/\bupload_(reader|planner|approver|sender)\b/g, `$&_${tag}`)
    .replaceAll(/\balice\b/g, ROLES.planner)
    .replaceAll(/\bbob\b/g, ROLES.approver)
    .replaceAll(/\bcron\b/g, ROLES.cron)
    .replace('ON DATABASE scheduling', `ON DATABASE ${database}`);
}

/** A person's run: their own role, in the folder of the shared config. */
function as(role: keyof typeof ROLES, args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { cwd: dir, env: { PGUSER: ROLES[role], UPLOAD_TOKEN: TOKEN, ...env } });
}

const members = () => sb.stored('/integrations/teamMembers');
const generations = async () => Number((await asAdmin(db, 'SELECT count(*) AS n FROM upload_generations')).rows[0].n);

beforeAll(async () => {
  sb = await sandbox();
  db = await freshDatabase();
  const t = tempDir();
  dir = t.dir;
  // The tables belong to the administrator: no role of the tool owns them.
  await asAdmin(db, SCHEMA_SQL);
  await asAdmin(db, documentedGrants(new URL(db).pathname.slice(1)));
  const state = new URL(db);
  state.username = '';
  config = t.write(
    'upload.config.json',
    JSON.stringify({
      defaultTarget: 'staging',
      targets: {
        staging: { baseUrl: 'http://127.0.0.1:9', state: join(dir, 'staging-state') },
        production: { baseUrl: sb.url, state: state.href, approvals: 1 },
      },
    }),
  );
  t.write('v1.csv', membersCsv(range(1, 20)));
  t.write('v2.csv', membersCsv(range(1, 20), [3]));
  t.write('v3.csv', membersCsv(range(1, 20), [3, 4]));
  // The first set, through the whole path: alice plans, bob approves, cron applies.
  const plan = await as('planner', ['team-members', 'v1.csv', '--dry-run', '--no-baseline', '--plan-out', 'v1.plan.json', '--target', 'production']);
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stderr).toContain(`as planned by ${ROLES.planner}`);
  const approve = await as('approver', ['approve', 'v1.plan.json', '--target', 'production', '--yes', '--json']);
  expect(approve.code, approve.stderr).toBe(0);
  expect(approve.json().outcome).toBe('approved');
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
  const apply = await as('cron', ['apply', 'v1.plan.json', '--target', 'production', '--yes', '--json', '--notify', hookUrl, '--notify-on', 'always']);
  hook.close();
  expect(apply.code, apply.stderr).toBe(0);
  // The notification names them too.
  expect(notified[0]?.fourEyes).toEqual({ planner: ROLES.planner, approvers: [ROLES.approver], appliedBy: ROLES.cron });
  expect(notified[0]?.text).toContain(`planned by ${ROLES.planner}, approved by ${ROLES.approver}, applied by ${ROLES.cron}`);
  expect(apply.json().approval).toMatchObject({ planner: ROLES.planner, approvers: [{ name: ROLES.approver }], appliedBy: ROLES.cron });
  expect(await members()).toHaveLength(20);
}, 120_000);

afterAll(async () => {
  await sb?.stop();
  for (const role of [ROLES.planner, ROLES.approver, ROLES.cron, ...GROUPS])
    await asAdmin(db, `DROP OWNED BY ${role}; DROP ROLE IF EXISTS ${role}`).catch(() => {});
});

describe('four eyes on PostgreSQL, each person their own role', () => {
  it('history names the planner, the approver and the applier, as the database knows them', async () => {
    const text = await as('cron', ['history', 'team-members', '--target', 'production']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`planned by ${ROLES.planner}`);
    expect(text.stdout).toContain(`approved by ${ROLES.approver}`);
    expect(text.stdout).toContain(`applied by ${ROLES.cron}`);
    const json = await as('cron', ['history', 'team-members', '--target', 'production', '--json']);
    expect(JSON.parse(json.stdout).generations[0].approval).toMatchObject({
      planner: ROLES.planner,
      approvers: [{ name: ROLES.approver }],
      appliedBy: ROLES.cron,
    });
    const html = await as('cron', ['history', 'team-members', '--target', 'production', '--html', 'history.html']);
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync(join(dir, 'history.html'), 'utf8');
    for (const role of [ROLES.planner, ROLES.approver, ROLES.cron]) expect(page).toContain(role);
  });

  it('refuses a direct upload given by address, not name (flag or variable), with the three commands instead', async () => {
    const before = await generations();
    const byFlag = await as('cron', ['team-members', 'v2.csv', '--yes', '--base-url', `${sb.url}/`]);
    expect(byFlag.code).toBe(4);
    expect(byFlag.stderr).toContain("the target 'production' needs 1 approval");
    expect(byFlag.stderr).toMatch(/1\. upload team-members v2\.csv .*--dry-run --plan-out v2\.plan\.json --target production/);
    expect(byFlag.stderr).toContain('2. upload approve v2.plan.json --target production');
    expect(byFlag.stderr).toContain('3. upload apply v2.plan.json --target production');
    // Without a default target, the variable is the address; a trailing dot on the host is the same host.
    const plain = join(dir, 'no-default.json');
    writeFileSync(plain, JSON.stringify({ targets: (JSON.parse(readFileSync(config, 'utf8')) as { targets: unknown }).targets }));
    const byVariable = await as('cron', ['team-members', 'v2.csv', '--yes', '--json', '--config', plain], {
      UPLOAD_BASE_URL: sb.url.replace('127.0.0.1', '127.0.0.1.'),
    });
    expect(byVariable.code).toBe(4);
    expect(byVariable.json().error.code).toBe('PLAN_REQUIRED');
    const merge = await as('cron', ['team-members', 'v2.csv', '--merge', '--yes', '--target', 'production']);
    const remove = await as('cron', ['remove', 'team-members', 'E0001', '--yes', '--target', 'production']);
    const restore = await as('cron', ['restore', 'team-members', '--yes', '--target', 'production']);
    for (const r of [merge, remove, restore]) {
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toContain('a direct upload, restore, remove or --merge is refused');
    }
    expect(await generations()).toBe(before);
    expect(await members()).toHaveLength(20);
  });

  it('refuses the planner approving their own plan, whatever UPLOAD_USER says; apply then says NOT_APPROVED', async () => {
    const plan = await as('planner', ['team-members', 'v2.csv', '--dry-run', '--plan-out', 'self.plan.json', '--target', 'production']);
    expect(plan.code, plan.stderr).toBe(0);
    const self = await as('planner', ['approve', 'self.plan.json', '--target', 'production', '--yes', '--json'], { UPLOAD_USER: ROLES.approver });
    expect(self.code).toBe(4);
    expect(self.json().error.code).toBe('SELF_APPROVAL');
    const apply = await as('cron', ['apply', 'self.plan.json', '--target', 'production', '--yes', '--json']);
    expect(apply.code).toBe(4);
    expect(apply.json().error.code).toBe('NOT_APPROVED');
    expect(apply.json().error.message).toContain(`planner (${ROLES.planner})`);
    expect(await members()).toHaveLength(20);
  });

  it('lets no role write another name into an approval: the database refuses it', async () => {
    const forged = asAdmin(
      db,
      `SET ROLE ${ROLES.approver}; INSERT INTO upload_approvals (base_url, kind, digest, host, approved_by) VALUES ('x', 'team-members', 'd', 'h', '${ROLES.cron}')`,
    );
    await expect(forged).rejects.toThrow(/permission denied/);
  });

  it('refuses a plan changed after its approval, whether or not the change was covered up', async () => {
    const plan = await as('planner', ['team-members', 'v2.csv', '--dry-run', '--plan-out', 'changed.plan.json', '--target', 'production']);
    expect(plan.code, plan.stderr).toBe(0);
    expect((await as('approver', ['approve', 'changed.plan.json', '--target', 'production', '--yes'])).code).toBe(0);
    const doc = JSON.parse(readFileSync(join(dir, 'changed.plan.json'), 'utf8')) as Record<string, any>;
    const bodyPath = join(dir, doc.body.file as string);
    const original = readFileSync(bodyPath);
    // Changed bytes, the plan left as it was.
    writeFileSync(bodyPath, original.toString().replace('Member 5', 'Member X'));
    const naive = await as('cron', ['apply', 'changed.plan.json', '--target', 'production', '--yes', '--json']);
    expect(naive.code).toBe(4);
    expect(naive.json().error.code).toBe('PLAN_CHANGED');
    // Changed bytes with the plan re-signed to match, as someone covering their tracks would.
    const { createHash } = await import('node:crypto');
    const body = readFileSync(bodyPath);
    const resigned: Record<string, any> = { ...doc, body: { ...doc.body, sha256: createHash('sha256').update(body).digest('hex'), bytes: body.length } };
    const { digest: _old, ...unsigned } = resigned;
    resigned.digest = digestOf(unsigned as Parameters<typeof digestOf>[0]);
    writeFileSync(join(dir, 'changed.plan.json'), JSON.stringify(resigned));
    const covered = await as('cron', ['apply', 'changed.plan.json', '--target', 'production', '--yes', '--json']);
    expect(covered.code).toBe(4);
    expect(covered.json().error.code).toBe('PLAN_CHANGED');
    expect(await members()).toHaveLength(20);
  });

  it('applies a plan once, refuses a stale one, and counts an approval only while it is valid', async () => {
    const plan = (name: string, file: string) => as('planner', ['team-members', file, '--dry-run', '--plan-out', name, '--target', 'production']);
    expect((await plan('once.plan.json', 'v2.csv')).code).toBe(0);
    expect((await plan('stale.plan.json', 'v3.csv')).code).toBe(0);
    expect((await plan('late.plan.json', 'v3.csv')).code).toBe(0);
    for (const p of ['once.plan.json', 'stale.plan.json', 'late.plan.json'])
      expect((await as('approver', ['approve', p, '--target', 'production', '--yes'])).code).toBe(0);

    // An approval counts for the target's approvalHours: with a config that allows a third of a second, it has lapsed.
    const short = join(dir, 'short.json');
    const base = JSON.parse(readFileSync(config, 'utf8')) as { targets: Record<string, Record<string, unknown>> };
    writeFileSync(short, JSON.stringify({ targets: { production: { ...base.targets.production, approvalHours: 0.0001 } } }));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const expired = await as('cron', ['apply', 'late.plan.json', '--config', short, '--target', 'production', '--yes', '--json']);
    expect(expired.code).toBe(4);
    expect(expired.json().error.code).toBe('NOT_APPROVED');
    expect(expired.json().error.message).toContain(`${ROLES.approver}`);
    expect(expired.json().error.message).toContain('expired');
    // That run recorded its stricter validity in the store's policy (docs/review-then-apply.md, "The policy
    // lives in the store"), which every later run obeys: the administrator puts the day back.
    await asAdmin(db, `UPDATE upload_policies SET policy = jsonb_set(policy, '{approvalHours}', '24')`);

    const before = await generations();
    const first = await as('cron', ['apply', 'once.plan.json', '--target', 'production', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(await generations()).toBe(before + 1);
    const sent = await members();
    const again = await as('cron', ['apply', 'once.plan.json', '--target', 'production', '--yes', '--json']);
    expect(again.code).toBe(4);
    expect(again.json().error.code).toBe('PLAN_USED');
    // Made against the generation before: refused as stale, approved or not.
    const stale = await as('cron', ['apply', 'stale.plan.json', '--target', 'production', '--yes', '--json']);
    expect(stale.code).toBe(4);
    expect(stale.json().error.code).toBe('PLAN_STALE');
    expect(await generations()).toBe(before + 1);
    expect(await members()).toEqual(sent);
  });
});
