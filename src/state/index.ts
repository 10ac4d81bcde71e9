// Opening the state store named by --state: a postgres:// URL or a directory.
import { isStoreUrl } from './paths.js';
import type { StateStore, StoreOptions } from './types.js';

export type { StateKey, StateStore } from './types.js';

export async function openStore(spec: string, options: StoreOptions): Promise<StateStore> {
  if (isStoreUrl(spec)) {
    const { PostgresStore } = await import('./postgres.js');
    const times = leaseTimes(options);
    return PostgresStore.open(spec, { env: options.env, signal: options.signal, lease: times.leaseMs ? (times as Required<typeof times>) : undefined });
  }
  const { DirectoryStore } = await import('./dir.js');
  const { systemRefusal, withSystemRefusals } = await import('./dir-errors.js');
  const store = await DirectoryStore.open(spec, { ...leaseTimes(options), signal: options.signal }).catch((err: unknown) => {
    throw systemRefusal(err, spec);
  });
  return withSystemRefusals(store, spec);
}

/** The lock's lease timings (both stores): UPLOAD_LEASE_SECONDS for a shared drive with slow clocks or long pauses. */
function leaseTimes(options: StoreOptions): { leaseMs?: number; heartbeatMs?: number } {
  const seconds = Number(options.env.UPLOAD_LEASE_SECONDS);
  if (options.leaseMs !== undefined) return { leaseMs: options.leaseMs, heartbeatMs: options.heartbeatMs ?? options.leaseMs / 4 };
  if (Number.isFinite(seconds) && seconds > 0) return { leaseMs: seconds * 1000, heartbeatMs: (seconds * 1000) / 4 };
  return {};
}

/**
 * Everything one store holds, into another, through dump() and load(): every key's generations
 * (provenance, and the snapshots still kept), the upload sent but not confirmed, and the audit log —
 * so that the copy answers every read as the source does. Each key is copied under the locks of both
 * stores (LOCK_HELD while an upload of it runs); no lease is copied. A key the target already holds
 * is refused, never overwritten.
 */
export async function copyState(
  from: StateStore,
  to: StateStore,
): Promise<{ keys: number; generations: number; attempts: number; pending: number; notices: string[] }> {
  const { assertEmpty } = await import('./dump.js');
  const keys = await from.keys();
  for (const key of keys) await assertEmpty(to, key);
  let generations = 0;
  let attempts = 0;
  let pending = 0;
  const notices: string[] = [];
  for (const key of keys) {
    const who = { user: 'copy', host: 'copy', pid: process.pid, what: `${key.kind} to ${key.baseUrl}` };
    const source = await from.lock(key, who);
    try {
      notices.push(...(source.notices ?? []));
      const dump = await from.dump(key);
      const target = await to.lock(key, who);
      try {
        notices.push(...(target.notices ?? []));
        await to.load(dump);
      } finally {
        await target.release();
      }
      generations += dump.generations.length;
      attempts += dump.attempts.length;
      if (dump.pending) pending++;
    } finally {
      await source.release();
    }
  }
  return { keys: keys.length, generations, attempts, pending, notices };
}
