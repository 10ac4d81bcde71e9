// A pseudo-terminal that reports no size (0×0: what `script`, `ssh -tt` from a script and
// `docker exec -t` give): the spinner must still end, and the run with it. util-linux's `script`
// makes the pty; the run is spawned, as a terminal needs a process of its own.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, fixture } from '../helpers/cli.js';
import { HANG_MS } from '../helpers/hang.js';

function underZeroSizedPty(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', `stty rows 0 cols 0 && ${quoted}`, '/dev/null'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: '' },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
  // The hang bound: a spinner that never stopped would hold the run for ever.
  const killer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, output });
    });
  });
}

describe('a terminal of 0×0', () => {
  it('a dry run with its spinner ends, and says what it found', async () => {
    const run = await underZeroSizedPty(['team-members', fixture('team-members.csv'), '--dry-run', '--no-baseline']);
    expect(run.output).toMatch(/Dry run: 3 team members would replace every team member/);
    expect(run.code).toBe(0);
  });
});
