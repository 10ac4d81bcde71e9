// Runs the CLI as a user or a cron job would: in-process through `main(argv, io)` — the same entry
// point the bin shim calls — against real servers, with its own stdin, stdout, stderr, environment and,
// when given, working directory. A run that needs a process of its own (what Node reads at start-up;
// signals, TTYs and the bin shim are in ./spawn.ts) is spawned as `node bin/upload.js …`.
import { spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main, type ProcessIo } from '../../src/cli/main.js';
import type { NotifyTiming } from '../../src/notify/post.js';
import type { Tuning } from '../../src/send/backoff.js';
import { parseReport } from './report-schema.js';
import { HANG_MS } from './hang.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/upload.js', import.meta.url));
/** The suite's own build of the program, with its hooks (UPLOAD_TEST_PAUSE_AT): what ships has none. */
export const HOOKS_BIN = fileURLToPath(new URL('../../dist/hooks/bin/upload.js', import.meta.url));
export const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON (for --json runs); throws if it is not exactly one JSON document, or is a report
   * that docs/report.schema.json does not allow. */
  json<T = Record<string, any>>(): T;
}

export interface CliOptions {
  readonly env?: Record<string, string | undefined>;
  readonly input?: string | Buffer;
  /** Another working directory, which relative paths and the config file's discovery are read against. */
  readonly cwd?: string;
  /** A process of its own for what only a new process reads (NODE_EXTRA_CA_CERTS, at start-up). */
  readonly spawn?: boolean;
  /** Tighter retry and connect timings, passed to the in-process run. */
  readonly tuning?: Tuning;
  /** Tighter notification timings, passed to the in-process run. */
  readonly notifyTiming?: NotifyTiming;
}

/**
 * A clean environment: nothing from the developer's shell leaks into a test. The suite's own settings
 * pass: its temp folder, and its compile cache folder (vitest.config.ts), which a spawned run keeps
 * its code cache in.
 */
function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT', 'NODE_COMPILE_CACHE']) if (process.env[k]) env[k] = process.env[k];
  env.NO_COLOR = '1';
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

const result = (code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string): CliResult => ({
  code,
  signal,
  stdout,
  stderr,
  json: () => parseReport(stdout),
});

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  if (options.spawn) return runSpawned(args, options);
  const run = () => runInProcess(args, options);
  return options.cwd === undefined ? alongside(run) : inDirectory(options.cwd, run);
}

// A working directory belongs to the process: a run in another one changes the worker's (the suite's
// pool is forks, where process.chdir is allowed) while no other in-process run is in flight, and back
// after. Runs without one go side by side, as two runs at once in a test may.
let inOwnDirectory: Promise<void> | undefined;
let alongsideCount = 0;
const allDone: (() => void)[] = [];

async function alongside<T>(run: () => Promise<T>): Promise<T> {
  while (inOwnDirectory) await inOwnDirectory;
  alongsideCount++;
  try {
    return await run();
  } finally {
    if (--alongsideCount === 0) for (const done of allDone.splice(0)) done();
  }
}

async function inDirectory<T>(cwd: string, run: () => Promise<T>): Promise<T> {
  while (inOwnDirectory) await inOwnDirectory;
  let finished!: () => void;
  inOwnDirectory = new Promise((resolve) => (finished = resolve));
  const before = process.cwd();
  try {
    if (alongsideCount > 0) await new Promise<void>((resolve) => allDone.push(resolve));
    process.chdir(cwd);
    return await run();
  } finally {
    process.chdir(before);
    inOwnDirectory = undefined;
    finished();
  }
}

async function runInProcess(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (b: Buffer) => out.push(b));
  stderr.on('data', (b: Buffer) => err.push(b));
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const io = {
    stdin,
    stdout,
    stderr,
    env: cleanEnv(options.env),
    ...(options.tuning ? { tuning: options.tuning } : {}),
    ...(options.notifyTiming ? { notifyTiming: options.notifyTiming } : {}),
  } as unknown as ProcessIo;
  const code = await main(args, io);
  return result(code, null, Buffer.concat(out).toString('utf8'), Buffer.concat(err).toString('utf8'));
}

function runSpawned(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    // Only a hang is caught here (./hang.ts).
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(result(code, signal, Buffer.concat(out).toString('utf8'), Buffer.concat(err).toString('utf8')));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
