// What a command hands back to the entry point, which alone turns it into output and an exit code.
import type { Style } from '../render/human.js';
import type { RunFacts } from '../report/result.js';
import type { UploadReport } from '../report/report.js';

export interface CommandResult {
  /** What the run learnt: the entry point assembles the report (printed under --json) from it once. */
  readonly facts?: RunFacts;
  /** Why the command did not succeed (a typed error, or a bug). */
  readonly failure?: unknown;
  /** The exit code of a command that succeeded without a report (the sandbox, a template, history). */
  readonly exitCode?: number;
  /** What --json prints for a command whose result is not a run's report (history). */
  readonly data?: unknown;
  /** Where the final error lines go (the upload's terminal output); stderr otherwise. */
  readonly ui?: { readonly style: Style; notice(line: string): void };
  readonly json?: boolean;
  /** --detailed-exitcode: exit 8 for a successful run that changes something. */
  readonly detailedExitcode?: boolean;
  /** Called once the run has ended, with its final report and exit code (e.g. to notify); cannot change them. */
  readonly afterRun?: (ended: Ended) => Promise<void>;
}

/** How a run ended, as the entry point settled it. */
export interface Ended {
  /** Undefined for a command without a run's report (the sandbox, a template). */
  readonly report: UploadReport | undefined;
  readonly exitCode: number;
}
