// Real operating-system accounts for tests of a directory store shared by a team (root on Linux, as CI
// runs): accounts made with useradd in a group, the CLI and small scripts run as them through runuser.
// Each test file names its own accounts and group, as the files run in parallel on one machine.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, linkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, type CliResult } from './cli.js';

/** Whether this machine lets the tests make accounts and run as them. */
export const canMakeAccounts = process.platform === 'linux' && process.getuid?.() === 0;

/** Makes the group and the accounts in it, once per machine (idempotent); returns the team's gid. */
export function makeAccounts(team: string, users: readonly string[]): number {
  const tolerate = (cmd: string, args: string[]) => {
    try {
      execFileSync(cmd, args, { stdio: 'ignore' });
    } catch (err) {
      // 9: the account or group exists already.
      if ((err as { status?: number }).status !== 9) throw err;
    }
  };
  tolerate('groupadd', ['-f', team]);
  for (const user of users) {
    tolerate('useradd', ['-M', '-s', '/usr/sbin/nologin', '-G', team, user]);
    execFileSync('usermod', ['-a', '-G', team, user], { stdio: 'ignore' });
  }
  return Number(execFileSync('getent', ['group', team]).toString().split(':')[2]);
}

/**
 * The accounts, the team's gid and a Node they can run (in `dir`, which must be 0755) where the machine
 * allows it and each account can read the built CLI; otherwise undefined, and the test says what the
 * one account it runs as can do.
 */
export function tryAccounts(team: string, users: readonly string[], dir: string): { gid: number; node: string } | undefined {
  if (!canMakeAccounts) return undefined;
  try {
    const gid = makeAccounts(team, users);
    const node = reachableNode(dir);
    for (const user of users)
      execFileSync('runuser', ['-u', user, '--', node, '-e', `require('node:fs').accessSync(${JSON.stringify(BIN)})`], { stdio: 'ignore' });
    return { gid, node };
  } catch {
    return undefined;
  }
}

export const uidOf = (user: string): number => Number(execFileSync('id', ['-u', user]).toString());

/** This Node, where the accounts can run it (root's home is private). */
export function reachableNode(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  chmodSync(bin, 0o755);
  const node = join(bin, 'node');
  try {
    linkSync(process.execPath, node);
  } catch {
    copyFileSync(process.execPath, node);
  }
  chmodSync(node, 0o755);
  return node;
}

/** A new folder shared through the group (set-gid, 2770), as a team's would be; owned by the team's group when there is one. */
export function groupFolder(path: string, gid: number | undefined): string {
  mkdirSync(path);
  if (gid !== undefined) chownSync(path, 0, gid);
  chmodSync(path, 0o2770);
  return path;
}

/** A command as `user` (undefined: the account the tests run as), with only the environment given, in `cwd`. */
export function runAs(user: string | undefined, command: readonly string[], cwd: string, env: Record<string, string>): Promise<CliResult> {
  const argv = user ? ['runuser', '-u', user, '--', 'env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...command] : command;
  return new Promise((resolve, reject) => {
    // runuser itself is found on the tests' PATH; the command gets only `env` (through env -i).
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** The CLI as `user`. */
export function cliAs(user: string, node: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<CliResult> {
  return runAs(user, [node, BIN, ...args], cwd, env);
}
