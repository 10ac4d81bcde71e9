// The test run's watchdog (started by test/setup/tmp.ts): waits for vitest's process to be gone —
// its end of the pipe on our standard input closes however it ended — then ends every process of the
// run still alive and removes the run's folder, the one argument. A process belongs to the run when its
// environment names the folder (TMPDIR or SU_TESTS_TMP_ROOT: vitest's workers, the CLI children, tmux
// servers, the PostgreSQL server and its sessions, which inherit the setup's) or its command line does
// (a server's data or config folder in it: postgres -D, pgbouncer, nginx -c, chromium's profile).
// Linux reads both in /proc; elsewhere only the folder is removed.
import { readdirSync, readFileSync, rmSync } from 'node:fs';

const root = process.argv[2];
if (!root) throw new Error('usage: watchdog.mjs <the run folder>');

const mine = (pid) => {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
    if (env.includes(`TMPDIR=${root}`) || env.includes(`SU_TESTS_TMP_ROOT=${root}`)) return true;
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(root);
  } catch {
    return false; // gone, or not ours to read
  }
};

const left = () => {
  let pids;
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return [];
  }
  return pids.map(Number).filter(mine);
};

const kill = (pids, signal) => {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone already */
    }
  }
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function sweep() {
  // SIGTERM first (the PostgreSQL server shuts down and gives back its shared memory), then SIGKILL
  // for what is still there after 3 s; a few rounds, for what a dying process started meanwhile.
  for (let round = 0; round < 5; round++) {
    const pids = left();
    if (pids.length === 0) break;
    kill(pids, 'SIGTERM');
    for (let i = 0; i < 30 && left().length > 0; i++) await sleep(100);
    kill(left(), 'SIGKILL');
    await sleep(100);
  }
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

process.stdin.on('data', () => {});
process.stdin.on('close', () => void sweep());
process.stdin.resume();
