// The record stage: after an attempt that reached the service, what is remembered. Only a confirmed
// upload moves the snapshot; every attempt that reached the send stage gets an audit line.
import { rm } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Kind } from '../contract/kinds.js';
import type { Payload } from '../contract/json-array.js';
import type { Diff } from '../diff/index.js';
import type { Outcome } from '../errors.js';
import { appendAudit, auditEntry } from './audit.js';
import { writeSnapshot } from './snapshot.js';
import { normaliseBaseUrl, type StatePaths } from './state.js';

export { resolveStateDir, statePaths, type StatePaths } from './state.js';
export { acquireLock, type Lock } from './lock.js';

export interface Attempt {
  readonly paths: StatePaths;
  readonly baseUrl: URL;
  readonly kind: Kind;
  readonly source: string;
  readonly diff: Diff;
  /** The bytes that were sent: the snapshot is written from them, the audit line names their hash. */
  readonly payload: Payload;
}

export interface Result {
  readonly outcome: Outcome;
  readonly status: number | null;
  readonly error: string | null;
}

/**
 * Records an attempt; returns warnings for the user (never throws once the upload has happened: the
 * service's answer is the outcome, and a state-directory problem is said, not turned into a failure).
 */
export async function recordAttempt(attempt: Attempt, result: Result): Promise<string[]> {
  const { paths, payload } = attempt;
  const warnings: string[] = [];
  let snapshot: string | null = null;
  if (result.outcome === 'uploaded') {
    try {
      await writeSnapshot(paths.snapshot, payload.chunks);
      snapshot = relative(paths.dir, paths.snapshot);
    } catch (err) {
      // An old snapshot would now misstate what the service holds, and could hide removals next time.
      await rm(paths.snapshot, { force: true }).catch(() => {});
      warnings.push(`uploaded, but the snapshot could not be saved (${describe(err)}) in ${paths.snapshot}; the next run has no baseline unless given --baseline FILE`);
    }
  }
  try {
    await appendAudit(
      paths.audit,
      auditEntry({
        kind: attempt.kind,
        baseUrl: normaliseBaseUrl(attempt.baseUrl),
        source: attempt.source,
        count: payload.records,
        bytes: payload.bytes,
        sha256: payload.sha256,
        diff: diffCounts(attempt.diff),
        outcome: result.outcome,
        status: result.status,
        error: result.error,
        snapshot,
      }),
    );
  } catch (err) {
    warnings.push(`the audit log ${paths.audit} could not be written: ${describe(err)}`);
  }
  return warnings;
}

function diffCounts(diff: Diff) {
  const { baseline, added, removed, changed, unchanged } = diff;
  return { baseline, added, removed, changed, unchanged };
}

function describe(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message ?? String(err);
}
