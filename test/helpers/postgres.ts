// A database of its own for each test (or suite), on the server the run shares (started on first use
// by test/setup/postgres.ts) or on another one a test started itself, and the same database's URL
// through the PgBouncer in front of the shared server.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

const shared = new Map<string, Promise<string>>();

/** The shared server's URL (`postgres`) or its pooler's (`pgbouncer`), started on the first request. */
function sharedServer(which: 'postgres' | 'pgbouncer'): Promise<string> {
  let url = shared.get(which);
  if (!url) {
    url = fetch(`${inject('postgresOnDemand')}/${which}`).then(async (res) => {
      const text = await res.text();
      if (!res.ok) throw new Error(`the test run could not start ${which}: ${text}`);
      return text;
    });
    // A failed start is reported to every test that asks, not remembered as a URL.
    void url.catch(() => shared.delete(which));
    shared.set(which, url);
  }
  return url;
}

export async function freshDatabase(admin?: string): Promise<string> {
  const server = admin ?? (await sharedServer('postgres'));
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    // FILE_COPY (PostgreSQL 15 on): copying the small template's files costs less than the default,
    // which writes every page of it to the WAL. A suite creates about a hundred databases.
    const version = Number((await client.query('SHOW server_version_num')).rows[0].server_version_num);
    await client.query(`CREATE DATABASE ${name}${version >= 150000 ? ' STRATEGY FILE_COPY' : ''}`);
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
}

/** The same database, reached through PgBouncer in transaction pooling. */
export async function throughBouncer(url: string): Promise<string> {
  const bouncer = new URL(await sharedServer('pgbouncer'));
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
