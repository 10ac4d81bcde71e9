// The result of a run: exactly what `--json` prints, and what the human renderer (render/) reads. The
// engine's facts are assembled into it once (./assemble.ts); render/ only puts it into words, pages and files.
import type { LayoutOutcome } from '../map/layout-memory.js';
import { KINDS, type Kind } from '../contract/kinds.js';
import { plural } from '../numbers.js';
import type { Diff } from '../diff/index.js';
import type { Fix, Outcome, ServiceSaid } from '../errors.js';
import type { GuardCheck } from '../guard/checks.js';
import type { Issue } from '../issues.js';
import type { FieldSource } from '../map/describe.js';
import type { AutoApply, Generation } from '../state/types.js';

export interface DiffReport {
  readonly baseline: Diff['baseline'];
  readonly added: number | null;
  readonly removed: number | null;
  readonly changed: number | null;
  readonly unchanged: number | null;
  readonly examples: Diff['examples'];
}

/** What the diff compared with: the last confirmed upload (a generation of the store), a file, or nothing. */
export interface BaselineReport {
  readonly source: Diff['baseline'];
  readonly generation: number | null;
  readonly uploadedAt: string | null;
  readonly user: string | null;
  readonly host: string | null;
  readonly records: number | null;
  readonly sha256: string | null;
}

export const NO_BASELINE: BaselineReport = { source: 'none', generation: null, uploadedAt: null, user: null, host: null, records: null, sha256: null };

/** A recorded upload as the baseline of a run (none when nothing is recorded). */
export function baselineOf(g: Generation | undefined): BaselineReport {
  if (!g) return NO_BASELINE;
  return { source: 'snapshot', generation: g.generation, uploadedAt: g.uploadedAt, user: g.user, host: g.host, records: g.records, sha256: g.sha256 };
}

export interface UploadReport {
  kind: Kind | null;
  source: string | null;
  dryRun: boolean;
  outcome: Outcome;
  exitCode: number;
  /** Records read from the file (valid or not). */
  records: number;
  /** The first 1,000 issues in full (see issuesTruncated); every one is counted in issueCounts. */
  issues: Issue[];
  /** How many issues of each code were found. */
  issueCounts: Readonly<Record<string, number>>;
  /** True when there were more issues than `issues` lists. */
  issuesTruncated: boolean;
  /** Which column fed which wire field: `[{"field": "employeeID", "columns": ["Personnel Number"]}]`. */
  mapping: readonly FieldSource[];
  /** --hours-as-of: the day whose ISO week the hours bound to dates (`Apr 10-15 off`) were read for; null without it. */
  hoursAsOf?: string | null;
  /** The baseline with its provenance; `diff.baseline` keeps the plain source name. */
  baseline: BaselineReport;
  diff: DiffReport | null;
  /** True when a successful run changed nothing on the service (every record unchanged, nothing removed). */
  unchanged: boolean | null;
  /** Every guard's verdict (name, count, limit, passed / refused / not-applied); null when the run stopped before judging. */
  guards: readonly GuardCheck[] | null;
  /** The generation a confirmed upload became in the state store. */
  generation: number | null;
  /** Keys --hold-removals kept on the service although the file leaves them out (exit 9); empty: none. */
  heldRemovals?: readonly string[];
  /** `upload release` (and approve or apply of its plan): the upload whose holds it removes, and exactly those keys; null elsewhere. */
  released?: { readonly generation: number; readonly keys: readonly string[] } | null;
  /** Four eyes (approve, apply): planner, approvers and applier of the plan; null elsewhere. */
  approval?: ApprovalReport | null;
  /** The file's header compared with the last one recorded: reused mapping, flags that won, columns changed; null where no header was read. */
  layout?: LayoutOutcome | null;
  response: { status: number; message: string } | null;
  /**
   * Why the run stopped, when it did not succeed: a stable code, the message and what to do; `service`
   * is what a refusing service said itself (its `message` and `errors[]`, located in the file).
   */
  error: { code: string; message: string; hint: string | null; fixes: readonly Fix[]; service: ServiceSaid | null } | null;
}

/** "upload #41 of 2026-11-20 21:03 UTC by cron@sync-01, 50,000 team members" */
export function describeBaseline(b: BaselineReport, kind: Kind): string {
  const noun = KINDS[kind].noun;
  if (b.source === 'none') return 'nothing (no baseline)';
  const records = b.records === null ? '' : `, ${plural(b.records, noun)}`;
  if (b.source === 'file') return `the baseline file${records}`;
  const when = b.uploadedAt ? ` of ${b.uploadedAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  return `upload #${b.generation}${when} by ${b.user}@${b.host}${records}`;
}

/** The report's `approval` (docs/report.md): what four eyes said of a plan. */
export interface ApprovalReport {
  readonly digest: string;
  /** Approvals the target needs, and how many hours each counts. */
  readonly needed: number;
  readonly hours: number;
  readonly planner: string;
  readonly plannedAt: string;
  /** The approvals that count (people other than the planner, not expired), oldest first. */
  readonly approvers: readonly { readonly name: string; readonly at: string }[];
  /** Who applied it; null until it was sent. */
  readonly appliedBy: string | null;
  /** Sent without a second person, within the address's autoApply bounds ("approved by policy"); absent otherwise. */
  readonly policy?: AutoApply;
}
