// How the process ends once main() has returned. A name lookup the run gave up on — the connect
// timeout or a webhook's 4 s passed while the system resolver was still asking — cannot be cancelled:
// getaddrinfo runs on a libuv thread and holds the process until the resolver itself gives up (20 s
// and more with a dead name server), long after the run's outcome was known. So once the output is
// written, nothing else is waited for. The one place that calls process.exit.
//
// At once, too, when nothing is pending: a process that ends by itself tears V8's heap down first,
// page by page (676 unmaps after a 10⁶-record run), where process.exit leaves the memory to the
// system. From the last output to the exit that was 7 against 5 ms for a 10-row dry run and 44
// against 36 ms for a 10⁶-record one (docs/performance.md, "Round 6, ninth session"). The 'exit'
// listeners still run (the program's code cache, the lock's and the spool's cleanup).

import { madeStreams } from './io.js';

/** Exits with `exitCode` as soon as stdout and stderr are written. */
export async function leave(exitCode: number): Promise<void> {
  process.exitCode = exitCode;
  // The run has ended and said how: a signal in these last moments does not turn its exit code into a
  // signal's (143 after a report saying 0). A second one still ends the process at once.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => {});
  // Only the streams the run made: making process.stdout just to wait on it loads Node's net and
  // stream modules in a run that wrote nothing there (a --quiet dry run).
  await Promise.all([...madeStreams].map(written));
  process.exit();
}

/**
 * Ends the process now, with `exitCode`, after `line` on stderr: for a signal that a command not
 * watching it receives. Handlers registered with signal-exit still run (a lock file is removed).
 */
export function leaveNow(exitCode: number, line: string): never {
  process.stderr.write(line);
  process.exit(exitCode);
}

/** Resolves once what was written to the stream has been handed to the system (or the stream is gone). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}
