// A test run stopped half-way — Ctrl-C (SIGINT), SIGTERM as `timeout` sends it, SIGKILL as a CI
// runner's hard limit does — leaves nothing behind: no PostgreSQL server, no worker, no child process,
// no server of a test, and no run folder (test/setup/tmp.ts and its watchdog). A real vitest run of the
// suite's configuration (./stopped-run/vitest.config.ts), holding the run's PostgreSQL server, a sandbox,
// a scripted server and a child, is stopped once they are all up; then /proc is searched for any
// process whose environment or command line names that run's folder.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { until } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

interface Ready {
  root: string;
  database: string;
  sandbox: string;
  scripted: string;
  worker: number;
  child: number;
  dir: string;
}

/** The processes whose environment or command line names `root`: what the run left. */
function processesOf(root: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      if (env.includes(`TMPDIR=${root}`) || env.includes(`SU_TESTS_TMP_ROOT=${root}`) || cmdline.includes(root))
        found.push(`${pid} ${cmdline.replaceAll('\0', ' ')}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** Whether something still accepts connections on `url`'s port. */
function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Whether `pid` runs: not gone, and not a zombie its new parent has yet to reap. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
};

describe.concurrent('a test run stopped half-way', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)('by %s leaves no process and no folder behind', async (signal) => {
    const readyFile = join(tempDir().dir, 'ready.json');
    // A run of its own: not this run's folder (the config makes a new one when none is named), nor
    // what vitest tells its workers.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(SU_TESTS_|VITEST)/.test(k)));
    env.SU_STOPPED_RUN_READY = readyFile;
    const vitest = spawn(
      process.execPath,
      [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'test/process/stopped-run/vitest.config.ts', '--project', 'stopped'],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    vitest.stdout.on('data', (b: Buffer) => (output += b.toString()));
    vitest.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const ended = new Promise<void>((resolve) => vitest.once('close', () => resolve()));
    let exited = false;
    void ended.then(() => (exited = true));
    await until(() => existsSync(readyFile) || exited);
    expect(existsSync(readyFile), output).toBe(true);
    const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as Ready;
    const postmaster = Number(
      readFileSync(
        join(
          ready.root,
          readdirSync(ready.root).find((d) => d.startsWith('su-pg-'))!,
          'data',
          'postmaster.pid',
        ),
        'utf8',
      ).split('\n')[0],
    );
    expect(alive(postmaster) && (await answers(ready.database))).toBe(true);
    expect(processesOf(ready.root).length).toBeGreaterThan(3);

    vitest.kill(signal);
    await ended;
    // The watchdog works once vitest's process is gone; a loaded machine may take a while.
    const pids = [postmaster, ready.worker, ready.child];
    await until(() => !existsSync(ready.root) && processesOf(ready.root).length === 0 && !pids.some(alive));
    expect(processesOf(ready.root)).toEqual([]);
    expect(existsSync(ready.root)).toBe(false);
    for (const pid of pids) expect(alive(pid), `process ${pid}`).toBe(false);
    for (const url of [ready.database, ready.sandbox, ready.scripted]) expect(await answers(url), url).toBe(false);
  });
});
