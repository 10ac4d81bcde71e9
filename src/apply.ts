// `upload apply <plan>`: exactly the bytes a dry run saved and someone reviewed, sent only if the store
// is still at the generation the plan was made against; otherwise nothing is sent (PLAN_STALE).
import { GuardRefusal, UsageError } from './errors.js';
import { DEFAULTS, type Identity, type UploadOptions } from './options.js';
import { readPlan, type PlanDocument } from './plan-file.js';
import { emptyReport, markUploaded, baselineOf, diffReport } from './report/types.js';
import { execute, type RunContext } from './run.js';
import { resolveBaseUrl } from './send/config.js';
import { openState, type RunResult } from './upload.js';
import { KINDS } from './contract/kinds.js';
import { analyseChanges } from './diff/changed.js';
import type { ChangeTally } from './diff/fields.js';
import { diffRecords, noBaseline, type Diff } from './diff/index.js';
import { decodeCanonical } from './diff/snapshot.js';
import { InputError } from './errors.js';
import { judge, parseLimit } from './guard/index.js';
import { generationRecords, type State } from './load.js';
import type { Generation } from './state/types.js';

export interface ApplyOptions {
  readonly plan: string;
  readonly confirm: UploadOptions['confirm'];
  /** --base-url or UPLOAD_BASE_URL, when given: it must be the plan's. */
  readonly baseUrl: URL | undefined;
  readonly token: NonNullable<UploadOptions['token']>;
  readonly retries: number;
  readonly timeoutSeconds: number;
  readonly state: string;
  readonly keep: number;
  readonly identity: Identity;
}

export async function runApply(options: ApplyOptions, ctx: RunContext): Promise<RunResult> {
  const report = emptyReport(null, options.plan, false);
  try {
    const { doc, body } = await readPlan(options.plan);
    report.kind = doc.kind;
    report.records = doc.body.records;
    const baseUrl = resolveBaseUrl(doc.baseUrl, {});
    if (options.baseUrl && options.baseUrl.href !== baseUrl.href) {
      throw new UsageError(
        'PLAN_BASE_URL',
        `the plan was made for ${doc.baseUrl}, but this run is given ${options.baseUrl.href.replace(/\/$/, '')}`,
        'apply a plan to the service it was made for, or make a new plan for this one',
      );
    }
    const state = await openState(options.state, baseUrl, doc.kind, ctx);
    try {
      const head = await state.store.head(state.key);
      const now = head?.generation ?? 0;
      if (now !== doc.generation) {
        throw new GuardRefusal(
          'PLAN_STALE',
          `the plan was made against ${doc.generation ? `upload #${doc.generation}` : 'no earlier upload'}, but ${state.key.baseUrl} has had ${now ? `upload #${now} (by ${head!.user}@${head!.host} at ${head!.uploadedAt})` : 'its history removed'} since; nothing was sent`,
          'make a new plan with --dry-run --plan-out FILE against what the service holds now, review it, and apply that one',
        );
      }
      const against = baselineOf(head);
      report.baseline = against;
      ctx.emit({
        type: 'notice',
        message: `Plan ${options.plan}: ${doc.body.records} record(s) from ${doc.source}, made by ${doc.user}@${doc.host} at ${doc.createdAt}`,
      });
      // Judged again, with the limits the plan was judged with, against what the store holds now.
      const { diff, verdict } = await judgePlan(doc, body, head && { state, head });
      report.diff = diffReport(diff);
      report.unchanged = diff.added === 0 && diff.removed === 0 && diff.changed === 0;
      report.guards = verdict.guards;
      ctx.emit({ type: 'diff', kind: doc.kind, diff, against, noBaselineWhy: undefined });
      ctx.emit({ type: 'guards', kind: doc.kind, guards: verdict.guards });
      ctx.emit({ type: 'guard-notes', notes: head ? verdict.notes : doc.notes });
      if (verdict.refusal) throw verdict.refusal;
      const executed = await execute(
        {
          ...options,
          kind: doc.kind,
          source: doc.source,
          baseUrl,
          store: state.store,
          key: state.key,
          expected: doc.generation,
          staleCode: 'PLAN_STALE',
          against,
          payload: { records: doc.body.records, chunks: [body], bytes: body.length, sha256: doc.body.sha256 },
          diff,
          plan: options.plan,
        },
        ctx,
      );
      markUploaded(report, executed);
    } finally {
      await state.store.close();
    }
    return { report };
  } catch (failure) {
    return { report, failure };
  }
}

/**
 * The plan's body against the latest upload, through the same guards as any upload, with the limits
 * the plan records (the defaults for a plan written before it recorded them). With nothing recorded
 * there is nothing to compare with: the plan's own counts stand and the guards cannot apply.
 */
async function judgePlan(doc: PlanDocument, body: Buffer, latest: { state: State; head: Generation } | undefined) {
  const limits = doc.limits ?? { maxRemovals: DEFAULTS.maxRemovals, maxChanges: DEFAULTS.maxChanges, maxEmptied: DEFAULTS.maxEmptied, allowEmpty: false };
  let diff: Diff = { ...noBaseline(), baseline: doc.baseline, ...doc.diff };
  let changes: ChangeTally | undefined;
  if (latest) {
    const planned = decodeCanonical(body, KINDS[doc.kind].keyField);
    if (!planned)
      throw new InputError(
        'PLAN_INVALID',
        "the plan's body is not a body this tool wrote",
        'make a new plan with --dry-run --plan-out FILE, review it, and apply that one',
      );
    const records = await generationRecords(latest.state, latest.head);
    const [keys, bodies] = [[...planned.keys()], [...planned.values()]];
    diff = diffRecords(records, 'snapshot', keys, bodies);
    changes = analyseChanges(doc.kind, records, keys, bodies, diff);
  }
  const verdict = judge({
    kind: doc.kind,
    source: doc.source,
    count: doc.body.records,
    diff,
    changes,
    limit: parseLimit('--max-removals', limits.maxRemovals),
    maxChanges: parseLimit('--max-changes', limits.maxChanges),
    maxEmptied: parseLimit('--max-emptied', limits.maxEmptied),
    allowEmpty: limits.allowEmpty,
    // A plan is only written once its baseline question was settled.
    acknowledgeNoBaseline: true,
    has: { token: true, tokenEnv: '', baseUrl: true, confirmation: true },
  });
  return { diff, verdict };
}
