// One run at a time per state directory, base URL and kind. The lock is a file created exclusively,
// naming who holds it; a lock whose process has died on this host is recovered.
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { onExit } from 'signal-exit';
import { GuardRefusal, UsageError } from '../errors.js';
import { currentUser, isAlive } from './whoami.js';

export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly user: string;
  /** ISO time the lock was taken. */
  readonly since: string;
}

export interface Lock {
  readonly path: string;
  /** The lock this one replaced because its process had died, if any. */
  readonly recovered: LockOwner | undefined;
  release(): Promise<void>;
}

/** A lock file younger than this with unreadable content is being written right now, not stale. */
const WRITING_GRACE_MS = 10_000;

export async function acquireLock(path: string, what: string): Promise<Lock> {
  try {
    return await acquire(path, what);
  } catch (err) {
    if (err instanceof GuardRefusal) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new UsageError('STATE_DIR_UNUSABLE', `cannot take the lock ${path}: ${code}`, 'make the state directory writable, or choose another with --state-dir DIR (keep using the same one: it holds the baseline)');
  }
}

async function acquire(path: string, what: string): Promise<Lock> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const me: LockOwner = { pid: process.pid, host: hostname(), user: currentUser(), since: new Date().toISOString() };
  let recovered: LockOwner | undefined;
  for (let attempt = 0; attempt < 40; attempt++) {
    if (await tryCreate(path, me)) return holding(path, me, recovered);
    const held = await readOwner(path);
    if (held === 'gone') continue;
    if (!(await isStale(path, held))) throw lockHeld(path, what, held);
    const result = await recover(path, held);
    if (result === 'recovered') recovered = held === 'unreadable' ? unknownOwner() : held;
    else if (result === 'busy') await delay(20 + Math.random() * 40);
  }
  const held = await readOwner(path);
  throw lockHeld(path, what, held === 'gone' ? 'unreadable' : held);
}

/**
 * Creates the lock whole: its content goes to a temp file first, then link() puts it at the lock's
 * path, failing if a lock is there. So a lock file is never seen empty or half-written.
 */
async function tryCreate(path: string, me: LockOwner): Promise<boolean> {
  const temp = `${path}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  const file = await open(temp, 'wx', 0o600);
  try {
    await file.writeFile(ownText(me));
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await link(temp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Removes a stale lock. Recoveries run one at a time, under a short-lived second lock, and check again
 * under it that the lock is still the stale one that was read: without that, one recoverer could remove
 * the fresh lock another had just taken, and two runs would hold it at once.
 */
async function recover(path: string, held: LockOwner | 'unreadable'): Promise<'recovered' | 'busy' | 'changed'> {
  const guard = `${path}.recover`;
  try {
    await (await open(guard, 'wx', 0o600)).close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // A recoverer killed within its few milliseconds leaves the guard behind: it expires.
    const info = await stat(guard).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > WRITING_GRACE_MS) await rm(guard, { force: true });
    return 'busy';
  }
  try {
    const now = await readOwner(path);
    const same = held === 'unreadable' ? now === 'unreadable' : now !== 'gone' && now !== 'unreadable' && now.pid === held.pid && now.since === held.since;
    if (!same) return 'changed';
    await rm(path, { force: true });
    return 'recovered';
  } finally {
    await rm(guard, { force: true });
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readOwner(path: string): Promise<LockOwner | 'unreadable' | 'gone'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.pid === 'number' && typeof o.host === 'string') {
      return { pid: o.pid, host: o.host, user: String(o.user ?? 'unknown'), since: String(o.since ?? 'an unknown time') };
    }
  } catch {
    /* fall through */
  }
  return 'unreadable';
}

async function isStale(path: string, held: LockOwner | 'unreadable'): Promise<boolean> {
  if (held === 'unreadable') {
    const info = await stat(path).catch(() => undefined);
    return info !== undefined && Date.now() - info.mtimeMs > WRITING_GRACE_MS;
  }
  // A process on another host cannot be checked from here: its lock stands until a person removes it.
  return held.host === hostname() && !isAlive(held.pid);
}

const ownText = (me: LockOwner) => `${JSON.stringify(me)}\n`;

function unknownOwner(): LockOwner {
  return { pid: 0, host: 'unknown', user: 'unknown', since: 'an unknown time' };
}

function lockHeld(path: string, what: string, held: LockOwner | 'unreadable'): GuardRefusal {
  if (held === 'unreadable') {
    return new GuardRefusal('LOCK_HELD', `another upload of ${what} is starting right now (lock file ${path})`, 'wait for it to finish, then run again');
  }
  const who = `process ${held.pid} of ${held.user} on ${held.host}, since ${held.since}`;
  const remote = held.host !== hostname();
  return new GuardRefusal(
    'LOCK_HELD',
    `another upload of ${what} is in progress: ${who} (lock file ${path})`,
    remote
      ? `wait for it to finish; if no upload is running on ${held.host}, delete ${path} and run again`
      : 'wait for it to finish, then run again',
  );
}

/**
 * Holds the lock until release(). A signal during the locked section (Ctrl-C, a cron timeout's
 * SIGTERM) would otherwise end the process without running `finally`. signal-exit runs the removal
 * when the process is about to die of a signal or exits, and cooperates with the other libraries that
 * listen (the spinner restores the cursor the same way); where a handler turns the signal into an
 * orderly stop instead, `finally` releases the lock. A SIGKILL leaves the lock behind, and the next run
 * recovers it because this pid is dead.
 */
function holding(path: string, me: LockOwner, recovered: LockOwner | undefined): Lock {
  let released = false;
  const removeIfMine = () => {
    if (released) return;
    released = true;
    try {
      // Only our own lock: a lock we lost to a recovery (say after a long suspend) belongs to another run.
      if (readFileSync(path, 'utf8') === ownText(me)) unlinkSync(path);
    } catch {
      /* the next run recovers a lock left behind */
    }
  };
  const detach = onExit(removeIfMine);
  return {
    path,
    recovered,
    release: async () => {
      detach();
      removeIfMine();
    },
  };
}
