// The PostgreSQL lock: a lease row per base URL and kind, not a session lock. Behind a pooler in
// transaction mode (PgBouncer) a session lock lands on whichever server connection the pooler picked:
// two runs both get it, and it stays on that pooled connection after its holder ended. A row works
// the same with or without a pooler: it is taken, renewed and released in short transactions, its
// expiry is on the database's clock (now()), never on a client's, and only its random token proves it.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { GuardRefusal } from '../errors.js';
import type { Session } from './pg-session.js';
import type { Holder, Lease, StateKey } from './types.js';
import { isAlive } from './whoami.js';

export interface LeaseTimes {
  /** How long a lease lasts unless renewed: how long a holder killed on another machine blocks others. */
  readonly leaseMs: number;
  readonly heartbeatMs: number;
}

export const DEFAULT_LEASE: LeaseTimes = { leaseMs: 60_000, heartbeatMs: 15_000 };

interface Held {
  token: string;
  holder: Holder & { machine: string };
  since: string;
  expiresAt: string;
  expired: boolean;
}

const UNREADABLE: Held['holder'] = { user: '(unreadable)', host: '(unreadable)', pid: 0, what: '', machine: '' };

/** The lease row held now, if any, with whether it expired on the database's clock. */
async function current(session: Session, key: StateKey): Promise<Held | undefined> {
  const { rows } = await session.query<{ token: string; holder: Held['holder']; since: Date; expires_at: Date; expired: boolean }>(
    `SELECT token, holder, taken_at AS since, expires_at, expires_at <= now() AS expired FROM upload_leases WHERE base_url = $1 AND kind = $2`,
    [key.baseUrl, key.kind],
  );
  const r = rows[0];
  // A row damaged by hand (holder not an object) is judged by its expiry alone, and said so.
  const holder = typeof r?.holder === 'object' && r.holder !== null ? r.holder : UNREADABLE;
  return r && { token: r.token, holder, since: new Date(r.since).toISOString(), expiresAt: new Date(r.expires_at).toISOString(), expired: r.expired };
}

/** A lease another run may take over: expired, or held by a process that is gone on this very machine. */
function abandoned(held: Held): boolean {
  return held.expired || (held.holder.machine === hostname() && !isAlive(held.holder.pid));
}

/** Renews the lease if it is still this token's and not expired; false when it is not (lost). */
export async function renew(session: Session, key: StateKey, token: string, times: LeaseTimes, q = session.query): Promise<boolean> {
  const { rowCount } = await q(
    `UPDATE upload_leases SET renewed_at = now(), expires_at = now() + make_interval(secs => $4::double precision / 1000)
      WHERE base_url = $1 AND kind = $2 AND token = $3 AND expires_at > now()`,
    [key.baseUrl, key.kind, token, times.leaseMs],
  );
  return rowCount === 1;
}

/** The refusal takeLease() would give now, read only (nothing taken): a lease not abandoned. */
export async function liveHolder(session: Session, key: StateKey, what: string, label: string, times: LeaseTimes): Promise<GuardRefusal | undefined> {
  const now = await current(session, key);
  return now && !abandoned(now) ? held(now, what, label, times) : undefined;
}

export async function takeLease(session: Session, key: StateKey, holder: Holder, times: LeaseTimes, label: string): Promise<{ lease: Lease; token: string }> {
  const before = await current(session, key);
  if (before && !abandoned(before)) throw held(before, holder.what, label, times);
  const token = randomBytes(16).toString('hex');
  // One statement: inserted when free, or taken over only from the very lease judged abandoned above.
  const { rowCount } = await session.transaction((q) =>
    q(
      `INSERT INTO upload_leases AS l (base_url, kind, token, holder, taken_at, renewed_at, expires_at)
       VALUES ($1, $2, $3, $4, now(), now(), now() + make_interval(secs => $5::double precision / 1000))
       ON CONFLICT (base_url, kind) DO UPDATE SET token = EXCLUDED.token, holder = EXCLUDED.holder, taken_at = now(), renewed_at = now(), expires_at = EXCLUDED.expires_at
       WHERE l.token = $6`,
      [key.baseUrl, key.kind, token, JSON.stringify({ ...holder, machine: hostname() }), times.leaseMs, before?.token ?? ''],
    ),
  );
  if (rowCount !== 1) {
    // Another run took it between the look and the take.
    const now = await current(session, key);
    throw held(now, holder.what, label, times);
  }
  return { lease: holding(session, key, holder, token, times, before), token };
}

function held(h: Held | undefined, what: string, label: string, times: LeaseTimes): GuardRefusal {
  return new GuardRefusal(
    'LOCK_HELD',
    `another upload of ${what} is in progress${h ? `: ${h.holder === UNREADABLE ? 'a holder whose lease row cannot be read' : `process ${h.holder.pid} of ${h.holder.user} on ${h.holder.host}`}, since ${h.since}` : ''} (lock in ${label})`,
    `wait for it to finish, then run again; a lock whose holder died is taken over once its lease expires (${
      h ? `${h.expiresAt} on the database's clock, unless its holder renews it` : `leases last ${times.leaseMs / 1000} s`
    }; at once on the holder's own machine)`,
  );
}

/** Holds the lease until release(), renewing it every heartbeat; a renewal that finds it gone marks it lost. */
function holding(session: Session, key: StateKey, holder: Holder, token: string, times: LeaseTimes, before: Held | undefined): Lease {
  let released = false;
  let lost = false;
  const check = async (afterAnswer = false) => {
    if (released || lost) return false;
    if (!(await renew(session, key, token, times, afterAnswer ? session.shieldedQuery : session.query))) lost = true;
    return !lost;
  };
  let beating = false;
  const heartbeat = setInterval(() => {
    // A failed beat (the database restarting) is tried again on the next one; the lease outlives a
    // short outage. A beat still waiting for its answer is not doubled.
    if (beating) return;
    beating = true;
    check()
      .catch(() => {})
      .finally(() => (beating = false));
  }, times.heartbeatMs);
  heartbeat.unref();
  return {
    holder,
    recovered: before && { user: before.holder.user, host: before.holder.host, pid: before.holder.pid, what: before.holder.what, since: before.since },
    stillHeld: (afterAnswer) => check(afterAnswer),
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      // Only our own row: a lease we lost belongs to another run now. If the database cannot be
      // reached, the row expires on its own (at once for a run on this machine: our pid is gone).
      await session.query('DELETE FROM upload_leases WHERE base_url = $1 AND kind = $2 AND token = $3', [key.baseUrl, key.kind, token]).catch(() => {});
      await session.end();
    },
  };
}
