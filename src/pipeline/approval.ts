// Four eyes (docs/review-then-apply.md): a target with `"approvals": N` takes a plan, N approvals by
// people other than its planner, bound to the plan (its id and digest), and one apply. The digest covers exactly
// what the approvers judged: the body's bytes, the kind, the address, the generation the plan was made
// against and the guard limits it was judged with. Names come from the state store (whoami), never from
// UPLOAD_USER or the plan file.
import type { Kind } from '../contract/kinds.js';
import { GuardRefusal, type Fix } from '../errors.js';
import type { Approval, ApprovalStory, AutoApply, PlanRecord, StateKey, StateStore } from '../state/types.js';

/** How long an approval counts, unless the target says otherwise. */
export const DEFAULT_APPROVAL_HOURS = 24;

/**
 * How far ahead of the reading machine's clock an approval may be dated and still count: two machines
 * sharing a folder rarely agree to the second. Anything further ahead was not given yet, or was dated
 * by hand, and does not count.
 */
export const CLOCK_SKEW_SECONDS = 60;

/**
 * The commands a person runs next, as the words of a hint and as fix data: the target named (a
 * protected one must be), and --yes where nothing asks (apply; approve asks on a terminal, and says
 * --yes elsewhere: NO_CONFIRMATION).
 */
export function nextCommand(step: 'approve' | 'apply', path: string, target: string | null, extra: readonly string[] = []): { text: string; fix: Fix } {
  // A plan kept in the store is named `--plan N` (./waiting.ts), two words; a plan file is one.
  const plan = /^--plan \d+$/.test(path) ? path.split(' ') : [path];
  const args = [step, ...plan, ...(target ? ['--target', target] : []), ...extra, ...(step === 'apply' ? ['--yes'] : [])];
  return { text: ['upload', ...args.map(shellWord)].join(' '), fix: { kind: 'command', args } };
}

/** A word as a POSIX shell reads it back: bare when it can be, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** What a target asks of an upload: N approvals, each valid for `hours`. */
export interface FourEyes {
  readonly approvals: number;
  readonly hours: number;
  /** An unattended run within these bounds is sent without a second person (./auto-apply.ts). */
  readonly autoApply?: AutoApply | null | undefined;
}

export interface DigestInput {
  /** sha256 of the body's bytes, as read. */
  readonly bodySha256: string;
  readonly kind: Kind;
  /** The normalised service address (state key). */
  readonly address: string;
  readonly generation: number;
  readonly limits: { readonly maxRemovals: string; readonly maxChanges: string; readonly maxEmptied: string; readonly allowEmpty: boolean };
  /** The keys the plan holds back (--hold-removals): what apply reports and records, so not to be edited away. */
  readonly held?: readonly string[] | undefined;
  /** A release's plan: the upload whose holds it removes and those keys, as its history will say. */
  readonly release?: { readonly generation: number; readonly keys: readonly string[] } | undefined;
}

/** The approval digest: what an approval is bound to. */
export function approvalDigest(input: DigestInput): string {
  const { limits } = input;
  const fields = [
    'scheduling-upload-approval/1',
    input.bodySha256,
    input.kind,
    input.address,
    String(input.generation),
    limits.maxRemovals,
    limits.maxChanges,
    limits.maxEmptied,
    String(limits.allowEmpty),
    // Only when some are held: the digest of a plan that holds nothing is what it always was.
    ...(input.held?.length ? [`held:${JSON.stringify([...input.held].sort())}`] : []),
    ...(input.release ? [`release:${input.release.generation}:${JSON.stringify([...input.release.keys].sort())}`] : []),
  ];
  // node:crypto on use, as ../contract/json-array.ts does: the rules above load with every run's target.
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The stricter of two requirements: more approvals, shorter validity. */
export function stricter(a: FourEyes | undefined, b: FourEyes | undefined): FourEyes | undefined {
  if (!a || !b) return a ?? b;
  return { approvals: Math.max(a.approvals, b.approvals), hours: Math.min(a.hours, b.hours) };
}

const remake = (target: string | null) =>
  `make a new plan with --dry-run --plan-out FILE${target ? ` --target ${target}` : ''}, have it approved with \`upload approve FILE${target ? ` --target ${target}` : ''}\`, and apply that one`;

/** The record of this plan file (by its id), whose content must still be what was recorded. */
export async function recordedPlan(store: StateStore, key: StateKey, digest: string, planId: string | undefined, target: string | null): Promise<PlanRecord> {
  const found = planId ? (await store.plans(key)).find((p) => p.planId === planId) : undefined;
  if (found?.unverified) throw forged([found.unverified], 'the record of this plan being made');
  if (found?.digest === digest) return found;
  if (found)
    throw new GuardRefusal(
      'PLAN_CHANGED',
      `the plan was changed after it was made by ${found.planner} at ${found.plannedAt}: its content is no longer what was recorded (digest ${digest.slice(0, 12)}…, recorded ${found.digest.slice(0, 12)}…), so no approval of it counts; nothing was sent`,
      remake(target),
    );
  throw new GuardRefusal(
    'PLAN_UNRECORDED',
    `this plan was not recorded in ${store.label} when it was made (it was made for a target that needed no approvals, or with another state store), so nobody can have approved it; nothing was sent`,
    remake(target),
  );
}

/** A plan is applied once: the generation that applied it names its digest. */
export async function assertUnused(store: StateStore, key: StateKey, digest: string): Promise<void> {
  const used = (await store.generations(key)).find((g) => g.approval?.digest === digest);
  if (used)
    throw new GuardRefusal(
      'PLAN_USED',
      `this plan was applied already, as upload #${used.generation} by ${used.approval!.appliedBy} at ${used.uploadedAt}; a plan is applied once, and nothing was sent`,
      'to send the same records again, make a new plan with --dry-run --plan-out FILE and have it approved',
    );
}

/** The approvals that count (by others than the planner, of this plan, in time), and those that do not. */
export interface Tally {
  readonly counted: readonly Approval[];
  readonly expired: readonly Approval[];
  /** Dated ahead of this machine's clock (by more than CLOCK_SKEW_SECONDS): not given yet, as far as it knows. */
  readonly future: readonly Approval[];
  /** Approvals of another plan with the same content: each plan needs its own. */
  readonly otherPlans: readonly Approval[];
}

/** FORGED_RECORD: a record the store cannot vouch for is not skipped quietly: someone wrote it. */
function forged(why: readonly string[], what: string): GuardRefusal {
  return new GuardRefusal(
    'FORGED_RECORD',
    `${what} cannot be trusted: ${why.join('; ')}. Only the system's owner of a record says who made it, so it does not count, and nothing was recorded or sent`,
    "have the store's owner look into it (the file is kept, and whoever can log in as its owner wrote it); once it is removed, make a new plan and have it approved",
  );
}

export async function tally(store: StateStore, key: StateKey, plan: PlanRecord, rule: FourEyes): Promise<Tally> {
  const given = await store.approvals(key, plan.digest);
  const unverified = given.filter((a) => a.unverified);
  if (unverified.length)
    throw forged(
      unverified.map((a) => a.unverified!),
      `an approval of this plan's content`,
    );
  const all = given.filter((a) => a.approver !== plan.planner);
  const counted = new Map<string, Approval>();
  const [expired, future, otherPlans]: [Approval[], Approval[], Approval[]] = [[], [], []];
  for (const a of all) {
    // Bound to the plan, not only its bytes: an approval of another plan file with the same content is not this one's.
    if (a.planId !== plan.planId) otherPlans.push(a);
    else if (a.ageSeconds < -CLOCK_SKEW_SECONDS) future.push(a);
    else if (a.ageSeconds > rule.hours * 3600) expired.push(a);
    // One person counts once, however often they approved: the latest approval stands for them.
    else counted.set(a.approver, a);
  }
  const uncounted = (list: Approval[]) => list.filter((a) => !counted.has(a.approver));
  return { counted: [...counted.values()], expired: uncounted(expired), future: uncounted(future), otherPlans: uncounted(otherPlans) };
}

/** NOT_APPROVED unless N people other than the planner approved exactly this digest within the validity. */
export function assertApproved(plan: PlanRecord, rule: FourEyes, found: Tally, target: string | null, path: string): void {
  if (found.counted.length >= rule.approvals) return;
  const have = found.counted.length ? `approved by ${found.counted.map((a) => a.approver).join(', ')}` : 'approved by nobody yet';
  const of = (list: readonly Approval[]) => `the approval${list.length === 1 ? '' : 's'} of ${list.map((a) => `${a.approver} (${a.approvedAt})`).join(', ')}`;
  const why = [
    found.expired.length ? `; ${of(found.expired)} expired after ${rule.hours} h` : '',
    found.future.length
      ? `; ${of(found.future)} ${found.future.length === 1 ? 'is' : 'are'} dated ahead of this machine's clock, and do${found.future.length === 1 ? 'es' : ''} not count`
      : '',
    found.otherPlans.length ? `; ${of(found.otherPlans)} approved another plan with the same content, and each plan needs its own` : '',
  ].join('');
  const next = nextCommand('approve', path, target);
  throw new GuardRefusal(
    'NOT_APPROVED',
    `${target ? `the target '${target}'` : 'this address'} needs ${rule.approvals} approval${rule.approvals === 1 ? '' : 's'} by someone other than the planner (${plan.planner}); this plan is ${have}${why}; nothing was sent`,
    `ask ${rule.approvals - found.counted.length === 1 ? 'someone else' : `${rule.approvals - found.counted.length} other people`} to run: ${next.text}`,
  ).withFixes(next.fix);
}

/** The history's account of an applied plan. */
export function storyOf(plan: PlanRecord, found: Tally, appliedBy: string): ApprovalStory {
  return {
    digest: plan.digest,
    planner: plan.planner,
    plannedAt: plan.plannedAt,
    approvers: found.counted.map((a) => ({ name: a.approver, at: a.approvedAt })),
    appliedBy,
  };
}

/** What an approver approves: the recorded plan, and the approvals it has so far. */
export interface ToApprove {
  readonly plan: PlanRecord;
  readonly rule: FourEyes;
  readonly me: string;
  readonly found: Tally;
}

/** Before the plan is shown for approval: recorded, not the approver's own, not approved by them already. */
export async function checkApprover(
  store: StateStore,
  key: StateKey,
  digest: string,
  planId: string | undefined,
  rule: FourEyes,
  target: string | null,
  path = 'PLAN',
): Promise<ToApprove> {
  const plan = await recordedPlan(store, key, digest, planId, target);
  const me = await store.whoami();
  if (me === plan.planner) {
    const next = nextCommand('approve', path, target);
    throw new GuardRefusal(
      'SELF_APPROVAL',
      `${me} made this plan (at ${plan.plannedAt}), and a plan cannot be approved by the person who made it; nothing was recorded`,
      `ask someone else to approve it: ${next.text}`,
    ).withFixes(next.fix);
  }
  return { plan, rule, me, found: await tally(store, key, plan, rule) };
}
