// The process as the commands see it: passed in, so tests can run `main(argv, io)` in-process.
import type { NotifyTiming } from '../notify/post.js';
import type { Tuning } from '../send/backoff.js';
import type { Secrets } from '../send/secrets.js';
import { directOutput } from './direct-stderr.js';
export interface ProcessIo {
  readonly argv0?: string;
  readonly stdin: NodeJS.ReadStream;
  /** Whether stdin is a terminal, when known without opening it (the process's own); else stdin.isTTY says. */
  readonly stdinIsTTY?: boolean;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  /** Tighter send timings, for tests that run `main(argv, io)` in-process; never set by the bin. */
  readonly tuning?: Tuning;
  /** Tighter notification timings, for tests; never set by the bin. */
  readonly notifyTiming?: NotifyTiming;
}

/** The process's own output streams a run has made, which leave() waits for. */
export const madeStreams = new Set<NodeJS.WriteStream>();
const made = (stream: NodeJS.WriteStream) => (madeStreams.add(stream), stream);

export const processIo = (): ProcessIo => ({
  // Opened on first use: most runs never read stdin, and opening it is a few milliseconds of every start-up.
  get stdin() {
    return process.stdin;
  },
  // Asked of the descriptor, not the stream; node:tty only when asked (--help never is).
  get stdinIsTTY() {
    return process.getBuiltinModule('node:tty').isatty(0);
  },
  // Off a terminal, written straight to the descriptor (./direct-stderr.ts): no stream to make (a
  // stream to a pipe loads Node's net and stream modules). Elsewhere made on first use: a run that
  // writes nothing to stdout (a --quiet dry run) need not make that one.
  get stdout() {
    return (directOutput(1, () => made(process.stdout)) as NodeJS.WriteStream | null) ?? made(process.stdout);
  },
  get stderr() {
    return (directOutput(2, () => made(process.stderr)) as NodeJS.WriteStream | null) ?? made(process.stderr);
  },
  env: process.env,
});

/** A person at a terminal: stdin and stderr both are one (someone can answer a question, and see it). */
// stderr asked first: when it is no terminal (a pipe, a file, a cron job's mail) stdin is not asked,
// which would load node:tty for nothing.
export const interactive = (io: ProcessIo): boolean => io.stderr.isTTY === true && (io.stdinIsTTY ?? io.stdin.isTTY === true);

/** The process as one run of `main` sees it: with the secrets (the token) its output must never show. */
export interface RunIo extends ProcessIo {
  readonly secrets: Secrets;
}
