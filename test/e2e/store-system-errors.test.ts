// What the operating system says about the directory store is a documented refusal, never exit 1
// ("this is a bug"): a user who may not read the store (another account, through runuser, against a
// root-owned 0700 store), a store on a read-only file system (a read-only bind mount) and a store on a
// full disk (a 64 KiB tmpfs) are STATE_UNUSABLE, exit 2, with a hint for that cause — on every command.
// Root on Linux, as CI runs: elsewhere the first check fails rather than passing without one.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { membersCsv, range } from '../helpers/members.js';
import { canMakeAccounts, cliAs, makeAccounts, reachableNode, runAs, uidOf } from '../helpers/os-users.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const OTHER = 'susys-other';

let sb: TestSandbox;
let dir: string;
let state: string;
let plan: string;
let staff: string;
let node: string;
const mounts: string[] = [];

beforeAll(async () => {
  expect(canMakeAccounts, 'another account is made with useradd: run as root on Linux (as CI does)').toBe(true);
  makeAccounts('susys-team', [OTHER]);
  sb = await sandbox();
  dir = tempDir().dir;
  chmodSync(dir, 0o755);
  node = reachableNode(dir);
  staff = join(dir, 'staff.csv');
  writeFileSync(staff, membersCsv(range(1, 4)), { mode: 0o644 });
  state = join(dir, 'state');
  plan = join(dir, 'nightly.plan.json');
  const first = await runCli(['team-members', staff, '--yes', '--no-baseline', '--state', state], { env: sb.env });
  expect(first.code, first.stderr).toBe(0);
  const planned = await runCli(['team-members', staff, '--dry-run', '--plan-out', plan, '--state', state], { env: sb.env });
  expect(planned.code, planned.stderr).toBe(0);
  // The plan is readable by the other account: only the store is not.
  for (const f of readdirSync(dir).filter((n) => n.includes('.plan.json'))) chmodSync(join(dir, f), 0o644);
  chmodSync(state, 0o700);
});

afterAll(async () => {
  for (const m of mounts.reverse()) execFileSync('umount', [m]);
  await sb?.stop();
});

function refusedFor(run: CliResult, said: string, hint: string): void {
  expect(run.code, run.stderr).toBe(2);
  const { error } = run.json<{ error: { code: string; message: string; hint: string } }>();
  expect(error.code).toBe('STATE_UNUSABLE');
  expect(error.message).toContain(said);
  expect(error.hint).toContain(hint);
}

describe('a store this user may not read', () => {
  const commands: Record<string, () => string[]> = {
    upload: () => ['team-members', staff, '--yes'],
    'dry run': () => ['team-members', staff, '--dry-run'],
    history: () => ['history', 'team-members'],
    export: () => ['export', 'team-members', join(dir, 'out.csv')],
    restore: () => ['restore', 'team-members', '--yes'],
    remove: () => ['remove', 'team-members', 'E1001', '--yes'],
    release: () => ['release', 'team-members', '--yes'],
    apply: () => ['apply', plan, '--yes'],
    approve: () => ['approve', plan, '--yes'],
    'state resolve': () => ['state', 'resolve', 'team-members', '--sent'],
    'policy show': () => ['policy', 'show'],
  };
  const asOther = (args: string[]) =>
    cliAs(OTHER, node, [...args, '--json', '--state', state], dir, {
      UPLOAD_TOKEN: TOKEN,
      UPLOAD_BASE_URL: sb.url,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'none'),
      NO_COLOR: '1',
    });

  for (const [name, args] of Object.entries(commands))
    it(`${name}: STATE_UNUSABLE, exit 2, ask the owner`, async () => {
      refusedFor(await asOther(args()), 'permission denied (EACCES)', `ask the owner of ${state} for access`);
    });

  it('config still shows the settings, and says the store could not be read (never exit 1)', async () => {
    const run = await cliAs(OTHER, node, ['config', '--state', state], dir, { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: sb.url, HOME: dir, NO_COLOR: '1' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('the state store could not be read');
    expect(run.stdout).toContain('permission denied (EACCES)');
  });
});

describe("the user's own store without the user's access", () => {
  it('says the chmod that gives it back, and following it the upload goes through', async () => {
    const own = join(dir, 'own');
    mkdirSync(own);
    chownSync(own, uidOf(OTHER), -1);
    const env = { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: sb.url, HOME: dir, XDG_CONFIG_HOME: join(dir, 'none'), NO_COLOR: '1' };
    const upload = () => cliAs(OTHER, node, ['team-members', staff, '--yes', '--no-baseline', '--json', '--state', own], dir, env);
    expect((await upload()).code).toBe(0);
    // Read-only to its owner, every folder and file of it (as after a careless chmod or a restore).
    execFileSync('chmod', ['-R', 'u-w', own]);
    const refused = await upload();
    refusedFor(refused, 'EACCES', `give it back with chmod -R u+rwX ${own}`);
    // Follow the hint, as that user.
    const chmod = await runAs(OTHER, ['chmod', '-R', 'u+rwX', own], dir, {});
    expect(chmod.code, chmod.stderr).toBe(0);
    const again = await upload();
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('a store on a read-only file system', () => {
  it('upload is STATE_UNUSABLE with the read-only hint; history still reads it', async () => {
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    execFileSync('mount', ['--bind', state, ro]);
    mounts.push(ro);
    execFileSync('mount', ['-o', 'remount,ro,bind', ro]);
    refusedFor(await runCli(['team-members', staff, '--yes', '--json', '--state', ro], { env: sb.env }), 'EROFS', 'read-only file system');
    const history = await runCli(['history', 'team-members', '--state', ro], { env: sb.env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toContain('#1');
  });
});

describe('a store on a full disk', () => {
  it('upload is STATE_UNUSABLE with the free-space hint, and the history is as it was', async () => {
    const full = join(dir, 'full');
    mkdirSync(full);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full]);
    mounts.push(full);
    const small = join(full, 'state');
    const first = await runCli(['team-members', staff, '--yes', '--no-baseline', '--state', small], { env: sb.env });
    expect(first.code, first.stderr).toBe(0);
    // Fill what is left of the disk.
    try {
      writeFileSync(join(full, 'filler'), Buffer.alloc(128 * 1024));
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    refusedFor(await runCli(['team-members', staff, '--yes', '--json', '--state', small], { env: sb.env }), 'ENOSPC', 'is full: free space on it');
    const history = await runCli(['history', 'team-members', '--json', '--state', small], { env: sb.env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.json<{ generations: unknown[] }>().generations).toHaveLength(1);
  });

  it('an output on the full disk is OUTPUT_UNWRITABLE naming the flag, and no half-written file is left', async () => {
    const full = mounts.find((m) => m.endsWith('full'))!;
    const elsewhere = join(dir, 'state-elsewhere');
    for (const [args, flag] of [
      [['team-members', staff, '--dry-run', '--no-baseline', '--payload-out', join(full, 'payload.json')], '--payload-out'],
      [['export', 'team-members', join(full, 'export.csv'), '--state', state], '--output'],
    ] as const) {
      const run = await runCli([...args, '--json', ...(args.includes('--state') ? [] : ['--state', elsewhere])], { env: sb.env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.json().error).toMatchObject({ code: 'OUTPUT_UNWRITABLE' });
      expect(run.json().error.message).toContain(flag);
      expect(run.json().error.message).toContain('ENOSPC');
    }
    expect(readdirSync(full).sort()).toEqual(['filler', 'state']);
  });
});
