import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/record/lock.js';
import { tempDir } from '../helpers/tmp.js';

/** The pid of a process that has certainly ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

const lockIn = () => join(tempDir().dir, 'locks', 'site.team-members.lock');

describe('acquireLock', () => {
  it('holds the lock until released, naming who holds it', async () => {
    const path = lockIn();
    const lock = await acquireLock(path, 'team members to https://s');
    const owner = JSON.parse(readFileSync(path, 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    expect(new Date(owner.since).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const second = await acquireLock(path, 'team members to https://s').catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'LOCK_HELD', exitCode: 4 });
    expect((second as Error).message).toContain(`process ${process.pid}`);
    expect((second as Error).message).toContain(`since ${owner.since}`);
    await lock.release();
    expect(existsSync(path)).toBe(false);
    await (await acquireLock(path, 'x')).release();
  });

  it('recovers a lock whose process is dead on this host', async () => {
    const path = lockIn();
    const stale = { pid: deadPid(), host: hostname(), user: 'cron', since: '2020-01-01T00:00:00.000Z' };
    await (await acquireLock(path, 'x')).release();
    writeFileSync(path, JSON.stringify(stale));
    const lock = await acquireLock(path, 'x');
    expect(lock.recovered).toEqual(stale);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('does not touch a lock held from another host, and says how to clear it', async () => {
    const path = lockIn();
    await (await acquireLock(path, 'x')).release();
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: 'batch-02.example.com', user: 'cron', since: '2020-01-01T00:00:00.000Z' }));
    const err = await acquireLock(path, 'x').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LOCK_HELD', hint: expect.stringContaining(`if no upload is running on batch-02.example.com, delete ${path}`) });
  });

  it('treats an unreadable lock as being written unless it is old', async () => {
    const path = lockIn();
    await (await acquireLock(path, 'x')).release();
    writeFileSync(path, '');
    await expect(acquireLock(path, 'x')).rejects.toMatchObject({ code: 'LOCK_HELD' });
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const lock = await acquireLock(path, 'x');
    expect(lock.recovered).toBeDefined();
    await lock.release();
  });

  it('does not remove a lock that is no longer its own', async () => {
    const path = lockIn();
    const lock = await acquireLock(path, 'x');
    const other = JSON.stringify({ pid: 1, host: 'elsewhere', user: 'u', since: 'now' });
    writeFileSync(path, other);
    await lock.release();
    expect(readFileSync(path, 'utf8')).toBe(other);
  });
});

describe('an unusable state directory', () => {
  it('is a usage error naming the lock file and --state-dir', async () => {
    const t = tempDir();
    const file = t.write('not-a-dir', 'x');
    const err = await acquireLock(join(file, 'locks', 'a.lock'), 'x').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'STATE_DIR_UNUSABLE', exitCode: 2, hint: expect.stringContaining('--state-dir') });
  });
});
