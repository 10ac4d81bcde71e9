// The run's folder: every temporary file of a test run — its PostgreSQL databases (about a hundred,
// 7 MB each), workbooks, state folders, review pages: about 1 GB a run — goes into one folder of its
// own, on a memory-backed filesystem when the machine has one with room (Linux's /dev/shm). On this
// project's CI machines (2 cores, a virtual disk) the disk's writes, journal and fsyncs cost a sixth
// of the suite's CPU: 125 → 104 s of the machine's CPU, 69 → 57 s (docs/performance.md, "The suite's
// files in memory"). Elsewhere (no tmpfs, or less than 4 GiB free in it) in the system's temp folder.
//
// vitest.config.ts calls runFolder() in vitest's own process before the workers start, and points
// TMPDIR at the folder, so every worker, child and server the tests start inherits it (os.tmpdir()
// reads TMPDIR), and a watchdog (./watchdog.mjs) ends whatever of the run is left and removes the
// folder once vitest's process is gone, however it ended: a finished run, Ctrl-C, SIGTERM, SIGKILL.
// A folder left by a run whose watchdog was killed too is removed by the next run.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../src/state/whoami.js';

const MEMORY = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
const ROOM = 4 * 1024 ** 3;
const PREFIX = 'scheduling-upload-tests-';

/** /dev/shm when it is memory with room for a run, else the system's temp folder. */
function parent(): string {
  try {
    const fs = statfsSync(MEMORY);
    if (fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= ROOM) return MEMORY;
  } catch {
    /* no /dev/shm: not Linux */
  }
  return tmpdir();
}

/**
 * The folder for this run's temporary files, made now, with the watchdog that removes it (and ends
 * what the run left) when this process is gone. Folders of earlier runs whose vitest is gone go first.
 */
export function runFolder(): string {
  const where = parent();
  for (const left of readdirSync(where).filter((f) => f.startsWith(PREFIX))) {
    const pid = Number(left.slice(PREFIX.length).split('-')[0]);
    if (!isAlive(pid)) rmSync(join(where, left), { recursive: true, force: true });
  }
  const root = mkdtempSync(join(where, `${PREFIX}${process.pid}-`));
  // As /tmp is: the servers run as their own users (test/setup/servers.ts), and some tests write as
  // another account (test/helpers/other-user.ts).
  chmodSync(root, 0o1777);
  watch(root);
  return root;
}

/**
 * The watchdog holds the read end of a pipe whose write end only this process has: the pipe closes
 * when the process ends, by any means. Its own process group, so a Ctrl-C in the terminal, which the
 * whole foreground group receives, leaves it to do its work. At the normal end the run's teardowns
 * have stopped the servers; the folder is removed here at exit rather than by a global setup, as each
 * vitest project runs its own and one project must not remove the folder under the other.
 */
function watch(root: string): void {
  const dog = spawn(process.execPath, [join(import.meta.dirname, 'watchdog.mjs'), root], { stdio: ['pipe', 'ignore', 'inherit'], detached: true });
  dog.unref();
  (dog.stdin as unknown as { unref?: () => void }).unref?.();
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
}
