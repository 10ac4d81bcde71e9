// `upload state resolve <kind> --sent|--previous`: an upload whose outcome was never learnt (sent, not
// confirmed) is settled by the person who checked the service. Its bytes were recorded before they were
// sent, so "the service holds it" needs no file: they become the next generation, as if confirmed.
//
// Whatever state file is damaged or missing, resolve ends in a documented error that names the
// command which repairs it, never in an internal error (docs/state.md, "When a state file is damaged"):
// - the record of the unconfirmed upload (intent) or its bytes: --previous forgets it, damaged or not;
//   --sent cannot make lost bytes the latest upload (PENDING_DAMAGED), so it says to forget and resend;
// - the history (head, generations): SNAPSHOT_CORRUPT, as every other command says it;
// - the lock: a lease left unreadable is recovered once it is older than a write takes (./lease.ts).
import { GuardRefusal, isUploadError, resolveFixes, UsageError } from '../errors.js';
import type { Generation, Holder, Intent, StateKey, StateStore } from './types.js';

export type Settlement =
  | { readonly how: 'sent'; readonly pending: Intent; readonly generation: Generation }
  /** pending is undefined when the record of the upload was damaged, and forgotten all the same. */
  | { readonly how: 'previous'; readonly pending: Intent | undefined };

export async function settlePending(store: StateStore, key: StateKey, how: 'sent' | 'previous', holder: Holder, keep: number): Promise<Settlement> {
  const lease = await store.lock(key, holder);
  try {
    let pending: Intent | undefined;
    try {
      pending = await store.pending(key);
      if (pending !== undefined && !wellFormed(pending)) throw new Error('its record is not one this tool wrote');
    } catch (err) {
      // A damaged history is not this command's to repair; a damaged intent is.
      await store.head(key).catch((history: unknown) => {
        throw historyDamaged(store, key, history);
      });
      if (how === 'previous') {
        await store.forget(key);
        return { how, pending: undefined };
      }
      throw damagedPending(store, key, err);
    }
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
    const body = await store.readPending(key).catch((err: unknown) => {
      throw isUploadError(err) && err.code !== 'SNAPSHOT_CORRUPT' ? err : damagedPending(store, key, err);
    });
    // The next generation, whatever the intent was to become: one sent by a run that lost its lock may
    // be for a generation another run recorded since, and the service holds it on top of that one.
    const expected = await store.head(key).then(
      (head) => head?.generation ?? 0,
      (history: unknown) => {
        throw historyDamaged(store, key, history);
      },
    );
    // Never more than one past the latest: a head behind the intent is a history with uploads missing.
    if (pending.generation > expected + 1)
      throw new GuardRefusal(
        'STATE_MOVED',
        `the unconfirmed upload was to become #${pending.generation}, but the latest is #${expected}`,
        `settle it with: upload state resolve ${key.kind} --previous`,
      );
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

/** The fields settling reads: a record edited by hand may lack them. */
function wellFormed(p: Intent): boolean {
  const i = p as Partial<Intent> | null;
  return typeof i === 'object' && i !== null && Number.isInteger(i.generation) && typeof i.sha256 === 'string' && typeof i.records === 'number';
}

/** The history itself (head, a generation's record) is damaged: resolve cannot repair it; say what can. */
function historyDamaged(store: StateStore, key: StateKey, cause: unknown): unknown {
  if (!isUploadError(cause) || cause.code !== 'SNAPSHOT_CORRUPT') return cause;
  return new GuardRefusal(
    'SNAPSHOT_CORRUPT',
    cause.message,
    `restore ${store.label} from a backup; or start a new history elsewhere, from what the service holds: \`upload ${key.kind} FILE --state NEW-STORE --baseline EXPORT\` (the damaged store is left as it is, for inspection)`,
  );
}

/** The unconfirmed upload's record or bytes are missing or damaged: they cannot become the latest upload. */
function damagedPending(store: StateStore, key: StateKey, cause: unknown): GuardRefusal {
  const why = isUploadError(cause) ? cause.message : ((cause as NodeJS.ErrnoException).code ?? (cause as Error).message);
  return new GuardRefusal(
    'PENDING_DAMAGED',
    `the unconfirmed upload of ${key.kind} to ${key.baseUrl} in ${store.label} cannot be settled as sent: what was recorded before sending is missing or damaged (${why})`,
    `forget it with \`upload state resolve ${key.kind} --previous\`, then send the same file again (\`upload ${key.kind} FILE\`): a full replacement makes the service and the record agree`,
  ).withFixes(...resolveFixes(key.kind, '--previous'));
}
