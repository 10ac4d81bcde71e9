// A real PostgreSQL server for the test run: initdb into a temp directory, pg_ctl on a free loopback
// port, torn down at the end. Tests ask for a database of their own with `freshDatabase()`
// (test/helpers/postgres.ts). No server is mocked. Running as root (CI containers), initdb refuses to
// run, so the server runs as the `postgres` user (test/helpers/platform.ts). A machine without
// PostgreSQL fails the run: .ci/run installs it.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dirOnPath, programIn, serviceUser } from '../helpers/platform.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

function binDir(): string {
  const onPath = dirOnPath('initdb', 'pg_ctl');
  if (onPath) return onPath;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((d) => programIn(d, 'initdb'));
  if (!found)
    throw new Error('PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin): the state-store tests need it; .ci/run installs it');
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export default async function setup(project: TestProject): Promise<() => void> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'su-pg-'));
  const postgres = serviceUser('postgres');
  const run = (cmd: string, args: string[]) => execFileSync(...postgres.command(join(bin, cmd), args), { stdio: ['ignore', 'pipe', 'pipe'] });
  if (postgres.owner) {
    chownSync(dir, postgres.owner.uid, postgres.owner.gid);
    chmodSync(dir, 0o700);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  project.provide('pgUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);
  return () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
