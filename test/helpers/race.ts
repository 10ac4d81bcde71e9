// Two real CLIs racing on one sandbox and one state store, each paused at a named step of the
// write-ahead protocol (UPLOAD_TEST_PAUSE_AT: the run stops itself there), then resumed, killed or
// terminated; and the invariant every race must end in (consistent()).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { HOOKS_BIN, runCli } from './cli.js';
import { range, writeMembers } from './members.js';
import { freshDatabase, throughBouncer } from './postgres.js';
import { sandbox, type TestSandbox } from './sandbox.js';
import { startCli, until, type Running } from './spawn.js';
import { tempDir } from './tmp.js';

export const TEAM = '/integrations/teamMembers';
/** A short lease for a run that is meant to lose its lock while suspended; every other run's outlasts any pause. */
const LAPSING = 1;
const LASTING = 60;
export const lapse = () => new Promise((resolve) => setTimeout(resolve, LAPSING * 1000 + 800));

export const backends = {
  directory: async () => join(tempDir().dir, 'state'),
  PostgreSQL: () => freshDatabase(),
  'PostgreSQL through PgBouncer': async () => throughBouncer(await freshDatabase()),
};

export interface Race {
  sb: TestSandbox;
  state: string;
  dir: string;
  /** A run of its own process, paused at `step` when given; its lease lapses when suspended if `lapsing`. */
  start(file: string, step?: string, extra?: string[], lapsing?: boolean): Running;
  /** A run to its end, in this process (it is never paused). */
  run(file: string, extra?: string[]): Promise<{ code: number | null; report: Record<string, any> }>;
}

/** A sandbox and a store of the test's own; every process it started is killed when the test ends. */
export async function race(make: () => Promise<string>): Promise<Race> {
  const sb = await sandbox();
  const state = await make();
  const dir = tempDir().dir;
  const running: Running[] = [];
  // Set once a run whose lease lapses has been started: a run after it may wait on that suspended run's
  // transaction (PostgreSQL), and is meant to give up (STATE_TIMEOUT) in 3 s rather than the default
  // 30. Every other run keeps the default: a bound of 3 s on every statement failed on a loaded machine.
  let suspendedRunMayHoldTheRow = false;
  onTestFinished(async () => {
    for (const r of running) {
      r.child.kill('SIGKILL');
      await r.done;
    }
    await sb.stop();
  });
  const env = (step: string | undefined, lapsing: boolean) => ({
    ...sb.env,
    UPLOAD_LEASE_SECONDS: String(lapsing ? LAPSING : LASTING),
    ...(suspendedRunMayHoldTheRow ? { UPLOAD_STATE_TIMEOUT_SECONDS: '3' } : {}),
    ...(step ? { UPLOAD_TEST_PAUSE_AT: step } : {}),
  });
  const args = (file: string, extra: string[]) => ['team-members', file, '--yes', '--json', '--state', state, ...extra];
  const start = (file: string, step?: string, extra: string[] = [], lapsing = false) => {
    // A paused run is the suite's own build: the hook is absent from what ships.
    const r = startCli(args(file, extra), env(step, lapsing), step ? HOOKS_BIN : undefined);
    if (lapsing) suspendedRunMayHoldTheRow = true;
    running.push(r);
    return r;
  };
  return {
    sb,
    state,
    dir,
    start,
    // A run that is never paused needs no process of its own: in-process, as most tests run the CLI
    // (a spawned `node` costs the suite about a tenth of a second of CPU each).
    run: async (file, extra = []) => {
      const { code, stdout } = await runCli(args(file, extra), { env: env(undefined, false) });
      return { code, report: JSON.parse(stdout) as Record<string, any> };
    },
  };
}

/**
 * Until the run has said it pauses at `step` AND the system shows it stopped: the line is written just
 * before the run stops itself, so a signal sent on the line alone could arrive before the stop (a
 * SIGCONT lost, then a process stopped for good).
 */
export const pausedAt = (r: Running, step: string) => until(() => r.stderr().includes(`paused at ${step}`) && stopped(r.child.pid));

/** Whether the process is stopped (state T in /proc/PID/stat; the field after the parenthesised name). */
function stopped(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
  } catch {
    // No /proc (not Linux): the line is all there is to go on.
    return process.platform !== 'linux';
  }
}
export const resume = (r: Running) => r.child.kill('SIGCONT');
export async function kill(r: Running): Promise<void> {
  r.child.kill('SIGKILL');
  await r.done;
}
export async function ended(r: Running): Promise<{ code: number | null; report: Record<string, any> }> {
  const { code, stdout } = await r.done;
  return { code, report: JSON.parse(stdout) as Record<string, any> };
}

/**
 * The invariant: with nothing waiting to be settled, the latest recorded upload is exactly what the
 * service holds (a dry run of the service's own records changes nothing); with an upload waiting, the
 * next run refuses (BASELINE_UNCERTAIN) whatever it would send.
 */
export async function consistent(r: Race): Promise<'recorded' | 'refusing'> {
  const history = await runCli(['history', 'team-members', '--json', '--state', r.state], { env: r.sb.env });
  expect(history.code).toBe(0);
  if (history.json().pending) {
    const next = await runCli(['team-members', writeMembers(r.dir, 'next.csv', range(1, 3)), '--dry-run', '--json', '--state', r.state], { env: r.sb.env });
    expect(next.json()).toMatchObject({ exitCode: 4, error: { code: 'BASELINE_UNCERTAIN' } });
    return 'refusing';
  }
  const held = join(r.dir, 'held.json');
  writeFileSync(held, JSON.stringify(await r.sb.stored(TEAM)));
  const same = await runCli(['team-members', held, '--dry-run', '--json', '--state', r.state], { env: r.sb.env });
  expect(same.json()).toMatchObject({ exitCode: 0, diff: { added: 0, removed: 0, changed: 0 } });
  return 'recorded';
}
