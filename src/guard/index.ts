// The guard stage: what would make this upload a mistake, decided from the plan alone, so a dry run
// reaches the same verdict a real run acts on. Pure: facts in, a verdict out. A refusal sends nothing
// and names the exact override.
import { thousands } from '../numbers.js';
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
  /** --no-baseline: the user accepts that the removal guard cannot protect an upload with no baseline. */
  readonly acknowledgeNoBaseline: boolean;
  /** Why there is no baseline, when there is none. */
  readonly noBaselineWhy?: string | undefined;
  /** What this run has of what sending needs (a dry run may have none of it). */
  readonly has: { readonly token: boolean; readonly tokenEnv: string; readonly baseUrl: boolean; readonly confirmation: boolean };
}

export interface Verdict {
  /** Why the upload must not go ahead; undefined when it may. */
  readonly refusal: GuardRefusal | undefined;
  /** Things worth telling the user whatever the outcome (may be empty). */
  readonly notes: readonly string[];
  /** What a real run would also need that this one does not have (a dry run's reminder). */
  readonly needs: readonly string[];
}

export function judge(input: GuardInput): Verdict {
  const { noun } = KINDS[input.kind];
  const notes: string[] = [];
  const needs: string[] = [];
  if (!input.has.token) needs.push(`an access token (${input.has.tokenEnv} or --token-file)`);
  if (!input.has.baseUrl) needs.push('a base URL (--base-url or UPLOAD_BASE_URL)');
  if (!input.has.confirmation) needs.push('--yes, as there is no terminal to confirm it');
  const verdict = (refusal?: GuardRefusal): Verdict => ({ refusal, notes, needs });
  if (input.count === 0) {
    if (!input.allowEmpty) {
      return verdict(
        new GuardRefusal(
          'EMPTY_UPLOAD',
          `${input.source} holds no valid records; uploading it would delete every ${noun} on the service`,
          'if that is really what you want, pass --allow-empty',
        ),
      );
    }
    notes.push(`--allow-empty: this upload deletes every ${noun} on the service`);
  }
  const { diff } = input;
  if (diff.baseline === 'none' || diff.removed === null || diff.baselineCount === null) {
    // Without an address there is no store to look in: a dry run says so and leaves the verdict to a real run.
    if (input.has.baseUrl && !input.acknowledgeNoBaseline) {
      return verdict(
        new GuardRefusal(
          'NO_BASELINE',
          `there is no baseline to compare with (${input.noBaselineWhy ?? 'no earlier upload is recorded'}), so the removal guard cannot protect this upload: it would replace whatever the service holds with ${thousands(input.count)} ${noun}${input.count === 1 ? '' : 's'}`,
          'pass --baseline FILE (e.g. the export that was last uploaded) to compare with it, or --no-baseline if you know nothing on the service must be kept',
        ),
      );
    }
    notes.push(`No baseline, so the removal guard (--max-removals) cannot apply: nothing is known about what the service holds now`);
    return verdict();
  }
  const allowed = allowedRemovals(input.limit, diff.baselineCount);
  if (diff.removed > allowed) {
    const share = diff.baselineCount ? ` (${((100 * diff.removed) / diff.baselineCount).toFixed(1)} %)` : '';
    const keys = diff.examples.removed.join(', ') + (diff.removed > diff.examples.removed.length ? ', …' : '');
    const what = input.limit.kind === 'percent' ? `${describeLimit(input.limit)} of ${thousands(diff.baselineCount)}, that is ${allowed}` : `${allowed}`;
    return verdict(
      new GuardRefusal(
        'TOO_MANY_REMOVALS',
        `this upload would remove ${thousands(diff.removed)} of ${thousands(diff.baselineCount)} ${noun}s${share}, more than --max-removals allows (${what}); it would remove ${keys}`,
        `if the file is complete and these removals are intended, run again with --max-removals ${diff.removed}`,
      ),
    );
  }
  return verdict();
}
