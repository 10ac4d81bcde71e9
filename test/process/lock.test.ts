// The directory store's lease: who holds it, a dead holder on this host taken over at once, a holder
// on another host only once its lease expired, renewal on a heartbeat.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { takeLease, type LeaseTimes } from '../../src/state/lease.js';
import { tempDir } from '../helpers/tmp.js';

/** The pid of a process that has certainly ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

const lockIn = () => join(tempDir().dir, 'stores', 'site.team-members', 'lock');
const me = { user: 'hr', host: 'laptop-7', pid: process.pid, what: 'team members to https://s' };
const LONG: LeaseTimes = { leaseMs: 60_000, heartbeatMs: 15_000 };
const lease = (path: string, times = LONG, who = me) => takeLease(path, who, times);
const later = (ms: number) => new Date(Date.now() + ms).toISOString();
const stale = (over: object) => JSON.stringify({ user: 'cron', what: 'x', id: 'old', since: '2020-01-01T00:00:00.000Z', ...over });

describe('the lease', () => {
  it('is held until released, naming who holds it and until when', async () => {
    const path = lockIn();
    const held = await lease(path);
    const file = JSON.parse(readFileSync(path, 'utf8'));
    expect(file).toMatchObject({ pid: process.pid, host: 'laptop-7', user: 'hr', machine: hostname() });
    expect(Date.parse(file.expiresAt)).toBeGreaterThan(Date.now() + 50_000);
    const second = await lease(path).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'LOCK_HELD', exitCode: 4 });
    expect((second as Error).message).toContain(`process ${process.pid} of hr on laptop-7, since ${file.since}`);
    expect(await held.stillHeld()).toBe(true);
    await held.release();
    expect(existsSync(path)).toBe(false);
    expect(await held.stillHeld()).toBe(false);
  });

  it('takes over at once a lock whose process died on this machine, even before it expires', async () => {
    const path = lockIn();
    await (await lease(path)).release();
    writeFileSync(path, stale({ pid: deadPid(), host: 'cron-box', machine: hostname(), expiresAt: later(60_000) }));
    const held = await lease(path);
    expect(held.recovered).toMatchObject({ user: 'cron', host: 'cron-box' });
    await held.release();
  });

  it('leaves a lock from another host alone until its lease expires, then takes it over', async () => {
    const path = lockIn();
    await (await lease(path)).release();
    writeFileSync(path, stale({ pid: deadPid(), host: 'sync-01', machine: 'sync-01', expiresAt: later(60_000) }));
    const err = await lease(path).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LOCK_HELD', hint: expect.stringContaining('once its lease expires') });
    // Expired by its own word, it is taken over once it stood still for a full lease on this host's
    // clock: a short lease, so the test waits one second, not the default minute.
    writeFileSync(path, stale({ pid: deadPid(), host: 'sync-01', machine: 'sync-01', expiresAt: later(-1) }));
    const held = await lease(path, { leaseMs: 1000, heartbeatMs: 250 });
    expect(held.recovered).toMatchObject({ host: 'sync-01' });
    await held.release();
  });

  it('is renewed by its heartbeat, so a live holder never expires', async () => {
    const path = lockIn();
    // Long enough against a busy machine's late timers; still several leases' worth of heartbeats.
    const held = await lease(path, { leaseMs: 1500, heartbeatMs: 100 });
    await sleep(3500);
    const other = { ...me, host: 'sync-01', pid: deadPid() };
    await expect(lease(path, LONG, other)).rejects.toMatchObject({ code: 'LOCK_HELD' });
    expect(Date.parse(JSON.parse(readFileSync(path, 'utf8')).expiresAt)).toBeGreaterThan(Date.now());
    await held.release();
  });

  it('treats an unreadable lock as being written unless it is old', async () => {
    const path = lockIn();
    await (await lease(path)).release();
    writeFileSync(path, '');
    await expect(lease(path)).rejects.toMatchObject({ code: 'LOCK_HELD' });
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    await (await lease(path)).release();
  });

  it('does not remove a lock that is no longer its own', async () => {
    const path = lockIn();
    const held = await lease(path);
    const other = stale({ pid: 1, host: 'elsewhere', machine: 'elsewhere', expiresAt: later(60_000) });
    writeFileSync(path, other);
    expect(await held.stillHeld()).toBe(false);
    await held.release();
    expect(readFileSync(path, 'utf8')).toBe(other);
  });

  it('in an unusable state directory is a usage error naming the lock file and --state', async () => {
    const t = tempDir();
    const file = t.write('not-a-dir', 'x');
    const err = await lease(join(file, 'stores', 'a', 'lock')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'STATE_UNUSABLE', exitCode: 2, hint: expect.stringContaining('--state') });
  });
});

// FAT, exFAT and some SMB clients have no link(): the lock is then created exclusively and written in
// place. The same guarantees hold; only a reader may see the file before its content.
describe('the lease on a share without hard links', () => {
  const NO_LINKS: LeaseTimes = { ...LONG, hardLinks: false };

  it('is held until released, and refuses a second holder', async () => {
    const path = lockIn();
    const held = await lease(path, NO_LINKS);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, user: 'hr' });
    await expect(lease(path, NO_LINKS)).rejects.toMatchObject({ code: 'LOCK_HELD', message: expect.stringContaining(`process ${process.pid} of hr`) });
    await held.release();
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a dead holder on this machine', async () => {
    const path = lockIn();
    await (await lease(path, NO_LINKS)).release();
    writeFileSync(path, stale({ pid: deadPid(), host: 'cron-box', machine: hostname(), expiresAt: later(60_000) }));
    const held = await lease(path, NO_LINKS);
    expect(held.recovered).toMatchObject({ host: 'cron-box' });
    expect(await held.stillHeld()).toBe(true);
    await held.release();
  });

  it('takes a lock file still being written (empty) for one being taken, not a stale one', async () => {
    const path = lockIn();
    await (await lease(path, NO_LINKS)).release();
    writeFileSync(path, '');
    await expect(lease(path, NO_LINKS)).rejects.toMatchObject({ code: 'LOCK_HELD', message: expect.stringContaining('is starting right now') });
  });
});
