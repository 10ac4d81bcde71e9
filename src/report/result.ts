// What a run returns: the facts each step of the frame produced, as far as the run got, and why it
// stopped when it did not succeed. The report (report/assemble.ts) is built from these once.
import type { LayoutOutcome } from '../map/layout-memory.js';
import type { Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import type { GuardCheck } from '../guard/checks.js';
import type { Issue } from '../issues.js';
import type { FieldSource } from '../map/describe.js';
import type { ApprovalReport, BaselineReport } from './report.js';
import type { ServiceAnswer } from '../send/index.js';

/** What a file said when it was read: its records, issues and mapping. */
export interface FileFacts {
  /** Records rejected: the set is not judged, and its mapping and changes are not reported as final. */
  readonly errors: number;
  readonly issues: Issue[];
  readonly issueCounts: Readonly<Record<string, number>>;
  readonly issuesTruncated: boolean;
  readonly mapping: readonly FieldSource[];
  /** The header compared with the last one recorded (absent where no header was read against a store). */
  readonly layout?: { readonly outcome: LayoutOutcome } | null;
}

export interface Executed {
  readonly answer: ServiceAnswer;
  /** The generation the upload became, or null when the store could not record it (a warning says so). */
  readonly generation: number | null;
}

export interface RunFacts {
  readonly kind: Kind | null;
  /** What the records came from: the file's name, `upload #N` (restore), the saved plan (apply). */
  readonly source: string | null;
  readonly dryRun: boolean;
  /** Records read (valid or not) or planned. */
  readonly records?: number;
  readonly file?: FileFacts;
  /** What the plan is compared with, with its provenance. */
  readonly against?: BaselineReport;
  readonly diff?: Diff;
  /** Every guard's verdict, once the set was judged. */
  readonly guards?: readonly GuardCheck[];
  /** Removals --hold-removals held back: the keys kept on the service although the file leaves them out. */
  readonly held?: readonly string[];
  /** `upload release`: the upload whose held removals the set removes, and those keys. */
  readonly released?: { readonly generation: number; readonly keys: readonly string[] };
  readonly executed?: Executed;
  /** --hours-as-of: the day whose week date-bound hours were read for (YYYY-MM-DD). */
  readonly hoursAsOf?: string;
  /** Four eyes: who planned and approved the plan, and (once sent) who applied it. */
  readonly approval?: ApprovalReport;
  /** How a run that succeeded ended. */
  readonly done?: 'dry-run' | 'uploaded' | 'approved';
}

export interface RunResult {
  readonly facts: RunFacts;
  /** Why the run stopped, when it did not succeed. */
  readonly failure?: unknown;
}
