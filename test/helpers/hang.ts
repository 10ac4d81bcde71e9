// The suite's one bound for a hang.
/**
 * How long a child process or a server of a test gets before it is taken for hung: within the test's
 * own bound (vitest.config.ts: 120 s), never a slow machine's pace. Every wait of the suite waits on its
 * condition; a bound like this one is there only so that a hang ends the test with a message.
 */
export const HANG_MS = 115_000;
