// Several runs recovering one stale lock at once (a crash, then cron and a person starting together):
// at most one of them may hold it at any moment.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const LOCK = pathToFileURL(join(ROOT, 'dist/state/lease.js')).href;

/** A child that tries the lock and, if it gets it, holds it for `holdMs`; prints its interval. */
function contender(path: string, holdMs: number, hardLinks: boolean): Promise<{ start: number; end: number } | null> {
  const script = `
    import { takeLease } from ${JSON.stringify(LOCK)};
    try {
      const lock = await takeLease(${JSON.stringify(path)}, { user: 'u', host: 'h', pid: process.pid, what: 'test' }, { leaseMs: 60000, heartbeatMs: 15000, hardLinks: ${hardLinks} });
      const start = Date.now();
      await new Promise((r) => setTimeout(r, ${holdMs}));
      const end = Date.now();
      await lock.release();
      console.log(JSON.stringify({ start, end }));
    } catch (err) {
      if (err.code !== 'LOCK_HELD') throw err;
      console.log('null');
    }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`contender exited ${code}`))));
  });
}

describe('stale lock recovery under contention', () => {
  it.each([
    ['with hard links', true, 6],
    ['on a share without hard links', false, 3],
  ])('never lets two runs hold the lock at once (%s)', async (_, hardLinks, trials) => {
    for (let trial = 0; trial < trials; trial++) {
      const path = join(tempDir().dir, 'kind.lock');
      // A lock left by a process that is long gone on this host.
      const machine = (await import('node:os')).hostname();
      writeFileSync(
        path,
        `${JSON.stringify({ pid: 2 ** 22 + 12345, host: machine, machine, user: 'x', what: 'x', id: 'old', since: '2020-01-01T00:00:00.000Z', expiresAt: new Date(Date.now() + 60_000).toISOString() })}\n`,
      );
      const held = (await Promise.all(Array.from({ length: 5 }, () => contender(path, 250, hardLinks)))).filter((h) => h !== null);
      expect(held.length).toBeGreaterThanOrEqual(1);
      held.sort((a, b) => a.start - b.start);
      for (let i = 1; i < held.length; i++) expect(held[i]!.start, `trial ${trial}`).toBeGreaterThanOrEqual(held[i - 1]!.end);
    }
  });
});
