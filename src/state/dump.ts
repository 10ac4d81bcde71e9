// A store's content for one base URL and kind, as data: what `upload state` copies, and what any
// backend loads back so that every read answers as it did in the source — the generations with their
// provenance and the snapshots still kept, the upload sent but not confirmed (its intent, with its
// bytes, its run's id and time), and the audit log. A lease is never part of it: a lock belongs to a
// running process, and a copy holds none. A new kind of record (an approval, say) is one more field
// here, read in dumpKey() and written in loadKey().
import { UsageError } from '../errors.js';
import type { DumpedGeneration, Intent, KeyDump, StateKey, StateStore } from './types.js';

export type { KeyDump } from './types.js';

/** Everything recorded for `key`, read through the store's own answers (the caller holds its lock). */
export async function dumpKey(store: StateStore, key: StateKey): Promise<KeyDump> {
  const generations: DumpedGeneration[] = [];
  for (const { kept, ...g } of (await store.generations(key)).reverse())
    generations.push({ ...g, snapshot: kept ? await store.readSnapshot(key, g.generation) : null });
  const intent = await store.pending(key);
  return {
    key,
    generations,
    pending: intent ? { ...intent, body: await store.readPending(key) } : null,
    attempts: (await store.attempts(key)).reverse(),
  };
}

/** A key that holds anything (an upload, one waiting to be settled, an attempt) is not copied into. */
export async function assertEmpty(store: StateStore, key: StateKey): Promise<void> {
  if ((await store.head(key)) || (await store.pending(key)) || (await store.attempts(key, 1)).length)
    throw new UsageError(
      'STATE_UNUSABLE',
      `${store.label} already holds uploads of ${key.kind} to ${key.baseUrl}`,
      'copy into an empty store; nothing was copied',
    );
}

/**
 * Writes a dump into `store`, under the key's lock the caller holds: each generation committed in turn
 * (a pruned one without its bytes), the intent as it was, the audit lines in order. A key that already
 * holds anything is refused (STATE_UNUSABLE), never overwritten or merged.
 */
export async function loadKey(store: StateStore, dump: KeyDump, restoreIntent: (key: StateKey, intent: Intent, body: Buffer) => Promise<void>): Promise<void> {
  const { key } = dump;
  await assertEmpty(store, key);
  let expected = 0;
  for (const { snapshot, generation, ...meta } of dump.generations) {
    if (generation !== expected + 1) throw new Error(`generations of ${key.kind} to ${key.baseUrl} are not consecutive at #${generation}`);
    // Pruning keeps the newest: a generation without its bytes prunes every older one with it, as the source did.
    await store.commit(key, expected, snapshot ? [snapshot] : [], meta, snapshot ? 1_000_000 : 0);
    expected = generation;
  }
  if (dump.pending) {
    const { body, ...intent } = dump.pending;
    await restoreIntent(key, intent, body);
  }
  for (const entry of dump.attempts) await store.audit(key, entry);
}
