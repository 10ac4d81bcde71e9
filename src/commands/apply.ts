// `upload apply <plan>`: exactly the body a dry run saved, sent if the service has not moved since (../plans/apply.ts).
import { defineCommand } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';
import { planAddress } from './shared/plan-address.js';

export default defineCommand({
  description:
    "Send the body a dry run saved with --plan-out, byte for byte, after checking that the plan is intact and that no upload happened since it was made (else PLAN_STALE, nothing sent). Where the target needs approvals, only a plan approved by enough other people, for exactly its content and within their validity, is sent, and only once (NOT_APPROVED, PLAN_CHANGED, PLAN_USED). Without a plan file: the plan kept in the target's state store that is approved (--plan N to name one).",
  examples: [
    '$ upload team-members staff.csv --dry-run --plan-out reviewed.plan.json',
    '$ upload apply reviewed.plan.json --yes',
    '$ upload apply staff.plan.json --target production --yes     once others approved it (upload approve)',
    '$ upload apply --target production --yes                     the approved plan the night kept waiting',
  ],
  flags: [...GROUPS.sending, 'plan', ...GROUPS.output, ...GROUPS.state, ...GROUPS.target, ...GROUPS.fourEyes, ...GROUPS.after],
  interruptible: true,
  writes: () => 'planned',
  // The plan names its service: a guarded target's address makes this run that target.
  address: ([plan]) => planAddress(plan as string),
  facts: ([plan]) => ({ kind: null, source: (plan as string | undefined) ?? null, dryRun: false }),
  run: async ({ args: [file], flags, io, run }) => {
    const [{ parseSending }, { parseState }, { planTargetCheck }, { runApply }] = await Promise.all([
      import('./shared/options.js'),
      import('./shared/parse.js'),
      import('../cli/targets.js'),
      import('../plans/apply.js'),
    ]);
    // The plan names its service; an address given as well must be the same one.
    const sending = await parseSending(flags, io, { dryRun: false, url: 'optional' });
    const target = flags.targetName ?? null;
    // No file: the approved plan kept in the store (--plan N names one).
    const kept = file === undefined ? await (await import('./shared/kept-plan.js')).keptPlan(flags, io, run, 'apply') : undefined;
    const plan = kept?.label ?? (file as string);
    const checkTarget = await planTargetCheck(flags, io, { step: 'apply', plan });
    return runApply({ plan, stored: kept?.stored, ...sending, token: sending.token!, ...parseState(flags, io), checkTarget, target }, run);
  },
});
