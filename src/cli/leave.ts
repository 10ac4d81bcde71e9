// How the process ends once main() has returned. A name lookup the run gave up on — the connect
// timeout or a webhook's 4 s passed while the system resolver was still asking — cannot be cancelled:
// getaddrinfo runs on a libuv thread and holds the process until the resolver itself gives up (20 s
// and more with a dead name server), long after the run's outcome was known. So once the output is
// written, nothing else is waited for. The one place that calls process.exit.

import { madeStreams } from './io.js';

/** Exits with `exitCode` when stdout and stderr are written; a process with nothing left pending ends first by itself. */
export async function leave(exitCode: number): Promise<void> {
  process.exitCode = exitCode;
  // The run has ended and said how: a signal in these last moments does not turn its exit code into a
  // signal's (143 after a report saying 0). A second one still ends the process at once.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => {});
  // Only the streams the run made: making process.stdout just to wait on it loads Node's net and
  // stream modules in a run that wrote nothing there (a --quiet dry run).
  await Promise.all([...madeStreams].map(written));
  setTimeout(() => process.exit(), LINGER_MS).unref();
}

/**
 * Ends the process now, with `exitCode`, after `line` on stderr: for a signal that a command not
 * watching it receives. Handlers registered with signal-exit still run (a lock file is removed).
 */
export function leaveNow(exitCode: number, line: string): never {
  process.stderr.write(line);
  process.exit(exitCode);
}

/** Long enough for a normal end to come first; short against any resolver's timeout. */
const LINGER_MS = 200;

/** Resolves once what was written to the stream has been handed to the system (or the stream is gone). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}
