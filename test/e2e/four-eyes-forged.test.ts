// Four eyes on a shared directory store, with a planner and an approver who are real operating-system
// accounts (useradd + runuser; CI runs as root on Linux). Who made a record is its file's owner: a
// record written by hand in a colleague's name never counts (FORGED_RECORD), an approval dated ahead
// of the clock or older than approvalHours — by the time written in it or by its file's modification
// time — does not count, and an approval counts for the plan it approved, not for another plan file
// with the same content. Each is checked against what the sandbox holds.
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { membersCsv, range } from '../helpers/members.js';
import { canMakeAccounts, cliAs, groupFolder, makeAccounts, reachableNode, runAs, uidOf } from '../helpers/os-users.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { keyDir } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

const PLANNER = 'su4e-fplanner';
const APPROVER = 'su4e-fapprover';
const TEAM = 'su4e-fteam';

let sb: TestSandbox;
let dir: string;
let node: string;

type Report = { error: { code: string; message: string; fixes: { kind: string; args: string[] }[] } };
const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', UPLOAD_TOKEN: TOKEN };
const as = (user: string, args: readonly string[], extra: Record<string, string> = {}): Promise<CliResult> =>
  cliAs(user, node, args, dir, { ...env, ...extra });
const members = () => sb.stored('/integrations/teamMembers');
const records = (folder: 'plans' | 'approvals') => join(keyDir(join(dir, 'state'), sb.url), folder);
const planOf = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { planId: string; digest: string };
/** The approval digest the store recorded for a plan file. */
const digestOf = (name: string) => (JSON.parse(readFileSync(join(records('plans'), `${planOf(name).planId}.json`), 'utf8')) as { digest: string }).digest;

/** A record written by hand as `user` (read-only, as the tool writes them), with the file's times set when asked. */
async function writeAs(user: string, path: string, record: unknown, mtime?: Date): Promise<void> {
  // The folder as the tool makes it (shared with the group, sticky), when the forger is the first to write there.
  const script = `const fs=require('node:fs'),{dirname}=require('node:path');const [p,t,m]=process.argv.slice(1);if(!fs.existsSync(dirname(p))){fs.mkdirSync(dirname(p));fs.chmodSync(dirname(p),0o3770)}fs.writeFileSync(p,t,{mode:0o440,flag:'wx'});if(m){const s=Number(m)/1000;fs.utimesSync(p,s,s)}`;
  const r = await runAs(user, [node, '-e', script, path, `${JSON.stringify(record)}\n`, mtime ? String(mtime.getTime()) : ''], dir, env);
  expect(r.code, r.stderr).toBe(0);
}

const removeAs = async (user: string, path: string) => expect((await runAs(user, ['rm', '-f', path], dir, env)).code).toBe(0);
const plan = (name: string, file: string, extra: Record<string, string> = {}) =>
  as(PLANNER, ['team-members', file, '--dry-run', '--no-baseline', '--plan-out', name, '--target', 'production'], extra);
const apply = (name: string) => as(PLANNER, ['apply', name, '--target', 'production', '--yes', '--json']);
const hours = (n: number) => new Date(Date.now() + n * 3_600_000);

beforeAll(async () => {
  expect(canMakeAccounts, 'these tests make operating-system accounts: run them as root on Linux, as CI does').toBe(true);
  sb = await sandbox();
  const t = tempDir();
  chmodSync(t.dir, 0o755);
  const gid = makeAccounts(TEAM, [PLANNER, APPROVER]);
  node = reachableNode(t.dir);
  // The team's folder: the config, the files, the plans and the state store, shared through the group.
  dir = groupFolder(join(t.dir, 'team'), gid);
  groupFolder(join(dir, 'state'), gid);
  const config = { targets: { production: { baseUrl: sb.url, state: join(dir, 'state'), approvals: 1, approvalHours: 24 } } };
  writeFileSync(join(dir, 'upload.config.json'), JSON.stringify(config));
  chmodSync(join(dir, 'upload.config.json'), 0o644);
  for (const [name, n] of [
    ['a.csv', 10],
    ['b.csv', 11],
    ['c.csv', 12],
    ['d.csv', 13],
  ] as const) {
    writeFileSync(join(dir, name), membersCsv(range(1, n)));
    chmodSync(join(dir, name), 0o644);
  }
});

afterAll(async () => {
  await sb?.stop();
});

describe('a directory store believes only the file owner', () => {
  it('refuses an approval written by the planner in a colleague’s name (uid null, or the colleague’s uid): FORGED_RECORD, nothing sent', async () => {
    const made = await plan('forged.plan.json', 'a.csv');
    expect(made.code, made.stderr).toBe(0);
    const { planId } = planOf('forged.plan.json');
    const digest = digestOf('forged.plan.json');
    const approval = { digest, planId, approver: APPROVER, approvedAt: new Date().toISOString(), host: 'vm' };
    await writeAs(PLANNER, join(records('approvals'), `${digest}.forged.1.json`), { ...approval, uid: null });
    await writeAs(PLANNER, join(records('approvals'), `${digest}.forged.2.json`), { ...approval, uid: uidOf(APPROVER) });
    const r = await apply('forged.plan.json');
    expect(r.code, r.stderr).toBe(4);
    const { error } = r.json<Report>();
    expect(error.code).toBe('FORGED_RECORD');
    expect(error.message).toContain(`${digest}.forged.1.json names ${APPROVER} (and no uid), but the file is owned by ${PLANNER}`);
    expect(error.message).toContain(`${digest}.forged.2.json names ${APPROVER} (uid ${uidOf(APPROVER)}), but the file is owned by ${PLANNER}`);
    // The colleague's genuine approval is refused too while the forged ones stand: someone must look.
    const genuine = await as(APPROVER, ['approve', 'forged.plan.json', '--target', 'production', '--yes', '--json']);
    expect(genuine.code).toBe(4);
    expect(genuine.json<Report>().error.code).toBe('FORGED_RECORD');
    expect(await members()).toEqual([]);
  });

  it('refuses a plan record the planner rewrote as the colleague’s, then approved themselves: FORGED_RECORD', async () => {
    expect((await plan('rewritten.plan.json', 'b.csv')).code).toBe(0);
    const path = join(records('plans'), `${planOf('rewritten.plan.json').planId}.json`);
    const mine = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    expect(mine).toMatchObject({ planner: PLANNER, uid: uidOf(PLANNER) });
    // The planner owns the record, so the sticky folder lets them replace it.
    await removeAs(PLANNER, path);
    await writeAs(PLANNER, path, { ...mine, planner: APPROVER, uid: null });
    const self = await as(PLANNER, ['approve', 'rewritten.plan.json', '--target', 'production', '--yes', '--json']);
    expect(self.code, self.stderr).toBe(4);
    expect(self.json<Report>().error.code).toBe('FORGED_RECORD');
    expect(self.json<Report>().error.message).toContain(`names ${APPROVER} (and no uid), but the file is owned by ${PLANNER}`);
    expect(readdirSync(records('approvals')).filter((n) => n.includes(planOf('rewritten.plan.json').planId))).toEqual([]);
    const r = await apply('rewritten.plan.json');
    expect(r.code).toBe(4);
    expect(r.json<Report>().error.code).toBe('FORGED_RECORD');
    expect(await members()).toEqual([]);
  });

  it('counts no approval dated ahead of the clock or older than approvalHours, by the time written in it or by its file’s time', async () => {
    expect((await plan('timed.plan.json', 'c.csv')).code).toBe(0);
    const { planId } = planOf('timed.plan.json');
    const digest = digestOf('timed.plan.json');
    const path = join(records('approvals'), `${digest}.${planId}.${uidOf(APPROVER)}.1.json`);
    const own = (at: Date) => ({ digest, planId, approver: APPROVER, approvedAt: at.toISOString(), host: 'vm', uid: uidOf(APPROVER) });
    // The approver's own records, owned by them: only their times are wrong.
    for (const [why, record, mtime, said] of [
      ['stamped 30 days ahead', own(hours(24 * 30)), undefined, 'dated ahead of this machine'],
      ['touched 30 days ahead', own(new Date()), hours(24 * 30), 'dated ahead of this machine'],
      ['stamped 25 hours ago', own(hours(-25)), undefined, 'expired after 24 h'],
      ['touched 25 hours ago', own(new Date()), hours(-25), 'expired after 24 h'],
    ] as const) {
      await writeAs(APPROVER, path, record);
      if (mtime) expect((await runAs(APPROVER, ['touch', '-d', `@${Math.floor(mtime.getTime() / 1000)}`, path], dir, env)).code).toBe(0);
      const r = await apply('timed.plan.json');
      expect(r.code, why).toBe(4);
      expect(r.json<Report>().error.code, why).toBe('NOT_APPROVED');
      expect(r.json<Report>().error.message, why).toContain(said);
      await removeAs(APPROVER, path);
    }
    expect(await members()).toEqual([]);
    // The same approver, through the tool, on time: it counts, and the plan is sent.
    expect((await as(APPROVER, ['approve', 'timed.plan.json', '--target', 'production', '--yes'])).code).toBe(0);
    const sent = await apply('timed.plan.json');
    expect(sent.code, sent.stderr).toBe(0);
    expect(await members()).toHaveLength(12);
  });

  it('binds an approval to the plan it approved: a second plan with the same bytes needs its own; the view names the recorded planner', async () => {
    // The plan file says "root@vm" made it (UPLOAD_USER, UPLOAD_HOST); the store recorded the planner's account.
    expect((await plan('first.plan.json', 'd.csv', { UPLOAD_USER: 'root', UPLOAD_HOST: 'vm' })).code).toBe(0);
    expect((await plan('second.plan.json', 'd.csv')).code).toBe(0);
    expect(digestOf('first.plan.json')).toBe(digestOf('second.plan.json'));
    const approved = await as(APPROVER, ['approve', 'first.plan.json', '--target', 'production', '--yes']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(`made by ${PLANNER} (as the state store recorded it), on vm`);
    expect(approved.stderr).not.toContain('made by root@vm');
    const other = await apply('second.plan.json');
    expect(other.code).toBe(4);
    expect(other.json<Report>().error.code).toBe('NOT_APPROVED');
    expect(other.json<Report>().error.message).toContain(`the approval of ${APPROVER}`);
    expect(other.json<Report>().error.message).toContain('approved another plan with the same content');
    expect(await members()).toHaveLength(12);
    const first = await as(PLANNER, ['apply', 'first.plan.json', '--target', 'production', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`made by ${PLANNER} (as the state store recorded it)`);
    expect(await members()).toHaveLength(13);
    // Who owns what, as the system says.
    const owners = readdirSync(records('approvals')).map((n) =>
      execFileSync('stat', ['-c', '%U', join(records('approvals'), n)])
        .toString()
        .trim(),
    );
    expect(new Set(owners)).toEqual(new Set([PLANNER, APPROVER]));
  });
});
