// What a run is given by whoever starts it (the CLI, a test): the environment, standard input, the
// Ctrl-C signal, where its events go, how to ask the person at the terminal and how to put the files
// it writes on request into rows.
import type { Bodies } from '../contract/json-array.js';
import type { Kind } from '../contract/kinds.js';
import type { RecordsByKey } from '../diff/index.js';
import type { Issue } from '../issues.js';
import type { RejectedRecord } from '../validate/index.js';
import type { ConfirmRequest, RunEvent } from './events.js';
import type { Reviewed } from './reviewed.js';
import type { Tuning } from '../send/backoff.js';
import type { StateStore } from '../state/types.js';
import type { Stdin } from '../read/types.js';

export interface RunContext {
  readonly env: NodeJS.ProcessEnv;
  /** Standard input, opened when first asked for: most runs never read it, and opening it costs start-up. */
  readonly stdin: Stdin;
  /** Aborted on Ctrl-C, with an Interrupted error as its reason. */
  readonly signal?: AbortSignal | undefined;
  readonly emit: (event: RunEvent) => void;
  /** Asks the person at the terminal; resolves false on anything but yes. */
  readonly confirm: (request: ConfirmRequest) => Promise<boolean>;
  /** What the question takes as a yes, for the hint after a no: "answer y", or "type production" for a protected target. */
  readonly confirmAnswer?: string | undefined;
  /** Tighter send timings (tests); undefined in real use. */
  readonly tuning?: Tuning | undefined;
  /** Opens a state store (by its spec) for the whole command and closes it after; without it the run opens and closes its own. */
  readonly openStore?: ((spec: string) => Promise<StateStore>) | undefined;
  /** With --report-html: where the frame leaves what the review page shows beyond the report. */
  readonly review?: Reviewed | undefined;
  /** The CSV files a run writes on request: the engine says what goes in them, render/ writes the rows. */
  readonly files: OutputFiles;
}

/**
 * The writers of --errors-csv and --diff-out. The run hands over data; whoever starts it (the CLI:
 * render/output-files.ts) turns it into rows and writes the file, so the engine needs no words.
 */
export interface OutputFiles {
  errorsCsv(path: string, rows: RejectedRows): Promise<void>;
  diffCsv(path: string, changes: PlannedChanges): Promise<void>;
}

/** --errors-csv: the rejected rows as they were read, and the errors of the file no row carries. */
export interface RejectedRows {
  readonly header: readonly string[] | null;
  readonly rejected: readonly RejectedRecord[];
  readonly delimiter: string;
  readonly errors: readonly Issue[];
}

/** --diff-out: what would be sent (key and body, in order) against what it is compared with. */
export interface PlannedChanges {
  readonly kind: Kind;
  readonly baseline: RecordsByKey | undefined;
  readonly keys: readonly string[];
  readonly bodies: Bodies;
  readonly delimiter: string;
}
