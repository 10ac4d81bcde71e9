// The CLI as a child process the test can talk to while it runs: send it Ctrl-C (SIGINT) at a
// chosen moment, or run it with an environment that runCli would not allow (no NO_COLOR).
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, ROOT } from './cli.js';
import { HANG_MS } from './hang.js';

export interface Running {
  readonly child: ChildProcess;
  /** stderr so far. */
  stderr(): string;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** With keepStdin, standard input stays open for the test to write to (and to hold open). */
export function startCli(args: readonly string[], env: Record<string, string>, bin = BIN, options: { keepStdin?: boolean } = {}): Running {
  const base: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'NODE_COMPILE_CACHE']) if (process.env[k]) base[k] = process.env[k]!;
  const child = spawn(process.execPath, [bin, ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  if (!options.keepStdin) child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
  return { child, stderr: () => Buffer.concat(err).toString('utf8'), done };
}

/** Waits on the condition; the bound only catches a hang (./hang.ts: a loaded machine may take many seconds). */
export async function until(check: () => boolean, timeoutMs = 100_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
