// One connection to the PostgreSQL store, with every wait bounded and every failure named. The tool
// may run behind a pooler in transaction mode (PgBouncer), so nothing relies on the session: no session
// SET, no session lock; bounds are set per transaction (SET LOCAL) and on the client's own clock, and
// a connection that died while idle (a restart, a failover, a DBA) is replaced on the next statement.
import pg from 'pg';
import { UsageError, type UploadError } from '../errors.js';

export interface Bounds {
  /** Connecting, including the server's startup. */
  readonly connectMs: number;
  /** One statement, and one wait for a lock, on the server (statement_timeout, lock_timeout). */
  readonly statementMs: number;
}

/** UPLOAD_STATE_TIMEOUT_SECONDS bounds every statement and lock wait; connecting takes at most 10 s. */
export function boundsFrom(env: NodeJS.ProcessEnv): Bounds {
  const seconds = Number(env.UPLOAD_STATE_TIMEOUT_SECONDS);
  const statementMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 30_000;
  return { connectMs: Math.min(10_000, statementMs), statementMs };
}

/** After a signal, what is left to do (release the lock, audit) gets this long per step. */
const AFTER_SIGNAL_MS = 2_000;
/** The client's own bound is the server's plus up to this: the server's cancel, with its message, comes first. */
const CLIENT_SLACK_MS = 5_000;

export type Query = <R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]) => Promise<pg.QueryResult<R>>;

export class Session {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private dead = true;

  constructor(
    private readonly url: string,
    private readonly label: string,
    private readonly bounds: Bounds,
    private readonly signal?: AbortSignal,
  ) {}

  /** Connects now (so an unreachable store is said before anything else is done). */
  async open(): Promise<void> {
    await this.connection();
  }

  /**
   * One statement, on its own (a transaction of its own); the server's bounds are the role's, the
   * client's apply. A statement whose connection was lost (a restart, a failover, a DBA ending idle
   * sessions) is sent once more on a new one: every statement sent this way may be repeated.
   */
  query: Query = async (sql, params) => this.again(() => this.once(sql, params));

  /**
   * One statement that a signal does not cut short, only the bounds (as a shielded transaction's):
   * the lease checked after the service has answered, which decides whether the upload is recorded.
   */
  shieldedQuery: Query = async (sql, params) =>
    this.again(async () => {
      const client = await this.connection(true);
      return this.bounded(client.query(sql, params), undefined, client, true, false);
    }, true);

  /** One statement that must not be repeated (it appends). */
  once: Query = async (sql, params) => {
    const client = await this.connection();
    return this.bounded(client.query(sql, params));
  };

  private async again<T>(work: () => Promise<T>, shielded = false): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!LOST.has(err as object) || (this.signal?.aborted && !shielded)) throw err;
      return work();
    }
  }

  /**
   * Statements in one transaction, each statement and lock wait bounded on the server too. `shielded`:
   * a signal does not cut it short (recording an upload the service already confirmed), only the bounds
   * do — from the connection and the BEGIN on: a SIGTERM that arrives while they are on their way must
   * not drop the record of an upload the service holds (it did, now and then, on a busy machine).
   */
  async transaction<T>(work: (q: Query) => Promise<T>, shielded = false): Promise<T> {
    // Only the BEGIN is sent again on a new connection: nothing was done on the lost one.
    const client = await this.again(async () => {
      const c = await this.connection(shielded);
      await this.bounded(c.query('BEGIN'), undefined, c, true, !shielded);
      return c;
    }, shielded);
    const q: Query = (sql, params) => this.bounded(client.query(sql, params), undefined, client, true, !shielded);
    try {
      // The lower of the role's bound and ours: a DBA's stricter setting is kept. A lock wait gives up a
      // little before the statement would, so that it is reported as what it is.
      await q(
        `SELECT set_config(name, CASE WHEN setting::bigint = 0 OR setting::bigint > b THEN b::text ELSE setting END, true)
           FROM pg_settings, LATERAL (SELECT CASE name WHEN 'lock_timeout' THEN $2::bigint ELSE $1::bigint END AS b) bound
          WHERE name IN ('statement_timeout', 'lock_timeout')`,
        [this.bounds.statementMs, Math.max(1, Math.round(this.bounds.statementMs * 0.9))],
      );
      const result = await work(q);
      await q('COMMIT');
      return result;
    } catch (err) {
      if (!this.dead) await this.bounded(client.query('ROLLBACK'), undefined, client).catch(() => {});
      throw err;
    }
  }

  /** Ends the connection; a server that does not answer the goodbye is not waited for. */
  async end(): Promise<void> {
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.dead = true;
    if (client) await closeClient(client);
  }

  /** The live connection, or a new one; callers at the same moment (a heartbeat, a check) share it. */
  private connection(shielded = false): Promise<pg.Client> {
    if (this.client && !this.dead) return Promise.resolve(this.client);
    this.connecting ??= this.connect(shielded).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(shielded: boolean): Promise<pg.Client> {
    if (this.client) void closeClient(this.client);
    this.client = undefined;
    // After a signal the steps that tidy up (releasing the lock) may still connect, briefly; a
    // shielded transaction (a record) gets the full bound, and no signal cuts its connecting short.
    const connectMs = this.signal?.aborted && !shielded ? AFTER_SIGNAL_MS : this.bounds.connectMs;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: connectMs, application_name: 'scheduling-upload' });
    // A connection that drops while idle must not bring the process down: the next statement reconnects.
    const gone = () => {
      if (this.client === client) this.dead = true;
    };
    client.on('error', gone);
    client.on('end', gone);
    try {
      await this.bounded(client.connect(), connectMs + 1_000, client, false, !shielded);
    } catch (err) {
      void closeClient(client);
      throw unreachable(this.label, this.url, err);
    }
    this.client = client;
    this.dead = false;
    return client;
  }

  /**
   * Waits for `work` no longer than the bound, nor past a signal (Ctrl-C, SIGTERM): the connection is
   * then dropped, since a statement is still running on it, and the failure named.
   */
  private bounded<T>(work: Promise<T>, ms?: number, client = this.client, name = true, interruptible = true): Promise<T> {
    const full = this.bounds.statementMs + Math.min(CLIENT_SLACK_MS, this.bounds.statementMs);
    const limit = ms ?? (this.signal?.aborted && interruptible ? AFTER_SIGNAL_MS : full);
    return new Promise<T>((resolve, reject) => {
      const drop = (err: Error) => {
        cleanup();
        if (client === this.client) this.dead = true;
        if (client) void closeClient(client);
        reject(err);
      };
      const timer = setTimeout(
        () =>
          drop(
            new UsageError(
              'STATE_UNREACHABLE',
              `the state store ${this.label} did not answer within ${Math.round(limit / 1000)} s`,
              'check that the database server (and any pooler in front of it) is up and not overloaded; UPLOAD_STATE_TIMEOUT_SECONDS sets the bound',
            ),
          ),
        limit,
      );
      const onAbort = () => drop(this.signal?.reason as Error);
      // Once interrupted, the steps that tidy up still run, within AFTER_SIGNAL_MS each.
      const watchSignal = interruptible && this.signal && !this.signal.aborted;
      if (watchSignal) this.signal.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        if (watchSignal) this.signal.removeEventListener('abort', onAbort);
      };
      work.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (err: unknown) => {
          cleanup();
          const failure: Error = name ? storeFailure(this.label, this.url, this.bounds, err) : (err as Error);
          // The connection is gone even if its 'end' has not been seen yet: the next statement makes a new one.
          if (LOST.has(failure) && client === this.client) this.dead = true;
          reject(failure);
        },
      );
    });
  }
}

/** Failures of a connection that was lost (not of one that could not be made). */
const LOST = new WeakSet<object>();

async function closeClient(client: pg.Client): Promise<void> {
  const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  const timer = setTimeout(() => stream?.destroy(), 1_000);
  await client.end().catch(() => {});
  clearTimeout(timer);
}

/** Whether a failure is the connection's (lost, refused, the server shutting down or starting up). */
function isConnectionFailure(err: { code?: string; message?: string }): boolean {
  const code = err.code ?? '';
  return (
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', '53300', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code) ||
    /Connection terminated|not queryable|connection error|timeout expired/i.test(err.message ?? '')
  );
}

export function unreachable(label: string, url: string, err: unknown): UploadError {
  if (isUploadFailure(err)) return err;
  const e = err as NodeJS.ErrnoException;
  return new UsageError(
    'STATE_UNREACHABLE',
    `cannot reach the state store ${label}: ${(e.code ?? e.message).replaceAll(url, label)}`,
    'check the URL in --state / UPLOAD_STATE, that the server runs, and the role and password',
    { cause: err },
  );
}

function isUploadFailure(err: unknown): err is UploadError {
  return err instanceof Error && 'exitCode' in err && 'code' in err;
}

/** Every failure of a statement, as a documented code; only the tool's own bugs stay what they are. */
export function storeFailure(label: string, url: string, bounds: Bounds, err: unknown): Error {
  if (isUploadFailure(err)) return err;
  if (!(err instanceof Error)) return new Error(String(err));
  const e = err as Error & { code?: string };
  const said = e.message.replaceAll(url, label);
  if (isConnectionFailure(e)) {
    const lost = new UsageError(
      'STATE_UNREACHABLE',
      `lost the connection to the state store ${label} (${said}${e.code ? `, ${e.code}` : ''}): the server restarted, failed over, or ended the session`,
      'run again once the database is back; nothing was sent unless the report says so',
      { cause: err },
    );
    LOST.add(lost);
    return lost;
  }
  if (e.code === '57014' || e.code === '55P03')
    return new UsageError(
      'STATE_UNREACHABLE',
      e.code === '55P03'
        ? `a statement in the state store ${label} waited too long for a lock another session holds (${said})`
        : `the state store ${label} cancelled a statement that ran longer than its statement_timeout (${said}; the tool's own bound is ${bounds.statementMs / 1000} s)`,
      e.code === '55P03'
        ? 'see pg_locks / pg_stat_activity for the session holding it, then run again'
        : "raise the role's statement_timeout (ALTER ROLE … SET statement_timeout = '30s'), then run again",
      { cause: err },
    );
  if (e.code === '42501' || e.code === '42P01' || e.code === '3F000')
    return new UsageError(
      'STATE_UNUSABLE',
      `the role in ${label} may not do what the tool needs (${said})`,
      'create the tables and grant the rights with the SQL in docs/state.md (section "PostgreSQL"), as the database owner',
      { cause: err },
    );
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
    return new UsageError('STATE_UNUSABLE', `the state store ${label} refused a statement (${said}, SQLSTATE ${e.code})`, 'fix the database, then run again', {
      cause: err,
    });
  return err;
}
