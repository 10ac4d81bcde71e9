// The files a run writes on request, in one step after judging: --errors-csv (the rejected rows),
// --payload-out (the exact body), --diff-out (every change as CSV) and --plan-out (a dry run's plan,
// to be applied later). Each writer loads only when its flag is given: most runs write none. The two
// CSV files are put into rows by whoever started the run (ctx.files: render/, for the CLI).
import type { Payload } from '../contract/json-array.js';
import { bodiesOf } from '../sets/index.js';
import type { FourEyes } from './approval.js';
import type { PlanLimits } from './saved-plan.js';
import type { State } from './state.js';
import type { Verdict } from '../guard/index.js';
import { limitsAsWritten } from '../guard/limit.js';
import type { BaselineResult } from './baseline.js';
import type { RunContext } from './context.js';
import type { Definition, GuardSettings, Opened, OutputRequests, Planned } from './definition.js';

/** Everything the frame knows after judging. */
export interface Judged {
  readonly def: Definition<unknown>;
  /** The guards' settings the verdict was reached with. */
  readonly guards: GuardSettings | undefined;
  readonly opened: Opened<unknown>;
  readonly against: BaselineResult;
  readonly planned: Planned;
  /** Undefined when the records are invalid: there is no set to judge. */
  readonly verdict: Verdict | undefined;
}

export async function writeOutputs(requests: OutputRequests, judged: Judged, ctx: RunContext): Promise<void> {
  const { planned } = judged;
  const { file } = planned;
  if (requests.errorsCsv !== undefined && file) {
    const errors = file.issues.filter((i) => i.severity === 'error');
    await ctx.files.errorsCsv(requests.errorsCsv, { header: file.header, rejected: file.rejected, delimiter: file.delimiter ?? ',', errors });
  }
  // Invalid records are not a set to send: nothing else describes them.
  if (!judged.verdict) return;
  // Written whatever the guards say: they are what a review needs most.
  if (requests.payloadOut !== undefined) {
    const { writePrivateFile } = await import('../files/private-file.js');
    await writePrivateFile(requests.payloadOut, '--payload-out', (await planned.payload()).chunks);
  }
  if (requests.diffOut !== undefined && (planned.set ?? file)) await writeDiff(requests.diffOut, judged, ctx);
  if (requests.planOut !== undefined && !judged.verdict.refusal) await savePlan(requests.planOut, judged.verdict, judged, ctx);
}

async function writeDiff(path: string, { opened, against, planned }: Judged, ctx: RunContext): Promise<void> {
  const baseline = against.baseline;
  if (!baseline) ctx.emit({ type: 'warning', message: `--diff-out ${path}: there is no baseline to compare with, so the file lists no changes` });
  // What would be sent: the file's records, or the set a merge, a removal or held removals make of them.
  const delimiter = planned.file?.delimiter ?? ',';
  const [keys, bodies] = planned.set ? [planned.set.keys, bodiesOf(planned.set)] : [planned.file!.keys, planned.file!.bodies];
  await ctx.files.diffCsv(path, { kind: opened.target.kind, baseline: baseline?.records, keys, bodies, delimiter });
}

/** The plan of a dry run, with what it was compared with, for `upload apply` to send byte for byte. */
async function savePlan(path: string, verdict: Verdict, { def, guards, opened, against, planned }: Judged, ctx: RunContext): Promise<void> {
  const { state, head } = opened;
  if (!state) return;
  const { added, removed, changed, unchanged } = planned.diff;
  const { writePlan } = await import('./saved-plan.js');
  const generation = head?.generation ?? 0;
  // The limits it was judged with: `apply` judges the plan again with them, not with its own defaults.
  const limits = guards && limitsAsWritten(guards.limits);
  const payload = await planned.payload();
  // node:crypto on use: most runs save no plan.
  const planId = process.getBuiltinModule('node:crypto').randomUUID();
  const target = def.outputs?.target ?? null;
  const release = planned.what.operation === 'release' ? { generation: planned.what.release.generation, keys: [...planned.what.release.keys] } : undefined;
  // Four eyes: the plan is recorded in the store as made by whoever the store says runs this.
  const approval = def.fourEyes
    ? await recordPlan(def.fourEyes, { state, generation, limits, payload, planId, source: planned.source, target, held: planned.held, release }, ctx)
    : undefined;
  await writePlan(
    path,
    {
      kind: opened.target.kind,
      baseUrl: state.key.baseUrl,
      target,
      source: planned.source,
      createdAt: new Date().toISOString(),
      ...def.identity,
      generation,
      baseline: against.against.source,
      diff: { added, removed, changed, unchanged },
      notes: [...verdict.notes],
      ...(limits ? { limits } : {}),
      planId,
      ...(approval ? { approval } : {}),
      // The removals held back travel with the plan: approve shows them, apply reports and records them.
      ...(planned.held?.length ? { heldRemovals: [...planned.held] } : {}),
      ...(def.facts.hoursAsOf ? { hoursAsOf: def.facts.hoursAsOf } : {}),
      ...(release ? { release } : {}),
    },
    payload,
  );
  // The next step as a person runs it: approval by someone else under four eyes, else the apply itself.
  const { nextCommand } = await import('./approval.js');
  const next = nextCommand(approval ? 'approve' : 'apply', path, target, target || !def.fourEyes ? [] : ['--approvals', String(def.fourEyes.approvals)]);
  ctx.emit({ type: 'plan-saved', path, next: approval ? `someone else approves it: ${next.text}` : `send exactly it with: ${next.text}` });
}

async function recordPlan(
  rule: FourEyes,
  plan: {
    state: State;
    generation: number;
    limits: PlanLimits | undefined;
    payload: Payload;
    planId: string;
    source: string;
    target: string | null;
    held: readonly string[] | undefined;
    release: { generation: number; keys: readonly string[] } | undefined;
  },
  ctx: RunContext,
): Promise<{ approvals: number; hours: number; planner: string }> {
  const [{ approvalDigest }, { limitsOf }] = await Promise.all([import('./approval.js'), import('./saved-plan.js')]);
  const { state, generation } = plan;
  const digest = approvalDigest({
    bodySha256: plan.payload.sha256,
    kind: state.key.kind,
    address: state.key.baseUrl,
    generation,
    limits: limitsOf({ limits: plan.limits }),
    held: plan.held,
    release: plan.release,
  });
  const record = await state.store.recordPlan(state.key, { digest, planId: plan.planId, generation, source: plan.source });
  const n = rule.approvals;
  ctx.emit({
    type: 'notice',
    message: `Recorded in ${state.store.label} as planned by ${record.planner}: ${plan.target ? `the target '${plan.target}'` : 'this address'} needs ${n} approval${n === 1 ? '' : 's'} by someone else, valid ${rule.hours} h, before it is applied.`,
  });
  return { approvals: n, hours: rule.hours, planner: record.planner };
}
