// Which of this process's descriptors are open on a file: for tests that a read closes what it opened.
import { fstatSync, statSync } from 'node:fs';

/**
 * How many of this process's descriptors are open on `path`, known by its device and inode (so on
 * any system, and not counting other tests' descriptors): each possible number asked in turn.
 */
export function openOn(path: string): number {
  const { dev, ino } = statSync(path);
  let open = 0;
  for (let fd = 0; fd < 4096; fd++) {
    try {
      const s = fstatSync(fd);
      if (s.ino === ino && s.dev === dev) open++;
    } catch {
      // Not open.
    }
  }
  return open;
}
