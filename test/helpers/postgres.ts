// A database of its own for each test (or suite), on the server test/setup/postgres.ts started (or on
// another one a test started itself), and the same database's URL through the PgBouncer in front of it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export async function freshDatabase(admin: string = inject('pgUrl')): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await asAdmin(admin, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.href;
}

/** The same database, reached through PgBouncer in transaction pooling. */
export function throughBouncer(url: string): string {
  const bouncer = new URL(inject('pgBouncerUrl'));
  bouncer.pathname = new URL(url).pathname;
  return bouncer.href;
}

/** Runs SQL as the superuser of `url`'s server, in `url`'s database. */
export async function asAdmin(url: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}
