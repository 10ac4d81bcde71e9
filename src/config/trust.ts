// A config file chooses where the token goes, so it is trusted only when it is yours: owned by you (or
// root), writable by no one else, in a folder no one else can swap it out of. The rule git adopted for
// repositories (safe.directory, CVE-2022-24765) and ssh for its files (StrictModes). A symbolic link is
// judged by what it points to: the opened file's own stat, and its real folder.
//
// Windows: mode bits and owners do not describe its access lists (stat reports uid 0 and 0o666), so
// there only "a regular file" is checked; docs/targets.md says so.
import { statSync, realpathSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { readSmallFile } from '../read/small-file.js';

export interface Trust {
  /** The user running the tool; undefined where the system has no POSIX owners (Windows). */
  readonly uid: number | undefined;
}

export const processTrust = (): Trust => ({ uid: process.platform === 'win32' ? undefined : process.getuid?.() });

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

/** Throws UNTRUSTED_CONFIG unless the config file at `path`, opened with `stats`, is yours alone. */
export function checkTrusted(path: string, stats: Stats, trust: Trust = processTrust()): void {
  if (trust.uid === undefined) return;
  const shown = `${path} (owner ${ownerShown(stats.uid)}, mode ${octal(stats.mode)})`;
  if (stats.uid !== trust.uid && stats.uid !== 0) {
    throw untrusted(
      `${shown} belongs to another user, who could point it at their own address to receive your token`,
      `move it away; to use what it says, read it and copy it into a file of your own, passed with --config FILE`,
    );
  }
  if ((stats.mode & 0o022) !== 0) {
    throw untrusted(
      `${shown} can be written by ${(stats.mode & 0o002) !== 0 ? 'every user' : 'its group'}, who could point it at their own address to receive your token`,
      `chmod go-w ${path}`,
    );
  }
  for (const folder of foldersOf(path)) {
    const f = statSync(folder);
    if ((f.mode & 0o002) !== 0 && (f.mode & 0o1000) === 0) {
      throw untrusted(
        `${shown} is in ${folder} (mode ${octal(f.mode)}), a folder every user can write to, so anyone can replace the file`,
        `move the file to a folder only you can write to, or chmod o-w ${folder}`,
      );
    }
  }
}

/** The folder the path was named in and, for a link, the folder of the file it points to. */
function foldersOf(path: string): string[] {
  const named = dirname(path);
  const real = dirname(realpathSync(path));
  return named === real ? [named] : [named, real];
}

function untrusted(message: string, hint: string): UsageError {
  return new UsageError('UNTRUSTED_CONFIG', `the config file ${message}; it was not read`, hint);
}

/** "alice (uid 1001)" where /etc/passwd names the user, else "uid 1001". */
function ownerShown(uid: number): string {
  const name = userName(uid);
  return name ? `${name} (uid ${uid})` : `uid ${uid}`;
}

function userName(uid: number): string | undefined {
  try {
    const passwd = readSmallFile('/etc/passwd', '/etc/passwd', 4 * 1024 * 1024).toString('utf8');
    return (
      passwd
        .split('\n')
        .find((line) => line.split(':')[2] === String(uid))
        ?.split(':')[0] || undefined
    );
  } catch {
    return undefined;
  }
}
