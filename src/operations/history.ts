// `upload history <kind>`: the generations of the store for a base URL and kind, newest first, each
// with what changed against the one before it, and the failed attempts made against it.
import { KINDS, type Kind } from '../contract/kinds.js';
import type { ServiceSaid } from '../errors.js';
import { diffRecords } from '../diff/index.js';
import { RecordsByKey } from '../diff/records.js';
import { operationOf } from '../state/operation.js';
import type { AuditEntry, Generation, Intent, ListedGeneration, Operation } from '../state/types.js';
import { generationRecords } from '../pipeline/baseline.js';
import type { RunContext } from '../pipeline/context.js';
import { closeState, openState, type State } from '../pipeline/state.js';

export interface HistoryEntry extends Generation {
  /** What the upload was (derived for uploads recorded before it was kept). */
  readonly operation: Operation;
  /** Keys --hold-removals kept on the service (empty: none). */
  readonly heldRemovals: readonly string[];
  /** Against the generation before it, when both snapshots are still kept; null otherwise. */
  readonly added: number | null;
  readonly removed: number | null;
  readonly changed: number | null;
  /** Attempts that failed after this generation was the latest (newest first). */
  readonly failed: readonly FailedAttempt[];
}

export interface FailedAttempt {
  readonly time: string;
  readonly user: string;
  readonly host: string;
  readonly source: string;
  readonly records: number;
  readonly outcome: string;
  readonly error: string | null;
  readonly status: number | null;
  /** What a refusing service said (its message and `errors[]`), when it said anything. */
  readonly said: ServiceSaid | null;
}

export interface HistoryReport {
  readonly kind: Kind;
  readonly baseUrl: string;
  readonly store: string;
  readonly generations: readonly HistoryEntry[];
  /** Failed attempts before the first recorded generation. */
  readonly failedBefore: readonly FailedAttempt[];
  /** An upload sent but never confirmed: the service may hold it (upload state resolve settles it). */
  readonly pending: Intent | null;
}

export async function history(spec: string, baseUrl: URL, kind: Kind, limit: number, ctx: RunContext): Promise<HistoryReport> {
  const state = await openState(spec, baseUrl, kind, ctx);
  try {
    const generations = await state.store.generations(state.key, limit + 1);
    const attempts = (await state.store.attempts(state.key)).filter((a) => a.outcome !== 'uploaded');
    const failedAfter = (gen: number) => attempts.filter((a) => a.baseGeneration === gen).map(failed);
    const entries: HistoryEntry[] = [];
    // Newest first: each snapshot is decoded once, as the "after" of one entry and the "before" of the next.
    let after = await records(state, generations[0]);
    for (const [i, g] of generations.slice(0, limit).entries()) {
      const previous = generations[i + 1];
      const before = previous ? await records(state, previous) : RecordsByKey.empty(KINDS[kind].keyField);
      entries.push({ ...g, operation: operationOf(g), heldRemovals: g.heldRemovals ?? [], ...changes(after, before), failed: failedAfter(g.generation) });
      after = before;
    }
    return {
      kind,
      baseUrl: state.key.baseUrl,
      store: state.store.label,
      generations: entries,
      failedBefore: generations.length <= limit ? failedAfter(0) : [],
      pending: (await state.store.pending(state.key)) ?? null,
    };
  } finally {
    await closeState(state);
  }
}

function failed(a: AuditEntry): FailedAttempt {
  return {
    time: a.time,
    user: a.user,
    host: a.host,
    source: a.source,
    records: a.count,
    outcome: a.outcome,
    error: a.error,
    status: a.status,
    said: a.said ?? null,
  };
}

/** A kept generation's records; undefined when its snapshot was pruned (or cannot be read). */
async function records(state: State, g: ListedGeneration | undefined): Promise<RecordsByKey | undefined> {
  if (!g?.kept) return undefined;
  return generationRecords(state, g).catch(() => undefined);
}

/** +added −removed ~changed against the generation before; unknown when either snapshot is not kept. */
function changes(after: RecordsByKey | undefined, before: RecordsByKey | undefined): { added: number | null; removed: number | null; changed: number | null } {
  if (!after || !before) return { added: null, removed: null, changed: null };
  const diff = diffRecords(before, 'snapshot', [...after.keys()], after.bodies);
  return { added: diff.added, removed: diff.removed, changed: diff.changed };
}
