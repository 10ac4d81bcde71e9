// `upload apply <plan>`: exactly the bytes a dry run saved and someone reviewed, sent only if the store
// is still at the generation the plan was made against; otherwise nothing is sent (PLAN_STALE).
import { KINDS } from './contract/kinds.js';
import { GuardRefusal, UsageError } from './errors.js';
import type { Identity, UploadOptions } from './options.js';
import { readPlan } from './plan-file.js';
import { emptyReport, markUploaded, baselineOf } from './report/types.js';
import { execute, type RunContext } from './run.js';
import { resolveBaseUrl } from './send/config.js';
import { openState, type RunResult } from './upload.js';
import type { Reviewed } from './report/html/changes.js';
import { generationRecords, type State } from './load.js';
import type { Generation } from './state/types.js';
import type { PlanDocument } from './plan-file.js';

/** For the review page: the plan's records against what the store holds (the plan's own baseline). */
async function reviewPlan(review: Reviewed, state: State, head: Generation | undefined, doc: PlanDocument, body: Buffer, plan: string): Promise<void> {
  const { decodeCanonical } = await import('./diff/snapshot.js');
  const records = decodeCanonical(body, KINDS[doc.kind].keyField);
  const baseline = head ? await generationRecords(state, head) : undefined;
  if (records) review.records = { kind: doc.kind, baseline, keys: [...records.keys()], bodies: [...records.values()] };
  review.sha256 = doc.body.sha256;
  review.plan = plan;
}

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
  /** Refuses a plan made for another named target than this run's (the CLI knows the config). */
  readonly checkTarget?: (planTarget: string | null) => void;
}

export async function runApply(options: ApplyOptions, ctx: RunContext): Promise<RunResult> {
  const report = emptyReport(null, options.plan, false);
  try {
    const { doc, body } = await readPlan(options.plan);
    options.checkTarget?.(doc.target ?? null);
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
      if (ctx.review) await reviewPlan(ctx.review, state, head, doc, body, options.plan);
      const diff = { baseline: doc.baseline, ...doc.diff, baselineCount: head?.records ?? null, examples: { added: [], removed: [], changed: [] } };
      report.diff = { ...doc.diff, baseline: doc.baseline, examples: diff.examples };
      report.unchanged = doc.diff.added === 0 && doc.diff.removed === 0 && doc.diff.changed === 0;
      ctx.emit({
        type: 'notice',
        message: `Plan ${options.plan}: ${doc.body.records} record(s) from ${doc.source}, made by ${doc.user}@${doc.host} at ${doc.createdAt}`,
      });
      ctx.emit({ type: 'diff', kind: doc.kind, diff, against, noBaselineWhy: undefined });
      ctx.emit({ type: 'guard-notes', notes: doc.notes });
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
