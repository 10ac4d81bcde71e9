// A database of its own for each test (or suite), on the server test/setup/postgres.ts started.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export async function freshDatabase(): Promise<string> {
  const admin = inject('pgUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.href;
}
