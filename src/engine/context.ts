// What a run is given by whoever starts it (the CLI, a test): the environment, standard input, the
// Ctrl-C signal, where its events go and how to ask the person at the terminal.
import type { ConfirmRequest, RunEvent } from './events.js';
import type { Reviewed } from './reviewed.js';
import type { Tuning } from '../send/backoff.js';
import type { StateStore } from '../state/types.js';

export interface RunContext {
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
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
}
