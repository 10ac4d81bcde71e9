// A state directory shared through its group (set-gid, 2770): every file the tool writes there stays
// writable by the group whatever the writer's umask, so each member's run can add to history and to
// the audit log. Two operating-system accounts where the machine allows it (root on Linux, as CI
// runs: a clerk account made with useradd, the CLI run as it through runuser), both with umask 022.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, type CliResult } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const CLERK = 'su42-clerk';
const TEAM = 'su42-team';

let sb: TestSandbox;
let dir: string;
let node = process.execPath;
let twoAccounts = false;

function makeAccount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    for (const [cmd, args] of [
      ['groupadd', ['-f', TEAM]],
      ['useradd', ['-M', '-s', '/usr/sbin/nologin', '-G', TEAM, CLERK]],
    ] as const) {
      try {
        execFileSync(cmd, args, { stdio: 'ignore' });
      } catch (err) {
        if ((err as { status?: number }).status !== 9) throw err; // 9: it exists already
      }
    }
    execFileSync('usermod', ['-a', '-G', TEAM, CLERK], { stdio: 'ignore' });
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    chmodSync(bin, 0o755);
    node = join(bin, 'node');
    try {
      linkSync(process.execPath, node);
    } catch {
      copyFileSync(process.execPath, node);
    }
    chmodSync(node, 0o755);
    execFileSync('runuser', ['-u', CLERK, '--', node, '-e', `require('node:fs').accessSync(${JSON.stringify(BIN)})`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The CLI as `user` (or the tests' account), in a process of its own with umask 022. */
function as(user: string | undefined, args: readonly string[]): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: sb.url };
  let command = ['sh', '-c', 'umask 022; exec "$@"', 'sh', node, BIN, ...args];
  if (user) command = ['runuser', '-u', user, '--', 'env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...command];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString();
      resolve({ code, signal, stdout, stderr: Buffer.concat(err).toString(), json: () => JSON.parse(stdout) as never });
    });
  });
}

function filesUnder(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(path, e.name)) : [join(path, e.name)]));
}

beforeAll(async () => {
  sb = await sandbox();
  const t = tempDir();
  dir = t.dir;
  chmodSync(dir, 0o755);
  twoAccounts = makeAccount();
});

describe('a state directory shared through its group', () => {
  it('every file written is 0660 under umask 022, and each member leaves history and audit lines', async () => {
    const state = join(dir, 'state');
    mkdirSync(state);
    if (twoAccounts) chownSync(state, 0, Number(execFileSync('getent', ['group', TEAM]).toString().split(':')[2]));
    chmodSync(state, 0o2770);
    const first = writeMembers(dir, 'first.csv', range(1, 10));
    const second = writeMembers(dir, 'second.csv', range(1, 11));
    const third = writeMembers(dir, 'third.csv', range(1, 12));
    chmodSync(first, 0o644);
    chmodSync(second, 0o644);
    chmodSync(third, 0o644);

    const a = await as(undefined, ['team-members', first, '--yes', '--no-baseline', '--state', state]);
    expect(a.code, a.stderr).toBe(0);
    for (const file of filesUnder(state)) expect(statSync(file).mode & 0o777, file).toBe(0o660);

    const b = await as(twoAccounts ? CLERK : undefined, ['team-members', second, '--yes', '--state', state]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).not.toMatch(/could not be written|EACCES/);
    const c = await as(undefined, ['team-members', third, '--yes', '--state', state]);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).not.toMatch(/could not be written|EACCES/);

    const audit = filesUnder(state).find((f) => f.endsWith('audit.jsonl'))!;
    const lines = readFileSync(audit, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    const history = await as(undefined, ['history', 'team-members', '--state', state, '--json']);
    expect(history.code, history.stderr).toBe(0);
    expect(JSON.stringify(history.json())).toContain(twoAccounts ? CLERK : 'root');
    for (const file of filesUnder(state)) expect(statSync(file).mode & 0o777, file).toBe(0o660);
  });
});
