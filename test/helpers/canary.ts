// Every delivery scenario runs with a canary token and then searches for it in everything the run
// left behind: stdout, stderr and every file under its state directory. The token must be nowhere.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { fixture, runCli, type CliOptions, type CliResult } from './cli.js';
import { tempDir } from './tmp.js';

export const CANARY = 'canary-Tk9vQ2xZ-never-shown';

/** Retries in milliseconds instead of seconds, so fault scenarios stay fast (passed in, in-process). */
export const FAST_RETRIES = { baseMs: 10, capMs: 40 };

function filesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export function expectNoCanary(texts: readonly string[], dirs: readonly string[] = []): void {
  for (const text of texts) expect(text).not.toContain(CANARY);
  for (const file of dirs.flatMap(filesUnder)) expect(readFileSync(file, 'latin1'), file).not.toContain(CANARY);
}

export interface Upload extends CliResult {
  readonly ms: number;
  readonly stateDir: string;
}

/** `upload team-members fixtures/team-members.csv --yes --json` to base, the canary as the token. */
export async function upload(base: string, args: readonly string[] = [], options: CliOptions = {}): Promise<Upload> {
  const stateDir = tempDir().dir;
  const started = Date.now();
  const result = await runCli(
    ['team-members', fixture('team-members.csv'), '--yes', '--no-baseline', '--json', '--state', stateDir, '--base-url', base, ...args],
    {
      ...options,
      tuning: { ...FAST_RETRIES, ...options.tuning },
      env: { UPLOAD_TOKEN: CANARY, ...options.env },
    },
  );
  const ms = Date.now() - started;
  expectNoCanary([result.stdout, result.stderr], [stateDir]);
  return { ...result, ms, stateDir };
}
