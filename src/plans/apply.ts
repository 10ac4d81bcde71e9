// `upload apply <plan>`: the planned set is exactly the bytes a dry run saved and someone reviewed,
// sent only if the store is still at the generation the plan was made against; otherwise nothing is
// sent (PLAN_STALE). It is judged again, against the latest upload, with the guard limits the plan was
// made with: no path that sends gets round a guard, and the limits were part of what was reviewed.
import { Bodies, knownPayload } from '../contract/json-array.js';
import { KINDS } from '../contract/kinds.js';
import { analyseChanges } from '../diff/changed.js';
import { diffRecords, noBaseline } from '../diff/index.js';
import { decodeCanonical } from '../diff/snapshot.js';
import { GuardRefusal, InputError, UsageError } from '../errors.js';
import { parseLimit } from '../guard/limit.js';
import { plural } from '../numbers.js';
import { baselineOf } from '../report/report.js';
import { resolveBaseUrl } from '../send/config.js';
import { latestUpload } from '../pipeline/baseline.js';
import { nothingRecorded } from '../pipeline/nothing-recorded.js';
import type { RunContext } from '../pipeline/context.js';
import { commandBasics, type GuardSettings } from '../pipeline/definition.js';
import { runFrame, type Definition } from '../pipeline/frame.js';
import { type SendOptions, type StateOptions } from '../pipeline/options.js';
import type { RunResult } from '../report/result.js';
import { limitsOf, readPlan, type PlanDocument } from '../pipeline/saved-plan.js';
import {
  approvalDigest,
  assertApproved,
  assertUnused,
  checkApprover,
  recordedPlan,
  storyOf,
  stricter,
  tally,
  type FourEyes,
  type ToApprove,
} from '../pipeline/approval.js';
import { normaliseBaseUrl } from '../state/paths.js';
import { addressKey } from '../config/address.js';
import type { Planned } from '../pipeline/definition.js';
import type { State } from '../pipeline/state.js';

export interface ApplyOptions extends SendOptions, StateOptions {
  /** The saved plan's path. */
  readonly plan: string;
  /** --base-url or UPLOAD_BASE_URL, when given: it must be the plan's. */
  readonly baseUrl: URL | undefined;
  /** Refuses a plan made for another named target than this run's (the CLI knows the config). */
  readonly checkTarget?: (planTarget: string | null) => void;
  /** What the target (config or --approvals) asks; a plan that says it needs more keeps its own. */
  readonly fourEyes?: FourEyes | undefined;
  /** The named target, for the messages. */
  readonly target?: string | null;
  /** A plan kept in the state store instead of a file (./waiting.ts): `plan` is then how it is named (`--plan N`). */
  readonly stored?: (() => Promise<{ doc: PlanDocument; body: Buffer }>) | undefined;
}

export function runApply(options: ApplyOptions, ctx: RunContext): Promise<RunResult> {
  return runFrame(applyDefinition(options), ctx);
}

/** A saved plan and its body, as `locate` read them, with the approvals it needs (four eyes). */
interface Saved {
  readonly doc: PlanDocument;
  readonly body: Buffer;
  readonly fourEyes: FourEyes | undefined;
  /** The approval digest (./approval.ts), when approvals are needed. */
  readonly digest: string | undefined;
}

/**
 * `apply` sends the plan; `approve` (./approve.ts) shows it the same way and records an approval
 * instead. Both refuse a plan that was used, is stale, or was changed.
 */
export function applyDefinition(options: ApplyOptions, purpose: 'apply' | 'approve' = 'apply'): Definition<Saved> & { toApprove(): ToApprove | undefined } {
  let approved: Planned['approval'];
  let toApprove: ToApprove | undefined;
  return {
    toApprove: () => toApprove,
    ...commandBasics(options, { kind: null, source: options.plan, dryRun: false }),
    // The plan's own limits, known once it is read (Target.guards).
    guards: undefined,
    staleCode: 'PLAN_STALE',
    // Everything after this step works from the plan it reads.
    locate: async () => {
      const saved = options.stored ? await options.stored() : await readPlan(options.plan);
      options.checkTarget?.(saved.doc.target ?? null);
      const { kind, body } = saved.doc;
      const baseUrl = resolveBaseUrl({ value: saved.doc.baseUrl, from: `the plan's baseUrl` }, {});
      // The same service however written (../config/address.ts, the one normaliser).
      if (options.baseUrl && addressKey(options.baseUrl) !== addressKey(baseUrl)) {
        throw new UsageError(
          'PLAN_BASE_URL',
          `the plan was made for ${saved.doc.baseUrl}, but this run is given ${options.baseUrl.href.replace(/\/$/, '')}`,
          'apply a plan to the service it was made for, or make a new plan for this one',
        );
      }
      const fourEyes = stricter(options.fourEyes, saved.doc.approval);
      const digest = fourEyes
        ? approvalDigest({
            bodySha256: body.sha256,
            kind,
            address: normaliseBaseUrl(baseUrl),
            generation: saved.doc.generation,
            limits: limitsOf(saved.doc),
            held: saved.doc.heldRemovals,
            release: saved.doc.release,
          })
        : undefined;
      // The week the plan's hours bound to dates were read for is recorded when it is sent, as a direct upload's.
      const hoursAsOf = saved.doc.hoursAsOf ? { hoursAsOf: saved.doc.hoursAsOf } : {};
      return { kind, baseUrl, facts: { records: body.records, ...hoursAsOf }, found: { ...saved, fourEyes, digest }, guards: guardsOf(saved.doc) };
    },
    baseline: async ({ state, head, target }) => {
      const now = head?.generation ?? 0;
      const { generation } = target.found!.doc;
      // Applied once: said as such, before the plan is found stale for having been applied.
      if (target.found!.digest) await assertUnused(state!.store, state!.key, target.found!.digest);
      // Made against a recorded upload, applied where nothing is recorded: the wrong store, not a stale plan.
      if (now === 0 && generation > 0)
        throw nothingRecorded(
          target.kind,
          { baseUrl: state?.key.baseUrl, store: state?.store.label },
          `to apply ${options.plan} to (it was made against upload #${generation})`,
        );
      if (now !== generation) {
        throw new GuardRefusal(
          'PLAN_STALE',
          `the plan was made against ${generation ? `upload #${generation}` : 'no earlier upload'}, but ${state!.key.baseUrl} has had ${now ? `upload #${now} (by ${head!.user}@${head!.host} at ${head!.uploadedAt})` : 'its history removed'} since; nothing was sent`,
          'make a new plan with --dry-run --plan-out FILE against what the service holds now, review it, and apply that one',
        );
      }
      const saved = target.found!;
      if (purpose === 'approve') toApprove = await approverCheck(state!, saved, options);
      else if (saved.digest) approved = await checkApprovals(state!, saved, options);
      // Compared again with the latest upload; with none recorded, the plan's own diff stands.
      if (!state || !head) return { baseline: undefined, why: '', against: baselineOf(head) };
      return latestUpload(state, head);
    },
    plan: ({ head, target }, against, ctx) => {
      const { doc, body } = target.found!;
      const { source, user, host, createdAt } = doc;
      // Under four eyes the planner is who the store recorded, not the name the plan file carries.
      const planner = approved?.story.planner ?? toApprove?.plan.planner;
      ctx.emit({ type: 'applying', plan: options.plan, records: doc.body.records, source, user, host, createdAt, ...(planner ? { planner } : {}) });
      const held = doc.heldRemovals ?? [];
      if (held.length) ctx.emit({ type: 'plan-held', kind: doc.kind, held, release: releaseCommand(doc, options.target ?? doc.target ?? null) });
      if (doc.release) ctx.emit({ type: 'notice', message: `The plan releases ${releaseWords(doc.release)}: it removes exactly them.` });
      const payload = knownPayload(doc.body.records, body, doc.body.sha256);
      const latest = against.baseline?.records;
      const planned = latest && decodeCanonical(body, KINDS[doc.kind].keyField);
      if (latest && !planned)
        throw new InputError(
          'PLAN_INVALID',
          `${options.plan}: its body is not a body this tool wrote`,
          'make a new plan with --dry-run --plan-out FILE, review it, and apply that one',
        );
      const [keys, bodies] = planned ? [[...planned.keys()], planned.bodies] : [[], new Bodies()];
      const diff = latest
        ? diffRecords(latest, 'snapshot', keys, bodies)
        : { ...noBaseline(), baseline: doc.baseline, ...doc.diff, baselineCount: head?.records ?? null };
      return Promise.resolve({
        source: doc.source,
        records: doc.body.records,
        count: doc.body.records,
        diff,
        changes: () => (latest ? analyseChanges(doc.kind, latest, keys, bodies, diff) : undefined),
        payload: () => Promise.resolve(payload),
        what: { operation: 'apply', savedPlan: options.plan, notes: doc.notes ?? [], release: doc.release },
        // Held back as the plan was made: reported, recorded in the history and said (exit 9) as a direct --hold-removals upload is.
        ...(held.length ? { held } : {}),
        ...(approved ? { approval: approved } : {}),
      });
    },
  };
}

function approverCheck(state: State, saved: Saved, options: ApplyOptions): Promise<ToApprove> {
  const target = options.target ?? saved.doc.target ?? null;
  if (!saved.fourEyes || !saved.digest)
    throw new GuardRefusal(
      'PLAN_UNRECORDED',
      `${target ? `the target '${target}'` : state.key.baseUrl} needs no approvals, and this plan was not made for approval; nothing was recorded`,
      'apply it as it is (upload apply PLAN), or set "approvals" on the target and make a new plan',
    );
  return checkApprover(state.store, state.key, saved.digest, saved.doc.planId, saved.fourEyes, target, options.plan);
}

/**
 * Four eyes, before anything else is shown: the plan recorded as made, approved by enough others, in
 * time. The same checks run again under the lock, just before the first byte (Planned.approval).
 */
async function checkApprovals(state: State, saved: Saved, options: ApplyOptions): Promise<NonNullable<Planned['approval']>> {
  const { store, key } = state;
  const rule = saved.fourEyes!;
  const target = options.target ?? saved.doc.target ?? null;
  const plan = await recordedPlan(store, key, saved.digest!, saved.doc.planId, target);
  const judge = async () => {
    const found = await tally(store, key, plan, rule);
    assertApproved(plan, rule, found, target, options.plan);
    return found;
  };
  const found = await judge();
  const appliedBy = await store.whoami();
  return {
    story: storyOf(plan, found, appliedBy),
    rule,
    recheck: async () => {
      await assertUnused(store, key, plan.digest);
      await judge();
    },
  };
}

/** "the 5 removals upload #12 held back (E0026, E0027, …)" */
function releaseWords({ generation, keys }: NonNullable<PlanDocument['release']>): string {
  const shown = keys.slice(0, 10).join(', ') + (keys.length > 10 ? `, and ${keys.length - 10} more` : '');
  return `the ${plural(keys.length, 'removal')} upload #${generation} held back (${shown})`;
}

/** `release KIND --target NAME` (or --base-url, for a plan made without a named target). */
function releaseCommand(doc: PlanDocument, target: string | null): string[] {
  return ['release', doc.kind, ...(target ? ['--target', target] : ['--base-url', doc.baseUrl])];
}

/** The limits a plan was judged with; a plan written before plans recorded them gets the defaults. */
function guardsOf(doc: PlanDocument): GuardSettings {
  const limits = limitsOf(doc);
  return {
    limits: {
      maxRemovals: parseLimit('--max-removals', limits.maxRemovals),
      maxChanges: parseLimit('--max-changes', limits.maxChanges),
      maxEmptied: parseLimit('--max-emptied', limits.maxEmptied),
      allowEmpty: limits.allowEmpty,
    },
    // A plan is only written once its baseline question was settled.
    acknowledgeNoBaseline: true,
  };
}
