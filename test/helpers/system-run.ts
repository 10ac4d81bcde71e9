// The two state-store suites in both vitest projects (test/setup/system-tests.ts): a table of backends
// whose PgBouncer entry needs a program npm cannot install. The system project (`npm run test:system`)
// runs that entry alone; `npm test` runs the other entries and the file's other groups. Neither is
// skipped in the other: each is simply not declared there.
import { describe } from 'vitest';

/**
 * Whether this file runs in the `system` project (vitest.config.ts sets SU_TESTS_PROJECT for it); read
 * each time, as a worker may run files of both projects one after another (isolate: false).
 */
export const systemRun = (): boolean => process.env.SU_TESTS_PROJECT === 'system';

/** The entries of `table` this run has: those named in `system` in the system project, the rest elsewhere. */
export function forThisRun<T>(table: Record<string, T>, system: readonly string[]): [string, T][] {
  return Object.entries(table).filter(([name]) => system.includes(name) === systemRun());
}

/** A group that needs nothing of the system's: declared in `npm test`'s run only. */
export function describeFresh(name: string, body: () => void): void {
  if (!systemRun()) describe(name, body);
}
