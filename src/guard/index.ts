// The guard stage: what would make this upload a mistake, decided from the plan alone, so a dry run
// reaches the same verdict a real run acts on. Pure: facts in, a verdict out. Every command that sends
// (upload, restore, apply, and whatever sends a set built from the last one) calls judge() with the
// diff of exactly what it would send, so no path gets round a guard: a file sent with its omitted
// records held back removes nothing, but its changes and emptied values are judged all the same.
// A refusal sends nothing and names the exact override.
import { thousands } from '../numbers.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import type { ChangeTally } from '../diff/fields.js';
import type { Diff } from '../diff/index.js';
import { GuardRefusal } from '../errors.js';
import { judgeChanges, judgeEmptied, type Finding } from './changes.js';
import type { GuardCheck } from './checks.js';
import { allowedRemovals, describeLimit, limitInWords, type Limits } from './limit.js';

export { parseLimit, parseMaxRemovals, type Limit, type Limits, type RemovalLimit } from './limit.js';
export type { GuardCheck } from './checks.js';

export interface GuardInput {
  readonly kind: Kind;
  readonly source: string;
  /** Number of records that would be sent. */
  readonly count: number;
  readonly diff: Diff;
  /** What the changed records change, field by field (src/diff/changed.ts); undefined without a baseline. */
  readonly changes: ChangeTally | undefined;
  readonly limits: Limits;
  /** --no-baseline: the user accepts that the guards cannot protect an upload with no baseline. */
  readonly acknowledgeNoBaseline: boolean;
  /**
   * Where the set comes from, for what the override says: a file (the default: is it complete, is it
   * read as intended?), a recorded set (restore), or a saved plan (apply: a new plan is the override).
   */
  readonly from?: 'file' | 'recorded' | 'plan';
  /** Why there is no baseline, when there is none. */
  readonly noBaselineWhy?: string | undefined;
  /** What this run has of what sending needs (a dry run may have none of it). */
  readonly has: { readonly token: boolean; readonly tokenEnv: string; readonly baseUrl: boolean; readonly confirmation: boolean };
}

export interface Verdict {
  /** Why the upload must not go ahead; undefined when it may. */
  readonly refusal: GuardRefusal | undefined;
  /** Every guard's verdict, for the report: empty upload, removals, changes, emptied values. */
  readonly guards: readonly GuardCheck[];
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

  const empty: GuardCheck = {
    name: 'EMPTY_UPLOAD',
    flag: '--allow-empty',
    setting: input.limits.allowEmpty,
    count: input.count,
    limit: null,
    verdict: input.count === 0 && !input.limits.allowEmpty ? 'refused' : 'passed',
  };
  if (input.count === 0 && input.limits.allowEmpty) notes.push(`--allow-empty: this upload deletes every ${noun} on the service`);
  const { diff } = input;
  const verdict = (guards: GuardCheck[], refusal?: GuardRefusal): Verdict => ({ refusal, guards, notes, needs });
  // `apply` takes no guard flags: a saved plan's override is a new plan, as for the other guards.
  const emptyRefusal = () =>
    input.from === 'plan'
      ? new GuardRefusal(
          'EMPTY_UPLOAD',
          `${input.source} holds no records; applying it would delete every ${noun} on the service`,
          'if that is really what you want, make a new plan with --dry-run --plan-out FILE --allow-empty, review it, and apply that one',
        )
      : new GuardRefusal(
          'EMPTY_UPLOAD',
          `${input.source} holds no valid records; uploading it would delete every ${noun} on the service`,
          'if that is really what you want, pass --allow-empty',
        ).withFixes({ kind: 'flags', args: ['--allow-empty'] });

  if (diff.baseline === 'none' || diff.removed === null || diff.baselineCount === null || !input.changes) {
    const why = 'there is no baseline to compare with';
    const guards = [empty, ...notApplied(input, why)];
    if (empty.verdict === 'refused') return verdict(guards, emptyRefusal());
    // Without an address there is no store to look in: a dry run says so and leaves the verdict to a real run.
    // --baseline FILE names a file only the person knows; --no-baseline is the fix a script can take.
    if (input.has.baseUrl && !input.acknowledgeNoBaseline) {
      return verdict(
        guards,
        new GuardRefusal(
          'NO_BASELINE',
          `there is no baseline to compare with (${input.noBaselineWhy ?? 'no earlier upload is recorded'}), so the removal and change guards cannot protect this upload: it would replace whatever the service holds with ${thousands(input.count)} ${noun}${input.count === 1 ? '' : 's'}`,
          'pass --baseline FILE (e.g. the export that was last uploaded) to compare with it, or --no-baseline if you know nothing on the service must be kept',
        ).withFixes({ kind: 'flags', args: ['--no-baseline'] }),
      );
    }
    notes.push(
      'No baseline, so the removal guard (--max-removals) cannot apply, and neither can the change guards (--max-changes, --max-emptied): nothing is known about what the service holds now',
    );
    return verdict(guards);
  }

  // Every guard is judged, so the report has each verdict and the hint every flag this upload needs.
  const findings = [
    removals(input, diff.removed, diff.baselineCount),
    judgeEmptied(input.kind, input.changes, input.limits.maxEmptied),
    judgeChanges(input.kind, diff.baselineCount, input.changes, input.limits.maxChanges),
  ];
  const guards = [empty, ...findings.map((f) => f.check)];
  const refusing = findings.filter((f) => f.refusal);
  if (empty.verdict === 'refused') return verdict(guards, emptyRefusal());
  const first = refusing[0];
  if (!first?.refusal) return verdict(guards);
  const overrides = refusing.map((f) => f.refusal!.override).join(' ');
  const also = refusing.slice(1).map((f) => ` — also, ${f.refusal!.message}`);
  const from = input.from ?? 'file';
  const refusal = new GuardRefusal(
    first.check.name,
    first.refusal.message + also.join(''),
    overrideHint(
      refusing.map((f) => f.check.name),
      overrides,
      from,
    ),
  );
  // Every override is `--flag COUNT`: one fix with all of them, as the hint says "run again with" them
  // together. A saved plan's override is a new plan, made from a file only its planner has: no fix.
  if (from === 'plan') return verdict(guards, refusal);
  return verdict(guards, refusal.withFixes({ kind: 'flags', args: refusing.flatMap((f) => f.refusal!.override.split(' ')) }));
}

/** The override, and what it is for: a complete file for removals, a file read as intended for changes. */
function overrideHint(names: readonly GuardCheck['name'][], overrides: string, from: NonNullable<GuardInput['from']>): string {
  const removals = names.includes('TOO_MANY_REMOVALS');
  const changes = names.some((n) => n === 'TOO_MANY_CHANGES' || n === 'VALUES_EMPTIED');
  const meant = removals && changes ? 'these removals and changes are meant' : removals ? 'these removals are intended' : 'these changes are meant';
  if (from === 'plan') return `if ${meant}, make a new plan with --dry-run --plan-out FILE ${overrides}, review it, and apply that one`;
  const run = `run again with ${overrides}`;
  if (from === 'recorded') return `if ${meant}, ${run}${changes ? ' (see every change first with --dry-run)' : ''}`;
  if (!changes) return `if the file is complete and ${meant}, ${run}`;
  const review = ' (review every change first with --dry-run --diff-out changes.csv)';
  return `if the file is ${removals ? 'complete and read as intended, and' : 'read as intended and'} ${meant}, ${run}${review}`;
}

function removals(input: GuardInput, removed: number, baselineCount: number): Finding {
  const { noun } = KINDS[input.kind];
  const allowed = allowedRemovals(input.limits.maxRemovals, baselineCount);
  const check: GuardCheck = {
    name: 'TOO_MANY_REMOVALS',
    flag: '--max-removals',
    setting: describeLimit(input.limits.maxRemovals),
    count: removed,
    limit: allowed,
    verdict: removed > allowed ? 'refused' : 'passed',
  };
  if (removed <= allowed) return { check };
  const { diff } = input;
  const share = baselineCount ? ` (${((100 * removed) / baselineCount).toFixed(1)} %)` : '';
  const keys = diff.examples.removed.join(', ') + (removed > diff.examples.removed.length ? ', …' : '');
  return {
    check,
    refusal: {
      message: `this upload would remove ${thousands(removed)} of ${thousands(baselineCount)} ${noun}s${share}, more than --max-removals allows (${limitInWords(input.limits.maxRemovals, baselineCount, allowed)}); it would remove ${keys}`,
      override: `--max-removals ${removed}`,
    },
  };
}

/** The guards that compare with a baseline, when there is none. */
function notApplied(input: GuardInput, why: string): GuardCheck[] {
  const base = { count: null, limit: null, verdict: 'not-applied', why } as const;
  return [
    { name: 'TOO_MANY_REMOVALS', flag: '--max-removals', setting: describeLimit(input.limits.maxRemovals), ...base },
    { name: 'VALUES_EMPTIED', flag: '--max-emptied', setting: describeLimit(input.limits.maxEmptied), ...base },
    { name: 'TOO_MANY_CHANGES', flag: '--max-changes', setting: describeLimit(input.limits.maxChanges), ...base },
  ];
}
