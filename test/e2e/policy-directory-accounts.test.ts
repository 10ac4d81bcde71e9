// The policy in a directory store shared by two operating-system accounts through a group (2770): the
// folder's owner (root here, as CI runs) is the store's administrator, the other account (made with
// useradd, run through runuser, as in four-eyes-directory.test.ts) is not. The other account cannot
// weaken the policy; it approves the plan the unattended run kept in the store, and the owner's next
// run applies it without a file. Elsewhere (not root on Linux) the second account cannot be made, and
// the test says so by failing its first check rather than passing without one.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { membersCsv, range } from '../helpers/members.js';
import { canMakeAccounts, cliAs, groupFolder, makeAccounts, reachableNode } from '../helpers/os-users.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const APPROVER = 'su4e-approver';
const TEAM = 'su4e-team';
const BOUNDS = { maxAdded: 5, maxChanged: 2, maxRemoved: 0 };

let sb: TestSandbox;
let shared: string;
let state: string;
let node: string;

const env = { UPLOAD_TOKEN: TOKEN, NO_COLOR: '1' };

/** The owner's run (in-process), or the approver's (its own process, as its account), in the shared folder with no config. */
function as(user: 'owner' | 'approver', args: readonly string[]): Promise<CliResult> {
  const xdg = join(shared, 'no-config-home');
  if (user === 'owner') return runCli(args, { cwd: shared, env: { ...env, XDG_CONFIG_HOME: xdg } });
  const vars = { PATH: process.env.PATH ?? '', ...env, XDG_CONFIG_HOME: xdg, HOME: shared };
  return cliAs(APPROVER, node, args, shared, vars);
}

const flags = () => ['--base-url', sb.url, '--state', state];
const members = () => sb.stored('/integrations/teamMembers');

beforeAll(async () => {
  expect(canMakeAccounts, 'a second account is made with useradd: run as root on Linux (as CI does)').toBe(true);
  sb = await sandbox();
  const t = tempDir();
  chmodSync(t.dir, 0o755);
  // The approver's account and the team group (idempotent, shared with four-eyes-directory.test.ts), and a node it can run.
  const gid = makeAccounts(TEAM, [APPROVER]);
  node = reachableNode(t.dir);
  shared = groupFolder(join(t.dir, 'team'), gid);
  state = groupFolder(join(shared, 'state'), gid);
  groupFolder(join(shared, 'no-config-home'), gid);
  writeFileSync(join(shared, 'v1.csv'), membersCsv(range(1, 20)));
  writeFileSync(join(shared, 'v3.csv'), membersCsv(range(1, 30)));
  for (const [name, extra] of [
    ['auto.json', { autoApply: BOUNDS }],
    ['wide.json', { autoApply: { ...BOUNDS, maxAdded: 50 } }],
  ] as const) {
    writeFileSync(join(shared, name), JSON.stringify({ targets: { production: { baseUrl: sb.url, state, approvals: 1, ...extra } } }));
    chmodSync(join(shared, name), 0o644);
  }
  expect((await as('owner', ['team-members', 'v1.csv', ...flags(), '--yes', '--no-baseline'])).code).toBe(0);
  // The folder's owner records the policy: one approval, autoApply within BOUNDS.
  const set = await as('owner', ['policy', 'set', '--config', 'auto.json', '--target', 'production']);
  expect(set.code, set.stderr).toBe(0);
});

afterAll(async () => {
  await sb?.stop();
});

describe('the policy in a directory store shared by two accounts', () => {
  it('refuses to let an account that does not own the store weaken the policy', async () => {
    const wider = await as('approver', ['policy', 'set', '--config', 'wide.json', '--target', 'production', '--json']);
    expect(wider.code, wider.stderr).toBe(4);
    expect(wider.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'POLICY_WEAKER' });
    expect(wider.json<{ error: { message: string } }>().error.message).toContain(`${APPROVER} may only record a stricter one`);
    const shown = await as('approver', ['policy', 'show', ...flags(), '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ policy: { approvals: 1, autoApply: BOUNDS }, setBy: 'root' });
  });

  it('keeps the night outside the bounds in the store; another account approves it; the next run applies it without a file', async () => {
    const before = await members();
    const night = await as('owner', ['team-members', 'v3.csv', ...flags(), '--yes', '--json']);
    expect(night.code).toBe(4);
    const fix = night.json<{ error: { code: string; fixes: { args: string[] }[] } }>().error;
    expect(fix.code).toBe('AWAITING_APPROVAL');
    expect(await members()).toEqual(before);
    const approved = await as('approver', [...fix.fixes[0]!.args, '--yes', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.json<{ approval: unknown }>().approval).toMatchObject({ planner: 'root', approvers: [{ name: APPROVER }] });
    const apply = await as('owner', ['apply', ...flags(), '--yes', '--json']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(await members()).toHaveLength(30);
    const history = await as('owner', ['history', 'team-members', ...flags()]);
    expect(history.stdout).toContain(`approved by ${APPROVER}`);
  });
});
