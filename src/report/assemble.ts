// The report of a run — exactly what `--json` prints — assembled once, from the facts the engine's
// steps returned and how the run ended.
import type { RunFacts } from './result.js';
import type { Outcome } from '../errors.js';
import { NO_BASELINE, type UploadReport } from './report.js';

export interface Ending {
  readonly outcome: Outcome;
  readonly exitCode: number;
  readonly error: UploadReport['error'];
  /** The service's answer to a failed attempt, when there was one. */
  readonly response?: UploadReport['response'] | undefined;
}

/** True when the planned set changes nothing on the service; null when that is not known. */
export function unchangedOf(facts: RunFacts): boolean | null {
  const { diff } = facts;
  if (!diff || diff.baseline === 'none' || (facts.file?.errors ?? 0) > 0) return null;
  return diff.added === 0 && diff.removed === 0 && diff.changed === 0;
}

export function assembleReport(facts: RunFacts, ending: Ending): UploadReport {
  const { file, diff, executed } = facts;
  const valid = file !== undefined && file.errors === 0;
  return {
    kind: facts.kind,
    source: facts.source,
    dryRun: facts.dryRun,
    outcome: ending.outcome,
    exitCode: ending.exitCode,
    records: facts.records ?? 0,
    issues: file?.issues ?? [],
    issueCounts: file?.issueCounts ?? {},
    issuesTruncated: file?.issuesTruncated ?? false,
    // The mapping is reported with a set that can be sent; rejected records are in `issues`.
    mapping: valid ? file.mapping : [],
    hoursAsOf: facts.hoursAsOf ?? null,
    baseline: facts.against ?? NO_BASELINE,
    diff: diff
      ? { baseline: diff.baseline, added: diff.added, removed: diff.removed, changed: diff.changed, unchanged: diff.unchanged, examples: diff.examples }
      : null,
    unchanged: unchangedOf(facts),
    guards: facts.guards ?? null,
    generation: executed?.generation ?? null,
    heldRemovals: facts.held ?? [],
    released: facts.released ?? null,
    approval: facts.approval ?? null,
    layout: file?.layout?.outcome ?? null,
    response: executed ? { status: executed.answer.status, message: executed.answer.message } : (ending.response ?? null),
    error: ending.error,
  };
}
