import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { IN_BOTH, SYSTEM_FILES } from './test/setup/system-tests.js';
import { runFolder } from './test/setup/tmp.js';

// V8's compiled code kept between the processes and threads the suite starts (the forks, the workbook
// reader's worker threads, which load SheetJS afresh each time, and every child), as bin/upload.js keeps
// it between a user's runs: about a sixth of the workbook tests' CPU time. Set before the forks start,
// so they inherit it; a developer's own NODE_COMPILE_CACHE is left as it is.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'scheduling-upload-tests-compile-cache');

// Every temporary file of the run in a folder of its own, in memory where the machine has room, and a
// watchdog that ends whatever the run left and removes the folder once this process is gone, however
// it ended (test/setup/tmp.ts). After the compile cache is placed, which should outlive the run. Made in
// vitest's own process, before the workers start; a vitest started from inside the run (it inherits
// SU_TESTS_TMP_ROOT) uses the same folder.
if (!process.env.SU_TESTS_TMP_ROOT) {
  const root = runFolder();
  process.env.SU_TESTS_TMP_ROOT = root;
  process.env.TMPDIR = root;
}

/**
 * The longest files first, by test/setup/durations.json (written from an idle run's report by
 * scripts/test-durations.mjs), the rest in vitest's own order after them. On two cores a long file
 * started last is a tail the others cannot fill: vitest orders by the last run's durations when it has
 * them, but a fresh clone has none, and by size the slowest files (small ones, whose cases live in
 * helpers) came last: 62-68 s instead of 57-60 s.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = JSON.parse(readFileSync(join(import.meta.dirname, 'test', 'setup', 'durations.json'), 'utf8')) as Record<string, number>;
    const took = (f: TestSpecification) => durations[relative(import.meta.dirname, f.moduleId).replaceAll('\\', '/')] ?? 0;
    const sorted = await super.sort(files);
    return [...sorted].sort((a, b) => took(b) - took(a));
  }
}

export default defineConfig({
  test: {
    // dist/ rebuilt when a source is newer; a real PostgreSQL server and PgBouncer for the state-store
    // tests, started once for the run but only when a test first asks for them (test/setup/postgres.ts).
    // Each project runs these for itself; the run's folder goes when vitest's process ends (test/setup/tmp.ts).
    globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts'],
    // Two projects: `fresh`, what a machine with Node and `npm ci` alone runs (`npm test`), and `system`,
    // the files that need a program npm cannot install (`npm run test:system`; the list and why:
    // test/setup/system-tests.ts). `npx vitest run <file>` runs a file in whichever project holds it.
    projects: [
      { extends: true, test: { name: 'fresh', include: ['test/**/*.test.ts'], exclude: SYSTEM_FILES.filter((f) => !IN_BOTH.includes(f)) } },
      {
        extends: true,
        // Its programs checked first (a missing one fails the run, naming it); SU_TESTS_PROJECT tells
        // the suites in both projects which of their cases are this run's (test/helpers/system-run.ts).
        test: { name: 'system', include: [...SYSTEM_FILES], globalSetup: ['test/setup/system-needs.ts'], env: { SU_TESTS_PROJECT: 'system' } },
      },
    ],
    // Only a hang ends a test or a hook: every wait in the suite waits on its condition, and a loaded
    // machine may take many times an idle one's time (test/helpers/hang.ts). Hooks start sandboxes and
    // servers and run the CLI, as tests do: the same bound.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One process per worker runs file after file, importing the sources once rather than once per
    // file (that import was a quarter of the suite's CPU time). Safe because no module in src/ or the
    // helpers keeps state a later run could see (a run's secrets, modes and lease belong to the run),
    // nothing is mocked or faked, and every test makes its own temp directories, servers and databases.
    // Threads were slower: the in-process runs share the runner's event loop and heap.
    isolate: false,
    // Many files spend much of their time waiting (on timeouts, leases, retries, child processes, pg_sleep):
    // on two cores more workers fill the waits. Idle, vitest took 69.7-73.2 s with three, 65.0 s with
    // four, 60.2-64.4 s with five, 63.9 s with six (whose extra transforms cost 8 s more CPU).
    maxWorkers: 5,
    // A larger young generation for the workers: each runs a file after another in one heap, and the
    // big inputs (100,000 keys, 50,000-record bodies) were promoted and collected again and again. The
    // unit and sandbox files, interleaved: 14.6 s wall, 28.0 s CPU with V8's default, 13.2 s and 25.4 s
    // with 64 MB (32 and 128 did the same).
    execArgv: ['--max-semi-space-size=64'],
    // The sources as vitest transformed them, kept on disk and used again while a file is unchanged:
    // the second run of the suite (a developer's next run) transformed for 2.0 s instead of 10.8 s.
    // In .tmp/ rather than vitest's default inside node_modules, which `npm ci` deletes. Its keys differ
    // by Node line, so CI's Node 22 suite does not use the Node 24 suite's. Experimental in vitest 4;
    // the first run is as before.
    experimental: { fsModuleCache: true, fsModuleCachePath: '.tmp/vitest-module-cache' },
    sequence: { sequencer: LongestFirst },
  },
});
