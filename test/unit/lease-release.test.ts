// A lease let go of while its heartbeat is renewing it (src/state/lease.ts, release): the renewal is
// waited for, so once release() has resolved the folder holds neither the lock nor a renewal's temp
// file. The process exits as soon as its output is written (src/cli/leave.ts): a renewal still under
// way then left `lock.new-PID-HEX` in the state folder for good, or renamed it over the removed lock.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { takeLease } from '../../src/state/lease.js';
import { tempDir } from '../helpers/tmp.js';

const holder = { user: 'hr', host: 'laptop-7', pid: process.pid, what: 'team members' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a lease released while it is being renewed', () => {
  it('leaves nothing behind once release() resolves, nor a moment later', async () => {
    const dir = tempDir().dir;
    const path = join(dir, 'lock');
    // A renewal every millisecond: each release falls in one (its write and fsync) or just after.
    for (let i = 0; i < 60; i++) {
      const lease = await takeLease(path, holder, { leaseMs: 60_000, heartbeatMs: 1 });
      await pause(i % 6);
      await lease.release();
      expect(readdirSync(dir), `release ${i}`).toEqual([]);
    }
    await pause(50);
    expect(readdirSync(dir)).toEqual([]);
  });
});
