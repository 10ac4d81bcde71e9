// Runs the real CLI, `node bin/upload.js …`, as a user or a cron job would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/upload.js', import.meta.url));
export const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON (for --json runs); throws if it is not exactly one JSON document. */
  json<T = Record<string, any>>(): T;
}

export interface CliOptions {
  readonly env?: Record<string, string | undefined>;
  readonly input?: string | Buffer;
  readonly cwd?: string;
  readonly timeoutMs?: number;
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  // A clean environment: nothing from the developer's shell leaks into a test.
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) if (process.env[k]) env[k] = process.env[k]!;
  env.NO_COLOR = '1';
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      resolve({
        code,
        signal,
        stdout,
        stderr: Buffer.concat(err).toString('utf8'),
        json: () => JSON.parse(stdout),
      });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
