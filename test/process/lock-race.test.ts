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

interface Trial {
  readonly path: string;
  readonly hardLinks: boolean;
  /** When the contenders try the lock (epoch ms): all five at once. */
  readonly at: number;
}

/**
 * A child that, for each trial at its time, tries the lock and, if it gets it, holds it for `holdMs`;
 * prints its intervals (null where it did not get the lock). One process runs every trial, so the
 * contention is between processes while the suite starts five of them, not five per trial.
 */
function contender(trials: readonly Trial[], holdMs: number): Promise<({ start: number; end: number } | null)[]> {
  const script = `
    import { takeLease } from ${JSON.stringify(LOCK)};
    const held = [];
    for (const { path, hardLinks, at } of ${JSON.stringify(trials)}) {
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
      try {
        const lock = await takeLease(path, { user: 'u', host: 'h', pid: process.pid, what: 'test' }, { leaseMs: 60000, heartbeatMs: 15000, hardLinks });
        const start = Date.now();
        await new Promise((r) => setTimeout(r, ${holdMs}));
        const end = Date.now();
        await lock.release();
        held.push({ start, end });
      } catch (err) {
        if (err.code !== 'LOCK_HELD') throw err;
        held.push(null);
      }
    }
    console.log(JSON.stringify(held));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`contender exited ${code}`))));
  });
}

describe('stale lock recovery under contention', () => {
  it('never lets two runs hold the lock at once, with hard links and on a share without them', async () => {
    const machine = (await import('node:os')).hostname();
    // Six trials with hard links, three without; each a lock left by a process long gone on this host.
    // The first trial leaves the contenders time to start; then one every 400 ms (each trial has a
    // lock of its own, so trials that overlap are no less a test).
    const first = Date.now() + 1000;
    const trials: Trial[] = [true, true, true, true, true, true, false, false, false].map((hardLinks, i) => {
      const path = join(tempDir().dir, 'kind.lock');
      writeFileSync(
        path,
        `${JSON.stringify({ pid: 2 ** 22 + 12345, host: machine, machine, user: 'x', what: 'x', id: 'old', since: '2020-01-01T00:00:00.000Z', expiresAt: new Date(Date.now() + 60_000).toISOString() })}\n`,
      );
      return { path, hardLinks, at: first + i * 400 };
    });
    const runs = await Promise.all(Array.from({ length: 5 }, () => contender(trials, 250)));
    trials.forEach((trial, t) => {
      const held = runs.map((r) => r[t]).filter((h) => h !== null && h !== undefined);
      expect(held.length, `trial ${t}`).toBeGreaterThanOrEqual(1);
      held.sort((a, b) => a.start - b.start);
      for (let i = 1; i < held.length; i++)
        expect(held[i]!.start, `trial ${t} (${trial.hardLinks ? 'hard links' : 'no hard links'})`).toBeGreaterThanOrEqual(held[i - 1]!.end);
    });
  });
});
