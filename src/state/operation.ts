// What an upload was, for the history: recorded with each upload since `--merge`, `remove` and
// `--hold-removals` exist; derived from the other provenance for uploads recorded before.
import { describeBounds } from '../guard/policy.js';
import type { ApprovalStory, Generation, Operation } from './types.js';

export function operationOf(g: Generation): Operation {
  return g.operation ?? (g.restoredFrom !== null ? 'restore' : g.plan !== null ? 'apply' : 'upload');
}

/** "full upload of staff.csv", "merge of new-hires.csv", "removal of keys E1, E2", "restore of #41". */
export function describeOperation(g: Generation): string {
  switch (operationOf(g)) {
    case 'merge':
      return `merge of ${g.source}`;
    case 'remove':
      return `removal of ${g.source}`;
    case 'restore':
      return `restore of #${g.restoredFrom ?? '?'}`;
    case 'apply':
      return `apply of plan ${g.plan ?? g.source}`;
    case 'release':
      // "released 5 held removals of upload #12 (plan release.plan.json)"
      return `released ${g.source}${g.plan ? ` (plan ${g.plan})` : ''}`;
    case 'upload':
      return `full upload of ${g.source}`;
  }
}

/** "planned by alice at …, approved by bob at …, applied by cron": four eyes in one line. */
export function describeApproval(a: ApprovalStory): string {
  const at = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  if (a.policy) return `planned by ${a.planner} at ${at(a.plannedAt)}, approved by policy (autoApply: ${describeBounds(a.policy)}), applied by ${a.appliedBy}`;
  const approvers = a.approvers.map((p) => `${p.name} at ${at(p.at)}`).join(', ');
  return `planned by ${a.planner} at ${at(a.plannedAt)}, approved by ${approvers || 'nobody'}, applied by ${a.appliedBy}`;
}
