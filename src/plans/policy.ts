// The rules that live with the record (docs/review-then-apply.md, "The policy lives in the store"): an
// address's protective settings are recorded in its state store, and a run obeys the stricter of what
// the store records and what its config file asks, never the weaker (../guard/policy.ts says which is
// stricter). Here: what a config target asks, as a policy, and the address it is recorded for.
import type { Target } from '../config/schema.js';
import { normaliseBaseUrl } from '../state/paths.js';
import type { Policy } from '../state/types.js';
import { DEFAULT_APPROVAL_HOURS } from '../pipeline/approval.js';

/** Nothing asked: no approvals, not protected. */
export const NO_POLICY: Policy = { protected: false, approvals: 0, approvalHours: DEFAULT_APPROVAL_HOURS, autoApply: null };

/**
 * The address a policy is recorded for: the state key's, so that the store's plans, approvals, history
 * and PostgreSQL's trigger all name it alike. The one place to change when the address normalisers
 * become one.
 */
export function policyAddress(url: URL): string {
  return normaliseBaseUrl(url);
}

/** What a config target asks, as a policy (undefined: the target asks nothing protective). */
export function policyOfTarget(target: Target | undefined): Policy | undefined {
  if (!target || (target.protected !== true && !target.approvals)) return undefined;
  return {
    protected: target.protected === true,
    approvals: target.approvals ?? 0,
    approvalHours: target.approvalHours ?? DEFAULT_APPROVAL_HOURS,
    autoApply: target.approvals ? (target.autoApply ?? null) : null,
    // The target's guard limits become the address's floors: no run there may allow more.
    ...(target.guards && Object.values(target.guards).some((v) => v !== undefined)
      ? { limits: Object.fromEntries(Object.entries(target.guards).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))) }
      : {}),
  };
}
