// Four eyes on a directory store, with two operating-system accounts where the machine allows it (root
// on Linux, as CI runs: an approver account is made with useradd and the CLI runs as it through
// runuser). The name of whoever planned or approved is the record file's owner, never UPLOAD_USER.
// Elsewhere the one account the tests run as can only plan, and its own approval is refused.
import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, type CliResult } from '../helpers/cli.js';
import { membersCsv, range } from '../helpers/members.js';
import { groupFolder, runAs, tryAccounts, uidOf } from '../helpers/os-users.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { keyDir } from '../helpers/state.js';
import { tempDir } from '../helpers/tmp.js';

const APPROVER = 'su4e-approver';
const TEAM = 'su4e-team';

let sb: TestSandbox;
let dir: string;
let node: string;
/** Whether a second account can run the CLI here (root on Linux, the program readable by it). */
let twoAccounts = false;

/**
 * The CLI as `user` (undefined: the account the tests run as, in-process), optionally on a skewed
 * clock; in the shared folder.
 */
function as(user: string | undefined, args: readonly string[], extra: { env?: Record<string, string>; skew?: string } = {}): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', UPLOAD_TOKEN: TOKEN, ...extra.env };
  // Another account or another clock needs a process of its own.
  if (!user && !extra.skew) return runCli(args, { cwd: dir, env });
  const command = [user ? node : process.execPath, BIN, ...args];
  return runAs(user, extra.skew ? ['faketime', '-f', extra.skew, ...command] : command, dir, env);
}

const members = () => sb.stored('/integrations/teamMembers');
const plan = (name: string, file: string) => as(undefined, ['team-members', file, '--dry-run', '--no-baseline', '--plan-out', name, '--target', 'production']);

beforeAll(async () => {
  sb = await sandbox();
  const t = tempDir();
  dir = t.dir;
  chmodSync(dir, 0o755);
  const accounts = tryAccounts(TEAM, [APPROVER], dir);
  twoAccounts = accounts !== undefined;
  node = accounts?.node ?? process.execPath;
  // The team's folder: the state store and the plans, shared through the group (2770).
  const shared = groupFolder(join(dir, 'team'), accounts?.gid);
  groupFolder(join(shared, 'state'), accounts?.gid);
  t.write(
    'upload.config.json',
    JSON.stringify({ targets: { production: { baseUrl: sb.url, state: join(shared, 'state'), approvals: 1, approvalHours: 24 } } }),
  );
  chmodSync(join(dir, 'upload.config.json'), 0o644);
  for (const [name, n] of [
    ['a.csv', 10],
    ['b.csv', 12],
    ['c.csv', 11],
  ] as const)
    writeFileSync(join(shared, name), membersCsv(range(1, n)));
  dir = shared;
  writeFileSync(join(dir, 'upload.config.json'), readFileSync(join(t.dir, 'upload.config.json')));
  chmodSync(join(dir, 'upload.config.json'), 0o644);
});

afterAll(async () => {
  await sb?.stop();
});

describe('four eyes on a directory store', () => {
  it('refuses a direct upload at the address, and the planner approving their own plan whatever UPLOAD_USER says', async () => {
    const direct = await as(undefined, ['team-members', 'a.csv', '--yes', '--no-baseline', '--base-url', sb.url, '--json']);
    expect(direct.code).toBe(4);
    expect(direct.json<{ error: { code: string } }>().error.code).toBe('PLAN_REQUIRED');
    const made = await plan('self.plan.json', 'a.csv');
    expect(made.code, made.stderr).toBe(0);
    const self = await as(undefined, ['approve', 'self.plan.json', '--target', 'production', '--yes', '--json'], { env: { UPLOAD_USER: APPROVER } });
    expect(self.code).toBe(4);
    expect(self.json<{ error: { code: string } }>().error.code).toBe('SELF_APPROVAL');
    const apply = await as(undefined, ['apply', 'self.plan.json', '--target', 'production', '--yes', '--json']);
    expect(apply.code).toBe(4);
    expect(apply.json<{ error: { code: string } }>().error.code).toBe('NOT_APPROVED');
    expect(await members()).toEqual([]);
  });

  it('takes another account’s approval, owned by that account, and applies the plan once', async () => {
    if (!twoAccounts) {
      // One account on this machine: nobody else can approve, so nothing can be applied.
      const r = await as(undefined, ['apply', 'self.plan.json', '--target', 'production', '--yes']);
      expect(r.code).toBe(4);
      return;
    }
    const approve = await as(APPROVER, ['approve', 'self.plan.json', '--target', 'production', '--yes', '--json']);
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.json<{ approval: { approvers: { name: string }[]; planner: string } }>().approval).toMatchObject({
      planner: 'root',
      approvers: [{ name: APPROVER }],
    });
    const records = join(keyDir(join(dir, 'state'), sb.url), 'approvals');
    const [file] = readdirSync(records);
    expect(statSync(join(records, file!)).uid).toBe(uidOf(APPROVER));
    expect(statSync(join(records, file!)).mode & 0o777).toBe(0o440);
    const apply = await as(undefined, ['apply', 'self.plan.json', '--target', 'production', '--yes', '--json']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(await members()).toHaveLength(10);
    const again = await as(undefined, ['apply', 'self.plan.json', '--target', 'production', '--yes', '--json']);
    expect(again.code).toBe(4);
    expect(again.json<{ error: { code: string } }>().error.code).toBe('PLAN_USED');
    const history = await as(undefined, ['history', 'team-members', '--target', 'production']);
    expect(history.stdout).toContain(`planned by root`);
    expect(history.stdout).toContain(`approved by ${APPROVER}`);
    expect(history.stdout).toContain('applied by root');
  });

  it('refuses an approval given more than the target’s hours ago, and a plan changed after its approval', async () => {
    expect((await plan('late.plan.json', 'b.csv')).code).toBe(0);
    // Another set: approvals are bound to the plan and its content (a second plan of the same content needs its own).
    expect((await plan('changed.plan.json', 'c.csv')).code).toBe(0);
    const approver = twoAccounts ? APPROVER : undefined;
    // Given "25 hours ago", on the approving machine's clock (libfaketime): expired for a 24 h target.
    const late = await as(approver, ['approve', 'late.plan.json', '--target', 'production', '--yes'], { skew: '-25h' });
    const changed = await as(approver, ['approve', 'changed.plan.json', '--target', 'production', '--yes']);
    if (twoAccounts) {
      expect(late.code, late.stderr).toBe(0);
      expect(changed.code, changed.stderr).toBe(0);
    } else {
      expect([late.code, changed.code]).toEqual([4, 4]);
    }
    const expired = await as(undefined, ['apply', 'late.plan.json', '--target', 'production', '--yes', '--json']);
    expect(expired.code).toBe(4);
    expect(expired.json<{ error: { code: string; message: string } }>().error.code).toBe('NOT_APPROVED');
    if (twoAccounts) expect(expired.json<{ error: { message: string } }>().error.message).toContain('expired after 24 h');
    const doc = JSON.parse(readFileSync(join(dir, 'changed.plan.json'), 'utf8')) as { body: { file: string } };
    const body = join(dir, doc.body.file);
    writeFileSync(body, readFileSync(body, 'utf8').replace('Member 5', 'Member X'));
    const tampered = await as(undefined, ['apply', 'changed.plan.json', '--target', 'production', '--yes', '--json']);
    expect(tampered.code).toBe(4);
    expect(tampered.json<{ error: { code: string } }>().error.code).toBe('PLAN_CHANGED');
    expect(await members()).toHaveLength(twoAccounts ? 10 : 0);
  });
});
