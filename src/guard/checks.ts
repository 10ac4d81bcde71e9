// A guard's verdict as data: what the report's `guards` array holds, one entry per guard, on every run
// that got as far as judging — so a cron log shows how close a night came to a refusal.

export type GuardName = 'EMPTY_UPLOAD' | 'TOO_MANY_REMOVALS' | 'TOO_MANY_CHANGES' | 'VALUES_EMPTIED';

export interface GuardCheck {
  readonly name: GuardName;
  /** The flag that sets it. */
  readonly flag: '--allow-empty' | '--max-removals' | '--max-changes' | '--max-emptied';
  /** The limit as set ("10%", "37"); for the empty guard, whether --allow-empty was given. */
  readonly setting: string | boolean;
  /** What the guard counted (records sent, removed, changed; the most emptied field's losses). Null when it could not apply. */
  readonly count: number | null;
  /** The most it allows (null when it could not apply, and for the empty guard, which has no count limit). */
  readonly limit: number | null;
  readonly verdict: 'passed' | 'refused' | 'not-applied';
  /** Why it could not apply. */
  readonly why?: string;
  /** TOO_MANY_CHANGES: records changed per field. VALUES_EMPTIED: per field with losses, the losses, holders and limit. */
  readonly fields?: readonly FieldCheck[];
  /** VALUES_EMPTIED: the field that `count` and `limit` are of (the one nearest to, or furthest past, its limit). */
  readonly field?: string | null;
}

export interface FieldCheck {
  readonly field: string;
  readonly count: number;
  /** VALUES_EMPTIED: records the upload keeps that held a value in the field, and the losses allowed of them. */
  readonly held?: number;
  readonly limit?: number;
}

/** Whether the human summary shows a guard: it refuses, or comes within a fifth of its limit. */
export function worthShowing(check: GuardCheck): boolean {
  if (check.verdict === 'refused') return true;
  if (check.verdict !== 'passed' || check.count === null || check.limit === null || check.count === 0) return false;
  return check.count >= 0.8 * check.limit;
}
