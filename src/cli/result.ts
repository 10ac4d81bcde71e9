// What a command hands back to the entry point, which alone turns it into output and an exit code.
import type { Style } from '../report/human.js';
import type { UploadReport } from '../report/types.js';

export interface CommandResult {
  /** The run's report: printed under --json, completed from `failure` by the entry point. */
  readonly report?: UploadReport;
  /** Why the command did not succeed (a typed error, or a bug). */
  readonly failure?: unknown;
  /** The exit code of a command that succeeded without a report (the sandbox, a template). */
  readonly exitCode?: number;
  /** Where the final error lines go (the upload's terminal output); stderr otherwise. */
  readonly ui?: { readonly style: Style; notice(line: string): void };
  readonly json?: boolean;
}
