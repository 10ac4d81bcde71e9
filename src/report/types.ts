// The result of a run: exactly what `--json` prints, and what the human renderer reads.
import type { Kind } from '../contract/kinds.js';
import type { Diff } from '../diff/index.js';
import type { Outcome } from '../errors.js';
import type { Issue } from '../issues.js';
import type { FieldSource } from '../map/describe.js';

export interface DiffReport {
  readonly baseline: Diff['baseline'];
  readonly added: number | null;
  readonly removed: number | null;
  readonly changed: number | null;
  readonly unchanged: number | null;
  readonly examples: Diff['examples'];
}

export interface UploadReport {
  kind: Kind | null;
  source: string | null;
  dryRun: boolean;
  outcome: Outcome;
  exitCode: number;
  /** Records read from the file (valid or not). */
  records: number;
  issues: Issue[];
  /** Which column fed which wire field: `[{"field": "employeeID", "columns": ["Personnel Number"]}]`. */
  mapping: readonly FieldSource[];
  diff: DiffReport | null;
  response: { status: number; message: string } | null;
  /** Why the run stopped, when it did not succeed: a stable code, the message and what to do. */
  error: { code: string; message: string; hint: string | null } | null;
}

export function diffReport(diff: Diff): DiffReport {
  const { baseline, added, removed, changed, unchanged, examples } = diff;
  return { baseline, added, removed, changed, unchanged, examples };
}

export function emptyReport(kind: Kind | null, source: string | null, dryRun: boolean): UploadReport {
  return { kind, source, dryRun, outcome: 'usage-error', exitCode: 2, records: 0, issues: [], mapping: [], diff: null, response: null, error: null };
}
