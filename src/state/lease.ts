// The directory store's lock: a lease that works between hosts sharing a folder. The lock file names
// its holder (user, host, pid, what) and when the lease expires; the holder renews it on a heartbeat.
// Another run takes it over only once it has expired — or at once when its process has died on this
// same host. The file is created whole (link() from a temp file), so it is never seen half-written;
// where the share has no hard links (FAT, exFAT, some SMB clients) it is created exclusively and
// written in place, and a reader takes a file still being written for a lock being taken right now.
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, open, rm, stat } from 'node:fs/promises';
import { createInPlace, NO_HARD_LINKS, readRegularFile } from '../files/atomic.js';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { onExit } from 'signal-exit';
import { GuardRefusal, isUploadError, UsageError } from '../errors.js';
import { renameRetrying } from '../files/rename.js';
import { remedyFor } from './dir-errors.js';
import { isAlive } from './whoami.js';
import type { Holder, Lease } from './types.js';

interface LeaseFile extends Holder {
  /** Tells this lease from a later one of the same holder. */
  readonly id: string;
  /** The OS's host name (`host` may be a label from UPLOAD_HOST): a pid is checked only on its machine. */
  readonly machine: string;
  /** ISO times. */
  readonly since: string;
  readonly expiresAt: string;
}

export interface LeaseTimes {
  /** The lock file's mode: 0600, or 0660 in a state directory shared with a group. */
  readonly fileMode?: number;
  /** How long a lease lasts without a heartbeat. */
  readonly leaseMs: number;
  /** How often the holder renews it. */
  readonly heartbeatMs: number;
  /** false: the folder has no hard links (otherwise found out on the first try). */
  readonly hardLinks?: boolean;
  /** The run's Ctrl-C or SIGTERM: it ends the wait for a lease from another host to stand still. */
  readonly signal?: AbortSignal | undefined;
}

export const LEASE_DEFAULTS: LeaseTimes = { leaseMs: 60_000, heartbeatMs: 15_000 };

/** A lock file younger than this with unreadable content is being written right now, not stale. */
const WRITING_GRACE_MS = 10_000;

/** Folders found to have no hard links, so each run tries link() there once at most. */
const withoutLinks = new Set<string>();

export async function takeLease(path: string, holder: Holder, times: LeaseTimes): Promise<Lease> {
  try {
    return await acquire(path, holder, times);
  } catch (err) {
    // A refusal of the store's own, or the run interrupted while it waited.
    if (isUploadError(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new UsageError(
      'STATE_UNUSABLE',
      `cannot take the lock ${path}: ${code}`,
      // Permission, a read-only file system or a full disk: what to do about that cause.
      // The lock is ROOT/stores/KEY/lock: the remedy names the state folder itself.
      remedyFor(err, dirname(dirname(dirname(path)))) ??
        'make the state directory writable, or choose another with --state DIR (keep using the same one: it holds the baseline)',
      { cause: err },
    );
  }
}

async function acquire(path: string, holder: Holder, times: LeaseTimes): Promise<Lease> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const now = new Date();
  const me: LeaseFile = {
    ...holder,
    id: randomBytes(8).toString('hex'),
    machine: hostname(),
    since: now.toISOString(),
    expiresAt: new Date(now.getTime() + times.leaseMs).toISOString(),
  };
  let recovered: LeaseFile | undefined;
  for (let attempt = 0; attempt < 40; attempt++) {
    if (await tryCreate(path, me, times)) return holding(path, me, times, recovered);
    const held = await readHolder(path);
    if (held === 'gone') continue;
    if (!(await isStale(path, held, times))) throw lockHeld(path, holder.what, held);
    const result = await recover(path, held);
    if (result === 'recovered' && held !== 'unreadable') recovered = held;
    else if (result === 'busy') await delay(20 + Math.random() * 40);
  }
  const held = await readHolder(path);
  throw lockHeld(path, holder.what, held === 'gone' ? 'unreadable' : held);
}

/**
 * The refusal lock() would give now, read only: a lease held by a live process on this host, or one
 * from another host that has not expired by its own clock. Nothing is taken over or waited on.
 */
export async function liveHolder(path: string, what: string): Promise<GuardRefusal | undefined> {
  const held = await readHolder(path).catch(() => 'gone' as const);
  if (held === 'gone' || held === 'unreadable') return undefined;
  const live = held.machine === hostname() ? isAlive(held.pid) && Date.parse(held.expiresAt) >= Date.now() : Date.parse(held.expiresAt) >= Date.now();
  return live ? lockHeld(path, what, held) : undefined;
}

async function tryCreate(path: string, me: LeaseFile, times: LeaseTimes): Promise<boolean> {
  if (times.hardLinks === false || withoutLinks.has(dirname(path))) return createInPlace(path, text(me), times.fileMode ?? 0o600);
  const temp = await writeTemp(path, me, times);
  try {
    await link(temp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw err;
    withoutLinks.add(dirname(path));
  } finally {
    await rm(temp, { force: true });
  }
  return createInPlace(path, text(me), times.fileMode ?? 0o600);
}

// Without hard links (createInPlace): until the lock file is written a reader finds it empty or cut
// short, which it takes for a lock being taken right now (WRITING_GRACE_MS), never for a stale one.

/** The lock file's content, written whole beside it, in the store's file mode. */
async function writeTemp(path: string, content: LeaseFile, times: LeaseTimes): Promise<string> {
  const temp = `${path}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  const file = await open(temp, 'wx', times.fileMode ?? 0o600);
  try {
    await file.writeFile(text(content));
    await file.sync();
  } finally {
    await file.close();
  }
  return temp;
}

/**
 * Removes a stale lock. Recoveries run one at a time, under a short-lived second lock, and check again
 * under it that the lock is still the stale one that was read: without that, one recoverer could remove
 * the fresh lock another had just taken, and two runs would hold it at once.
 */
async function recover(path: string, held: LeaseFile | 'unreadable'): Promise<'recovered' | 'busy' | 'changed'> {
  const guard = `${path}.recover`;
  try {
    await (await open(guard, 'wx', 0o600)).close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // A recoverer that died leaves its guard behind; it is stale after the grace period.
    const info = await stat(guard).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > WRITING_GRACE_MS) await rm(guard, { force: true });
    return 'busy';
  }
  try {
    const now = await readHolder(path);
    const same =
      held === 'unreadable' ? now === 'unreadable' : now !== 'gone' && now !== 'unreadable' && now.id === held.id && now.expiresAt === held.expiresAt;
    if (!same) return 'changed';
    await rm(path, { force: true });
    return 'recovered';
  } finally {
    await rm(guard, { force: true });
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readHolder(path: string): Promise<LeaseFile | 'unreadable' | 'gone'> {
  let content: string;
  try {
    content = (await readRegularFile(path)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  try {
    const o = JSON.parse(content) as Partial<LeaseFile>;
    if (typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.expiresAt === 'string' && typeof o.id === 'string') {
      return {
        pid: o.pid,
        host: o.host,
        machine: String(o.machine ?? o.host),
        user: String(o.user ?? 'unknown'),
        what: String(o.what ?? ''),
        id: o.id,
        since: String(o.since ?? ''),
        expiresAt: o.expiresAt,
      };
    }
  } catch {
    /* fall through */
  }
  return 'unreadable';
}

/**
 * Held by a process that has died on this host (a pid means nothing on another host), or expired. On
 * this host the expiry is read on the clock that wrote it. Another host's clock may be minutes ahead of
 * or behind this one, so its lease is never judged by the time it names: a lease that looks expired
 * here is watched on this host's monotonic clock, and only one whose heartbeat stood still for a full
 * lease is stale. A live holder renews it within that time, and keeps it.
 */
async function isStale(path: string, held: LeaseFile | 'unreadable', times: LeaseTimes): Promise<boolean> {
  if (held === 'unreadable') {
    const info = await stat(path).catch(() => undefined);
    return info !== undefined && Date.now() - info.mtimeMs > WRITING_GRACE_MS;
  }
  if (held.machine === hostname()) return !isAlive(held.pid) || Date.parse(held.expiresAt) < Date.now();
  if (Date.parse(held.expiresAt) >= Date.now()) return false;
  return stoodStill(path, held, times.leaseMs, times.signal);
}

/** Whether the lease file kept exactly this content for `ms` on this host's monotonic clock. */
async function stoodStill(path: string, held: LeaseFile, ms: number, signal?: AbortSignal): Promise<boolean> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    // A lease is watched for a whole lease (60 s): a signal must not wait that out.
    signal?.throwIfAborted();
    await delay(Math.min(250, ms / 8));
    const now = await readHolder(path);
    if (now === 'gone') return false;
    if (now === 'unreadable' || now.id !== held.id || now.expiresAt !== held.expiresAt) return false;
  }
  return true;
}

const text = (content: LeaseFile) => `${JSON.stringify(content)}\n`;

function lockHeld(path: string, what: string, held: LeaseFile | 'unreadable'): GuardRefusal {
  if (held === 'unreadable') {
    return new GuardRefusal('LOCK_HELD', `another upload of ${what} is starting right now (lock file ${path})`, 'wait for it to finish, then run again');
  }
  return new GuardRefusal(
    'LOCK_HELD',
    `another upload of ${what} is in progress: process ${held.pid} of ${held.user} on ${held.host}, since ${held.since} (lock file ${path})`,
    `wait for it to finish, then run again; a lock whose holder died is taken over once its lease expires (${held.expiresAt})`,
  );
}

/**
 * Holds the lease until release(), renewing it on a heartbeat. A signal during the locked section
 * (Ctrl-C, a cron timeout's SIGTERM) would otherwise end the process without running `finally`:
 * signal-exit removes the lock when the process is about to die of a signal or exits. A SIGKILL leaves
 * it behind, and the next run takes it over once it expires (at once on this host: the pid is dead).
 */
function holding(path: string, me: LeaseFile, times: LeaseTimes, recovered: LeaseFile | undefined): Lease {
  let released = false;
  let current = me;
  // The renewal being written: between its rename and the next line, the file already holds it.
  let renewing: LeaseFile | undefined;
  const mine = () => {
    try {
      const now = readFileSync(path, 'utf8');
      return now === text(current) || (renewing !== undefined && now === text(renewing));
    } catch {
      return false;
    }
  };
  // Set by release(): no renewal starts, and one under way does not rename (release waits for it).
  let stopping = false;
  let renewal: Promise<void> | undefined;
  const renew = async () => {
    const renewed = { ...current, expiresAt: new Date(Date.now() + times.leaseMs).toISOString() };
    renewing = renewed;
    try {
      const temp = await writeTemp(path, renewed, times);
      // Still ours? Writing the renewal takes a while (an fsync), and a run suspended meanwhile past
      // its lease may find on waking that another run took the lock over, or took it over and let it
      // go: renaming then would put this run's name back on a lock it lost.
      if (stopping || !mine()) {
        await rm(temp, { force: true });
        return;
      }
      await renameRetrying(temp, path);
      current = renewed;
    } finally {
      renewing = undefined;
    }
  };
  const heartbeat = setInterval(() => {
    // One renewal at a time: a slow disk must not let two beats race to name the current lease.
    if (released || stopping || renewing || !mine()) return;
    renewal = renew().catch(() => {
      /* the next beat tries again; a lease that lapses is only taken over after it expires */
    });
  }, times.heartbeatMs);
  heartbeat.unref();
  const removeIfMine = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    try {
      // Only our own lock: a lease we lost (after a long suspend) belongs to another run now.
      if (mine()) unlinkSync(path);
    } catch {
      /* the next run takes over a lock left behind */
    }
  };
  const detach = onExit(removeIfMine);
  return {
    holder: me,
    recovered: recovered && { user: recovered.user, host: recovered.host, pid: recovered.pid, what: recovered.what, since: recovered.since },
    stillHeld: async () => !released && mine(),
    // A renewal under way is waited for first: let go of, it would leave its temp file in the folder
    // (the process exits once its output is written), or rename it over the lock just removed.
    release: async () => {
      stopping = true;
      clearInterval(heartbeat);
      await renewal;
      detach();
      removeIfMine();
    },
  };
}
