// A test hook, off unless UPLOAD_TEST_PAUSE_AT names a step: the run stops itself (SIGSTOP) at that
// step of the write-ahead protocol, after saying so on stderr, so that a test can race a second run
// against it, then SIGCONT or SIGKILL it — at exactly that step, every time, on a busy machine too.
// It reads the process's own environment, never a run's: an in-process run (the tests' runner) can
// never stop the process it shares. docs/development.md lists the steps.

/** The protocol's steps a run can be paused at, in order (docs/state.md numbers them). */
export type PauseStep = 'spooled' | 'planned' | 'locked' | 'fenced' | 'writing-intent' | 'intended' | 'answered' | 'recorded';

export function pauseAt(step: PauseStep): void {
  const wanted = process.env.UPLOAD_TEST_PAUSE_AT;
  if (!wanted || !wanted.split(',').includes(step) || process.platform === 'win32') return;
  // stderr to a pipe is written synchronously on POSIX: the line is out before the process stops.
  process.stderr.write(`upload: paused at ${step} (pid ${process.pid})\n`);
  process.kill(process.pid, 'SIGSTOP');
}
