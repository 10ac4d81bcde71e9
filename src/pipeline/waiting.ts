// Plans kept in the state store awaiting approval (docs/review-then-apply.md, "A night within a
// policy"): an unattended run whose plan is outside its autoApply bounds keeps the plan's document and
// exact bytes in the store instead of a file; `upload approve --target NAME` lists them and approves
// one, `upload apply --target NAME` sends an approved one. They are numbered per address, oldest
// first, across both kinds: `--plan N` names one, and the number never changes (nothing is removed).
import type { Payload } from '../contract/json-array.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import { GuardRefusal, UsageError } from '../errors.js';
import type { StateKey, StateStore, WaitingPlan } from '../state/types.js';
import { approvalDigest, tally, type FourEyes } from './approval.js';
import type { Identity } from './options.js';
import { checkKeptPlan, planDocumentOf, type PlanDocument, type PlanLimits } from './saved-plan.js';

export interface KeptPlan extends WaitingPlan {
  readonly kind: Kind;
  readonly doc: PlanDocument;
}

/** What the plan kept for approval says, as a plan file would. */
export interface ToKeep {
  readonly store: StateStore;
  readonly key: StateKey;
  readonly generation: number;
  readonly limits: PlanLimits;
  readonly payload: Payload;
  readonly source: string;
  readonly target: string | null;
  readonly identity: Identity;
  readonly baseline: 'snapshot' | 'file' | 'none';
  readonly diff: { added: number | null; removed: number | null; changed: number | null; unchanged: number | null };
  readonly notes: readonly string[];
  readonly rule: FourEyes;
}

/** Records the plan (as a planner's dry run does) and keeps its document and bytes in the store; its number. */
export async function keepWaiting(k: ToKeep): Promise<{ number: number; planner: string; digest: string }> {
  const { store, key, generation } = k;
  const digest = approvalDigest({ bodySha256: k.payload.sha256, kind: key.kind, address: key.baseUrl, generation, limits: k.limits });
  const planId = process.getBuiltinModule('node:crypto').randomUUID();
  const record = await store.recordPlan(key, { digest, planId, generation, source: k.source });
  const doc = await planDocumentOf(
    {
      kind: key.kind,
      baseUrl: key.baseUrl,
      target: k.target,
      source: k.source,
      createdAt: new Date().toISOString(),
      ...k.identity,
      generation,
      baseline: k.baseline,
      diff: k.diff,
      notes: [...k.notes],
      limits: k.limits,
      planId,
      approval: { approvals: k.rule.approvals, hours: k.rule.hours, planner: record.planner },
    },
    k.payload,
    `${planId}.body.json`,
  );
  await store.keepPlan(key, { planId, digest, document: JSON.stringify(doc) }, Buffer.concat(k.payload.chunks));
  const kept = (await keptPlans(store, key.baseUrl)).find((p) => p.planId === planId);
  return { number: kept?.number ?? 0, planner: record.planner, digest };
}

/** Every plan kept for an address, both kinds, numbered oldest first. */
export async function keptPlans(store: StateStore, address: string): Promise<KeptPlan[]> {
  const all: Omit<KeptPlan, 'number'>[] = [];
  for (const kind of Object.keys(KINDS) as Kind[]) {
    for (const plan of await store.waitingPlans({ baseUrl: address, kind })) {
      try {
        all.push({ ...plan, kind, doc: JSON.parse(plan.document) as PlanDocument });
      } catch {
        // Not a document this tool wrote: never offered.
      }
    }
  }
  return all.sort((a, b) => a.plannedAt.localeCompare(b.plannedAt) || a.planId.localeCompare(b.planId)).map((p, i) => ({ ...p, number: i + 1 }));
}

interface Status {
  readonly plan: KeptPlan;
  /** Applied already, or made against another upload than the latest: never offered. */
  readonly open: boolean;
  readonly approvals: number;
  readonly needed: number;
}

async function statusOf(store: StateStore, plan: KeptPlan, rule: FourEyes | undefined): Promise<Status> {
  const key = { baseUrl: plan.doc.baseUrl, kind: plan.kind };
  const [head, generations, records] = await Promise.all([store.head(key), store.generations(key), store.plans(key)]);
  const used = generations.some((g) => g.approval?.digest === plan.digest);
  const needed = Math.max(rule?.approvals ?? 0, plan.doc.approval?.approvals ?? 0);
  const record = records.find((r) => r.planId === plan.planId);
  const hours = Math.min(rule?.hours ?? Infinity, plan.doc.approval?.hours ?? Infinity);
  const approvals = record ? (await tally(store, key, record, { approvals: needed, hours })).counted.length : 0;
  return { plan, open: !used && (head?.generation ?? 0) === plan.doc.generation, approvals, needed };
}

/** "#2  team-members  planned by cron at 2026-11-28 02:00 UTC  +25 −0 ~3  (0 of 1 approvals)" */
function line(s: Status): string {
  const { plan } = s;
  const d = plan.doc.diff;
  const n = (x: number | null) => (x === null ? '?' : String(x));
  return `#${plan.number}  ${plan.kind}  planned by ${plan.planner} at ${plan.plannedAt.slice(0, 16).replace('T', ' ')} UTC  +${n(d.added)} −${n(d.removed)} ~${n(d.changed)}  (${s.approvals} of ${s.needed} approval${s.needed === 1 ? '' : 's'})`;
}

export interface Chosen {
  /** How messages and hints name it: `--plan N`. */
  readonly label: string;
  readonly load: () => Promise<{ doc: PlanDocument; body: Buffer }>;
}

/**
 * The kept plan `approve` or `apply` works on: `--plan N`, or the one open plan (for apply: the one
 * open plan approved enough); none or several are refused with the list (NO_WAITING_PLAN, CHOOSE_PLAN).
 */
export async function chooseWaiting(
  store: StateStore,
  address: string,
  given: string | undefined,
  purpose: 'approve' | 'apply',
  rule: FourEyes | undefined,
  where: readonly string[],
): Promise<Chosen> {
  const plans = await keptPlans(store, address);
  const chosen = (plan: KeptPlan): Chosen => ({
    label: `--plan ${plan.number}`,
    load: async () =>
      checkKeptPlan(plan.document, await store.readWaitingBody({ baseUrl: plan.doc.baseUrl, kind: plan.kind }, plan.planId), `plan #${plan.number}`),
  });
  if (given !== undefined) {
    const n = Number(given);
    const plan = Number.isInteger(n) ? plans.find((p) => p.number === n) : undefined;
    if (!plan)
      throw new UsageError(
        'BAD_FLAG',
        `--plan '${given}' is not the number of a plan kept in ${store.label} for ${address} (${plans.length ? `they are 1 to ${plans.length}` : 'none is kept'})`,
        `see them with: upload approve ${where.join(' ')}`,
      );
    // Used, stale or not approved: the checks of approve and apply say so, as for a plan file.
    return chosen(plan);
  }
  const statuses = await Promise.all(plans.map((p) => statusOf(store, p, rule)));
  const open = statuses.filter((s) => s.open);
  const ready = purpose === 'apply' ? open.filter((s) => s.approvals >= s.needed) : open;
  if (ready.length === 1) return chosen(ready[0]!.plan);
  const command = (n: number) => [purpose, ...where, '--plan', String(n)];
  if (!ready.length) {
    const waiting = open.length ? `; waiting for approval:\n${open.map((s) => `     ${line(s)}`).join('\n')}` : '';
    throw new UsageError(
      'NO_WAITING_PLAN',
      `no plan kept in ${store.label} for ${address} is ${purpose === 'apply' ? 'approved and ready to apply' : 'waiting for approval'}${waiting}`,
      purpose === 'apply' && open.length
        ? `have it approved first: upload approve ${where.join(' ')} --plan ${open[open.length - 1]!.plan.number}`
        : 'nothing to do: plans are kept here when an unattended run is outside its autoApply bounds',
    ).withFixes(
      ...(purpose === 'apply' && open.length ? [{ kind: 'command' as const, args: ['approve', ...command(open[open.length - 1]!.plan.number).slice(1)] }] : []),
    );
  }
  const newest = ready[ready.length - 1]!.plan.number;
  throw new UsageError(
    'CHOOSE_PLAN',
    `${ready.length} plans kept in ${store.label} for ${address} are ${purpose === 'apply' ? 'approved' : 'waiting for approval'}; say which:\n${ready.map((s) => `     ${line(s)}`).join('\n')}`,
    `name one by its number: --plan ${newest}`,
  ).withFixes({ kind: 'flags', args: ['--plan', String(newest)] });
}

/** The refusal of an unattended run outside its bounds: the plan is kept, and this is the command that approves it. */
export function awaitingApproval(k: {
  number: number;
  digest: string;
  reasons: readonly string[];
  bounds: string;
  where: readonly string[];
  label: string;
}): GuardRefusal {
  const args = ['approve', ...k.where, '--plan', String(k.number)];
  return new GuardRefusal(
    'AWAITING_APPROVAL',
    `the plan is outside the autoApply bounds of this address (${k.bounds}): ${k.reasons.join('; ')}; nothing was sent, and the plan is kept in ${k.label} as plan #${k.number} (digest ${k.digest.slice(0, 12)}…), awaiting approval`,
    `someone other than the planner runs: upload ${args.join(' ')}   (it shows the plan and asks); then: upload apply ${k.where.join(' ')} --yes`,
  ).withFixes({ kind: 'command', args });
}
