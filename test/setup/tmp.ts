// The suite's temporary files — its PostgreSQL databases (about a hundred, 7 MB each), workbooks,
// state folders, review pages: about 1 GB a run — go into a folder of their own on a memory-backed
// filesystem when the machine has one with room (Linux's /dev/shm). On this project's CI machines
// (2 cores, a virtual disk) the disk's writes, journal and fsyncs cost a sixth of the suite's CPU: 125
// → 104 s of the machine's CPU, 69 → 57 s (docs/performance.md, "The suite's files in memory").
// Elsewhere (no tmpfs, or less than 4 GiB free in it) the system's temp folder, as before.
//
// vitest.config.ts points TMPDIR at the folder before the workers start, so every worker, child and
// server the tests start inherits it (os.tmpdir() reads TMPDIR). The folder is removed when the run
// ends (the teardown below); one left by a run that was killed is removed by the next run.
import { mkdtempSync, readdirSync, rmSync, statfsSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../src/state/whoami.js';

const MEMORY = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
const ROOM = 4 * 1024 ** 3;
const PREFIX = 'scheduling-upload-tests-';

/** A folder for this run's temporary files, made now: in memory if there is room there, else undefined. */
export function memoryTmpRoot(): string | undefined {
  try {
    const fs = statfsSync(MEMORY);
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < ROOM) return undefined;
  } catch {
    return undefined;
  }
  for (const left of readdirSync(MEMORY).filter((f) => f.startsWith(PREFIX))) {
    const pid = Number(left.slice(PREFIX.length).split('-')[0]);
    if (!isAlive(pid)) rmSync(join(MEMORY, left), { recursive: true, force: true });
  }
  const root = mkdtempSync(join(MEMORY, `${PREFIX}${process.pid}-`));
  // As /tmp is: the servers run as their own users (test/setup/servers.ts), and some tests write as
  // another account (test/helpers/other-user.ts).
  chmodSync(root, 0o1777);
  return root;
}

/** The global setup: nothing to start; at the end, this run's folder goes (after the servers in it stop). */
export default function setup(): () => void {
  return () => {
    const root = process.env.SU_TESTS_TMP_ROOT;
    if (root) rmSync(root, { recursive: true, force: true });
  };
}
