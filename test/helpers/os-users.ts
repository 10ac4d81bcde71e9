// Real operating-system accounts for tests of the directory store's four eyes (root on Linux, as CI
// runs): accounts made with useradd, the CLI and small scripts run as them through runuser.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, linkSync, mkdirSync } from 'node:fs';
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

/** A command as `user`, with only the environment given, in `cwd`. */
export function runAs(user: string, command: readonly string[], cwd: string, env: Record<string, string>): Promise<CliResult> {
  const args = ['-u', user, '--', 'env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...command];
  return new Promise((resolve, reject) => {
    const child = spawn('runuser', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
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
