// What the test harness does differently per system, in one place, so the rest of the suite runs on
// Linux, macOS and Windows alike: finding a program on PATH (';' and .exe on Windows), and running a
// server as its own user where root may not run it (Linux CI containers, through runuser).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const windows = process.platform === 'win32';

/** The folders of PATH, split the way this system writes it. */
export function pathDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
}

/** The file of a program in `dir`, with the extension Windows gives it; undefined when absent. */
export function programIn(dir: string, name: string): string | undefined {
  const file = join(dir, windows ? `${name}.exe` : name);
  return existsSync(file) ? file : undefined;
}

/** The first folder on PATH that holds every one of `names`. */
export function dirOnPath(...names: string[]): string | undefined {
  return pathDirs().find((d) => names.every((n) => programIn(d, n)));
}

/**
 * Servers that refuse to run as root (PostgreSQL's initdb) run as `user` when the tests are root,
 * which happens only in Linux containers: there through runuser; everywhere else as they are.
 */
export interface ServiceUser {
  /** The command and arguments that run `program args` as that user. */
  command(program: string, args: readonly string[]): [string, string[]];
  /** uid and gid for handing a folder over, or undefined when no hand-over is needed. */
  readonly owner: { uid: number; gid: number } | undefined;
}

export function serviceUser(user: string): ServiceUser {
  const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
  if (!asRoot) return { command: (program, args) => [program, [...args]], owner: undefined };
  const id = (flag: string) => Number(execFileSync('id', [flag, user]).toString());
  return {
    command: (program, args) => ['runuser', ['-u', user, '--', program, ...args]],
    owner: { uid: id('-u'), gid: id('-g') },
  };
}
