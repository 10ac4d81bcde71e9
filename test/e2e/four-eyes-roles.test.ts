// The documented roles of four eyes on PostgreSQL (docs/state.md): a planner, an approver and a cron
// role, each a login role made a member of the documented group, run the whole path by following
// the tool's own hints as written — the fix data of each refusal, and the next command each success
// names — on a protected target that must be named and takes --yes only where nothing asks. A role
// lacking a right is told which group it is not a member of, and the GRANT that gives it.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_SQL } from '../../src/state/postgres.js';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { membersCsv, range } from '../helpers/members.js';
import { asAdmin, freshDatabase } from '../helpers/postgres.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const tag = randomBytes(3).toString('hex');
const ROLES = { planner: `planner_${tag}`, approver: `approver_${tag}`, cron: `cron_${tag}` };
/** The group roles of docs/state.md, for this test alone (roles belong to the whole server). */
const GROUP = (name: string) => `upload_${name}_${tag}`;

let sb: TestSandbox;
let db: string;
let dir: string;

type Fix = { kind: string; args: string[] };
type Report = { error: { code: string; message: string; hint: string; fixes: Fix[] } };

/** docs/state.md's grants, with this test's names for the groups and the people. */
function documentedGrants(database: string): string {
  const doc = readFileSync(join(ROOT, 'docs/state.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Four eyes: who planned, who approved'));
  return /```sql\n([\s\S]*?)```/
    .exec(section)![1]!
    .replaceAll(/\bupload_(reader|planner|approver|sender)\b/g, (_, g: string) => GROUP(g))
    .replaceAll(/\balice\b/g, ROLES.planner)
    .replaceAll(/\bbob\b/g, ROLES.approver)
    .replaceAll(/\bcron\b/g, ROLES.cron)
    .replace('ON DATABASE scheduling', `ON DATABASE ${database}`);
}

const as = (role: keyof typeof ROLES, args: readonly string[]): Promise<CliResult> =>
  runCli(args, { cwd: dir, env: { PGUSER: ROLES[role], UPLOAD_TOKEN: TOKEN } });
const members = () => sb.stored('/integrations/teamMembers');

/** The command a success message names, as a person would copy it (the arguments after `upload`). */
function named(stderr: string, pattern: RegExp): string[] {
  const found = pattern.exec(stderr);
  expect(found, stderr).not.toBeNull();
  return found![1]!.split(' ').slice(1);
}

/** A refusal's one fix, also said in words in its hint. */
function fixOf(r: CliResult, kind: string): string[] {
  const { error } = r.json<Report>();
  expect(error.fixes).toHaveLength(1);
  expect(error.fixes[0]!.kind).toBe(kind);
  const args = error.fixes[0]!.args;
  expect(error.hint).toContain(kind === 'command' ? ['upload', ...args].join(' ') : args.join(' '));
  return args;
}

beforeAll(async () => {
  sb = await sandbox();
  db = await freshDatabase();
  const t = tempDir();
  dir = t.dir;
  await asAdmin(db, SCHEMA_SQL);
  await asAdmin(db, documentedGrants(new URL(db).pathname.slice(1)));
  const state = new URL(db);
  state.username = '';
  t.write('upload.config.json', JSON.stringify({ targets: { production: { baseUrl: sb.url, state: state.href, approvals: 1, protected: true } } }));
  t.write('staff.csv', membersCsv(range(1, 20)));
});

afterAll(async () => {
  await sb?.stop();
  for (const role of [...Object.values(ROLES), ...['reader', 'planner', 'approver', 'sender'].map(GROUP)])
    await asAdmin(db, `DROP OWNED BY ${role}; DROP ROLE IF EXISTS ${role}`).catch(() => {});
});

describe('the documented roles, following every hint as written', () => {
  it('plans as the planner, approves as the approver and applies as cron, each step the one the last named', async () => {
    // Cron, at production's address, sends directly: refused, with the plan command as data.
    const direct = await as('cron', ['team-members', 'staff.csv', '--base-url', sb.url, '--no-baseline', '--yes', '--json']);
    expect(direct.code).toBe(4);
    const planArgs = fixOf(direct, 'command');
    expect(planArgs).toEqual([
      'team-members',
      'staff.csv',
      '--base-url',
      sb.url,
      '--no-baseline',
      '--dry-run',
      '--plan-out',
      'staff.plan.json',
      '--target',
      'production',
    ]);
    expect(direct.json<Report>().error.hint).toContain('upload approve staff.plan.json --target production');
    expect(direct.json<Report>().error.hint).toContain('upload apply staff.plan.json --target production --yes');

    // Cron may not plan: told which group it lacks, and the GRANT.
    const cronPlans = await as('cron', [...planArgs, '--json']);
    expect(cronPlans.code).toBe(2);
    expect(cronPlans.json<Report>().error.code).toBe('STATE_UNUSABLE');
    expect(cronPlans.json<Report>().error.message).toContain(`role ${ROLES.cron} may not make plans`);
    expect(cronPlans.json<Report>().error.hint).toBe(
      `role ${ROLES.cron} is not a member of ${GROUP('planner')}: as an administrator, run GRANT ${GROUP('planner')} TO ${ROLES.cron}`,
    );

    // The planner runs the same command: the plan is saved, and the next step named.
    const planned = await as('planner', planArgs);
    expect(planned.code, planned.stderr).toBe(0);
    const approveArgs = named(planned.stderr, /someone else approves it: (upload approve .*)$/m);
    expect(approveArgs).toEqual(['approve', 'staff.plan.json', '--target', 'production']);

    // The planner following it: SELF_APPROVAL, whose fix is the same command for someone else.
    const self = await as('planner', [...approveArgs, '--yes', '--json']);
    expect(self.code).toBe(4);
    expect(self.json<Report>().error.code).toBe('SELF_APPROVAL');
    expect(fixOf(self, 'command')).toEqual(approveArgs);

    // Cron applying the plan as PLAN_REQUIRED said: NOT_APPROVED, whose fix is the approve command.
    const early = await as('cron', ['apply', 'staff.plan.json', '--target', 'production', '--yes', '--json']);
    expect(early.code).toBe(4);
    expect(early.json<Report>().error.code).toBe('NOT_APPROVED');
    expect(fixOf(early, 'command')).toEqual(approveArgs);

    // Cron may not approve; the approver may (asked for --yes off a terminal, as its fix says).
    const cronApproves = await as('cron', [...approveArgs, '--yes', '--json']);
    expect(cronApproves.code).toBe(2);
    expect(cronApproves.json<Report>().error.hint).toContain(`not a member of ${GROUP('approver')}`);
    const unasked = await as('approver', [...approveArgs, '--json']);
    expect(unasked.code).toBe(2);
    expect(unasked.json<Report>().error.code).toBe('NO_CONFIRMATION');
    const approved = await as('approver', [...approveArgs, ...fixOf(unasked, 'flags')]);
    expect(approved.code, approved.stderr).toBe(0);
    const applyArgs = named(approved.stderr, /: (upload apply .*) can send it now/);
    expect(applyArgs).toEqual(['apply', 'staff.plan.json', '--target', 'production', '--yes']);

    // The approver may not send; cron, following the approver's words, does.
    const approverApplies = await as('approver', [...applyArgs, '--json']);
    expect(approverApplies.code).toBe(2);
    expect(approverApplies.json<Report>().error.hint).toContain(`not a member of ${GROUP('sender')}`);
    expect(await members()).toEqual([]);
    const applied = await as('cron', applyArgs);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`made by ${ROLES.planner} (as the state store recorded it)`);
    expect(await members()).toHaveLength(20);
  });

  it('names the protected target an approve left out, as a fix that works (after the upload above)', async () => {
    const planned = await as('planner', ['team-members', 'staff.csv', '--dry-run', '--plan-out', 'again.plan.json', '--target', 'production']);
    expect(planned.code, planned.stderr).toBe(0);
    const unnamed = await as('approver', ['approve', 'again.plan.json', '--yes', '--json']);
    expect(unnamed.code).toBe(2);
    expect(unnamed.json<Report>().error.code).toBe('PROTECTED_TARGET');
    const approved = await as('approver', ['approve', 'again.plan.json', '--yes', ...fixOf(unnamed, 'flags')]);
    expect(approved.code, approved.stderr).toBe(0);
  });

  it('counts an approval for the plan it approved, not for a second plan with the same bytes', async () => {
    for (const name of ['twin1.plan.json', 'twin2.plan.json'])
      expect((await as('planner', ['team-members', 'staff.csv', '--dry-run', '--plan-out', name, '--target', 'production'])).code).toBe(0);
    expect((await as('approver', ['approve', 'twin1.plan.json', '--target', 'production', '--yes'])).code).toBe(0);
    const twin = await as('cron', ['apply', 'twin2.plan.json', '--target', 'production', '--yes', '--json']);
    expect(twin.code).toBe(4);
    expect(twin.json<Report>().error.code).toBe('NOT_APPROVED');
    // The approver approved two plans of these bytes (this one's twin, and the one above): neither counts here.
    expect(twin.json<Report>().error.message).toMatch(new RegExp(`the approvals of ${ROLES.approver} \\(.*\\), ${ROLES.approver} \\(`));
    expect(twin.json<Report>().error.message).toContain('approved another plan with the same content');
    const rows = await asAdmin(db, `SELECT DISTINCT plan_id FROM upload_approvals WHERE approved_by = $1`, [ROLES.approver]);
    expect(rows.rows.map((r: { plan_id: string }) => r.plan_id)).toContain(
      (JSON.parse(readFileSync(join(dir, 'twin1.plan.json'), 'utf8')) as { planId: string }).planId,
    );
    const first = await as('cron', ['apply', 'twin1.plan.json', '--target', 'production', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(await members()).toHaveLength(20);
  });
});
