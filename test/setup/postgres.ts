// A real PostgreSQL server for the test run, and a real PgBouncer in transaction pooling in front of
// it (./servers.ts), started on first use, not for every run: a run of unit files alone starts neither.
// Workers are other processes, so they ask for the servers here, over a loopback HTTP endpoint this
// setup serves (`postgresOnDemand`): the first request for each starts it, later ones wait for the same
// start, and the teardown stops whatever was started. Tests reach this through test/helpers/postgres.ts
// (`freshDatabase()`, `throughBouncer()`), never directly.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startPgBouncer, startPostgres, type Bouncer, type Postgres } from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `GET <this>/postgres` or `/pgbouncer`: the server's URL as text, started first if need be. */
    postgresOnDemand: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let pg: Promise<Postgres> | undefined;
  let bouncer: Promise<Bouncer> | undefined;
  const postgres = () => (pg ??= startPostgres());
  const pgbouncer = () => (bouncer ??= postgres().then(startPgBouncer));
  const broker = createServer((req, res) => {
    const wanted = req.url === '/postgres' ? postgres() : req.url === '/pgbouncer' ? pgbouncer() : undefined;
    if (!wanted) return void res.writeHead(404).end();
    wanted.then(
      (server) => res.end(server.url),
      (err: unknown) => res.writeHead(500).end(err instanceof Error ? err.message : String(err)),
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  project.provide('postgresOnDemand', `http://127.0.0.1:${(broker.address() as AddressInfo).port}`);
  return async () => {
    broker.close();
    const [b, p] = await Promise.allSettled([bouncer, pg]);
    try {
      if (b.status === 'fulfilled') b.value?.stop();
    } finally {
      if (p.status === 'fulfilled') p.value?.stop();
    }
  };
}
