// A night that runs itself within a policy (docs/review-then-apply.md): an unattended run (--yes) on an
// address that needs approvals, whose policy has autoApply bounds, is sent without a second person when
// its plan is within every bound ("approved by policy", in the history, --json, the review page and the
// notification); any other plan is kept in the store awaiting approval (AWAITING_APPROVAL), and nothing
// is sent. The runner lets a direct run through only in that case (src/cli/four-eyes.ts).
import { GuardRefusal } from '../errors.js';
import { limitsAsWritten } from '../guard/limit.js';
import { describeBounds, outsideBounds } from '../guard/policy.js';
import type { Definition, GuardSettings, Opened, Planned } from './definition.js';
import type { RunContext } from './context.js';
import { approvalDigest } from './approval.js';
import { awaitingApproval, keepWaiting } from './waiting.js';

/** The approval of a plan within the bounds, or the refusal that keeps it waiting. */
export async function approveByPolicy(
  def: Definition<unknown>,
  guards: GuardSettings | undefined,
  opened: Opened<unknown>,
  planned: Planned,
  notes: readonly string[],
  ctx: RunContext,
): Promise<NonNullable<Planned['approval']>> {
  const rule = def.fourEyes!;
  const { state, head } = opened;
  const bounds = rule.autoApply;
  if (!state || !bounds || def.send.confirm !== 'yes')
    throw new GuardRefusal(
      'PLAN_REQUIRED',
      `this address needs ${rule.approvals} approval(s) by someone other than the planner before anything is sent; nothing was sent`,
      'make a plan with --dry-run --plan-out FILE, have it approved (upload approve FILE), and apply it',
    );
  const { store, key } = state;
  const limits = guards && limitsAsWritten(guards.limits);
  const { limitsOf } = await import('./saved-plan.js');
  const payload = await planned.payload();
  const generation = head?.generation ?? 0;
  const reasons = outsideBounds(bounds, planned.diff);
  const target = def.outputs?.target ?? null;
  if (reasons.length) {
    const { added, removed, changed, unchanged } = planned.diff;
    const kept = await keepWaiting({
      store,
      key,
      generation,
      limits: limitsOf({ limits }),
      payload,
      source: planned.source,
      target,
      identity: def.identity,
      baseline: planned.diff.baseline,
      diff: { added, removed, changed, unchanged },
      notes,
      rule,
    });
    const where = target ? ['--target', target] : ['--base-url', key.baseUrl, '--state', store.label];
    throw awaitingApproval({ number: kept.number, digest: kept.digest, reasons, bounds: describeBounds(bounds), where, label: store.label });
  }
  const me = await store.whoami();
  const digest = approvalDigest({ bodySha256: await payload.digest(), kind: key.kind, address: key.baseUrl, generation, limits: limitsOf({ limits }) });
  ctx.emit({ type: 'notice', message: `Approved by policy: the plan is within the autoApply bounds of ${key.baseUrl} (${describeBounds(bounds)}).` });
  const now = new Date().toISOString();
  return {
    story: { digest, planner: me, plannedAt: now, approvers: [], appliedBy: me, policy: bounds },
    rule,
    // Nothing a person gave can lapse; the bounds were judged on the plan that is sent.
    recheck: () => Promise.resolve(),
  };
}
