// `upload approve <plan>`: the second pair of eyes (../plans/approve.ts). The plan is shown exactly as
// `apply` would show it, then an approval bound to its digest is recorded in the target's state store,
// under the name the store knows this person by. Asks on a terminal; elsewhere takes --yes.
import { defineCommand } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';
import { interactive } from '../cli/io.js';
import { planAddress } from './shared/plan-address.js';

export default defineCommand({
  description:
    "Show a plan saved with --dry-run --plan-out exactly as `upload apply` would (the target, the changes against the latest upload, the guards with the plan's own limits), then record your approval in the target's state store, bound to the plan: its id, and its digest (the body's bytes, the kind, the address, the upload it was planned against and its guard limits); another plan with the same content needs its own. You are named as the store knows you (PostgreSQL's session_user, or your operating-system account), never by UPLOAD_USER; the planner cannot approve their own plan (SELF_APPROVAL). Asks on a terminal; elsewhere takes --yes. Nothing is sent.\n\nWithout a plan file: the plans an unattended run kept in the target's state store awaiting approval (outside its autoApply bounds) are listed; --plan N approves the one with that number, after showing it (with only one waiting, that one).",
  examples: [
    '$ upload team-members staff.csv --dry-run --plan-out staff.plan.json --target production   the planner',
    '$ upload approve staff.plan.json --target production                                       someone else',
    '$ upload apply staff.plan.json --target production --yes                                    anyone allowed to send; once',
    '$ upload approve --target production --plan 3                                              a plan the night kept waiting',
  ],
  flags: ['yes', 'json', 'baseUrl', 'plan', ...GROUPS.store, 'noColor', 'quiet', ...GROUPS.target, ...GROUPS.fourEyes, ...GROUPS.after],
  interruptible: true,
  writes: () => 'planned',
  address: ([plan]) => planAddress(plan as string),
  facts: ([plan]) => ({ kind: null, source: (plan as string | undefined) ?? null, dryRun: false }),
  run: async ({ args: [file], flags, io, run }) => {
    const [{ UsageError }, { parseState }, { planTargetCheck }, { resolveBaseUrl }, { runApprove }] = await Promise.all([
      import('../errors.js'),
      import('./shared/parse.js'),
      import('../cli/targets.js'),
      import('../send/config.js'),
      import('../plans/approve.js'),
    ]);
    if (flags.yes !== true && !interactive(io))
      throw new UsageError(
        'NO_CONFIRMATION',
        'approving records your name under this plan, and there is no terminal to ask you',
        `review the plan (on a terminal, the same command shows it and asks), then run the same command with --yes`,
      ).withFixes({ kind: 'flags', args: ['--yes'] });
    // An address given as well must be the plan's (PLAN_BASE_URL); nothing is sent, so no token is read.
    const baseUrl = flags.baseUrl === undefined ? undefined : resolveBaseUrl(flags.settings.baseUrl, io.env);
    const state = parseState(flags, io);
    const send = {
      retries: 0,
      timeoutSeconds: 1,
      baseUrl,
      token: undefined,
      tokenEnv: String(flags.settings.tokenEnv.value),
      confirm: flags.yes === true ? 'yes' : 'prompt',
    } as const;
    // No file: a plan kept in the store (--plan N), shown and approved as a file would be.
    const kept = file === undefined ? await (await import('./shared/kept-plan.js')).keptPlan(flags, io, run, 'approve') : undefined;
    const plan = kept?.label ?? (file as string);
    const checkTarget = await planTargetCheck(flags, io, { step: 'approve', plan });
    return runApprove({ plan, stored: kept?.stored, ...send, ...state, host: state.identity.host, checkTarget, target: flags.targetName ?? null }, run);
  },
});
