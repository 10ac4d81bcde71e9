// The suite's own configuration (vitest.config.ts: its run folder, watchdog, global setups) with one
// more project, `stopped`, holding only ./holds-servers.fixture.ts: test/process/stopped-run.test.ts
// starts it as a run of its own and stops that run.
import { defineConfig, mergeConfig } from 'vitest/config';
import suite from '../../../vitest.config.js';

export default mergeConfig(
  suite,
  defineConfig({
    test: {
      // Not the suite's cache of transformed modules: a vitest that starts with it on empties that folder
      // when node_modules changed since the last run (its lockfile check), under the feet of the run
      // that started this one.
      experimental: { fsModuleCache: false },
      projects: [{ extends: true, test: { name: 'stopped', include: ['test/process/stopped-run/holds-servers.fixture.ts'], testTimeout: 600_000 } }],
    },
  }),
);
