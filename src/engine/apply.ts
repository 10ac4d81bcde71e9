// `upload apply <plan>`: the planned set is exactly the bytes a dry run saved and someone reviewed,
// sent only if the store is still at the generation the plan was made against; otherwise nothing is
// sent (PLAN_STALE). It is not judged again: its guards spoke when it was made.
import { GuardRefusal, UsageError } from '../errors.js';
import { baselineOf } from '../report/types.js';
import { resolveBaseUrl } from '../send/config.js';
import type { RunContext } from './context.js';
import { runFrame, type Definition } from './frame.js';
import type { SendOptions, StateOptions } from './options.js';
import type { RunResult } from './result.js';
import { readPlan, type PlanDocument } from './saved-plan.js';

export interface ApplyOptions extends SendOptions, StateOptions {
  /** The saved plan's path. */
  readonly plan: string;
  /** --base-url or UPLOAD_BASE_URL, when given: it must be the plan's. */
  readonly baseUrl: URL | undefined;
}

export function runApply(options: ApplyOptions, ctx: RunContext): Promise<RunResult> {
  return runFrame(applyDefinition(options), ctx);
}

export function applyDefinition(options: ApplyOptions): Definition {
  // Read by locate(), the first step: everything after it works from the plan.
  let saved: { doc: PlanDocument; body: Buffer } | undefined;
  const doc = () => saved!.doc;
  return {
    facts: { kind: null, source: options.plan, dryRun: false },
    dryRun: false,
    state: options.state,
    send: options,
    keep: options.keep,
    identity: options.identity,
    guards: undefined,
    staleCode: 'PLAN_STALE',
    locate: async () => {
      saved = await readPlan(options.plan);
      const { kind, body } = saved.doc;
      const baseUrl = resolveBaseUrl(saved.doc.baseUrl, {});
      if (options.baseUrl && options.baseUrl.href !== baseUrl.href) {
        throw new UsageError(
          'PLAN_BASE_URL',
          `the plan was made for ${saved.doc.baseUrl}, but this run is given ${options.baseUrl.href.replace(/\/$/, '')}`,
          'apply a plan to the service it was made for, or make a new plan for this one',
        );
      }
      return { kind, baseUrl, facts: { records: body.records } };
    },
    baseline: ({ state, head }) => {
      const now = head?.generation ?? 0;
      const { generation } = doc();
      if (now !== generation) {
        throw new GuardRefusal(
          'PLAN_STALE',
          `the plan was made against ${generation ? `upload #${generation}` : 'no earlier upload'}, but ${state!.key.baseUrl} has had ${now ? `upload #${now} (by ${head!.user}@${head!.host} at ${head!.uploadedAt})` : 'its history removed'} since; nothing was sent`,
          'make a new plan with --dry-run --plan-out FILE against what the service holds now, review it, and apply that one',
        );
      }
      // The plan carries its diff: the records it was compared with are not needed again.
      return Promise.resolve({ baseline: undefined, why: '', against: baselineOf(head) });
    },
    plan: ({ head }, _against, ctx) => {
      const { doc, body } = saved!;
      ctx.emit({
        type: 'notice',
        message: `Plan ${options.plan}: ${doc.body.records} record(s) from ${doc.source}, made by ${doc.user}@${doc.host} at ${doc.createdAt}`,
      });
      const payload = { records: doc.body.records, chunks: [body], bytes: body.length, sha256: doc.body.sha256 };
      return Promise.resolve({
        source: doc.source,
        records: doc.body.records,
        count: doc.body.records,
        diff: { baseline: doc.baseline, ...doc.diff, baselineCount: head?.records ?? null, examples: { added: [], removed: [], changed: [] } },
        payload: () => Promise.resolve(payload),
        notes: doc.notes,
        savedPlan: options.plan,
      });
    },
  };
}
