import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A real PostgreSQL server for the state-store tests, started once for the run.
    globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts'],
    // Generous: some end-to-end tests run a sequence of CLI processes, and CI machines may be busy.
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // End-to-end tests spawn node processes; two cores, so keep parallelism modest.
    maxWorkers: 2,
  },
});
