// `--hold-removals`: the one judge step every upload goes through, with one more way out. When the
// removal guard would refuse, the records the plan leaves out are added back as they are recorded, the
// diff is worked out again, and the whole judgement is made again on what would then be sent: the
// additions and changes go through under every other guard (the change and emptied-value guards
// judge the same changed records, as nothing held is changed), and nothing is deleted.
import type { ChangeTally } from '../diff/fields.js';
import { diffRecords, type Diff } from '../diff/index.js';
import { judge, type GuardInput, type Verdict } from '../guard/index.js';
import { bodiesOf, holdRemovals, type RecordSet } from './index.js';
import type { RecordsByKey } from '../diff/records.js';

export interface Judged {
  readonly verdict: Verdict;
  /** What would be sent: the plan, or the plan and the held records. */
  readonly planned: RecordSet;
  readonly diff: Diff;
  /** The keys kept on the service although the plan leaves them out (empty: none held). */
  readonly held: readonly string[];
}

export function judgeHolding(
  input: GuardInput,
  planned: RecordSet,
  hold:
    | {
        readonly recorded: RecordsByKey;
        /** The field analysis of the set with the held records (they count as holders of their values). */
        readonly changesOf?: (set: RecordSet, diff: Diff) => ChangeTally | undefined;
      }
    | undefined,
): Judged {
  const verdict = judge(input);
  const source = input.diff.baseline;
  if (!hold || source === 'none' || verdict.refusal?.code !== 'TOO_MANY_REMOVALS') return { verdict, planned, diff: input.diff, held: [] };
  const kept = holdRemovals(hold.recorded, planned);
  const diff = diffRecords(hold.recorded, source, kept.keys, bodiesOf(kept));
  const changes = hold.changesOf ? hold.changesOf(kept, diff) : input.changes;
  return { verdict: judge({ ...input, diff, changes, count: kept.keys.length }), planned: kept, diff, held: kept.held };
}
