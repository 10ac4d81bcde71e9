// Files planted by another operating-system user, for the config-trust tests. As root (CI containers,
// this machine) the file is really written by `nobody`, through a process running as that user; as
// anyone else no other user's file can be made, so the plant is a file every user may write to instead
// (the other half of the same rule), and the test says which it made.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';

export interface Planted {
  /** What the refusal must say about the file. */
  readonly why: RegExp;
  readonly owner: 'another user' | 'you';
}

const OTHER = 'nobody';

/** The other user's ids, when the tests may act as them (root on Linux or macOS). */
export function otherUser(): { uid: number; gid: number; name: string } | undefined {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, OTHER]).toString());
  return { uid: id('-u'), gid: id('-g'), name: OTHER };
}

/** Writes `text` to `path` as the other user, mode 0666 (the planted file of the report). */
export function plantAsOtherUser(path: string, text: string): Planted {
  const other = otherUser();
  if (!other) {
    writeFileSync(path, text);
    chmodSync(path, 0o666);
    return { why: /can be written by every user/, owner: 'you' };
  }
  const wrote = spawnSync('sh', ['-c', 'umask 000; cat > "$0"', path], { uid: other.uid, gid: other.gid, input: text });
  if (wrote.status !== 0) throw new Error(`could not write ${path} as ${other.name}: ${wrote.stderr.toString()}`);
  return { why: new RegExp(`owner ${other.name} \\(uid ${other.uid}\\), mode 0666\\) belongs to another user`), owner: 'another user' };
}
