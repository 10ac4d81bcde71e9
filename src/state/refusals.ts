// The refusals of the write-ahead step, the same in both stores: the intent is written only while the
// lock is this run's, the latest upload is the one the plan was made against, and no other upload is
// waiting to be settled. Each means nothing was written and nothing will be sent. And the damaged
// records both stores refuse alike (SNAPSHOT_CORRUPT).
import { GuardRefusal, resolveFixes } from '../errors.js';
import type { Intent, StateKey } from './types.js';

export function lockLost(key: StateKey, label: string): GuardRefusal {
  return new GuardRefusal(
    'LOCK_LOST',
    `the lock on ${key.kind} to ${key.baseUrl} in ${label} was lost before sending (a long pause, a suspended machine, or a dropped database session); nothing was sent`,
    'run again: the changes are worked out anew under a fresh lock',
  );
}

/** The lock lost between the send and the record (commit): what the service holds is for a person to check. */
export function lostBeforeRecord(key: StateKey, label: string): GuardRefusal {
  return new GuardRefusal(
    'LOCK_HELD',
    `the lock on ${key.kind} to ${key.baseUrl} in ${label} was lost before the upload could be recorded`,
    'check what the service holds, then run again',
  );
}

export function stateMoved(key: StateKey, label: string, expected: number, now: number): GuardRefusal {
  return new GuardRefusal(
    'STATE_MOVED',
    `the state of ${key.kind} to ${key.baseUrl} in ${label} moved from upload #${expected} to #${now} while this upload was being prepared; nothing was sent`,
    'run again, so the changes are worked out against the latest upload',
  );
}

export function anotherPending(key: StateKey, label: string, intent: Intent | undefined): GuardRefusal {
  const who = intent ? ` (${intent.source}, by ${intent.user}@${intent.host} at ${intent.intendedAt})` : '';
  return new GuardRefusal(
    'BASELINE_UNCERTAIN',
    `another upload of ${key.kind} to ${key.baseUrl}${who} was sent but never confirmed in ${label}: the service may hold it; nothing was sent`,
    `look in the scheduling application whether a record this upload added or changed is there (the service offers no way to read what it holds), then settle it with \`upload state resolve ${key.kind} --sent\` or \`--previous\``,
  ).withFixes(...resolveFixes(key.kind, '--sent', '--previous'));
}

/** A recorded upload that cannot be read as recorded (`why`): what it would be compared with is unknown. */
export function snapshotDamaged(key: StateKey, label: string, generation: number, why = 'its bytes do not match their sha256'): GuardRefusal {
  return new GuardRefusal(
    'SNAPSHOT_CORRUPT',
    `upload #${generation} of ${key.kind} to ${key.baseUrl} in ${label} is damaged (${why}), so the changes and removals cannot be worked out`,
    'pass --baseline FILE (an export that matches what the service holds) to compare with it instead',
  );
}

/** The unconfirmed upload's bytes, which no longer match their sha256. */
export function pendingDamaged(label: string): GuardRefusal {
  return new GuardRefusal(
    'SNAPSHOT_CORRUPT',
    `the unconfirmed upload in ${label} is damaged (its bytes do not match their sha256)`,
    'settle it with --previous, or pass --baseline FILE',
  );
}
