// A second operating-system account for the four-eyes tests on a directory store, where the machine
// allows it (root on Linux, as CI runs): the account is made with useradd, shares a group with the
// tests' own account, and runs the built CLI through runuser. Elsewhere `twoAccounts` is false and
// the test says what one account alone can do.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, type CliResult } from './cli.js';
import { tempDir } from './tmp.js';

export interface OsAccounts {
  /** Whether the other account can run the CLI here. */
  readonly twoAccounts: boolean;
  /** The other account's name. */
  readonly other: string;
  /** A new folder shared through the group (2770), with a `state` folder inside, as a team's would be. */
  sharedFolder(): string;
  /** Writes a file the other account can read. */
  write(path: string, text: string, mode?: number): void;
  /** The CLI as the other account, in `cwd`, with only `env` (and PATH, NO_COLOR) in its environment. */
  run(args: readonly string[], cwd: string, env: Record<string, string>): Promise<CliResult>;
}

/** Makes (once per machine: idempotent) the account `other` in the group `group`. */
export function osAccounts(other: string, group: string): OsAccounts {
  const dir = tempDir().dir;
  chmodSync(dir, 0o755);
  const node = join(dir, 'bin', 'node');
  const twoAccounts = make(other, group, node);
  const gid = twoAccounts ? Number(execFileSync('getent', ['group', group]).toString().split(':')[2]) : undefined;
  let folders = 0;
  return {
    twoAccounts,
    other,
    sharedFolder: () => {
      const shared = join(dir, `team-${++folders}`);
      for (const folder of [shared, join(shared, 'state')]) {
        mkdirSync(folder);
        if (gid !== undefined) chownSync(folder, 0, gid);
        chmodSync(folder, 0o2770);
      }
      return shared;
    },
    write: (path, text, mode = 0o644) => {
      writeFileSync(path, text);
      chmodSync(path, mode);
    },
    run: (args, cwd, env) => runAs(other, node, args, cwd, env),
  };
}

function make(other: string, group: string, node: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    for (const [cmd, args] of [
      ['groupadd', ['-f', group]],
      ['useradd', ['-M', '-s', '/usr/sbin/nologin', '-G', group, other]],
    ] as const) {
      try {
        execFileSync(cmd, args, { stdio: 'ignore' });
      } catch (err) {
        // 9: the account exists already.
        if ((err as { status?: number }).status !== 9) throw err;
      }
    }
    execFileSync('usermod', ['-a', '-G', group, other], { stdio: 'ignore' });
    // The other account runs this Node from a folder it can reach (root's home is private).
    mkdirSync(join(node, '..'));
    chmodSync(join(node, '..'), 0o755);
    try {
      linkSync(process.execPath, node);
    } catch {
      copyFileSync(process.execPath, node);
    }
    chmodSync(node, 0o755);
    execFileSync('runuser', ['-u', other, '--', node, '-e', `require('node:fs').accessSync(${JSON.stringify(BIN)})`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function runAs(user: string, node: string, args: readonly string[], cwd: string, extra: Record<string, string>): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...extra };
  const command = ['runuser', '-u', user, '--', 'env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), node, BIN, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
