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
  return DirectoryStore.open(spec, leaseTimes(options));
}

/** The lock's lease timings (both stores): UPLOAD_LEASE_SECONDS for a shared drive with slow clocks or long pauses. */
function leaseTimes(options: StoreOptions): { leaseMs?: number; heartbeatMs?: number } {
  const seconds = Number(options.env.UPLOAD_LEASE_SECONDS);
  if (options.leaseMs !== undefined) return { leaseMs: options.leaseMs, heartbeatMs: options.heartbeatMs ?? options.leaseMs / 4 };
  if (Number.isFinite(seconds) && seconds > 0) return { leaseMs: seconds * 1000, heartbeatMs: (seconds * 1000) / 4 };
  return {};
}

/**
 * Everything one store holds, into another: every key's generations (provenance, and the snapshots
 * still kept) and its audit log. A key the target already holds is refused, never overwritten.
 */
export async function copyState(from: StateStore, to: StateStore): Promise<{ keys: number; generations: number; attempts: number; notices: string[] }> {
  const { UsageError } = await import('../errors.js');
  const keys = await from.keys();
  for (const key of keys) {
    if (await to.head(key))
      throw new UsageError(
        'STATE_UNUSABLE',
        `${to.label} already holds uploads of ${key.kind} to ${key.baseUrl}`,
        'copy into an empty store; nothing was copied',
      );
  }
  let generations = 0;
  let attempts = 0;
  const notices: string[] = [];
  for (const key of keys) {
    const lease = await to.lock(key, { user: 'copy', host: 'copy', pid: process.pid, what: `${key.kind} to ${key.baseUrl}` });
    notices.push(...(lease.notices ?? []));
    try {
      const listed = (await from.generations(key)).reverse();
      let expected = 0;
      for (const g of listed) {
        // A pruned snapshot still has its provenance; it is copied with an empty body marked as not kept.
        const body = g.kept ? await from.readSnapshot(key, g.generation) : undefined;
        const { kept: _kept, generation, ...meta } = g;
        if (generation !== expected + 1) throw new Error(`generations of ${key.kind} to ${key.baseUrl} are not consecutive at #${generation}`);
        await to.commit(key, expected, body ? [body] : [], meta, body ? 1_000_000 : 0);
        expected = generation;
        generations++;
      }
      for (const entry of (await from.attempts(key)).reverse()) {
        await to.audit(key, entry);
        attempts++;
      }
    } finally {
      await lease.release();
    }
  }
  return { keys: keys.length, generations, attempts, notices };
}
