// `upload approve <plan>`: the second pair of eyes (../engine/approve.ts). The plan is shown exactly as
// `apply` would show it, then an approval bound to its digest is recorded in the target's state store,
// under the name the store knows this person by. Asks on a terminal; elsewhere takes --yes.
import { defineCommand } from '../cli/command.js';
import { GROUPS } from '../cli/flags.js';
import { interactive } from '../cli/io.js';
import { planAddress } from '../cli/plan-address.js';

export default defineCommand({
  usage: 'approve <plan>',
  summary: 'approve a plan someone else made, for a target that needs approvals (four eyes)',
  description:
    "Show a plan saved with --dry-run --plan-out exactly as `upload apply` would (the target, the changes against the latest upload, the guards with the plan's own limits), then record your approval in the target's state store, bound to the plan: its id, and its digest (the body's bytes, the kind, the address, the upload it was planned against and its guard limits); another plan with the same content needs its own. You are named as the store knows you (PostgreSQL's session_user, or your operating-system account), never by UPLOAD_USER; the planner cannot approve their own plan (SELF_APPROVAL). Asks on a terminal; elsewhere takes --yes. Nothing is sent.",
  examples: [
    '$ upload team-members staff.csv --dry-run --plan-out staff.plan.json --target production   the planner',
    '$ upload approve staff.plan.json --target production                                       someone else',
    '$ upload apply staff.plan.json --target production --yes                                    anyone allowed to send; once',
  ],
  order: 6,
  flags: ['yes', 'json', 'baseUrl', ...GROUPS.store, 'noColor', 'quiet', ...GROUPS.target, ...GROUPS.fourEyes, ...GROUPS.after],
  interruptible: true,
  writes: () => 'planned',
  address: ([plan]) => planAddress(plan as string),
  facts: ([plan]) => ({ kind: null, source: plan as string, dryRun: false }),
  run: async ({ args: [plan], flags, io, run }) => {
    const [{ UsageError }, { parseState }, { planTargetCheck }, { resolveBaseUrl }, { DEFAULTS }, { runApprove }] = await Promise.all([
      import('../errors.js'),
      import('../cli/parse.js'),
      import('../cli/targets.js'),
      import('../send/config.js'),
      import('../engine/options.js'),
      import('../engine/approve.js'),
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
      tokenEnv: DEFAULTS.tokenEnv,
      confirm: flags.yes === true ? 'yes' : 'prompt',
    } as const;
    const checkTarget = await planTargetCheck(flags, io, { step: 'approve', plan: plan as string });
    return runApprove({ plan: plan as string, ...send, ...state, host: state.identity.host, checkTarget, target: flags.targetName ?? null }, run);
  },
});
