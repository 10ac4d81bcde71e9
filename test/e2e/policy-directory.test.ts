// The policy in a directory store: the target's protective settings are recorded in the store folder,
// and a run from a folder with no config file (and an empty XDG_CONFIG_HOME) obeys them; a stronger
// config records the stronger policy, the folder's owner may weaken it; autoApply sends a night within
// its bounds and keeps the rest in the store, where approve and apply find it without a file.
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { membersCsv, range } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

let sb: TestSandbox;
let work: string;
let bare: string;
let xdg: string;
let state: string;
const me = userInfo().username;
const BOUNDS = { maxAdded: 5, maxChanged: 2, maxRemoved: 0 };

function run(where: 'work' | 'bare', args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { cwd: where === 'work' ? work : bare, env: { UPLOAD_TOKEN: TOKEN, XDG_CONFIG_HOME: xdg, ...env } });
}
const bareFlags = () => ['--base-url', sb.url, '--state', state];
const members = () => sb.stored('/integrations/teamMembers') as Promise<{ employeeID: string; name: string }[]>;
const production = (extra: Record<string, unknown> = {}) => JSON.stringify({ targets: { production: { baseUrl: sb.url, state, approvals: 1, ...extra } } });

beforeAll(async () => {
  sb = await sandbox();
  work = tempDir().dir;
  bare = tempDir().dir;
  xdg = join(tempDir().dir, 'config-home');
  mkdirSync(xdg);
  state = join(tempDir().dir, 'state');
  writeFileSync(join(work, 'upload.config.json'), production());
  writeFileSync(join(work, 'strong.json'), production({ approvals: 2 }));
  writeFileSync(join(work, 'auto.json'), production({ autoApply: BOUNDS }));
  writeFileSync(join(work, 'guarded.json'), production({ autoApply: BOUNDS, protected: true }));
  writeFileSync(join(work, 'floors.json'), production({ autoApply: BOUNDS, protected: true, guards: { maxRemovals: 2 } }));
  for (const folder of [work, bare]) {
    writeFileSync(join(folder, 'v1.csv'), membersCsv(range(1, 20)));
    writeFileSync(join(folder, 'v2.csv'), membersCsv(range(1, 20), [3]));
    writeFileSync(join(folder, 'v3.csv'), membersCsv(range(1, 30), [3]));
    writeFileSync(join(folder, 'v4.csv'), membersCsv(range(1, 31), [3]));
    writeFileSync(join(folder, 'minus3.csv'), membersCsv(range(4, 20), [3]));
  }
  // Before any policy: an ordinary upload, with no config.
  const first = await run('bare', ['team-members', 'v1.csv', ...bareFlags(), '--yes', '--no-baseline']);
  expect(first.code, first.stderr).toBe(0);
  // The planner's run with the target records its policy in the store.
  const plan = await run('work', ['team-members', 'v2.csv', '--dry-run', '--plan-out', 'v2.plan.json', '--target', 'production']);
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stderr).toContain(`Recorded in ${state} the policy of ${sb.url}`);
});

afterAll(async () => {
  await sb?.stop();
});

describe('the policy in a directory store', () => {
  it('is obeyed at another spelling of the same address: a name for its IP, a trailing dot', async () => {
    const before = await members();
    for (const spelled of [sb.url.replace('127.0.0.1', 'localhost'), sb.url.replace('127.0.0.1', 'localhost.')]) {
      expect(spelled).not.toBe(sb.url);
      const direct = await run('bare', ['team-members', 'v2.csv', '--base-url', spelled, '--state', state, '--yes', '--json']);
      expect(direct.code, direct.stderr).toBe(4);
      expect(direct.json().error).toMatchObject({ code: 'PLAN_REQUIRED', message: expect.stringContaining('by the policy recorded in') });
    }
    expect(await members()).toEqual(before);
  });

  it('is obeyed by a run with no config file anywhere, whose hint reaches the same store', async () => {
    const shown = await run('bare', ['policy', 'show', ...bareFlags(), '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ address: sb.url, policy: { approvals: 1, autoApply: null }, setBy: me });
    const before = await members();
    const direct = await run('bare', ['team-members', 'v2.csv', ...bareFlags(), '--yes']);
    expect(direct.code).toBe(4);
    expect(direct.stderr).toContain(`this address (by the policy recorded in ${state}) needs 1 approval`);
    expect(await members()).toEqual(before);
    // The hint's first two commands, as written: the plan is recorded in this store; its planner cannot approve it.
    const steps = [...direct.stderr.matchAll(/^\s+\d\. upload (.*?)(?:\s{3}\(.*)?$/gm)].map((m) => m[1]!.split(' '));
    expect(steps).toHaveLength(3);
    const plan = await run('bare', steps[0]!);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(bare, 'v2.plan.json'), 'utf8')).approval).toMatchObject({ approvals: 1, planner: me });
    const approve = await run('bare', [...steps[1]!, '--yes', '--json']);
    expect(approve.code).toBe(4);
    expect(approve.json().error.code).toBe('SELF_APPROVAL');
  });

  it("records a stronger config's policy; the store folder's owner may weaken it", async () => {
    const strong = await run('work', ['team-members', 'v2.csv', '--dry-run', '--plan-out', 's.plan.json', '--config', 'strong.json', '--target', 'production']);
    expect(strong.code, strong.stderr).toBe(0);
    const show = async () => JSON.parse((await run('bare', ['policy', 'show', ...bareFlags(), '--json'])).stdout) as Record<string, any>;
    expect((await show()).policy.approvals).toBe(2);
    // The records are write-once files of their writers, in a folder nobody else may clean out.
    const folder = join(state, 'policies', readdirSync(join(state, 'policies'))[0]!);
    expect(statSync(folder).mode & 0o1000).toBe(0o1000);
    for (const name of readdirSync(folder)) expect(statSync(join(folder, name)).mode & 0o222).toBe(0);
    // This test's account owns the store's folder: it is the administrator.
    const set = await run('work', ['policy', 'set', '--target', 'production']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain('was: 2 approvals');
    expect((await show()).policy.approvals).toBe(1);
  });

  it('autoApply: within the bounds it is sent, approved by policy; outside, the plan is kept in the store and nothing is sent', async () => {
    expect((await run('work', ['policy', 'set', '--config', 'auto.json', '--target', 'production'])).code).toBe(0);
    const within = await run('bare', ['team-members', 'v2.csv', ...bareFlags(), '--yes', '--json', '--report-html', 'night.html']);
    expect(within.code, within.stderr).toBe(0);
    expect(readFileSync(join(bare, 'night.html'), 'utf8')).toContain('approved by policy (autoApply: at most 5 added, 2 changed, 0 removed)');
    expect(within.json().approval).toMatchObject({ approvers: [], planner: me, appliedBy: me, policy: BOUNDS });
    expect((await members()).find((m) => m.employeeID === 'E0003')?.name).toBe('Renamed 3');

    const before = await members();
    const outside = await run('bare', ['team-members', 'v3.csv', ...bareFlags(), '--yes', '--json']);
    expect(outside.code).toBe(4);
    const error = outside.json().error;
    expect(error.code).toBe('AWAITING_APPROVAL');
    const fix = { kind: 'command', args: ['approve', '--base-url', sb.url, '--state', state, '--plan', '1'] };
    expect(error.fixes).toEqual([fix]);
    expect(await members()).toEqual(before);
    // Kept in the store, read-only; its planner is the file's owner.
    const stores = readdirSync(join(state, 'stores')).filter((n) => n.endsWith('.team-members'));
    const waiting = join(state, 'stores', stores[0]!, 'waiting');
    expect(readdirSync(waiting).filter((n) => n.endsWith('.body.json'))).toHaveLength(1);
    for (const name of readdirSync(waiting)) expect(statSync(join(waiting, name)).mode & 0o222).toBe(0);
    // The fix, followed by the one account there is here: the planner may not approve its own plan.
    const approve = await run('bare', [...fix.args, '--yes', '--json']);
    expect(approve.code).toBe(4);
    expect(approve.json().error.code).toBe('SELF_APPROVAL');
    // Nothing approved: apply without a file says so, and its fix is the same approve command.
    const apply = await run('bare', ['apply', ...bareFlags(), '--yes', '--json']);
    expect(apply.code).toBe(2);
    expect(apply.json().error).toMatchObject({ code: 'NO_WAITING_PLAN', fixes: [fix] });
    const followed = await run('bare', [...(apply.json().error.fixes[0].args as string[]), '--yes', '--json']);
    expect(followed.code).toBe(4);
    expect(followed.json().error.code).toBe('SELF_APPROVAL');
    // A second night outside the bounds: two plans wait, and approve without --plan asks which.
    expect((await run('bare', ['team-members', 'v4.csv', ...bareFlags(), '--yes'])).code).toBe(4);
    const which = await run('bare', ['approve', ...bareFlags(), '--yes', '--json']);
    expect(which.code).toBe(2);
    const choose = which.json().error;
    expect(choose).toMatchObject({ code: 'CHOOSE_PLAN', fixes: [{ kind: 'flags', args: ['--plan', '2'] }] });
    expect(choose.message).toMatch(/#1 {2}team-members .*\+10 −0 ~0[\s\S]*#2 {2}team-members .*\+11 −0 ~0/);
    // The fix, followed, names plan #2 (and its planner may not approve it).
    const second = await run('bare', ['approve', ...bareFlags(), '--yes', '--json', ...(choose.fixes[0].args as string[])]);
    expect(second.code).toBe(4);
    expect(second.json().error.code).toBe('SELF_APPROVAL');
    expect(await members()).toEqual(before);
  });

  it('a protected address is written only when the command line names it, never by UPLOAD_BASE_URL', async () => {
    expect(
      (await run('work', ['team-members', 'v2.csv', '--dry-run', '--plan-out', 'g.plan.json', '--config', 'guarded.json', '--target', 'production'])).code,
    ).toBe(0);
    const byVariable = await run('bare', ['team-members', 'v2.csv', '--state', state, '--yes', '--json'], { UPLOAD_BASE_URL: sb.url });
    expect(byVariable.code).toBe(2);
    const error = byVariable.json().error;
    expect(error).toMatchObject({ code: 'PROTECTED_TARGET', fixes: [{ kind: 'flags', args: ['--base-url', sb.url] }] });
    expect(error.message).toContain(`protected by the policy recorded in ${state}`);
    // The fix followed: the same run, the address named; within the bounds, it is sent approved by policy.
    const named = await run('bare', ['team-members', 'v2.csv', '--state', state, '--yes', '--json', ...error.fixes[0].args], { UPLOAD_BASE_URL: sb.url });
    expect(named.code, named.stderr).toBe(0);
    expect(named.json().approval).toMatchObject({ policy: BOUNDS });
  });

  it('a guard limit the policy records is a floor: a run allows no more, and one that asks more on its command line is refused', async () => {
    const recorded = await run('work', [
      'team-members',
      'v2.csv',
      '--dry-run',
      '--plan-out',
      'f.plan.json',
      '--config',
      'floors.json',
      '--target',
      'production',
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const flags = [...bareFlags(), '--dry-run', '--json'];
    // No limit given: the floor is the limit, and the removal guard refuses three removals with it.
    const floored = await run('bare', ['team-members', 'minus3.csv', ...flags]);
    expect(floored.code).toBe(4);
    const refusal = floored.json().error;
    expect(refusal.code).toBe('TOO_MANY_REMOVALS');
    expect(refusal.message).toContain('more than --max-removals allows (2)');
    expect(refusal.hint).toContain('--max-removals 3');
    // Its hint, followed, asks more than the floor: refused as such, with the floor as the fix.
    const more = await run('bare', ['team-members', 'minus3.csv', ...flags, '--max-removals', '3']);
    expect(more.code).toBe(4);
    const weaker = more.json().error;
    expect(weaker).toMatchObject({ code: 'POLICY_WEAKER', fixes: [{ kind: 'flags', args: ['--max-removals', '2'] }] });
    expect(weaker.message).toContain(`--max-removals 3 allows more than the policy recorded in ${state}`);
    // And that fix, followed, is the floor again: the removal guard's refusal, nothing sent.
    const floor = await run('bare', ['team-members', 'minus3.csv', ...flags, ...weaker.fixes[0].args]);
    expect(floor.code).toBe(4);
    expect(floor.json().error.code).toBe('TOO_MANY_REMOVALS');
    const config = await run('bare', ['config', ...bareFlags(), '--json']);
    expect(JSON.parse(config.stdout).protection['maxRemovals (floor)']).toMatchObject({ value: '2' });
  });
});
