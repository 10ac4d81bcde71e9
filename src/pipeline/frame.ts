// The one frame every command that may send runs in: open the state → load the baseline → plan → judge
// → write the files asked for → (a real run) lock, confirm, send, record. A command is a Definition:
// where its records go, what it compares with, where its planned set comes from and how it is judged.
// Each step returns data; the frame keeps what they returned as the run's facts, so a run that stops
// half-way still reports everything it learnt, and the report is assembled once from them.
import { analyseChanges } from '../diff/changed.js';
import type { Diff } from '../diff/index.js';
import type { GuardInput, Verdict } from '../guard/index.js';
import { bodiesOf, setOf, type RecordSet } from '../sets/index.js';
import { judgeHolding } from '../sets/hold.js';
import { leadingZeroPairs, leadingZerosRefusal, type ZeroPairs } from '../guard/leading-zeros.js';
import { KINDS } from '../contract/kinds.js';
import type { RecordsByKey } from '../diff/records.js';
import { encoded } from './encoded.js';
import { assertSettled, type BaselineResult } from './baseline.js';
import type { RunContext } from './context.js';
import type { Definition, GuardSettings, Opened, Planned } from './definition.js';
import { locatorOf } from './service-reasons.js';
import { uniqueSetError } from './set-unique.js';
import { writeOutputs } from './outputs.js';
import type { RunResult } from '../report/result.js';
import type { ApprovalReport } from '../report/report.js';
import { closeState, openState, type State } from './state.js';

export type { Definition, Planned } from './definition.js';

/** Records shown as they will be sent, before the diff and the question. */
const PREVIEW = 3;

export async function runFrame<Found>(def: Definition<Found>, ctx: RunContext): Promise<RunResult> {
  let facts = def.facts;
  let state: State | undefined;
  try {
    const target = await def.locate(ctx);
    facts = { ...facts, kind: target.kind, ...target.facts };
    if (target.baseUrl) state = await openState(def.state, target.baseUrl, target.kind, ctx);
    const head = state ? await state.store.head(state.key) : undefined;
    const opened: Opened<Found> = { target, state, head };

    const against = await def.baseline(opened, ctx);
    facts = { ...facts, against: against.against };
    let planned = await def.plan(opened, against, ctx);
    // The planned set's own, then the target's (a saved plan's), then the command's.
    const guards = planned.guards ?? target.guards ?? def.guards;
    // A saved plan's report names the plan; the others name what the records came from.
    facts = { ...facts, source: facts.source ?? planned.source, records: planned.records, diff: planned.diff, ...(planned.file ? { file: planned.file } : {}) };

    // Compared with a recorded upload: one sent but never confirmed must be settled first (write-ahead).
    if (state && !planned.invalid && planned.diff.baseline === 'snapshot') await assertSettled(state, async () => (await planned.payload()).digest());
    // Invalid records are refused before anything else is judged or shown; the files asked for are still written.
    let verdict: Verdict | undefined;
    if (!planned.invalid) ({ verdict, planned } = judgeStep(def, guards, opened, against, planned, ctx));
    if (verdict?.guards.length) facts = { ...facts, guards: verdict.guards };
    if (planned.held?.length) facts = { ...facts, diff: planned.diff, held: planned.held };
    // A release (or the plan of one) says which held removals it removes, whatever else it reports.
    const released = planned.what.operation === 'release' || planned.what.operation === 'apply' ? planned.what.release : undefined;
    if (released) facts = { ...facts, released };
    if (planned.approval) facts = { ...facts, approval: approvalReport(planned.approval, null) };
    // A set made of the file and the recorded upload is checked whole: a new record may clash with a kept one.
    const clash =
      planned.set && !planned.invalid ? uniqueSetError(target.kind, planned.set, planned.file, planned.source, head?.generation ?? null) : undefined;
    await writeOutputs(def.outputs ?? {}, { def, guards, opened, against, planned, verdict }, ctx);
    if (ctx.review) await (await import('./review.js')).collectReview(ctx.review, { def, guards, opened, against, planned, verdict });
    if (planned.invalid) throw planned.invalid;
    if (clash) throw clash;
    if (verdict?.refusal) throw verdict.refusal;
    // A Ctrl-C during the reading ends the run here, before anything is sent or audited.
    ctx.signal?.throwIfAborted();
    if (def.dryRun) {
      ctx.emit({ type: 'dry-run', kind: target.kind, count: planned.count, needs: verdict?.needs ?? [] });
      return { facts: { ...facts, done: 'dry-run' } };
    }
    if (def.act) return { facts: { ...facts, ...(await def.act(opened, planned, against, ctx)), done: 'approved' } };
    // An unattended run where approvals are needed (the runner let it through for autoApply): within its bounds, or kept waiting.
    if (def.fourEyes?.approvals && !planned.approval && planned.what.operation !== 'apply') {
      const { approveByPolicy } = await import('./auto-apply.js');
      planned = { ...planned, approval: await approveByPolicy(def, guards, opened, planned, verdict?.notes ?? [], ctx) };
    }

    const { baseUrl } = target;
    const { token } = def.send;
    if (!state || !baseUrl || !token) throw new Error('a real run without an address or a token got past the options');
    // Loaded only to send: a dry run (the most common run) needs none of it.
    const { execute } = await import('./execute.js');
    const executed = await execute(
      {
        ...def.send,
        kind: target.kind,
        source: planned.source,
        baseUrl,
        token,
        keep: def.keep,
        identity: def.identity,
        store: state.store,
        key: state.key,
        expected: head?.generation ?? 0,
        staleCode: def.staleCode,
        against: against.against,
        payload: await planned.payload(),
        diff: planned.diff,
        restoredFrom: planned.what.operation === 'restore' ? planned.what.restoredFrom : null,
        plan: planned.what.operation === 'apply' ? planned.what.savedPlan : null,
        operation: planned.what.operation === 'apply' && planned.what.release ? 'release' : planned.what.operation,
        heldRemovals: planned.held,
        hoursAsOf: facts.hoursAsOf,
        layout: planned.file?.layout?.record,
        locate: locatorOf(planned.file, planned.set),
        approval: planned.approval,
      },
      ctx,
    );
    if (planned.approval) facts = { ...facts, approval: approvalReport(planned.approval, planned.approval.story.appliedBy) };
    if (released) ctx.emit({ type: 'released', kind: target.kind, ...released });
    return { facts: { ...facts, executed, done: 'uploaded' } };
  } catch (failure) {
    return { facts, failure };
  } finally {
    await closeState(state);
  }
}

function approvalReport({ story, rule }: NonNullable<Planned['approval']>, appliedBy: string | null): ApprovalReport {
  const { planner, plannedAt, approvers, digest } = story;
  return { digest, needed: rule.approvals, hours: rule.hours, planner, plannedAt, approvers, appliedBy, ...(story.policy ? { policy: story.policy } : {}) };
}

/**
 * The verdict on the planned set, shown as it is reached: the first records, the changes, the guards'
 * notes. With --hold-removals, a removal the guard would refuse is held back (../sets/hold.ts): the set
 * then keeps the omitted records as recorded and is judged again, in full, as what would be sent.
 */
function judgeStep(
  def: Definition<unknown>,
  guards: GuardSettings | undefined,
  opened: Opened<unknown>,
  against: BaselineResult,
  planned: Planned,
  ctx: RunContext,
): { verdict: Verdict; planned: Planned } {
  const { kind } = opened.target;
  const { file } = planned;
  if (file) ctx.emit({ type: 'preview', mapping: file.mapping, first: file.bodies.first(PREVIEW), total: file.bodies.length });
  ctx.emit({ type: 'diff', kind, diff: planned.diff, against: against.against, noBaselineWhy: against.why || undefined });
  if (!guards) {
    const verdict: Verdict = { refusal: undefined, guards: [], notes: planned.what.operation === 'apply' ? planned.what.notes : [], needs: [] };
    ctx.emit({ type: 'guards', kind, guards: verdict.guards });
    ctx.emit({ type: 'guard-notes', notes: verdict.notes });
    return { verdict, planned };
  }
  const input: GuardInput = {
    kind,
    source: planned.source,
    count: planned.count,
    diff: planned.diff,
    changes: planned.changes(),
    limits: guards.limits,
    acknowledgeNoBaseline: guards.acknowledgeNoBaseline,
    from: planned.file ? 'file' : planned.what.operation === 'apply' ? 'plan' : 'recorded',
    noBaselineWhy: against.why,
    has: {
      token: def.send.token !== undefined,
      tokenEnv: def.send.tokenEnv,
      baseUrl: opened.target.baseUrl !== undefined,
      confirmation: def.send.confirm !== 'impossible',
    },
  };
  const recorded = against.baseline?.records;
  // Keys that lost their leading zeros are refused for what they are, before any removal is judged or held.
  const zeros = lostZeros(planned, recorded);
  if (zeros) {
    const judged = judgeHolding(input, { keys: [], bodies: [] }, undefined);
    const verdict: Verdict = { ...judged.verdict, refusal: leadingZerosRefusal(zeros, KINDS[kind].keyField, describeAgainst(against)) };
    ctx.emit({ type: 'guards', kind, guards: verdict.guards });
    return { verdict, planned };
  }
  // Held removals need the set as text; a run without --hold-removals never converts it.
  const set = guards.holdRemovals ? (planned.set ?? (planned.file ? setOf(planned.file.keys, planned.file.bodies) : undefined)) : undefined;
  const hold =
    set && recorded ? { recorded, changesOf: (held: RecordSet, diff: Diff) => analyseChanges(kind, recorded, held.keys, bodiesOf(held), diff) } : undefined;
  const judged = judgeHolding(input, set ?? { keys: [], bodies: [] }, hold);
  const { verdict } = judged;
  if (judged.held.length) {
    const where = def.outputs?.target ? ['--target', def.outputs.target] : opened.state ? ['--base-url', opened.state.key.baseUrl] : [];
    ctx.emit({ type: 'held', kind, held: judged.held, release: ['release', kind, ...where] });
    const kept = judged.planned;
    planned = {
      ...planned,
      diff: judged.diff,
      count: kept.keys.length,
      set: kept,
      held: judged.held,
      payload: encoded(kept.bodies),
      changes: () => analyseChanges(kind, recorded, kept.keys, bodiesOf(kept), judged.diff),
    };
  }
  ctx.emit({ type: 'guards', kind, guards: verdict.guards });
  ctx.emit({ type: 'guard-notes', notes: verdict.notes });
  return { verdict, planned };
}

/** Removed keys that come back without their leading zeros (or with zeros), when the plan has both. */
function lostZeros(planned: Planned, recorded: RecordsByKey | undefined): ZeroPairs | undefined {
  const { diff } = planned;
  const keys = planned.set?.keys ?? planned.file?.keys;
  if (!recorded || !keys || !diff.added || !diff.removed) return undefined;
  const pairs = leadingZeroPairs(recorded, keys, diff.status);
  return pairs.count ? pairs : undefined;
}

function describeAgainst(against: BaselineResult): string {
  const g = against.against.generation;
  return g !== null ? `upload #${g}` : against.against.source === 'file' ? 'the baseline file' : 'the baseline';
}
