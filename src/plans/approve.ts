// `upload approve <plan>`: the second pair of eyes. The plan is read, checked and shown exactly as
// `apply` would show it (the target, the diff against the latest upload, the guards with the plan's own
// limits); then, asked on a terminal or with --yes, an approval of its digest is recorded in the state
// store under the name the store gives this person (docs/review-then-apply.md). Nothing is sent.
import { GuardRefusal, Interrupted } from '../errors.js';
import { nextCommand, tally, type Tally } from '../pipeline/approval.js';
import { applyDefinition, type ApplyOptions } from './apply.js';
import type { RunContext } from '../pipeline/context.js';
import { runFrame } from '../pipeline/frame.js';
import type { RunResult } from '../report/result.js';

export interface ApproveOptions extends ApplyOptions {
  /** The machine the approval is given from, for the history (UPLOAD_HOST or the host name). */
  readonly host: string;
}

export function runApprove(options: ApproveOptions, ctx: RunContext): Promise<RunResult> {
  const base = applyDefinition(options, 'approve');
  return runFrame(
    {
      ...base,
      act: async ({ state, target }, planned, against, ctx_: RunContext) => {
        const checked = base.toApprove();
        if (!state || !checked) throw new Error('approve reached its step without a recorded plan');
        const { plan, rule, me } = checked;
        const report = (found: Tally) => ({
          approval: {
            digest: plan.digest,
            needed: rule.approvals,
            hours: rule.hours,
            planner: plan.planner,
            plannedAt: plan.plannedAt,
            approvers: found.counted.map((a) => ({ name: a.approver, at: a.approvedAt })),
            appliedBy: null,
          },
        });
        // Written once: an approval that still counts is not given twice.
        const mine = checked.found.counted.find((a) => a.approver === me);
        if (mine) {
          ctx_.emit({ type: 'notice', message: `${me} approved this plan already, at ${mine.approvedAt}; nothing more was recorded.` });
          return report(checked.found);
        }
        if (options.confirm !== 'yes') {
          const request = {
            kind: target.kind,
            count: planned.count,
            where: state.key.baseUrl,
            diff: planned.diff,
            against: against.against,
            action: 'approve' as const,
          };
          const yes = await ctx_.confirm(request).catch((err: unknown) => {
            if ((err as Error).name === 'AbortError') throw new Interrupted('INTERRUPTED', 'interrupted at the question; no approval was recorded');
            throw err;
          });
          if (!yes) throw new GuardRefusal('DECLINED', 'not approved; nothing was recorded', 'run again and answer y to approve');
        }
        ctx_.signal?.throwIfAborted();
        const given = await state.store.approve(state.key, plan, options.host);
        const found = await tally(state.store, state.key, plan, rule);
        const missing = Math.max(0, rule.approvals - found.counted.length);
        const target_ = options.target ?? null;
        const next = missing ? nextCommand('approve', options.plan, target_) : nextCommand('apply', options.plan, target_);
        ctx_.emit({
          type: 'notice',
          message: `Approved by ${me} at ${given.approvedAt} (valid ${rule.hours} h). ${found.counted.length} of ${rule.approvals} approval${rule.approvals === 1 ? '' : 's'}${missing ? `: ${missing} more needed (someone else: ${next.text}) before upload apply` : `: ${next.text} can send it now`}.`,
        });
        return report(found);
      },
    },
    ctx,
  );
}
