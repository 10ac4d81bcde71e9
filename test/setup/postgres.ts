// A real PostgreSQL server for the test run, and a real PgBouncer in transaction pooling in front of
// it, started once and torn down at the end (./servers.ts). Tests ask for a database of their own with
// `freshDatabase()` (test/helpers/postgres.ts), directly or through the pooler.
import type { TestProject } from 'vitest/node';
import { startPgBouncer, startPostgres } from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    pgBouncerUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const pg = await startPostgres();
  const bouncer = await startPgBouncer(pg).catch((err: unknown) => {
    pg.stop();
    throw err;
  });
  project.provide('pgUrl', pg.url);
  project.provide('pgBouncerUrl', bouncer.url);
  return () => {
    try {
      bouncer.stop();
    } finally {
      pg.stop();
    }
  };
}
