// What is stricter, between two policies of an address, and whether a plan is within autoApply's
// bounds (docs/review-then-apply.md, "The policy lives in the store"). Pure: the stores keep the
// records, the runner combines them with the config (src/cli/policy-gate.ts), and PostgreSQL checks
// the same rule in its own function (upload_policy_at_least, src/state/pg-policy.ts).
import type { AutoApply, GuardFloors, Policy } from '../state/types.js';

/** The stricter of two policies: more approvals, shorter validity, narrower autoApply (none beats any). */
export function stricterPolicy(a: Policy | undefined, b: Policy | undefined): Policy | undefined {
  if (!a || !b) return a ?? b;
  // An address without approvals sends everything unattended: its autoApply and hours say nothing.
  const hours = !a.approvals ? b.approvalHours : !b.approvals ? a.approvalHours : Math.min(a.approvalHours, b.approvalHours);
  const autoApply = !a.approvals ? b.autoApply : !b.approvals ? a.autoApply : narrower(a.autoApply, b.autoApply);
  const limits = tighterFloors(a.limits, b.limits);
  return {
    protected: a.protected || b.protected,
    approvals: Math.max(a.approvals, b.approvals),
    approvalHours: hours,
    autoApply,
    ...(limits ? { limits } : {}),
  };
}

export const FLOOR_KEYS = ['maxRemovals', 'maxChanges', 'maxEmptied'] as const;

function tighterFloors(a: GuardFloors | undefined, b: GuardFloors | undefined): GuardFloors | undefined {
  if (!a || !b) return a ?? b;
  return Object.fromEntries(FLOOR_KEYS.flatMap((k) => ((a[k] ?? b[k]) === undefined ? [] : [[k, tighterLimit(a[k], b[k])]])));
}

/**
 * The tighter of two guard limits as the flags write them: the smaller of two counts or two
 * percentages; a count and a percentage cannot be compared without a plan, and the count (a fixed
 * cap) is taken.
 */
export function tighterLimit(a: string | undefined, b: string | undefined): string {
  if (a === undefined || b === undefined) return (a ?? b)!;
  const [pa, pb] = [a.endsWith('%'), b.endsWith('%')];
  if (pa === pb) return percent(a) <= percent(b) ? a : b;
  return pa ? b : a;
}

function narrower(a: AutoApply | null, b: AutoApply | null): AutoApply | null {
  if (!a || !b) return null;
  return { maxAdded: Math.min(a.maxAdded, b.maxAdded), maxRemoved: Math.min(a.maxRemoved, b.maxRemoved), maxChanged: fewerChanged(a.maxChanged, b.maxChanged) };
}

/** Two counts or two percentages: the smaller. A count and a percentage cannot be compared without a plan: 0, stricter than both. */
function fewerChanged(a: number | string, b: number | string): number | string {
  if (typeof a === 'number' && typeof b === 'number') return Math.min(a, b);
  if (typeof a === 'string' && typeof b === 'string') return percent(a) <= percent(b) ? a : b;
  return 0;
}

const percent = (text: string): number => Number(text.replace(/%$/, ''));

/** Whether `next` asks at least as much as `recorded`: what anyone may record (PostgreSQL's upload_policy_at_least says the same). */
export function atLeastAsStrict(next: Policy, recorded: Policy): boolean {
  if (next.approvals < recorded.approvals || (recorded.protected && !next.protected)) return false;
  for (const k of FLOOR_KEYS) {
    const r = recorded.limits?.[k];
    if (r !== undefined && (next.limits?.[k] === undefined || tighterLimit(next.limits[k], r) !== next.limits[k])) return false;
  }
  if (!recorded.approvals) return true;
  if (next.approvalHours > recorded.approvalHours) return false;
  if (!next.autoApply) return true;
  if (!recorded.autoApply) return false;
  const [n, r] = [next.autoApply, recorded.autoApply];
  const changed = typeof n.maxChanged === typeof r.maxChanged ? limitOf(n.maxChanged) <= limitOf(r.maxChanged) : limitOf(n.maxChanged) === 0;
  return n.maxAdded <= r.maxAdded && n.maxRemoved <= r.maxRemoved && changed;
}

const limitOf = (v: number | string): number => (typeof v === 'number' ? v : percent(v));

/** Whether two policies say the same. */
export function samePolicy(a: Policy, b: Policy): boolean {
  return atLeastAsStrict(a, b) && atLeastAsStrict(b, a);
}

/** The counts a plan changes, as autoApply judges them. */
export interface PlanCounts {
  readonly added: number | null;
  readonly removed: number | null;
  readonly changed: number | null;
  /** Records recorded before: what a percentage of changes is of. */
  readonly baselineCount: number | null;
}

/** Why a plan is outside the bounds (empty: within every one). A plan with nothing to compare with is outside. */
export function outsideBounds(bounds: AutoApply, counts: PlanCounts): string[] {
  if (counts.added === null || counts.removed === null || counts.changed === null)
    return ['there is no recorded upload to compare it with, so its changes are not known'];
  const changedLimit = typeof bounds.maxChanged === 'number' ? bounds.maxChanged : Math.floor((percent(bounds.maxChanged) / 100) * (counts.baselineCount ?? 0));
  const out: string[] = [];
  if (counts.added > bounds.maxAdded) out.push(`${counts.added} added (at most ${bounds.maxAdded})`);
  if (counts.changed > changedLimit)
    out.push(`${counts.changed} changed (at most ${typeof bounds.maxChanged === 'number' ? changedLimit : `${bounds.maxChanged}, ${changedLimit}`})`);
  if (counts.removed > bounds.maxRemoved) out.push(`${counts.removed} removed (at most ${bounds.maxRemoved})`);
  return out;
}

/** "at most 20 added, 2% changed, 0 removed" */
export function describeBounds(bounds: AutoApply): string {
  return `at most ${bounds.maxAdded} added, ${bounds.maxChanged} changed, ${bounds.maxRemoved} removed`;
}

/** "2 approvals (valid 24 h), protected, autoApply at most …" */
export function describePolicy(p: Policy): string {
  const floors = FLOOR_KEYS.filter((k) => p.limits?.[k] !== undefined).map((k) => `${k} at most ${p.limits![k]}`);
  const parts = [
    p.approvals ? `${p.approvals} approval${p.approvals === 1 ? '' : 's'} (valid ${p.approvalHours} h)` : 'no approvals',
    ...(p.protected ? ['protected'] : []),
    ...(p.approvals ? [p.autoApply ? `autoApply ${describeBounds(p.autoApply)}` : 'no autoApply'] : []),
    ...(floors.length ? [`guard floors: ${floors.join(', ')}`] : []),
  ];
  return parts.join(', ');
}
