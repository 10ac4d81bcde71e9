// The process as the commands see it: passed in, so tests can run `main(argv, io)` in-process.
import type { NotifyTiming } from '../notify/post.js';
import type { Tuning } from '../send/backoff.js';
import type { Secrets } from '../send/secrets.js';
export interface ProcessIo {
  readonly argv0?: string;
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  /** Tighter send timings, for tests that run `main(argv, io)` in-process; never set by the bin. */
  readonly tuning?: Tuning;
  /** Tighter notification timings, for tests; never set by the bin. */
  readonly notifyTiming?: NotifyTiming;
}

export const processIo = (): ProcessIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });

/** The process as one run of `main` sees it: with the secrets (the token) its output must never show. */
export interface RunIo extends ProcessIo {
  readonly secrets: Secrets;
}
