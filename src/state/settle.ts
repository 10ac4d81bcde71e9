// `upload state resolve <kind> --sent|--previous`: an upload whose outcome was never learnt (sent, not
// confirmed) is settled by the person who checked the service. Its bytes were recorded before they were
// sent, so "the service holds it" needs no file: they become the next generation, as if confirmed.
import { UsageError } from '../errors.js';
import type { Generation, Holder, Intent, StateKey, StateStore } from './types.js';

export type Settlement =
  { readonly how: 'sent'; readonly pending: Intent; readonly generation: Generation } | { readonly how: 'previous'; readonly pending: Intent };

export async function settlePending(store: StateStore, key: StateKey, how: 'sent' | 'previous', holder: Holder, keep: number): Promise<Settlement> {
  const lease = await store.lock(key, holder);
  try {
    const pending = await store.pending(key);
    if (!pending)
      throw new UsageError(
        'NO_PENDING',
        `no upload of ${key.kind} to ${key.baseUrl} is waiting to be settled in ${store.label}: every upload sent was confirmed or forgotten`,
        'nothing to do; see `upload history` for what is recorded',
      );
    if (how === 'previous') {
      await store.forget(key);
      return { how, pending };
    }
    const body = await store.readPending(key);
    // The next generation, whatever the intent was to become: one sent by a run that lost its lock may
    // be for a generation another run recorded since, and the service holds it on top of that one.
    const expected = (await store.head(key))?.generation ?? 0;
    const { generation: _, intendedAt: __, id, ...meta } = pending;
    const generation = await store.commit(
      key,
      expected,
      [body],
      { ...meta, uploadedAt: new Date().toISOString(), source: `${meta.source} (settled as sent)` },
      keep,
      id ?? '',
    );
    return { how, pending, generation };
  } finally {
    await lease.release();
  }
}
