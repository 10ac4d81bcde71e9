// The guard stage: what would make this upload a mistake, decided from the plan alone, so a dry run
// reaches the same verdict a real run acts on. A refusal sends nothing and names the exact override.
import { KINDS, type Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import { GuardRefusal } from '../errors.js';
import { allowedRemovals, describeLimit, type RemovalLimit } from './limit.js';

export { parseMaxRemovals, type RemovalLimit } from './limit.js';

export interface GuardInput {
  readonly kind: Kind;
  readonly source: string;
  /** Number of records that would be sent. */
  readonly count: number;
  readonly diff: Diff;
  readonly limit: RemovalLimit;
  readonly allowEmpty: boolean;
}

/** Throws the refusal, if any; otherwise returns notes worth telling the user (may be empty). */
export function checkGuards(input: GuardInput): string[] {
  const { noun } = KINDS[input.kind];
  const notes: string[] = [];
  if (input.count === 0) {
    if (!input.allowEmpty) {
      throw new GuardRefusal('EMPTY_UPLOAD', `${input.source} holds no valid records; uploading it would delete every ${noun} on the service`, 'if that is really what you want, pass --allow-empty');
    }
    notes.push(`--allow-empty: this upload deletes every ${noun} on the service`);
  }
  const { diff } = input;
  if (diff.baseline === 'none' || diff.removed === null || diff.baselineCount === null) {
    notes.push(`No baseline, so the removal guard (--max-removals) cannot apply: nothing is known about what the service holds now`);
    return notes;
  }
  const allowed = allowedRemovals(input.limit, diff.baselineCount);
  if (diff.removed > allowed) {
    const share = diff.baselineCount ? ` (${((100 * diff.removed) / diff.baselineCount).toFixed(1)} %)` : '';
    const keys = diff.examples.removed.join(', ') + (diff.removed > diff.examples.removed.length ? ', …' : '');
    const what = input.limit.kind === 'percent' ? `${describeLimit(input.limit)} of ${diff.baselineCount.toLocaleString('en-US')}, that is ${allowed}` : `${allowed}`;
    throw new GuardRefusal(
      'TOO_MANY_REMOVALS',
      `this upload would remove ${diff.removed.toLocaleString('en-US')} of ${diff.baselineCount.toLocaleString('en-US')} ${noun}s${share}, more than --max-removals allows (${what}); it would remove ${keys}`,
      `if the file is complete and these removals are intended, run again with --max-removals ${diff.removed}`,
    );
  }
  return notes;
}
