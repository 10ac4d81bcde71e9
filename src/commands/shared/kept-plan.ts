// `upload approve` and `upload apply` without a plan file: the plan kept in the target's state store
// (an unattended run outside its autoApply bounds keeps it there, ../../pipeline/auto-apply.ts), chosen by
// --plan N or, when only one fits, that one (../../pipeline/waiting.ts).
import type { RunContext } from '../../pipeline/context.js';
import type { PlanDocument } from '../../pipeline/saved-plan.js';
import type { ProcessIo } from '../../cli/io.js';
import type { TargetedFlags } from '../../cli/targets.js';

export interface KeptPlanChoice {
  /** How messages name it: `--plan N`. */
  readonly label: string;
  readonly stored: () => Promise<{ doc: PlanDocument; body: Buffer }>;
}

export async function keptPlan(flags: TargetedFlags, io: ProcessIo, run: RunContext, purpose: 'approve' | 'apply'): Promise<KeptPlanChoice> {
  const [{ resolveBaseUrl }, { parseState }, { policyAddress }, { chooseWaiting }] = await Promise.all([
    import('../../send/config.js'),
    import('./parse.js'),
    import('../../plans/policy.js'),
    import('../../pipeline/waiting.js'),
  ]);
  // Without a file, the service is the target's (or --base-url's): its store holds the kept plans.
  const baseUrl = resolveBaseUrl(flags.settings.baseUrl, io.env);
  const spec = parseState(flags, io).state;
  if (!run.openStore) throw new Error('a kept plan is looked for outside the runner');
  const store = await run.openStore(spec);
  const address = policyAddress(baseUrl);
  const where = flags.targetName ? ['--target', flags.targetName] : ['--base-url', address, '--state', store.label];
  const chosen = await chooseWaiting(store, address, typeof flags.plan === 'string' ? flags.plan : undefined, purpose, flags.fourEyes, where);
  return { label: chosen.label, stored: chosen.load };
}
