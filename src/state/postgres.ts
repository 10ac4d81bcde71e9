// The PostgreSQL store, for teams and servers: every machine that uploads to a service shares one
// baseline, one lock and one history. The lock is an advisory lock held by a session of its own, so
// it dies with its holder (a killed process, a dropped connection); every write is a compare-and-swap
// on the generation inside a transaction. Tables are created on first use (docs/state.md has the SQL).
import pg from 'pg';
import { createHash } from 'node:crypto';
import { GuardRefusal, UsageError } from '../errors.js';
import type { AuditEntry, Generation, Holder, Intent, Lease, ListedGeneration, StateKey, StateStore } from './types.js';

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS upload_generations (
  base_url      text    NOT NULL,
  kind          text    NOT NULL,
  generation    integer NOT NULL,
  uploaded_at   timestamptz NOT NULL,
  uploaded_by   text    NOT NULL,
  host          text    NOT NULL,
  tool_version  text    NOT NULL,
  source        text    NOT NULL,
  records       integer NOT NULL,
  bytes         bigint  NOT NULL,
  sha256        text    NOT NULL,
  restored_from integer,
  plan          text,
  snapshot      bytea,            -- NULL once pruned by --keep
  PRIMARY KEY (base_url, kind, generation)
);
CREATE TABLE IF NOT EXISTS upload_heads (
  base_url   text    NOT NULL,
  kind       text    NOT NULL,
  generation integer NOT NULL,
  PRIMARY KEY (base_url, kind)
);
CREATE TABLE IF NOT EXISTS upload_audit (
  id       bigserial PRIMARY KEY,
  base_url text  NOT NULL,
  kind     text  NOT NULL,
  entry    jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS upload_intents (
  base_url   text    NOT NULL,
  kind       text    NOT NULL,
  generation integer NOT NULL,   -- the generation it becomes once confirmed
  meta       jsonb   NOT NULL,
  snapshot   bytea   NOT NULL,
  PRIMARY KEY (base_url, kind)
);
CREATE TABLE IF NOT EXISTS upload_locks (
  base_url text  NOT NULL,
  kind     text  NOT NULL,
  holder   jsonb NOT NULL,
  PRIMARY KEY (base_url, kind)
);`;

const TABLES = ['upload_generations', 'upload_heads', 'upload_audit', 'upload_intents', 'upload_locks'];

/** The URL without its password, for every message. */
export function safeLabel(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return 'the PostgreSQL URL given';
  }
}

type Row = Record<string, unknown>;

export class PostgresStore implements StateStore {
  readonly notices: string[] = [];
  private readonly locks = new Map<string, { client: pg.Client; lease: Lease }>();

  private constructor(
    readonly label: string,
    private readonly url: string,
    private readonly client: pg.Client,
  ) {}

  /** Whether the tables exist. Opening and reading never create them: the first upload does, under its lock. */
  private ready = false;

  static async open(url: string): Promise<PostgresStore> {
    const label = safeLabel(url);
    const client = await connect(url, label);
    const store = new PostgresStore(label, url, client);
    store.ready = await store.hasTables();
    return store;
  }

  private async hasTables(): Promise<boolean> {
    const { rows } = await this.client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_tables WHERE tablename IN (${TABLES.map((t) => `'${t}'`).join(',')})`,
    );
    return Number(rows[0]?.n) >= TABLES.length;
  }

  /** Creates the tables when they are missing; true when this call did. */
  private async ensureTables(): Promise<boolean> {
    if (this.ready || (await this.hasTables())) return !(this.ready = true);
    // Two runs creating the tables at once: a transaction-scoped advisory lock makes them take turns.
    await this.client.query('BEGIN');
    await this.client.query(`SELECT pg_advisory_xact_lock(hashtext('scheduling-upload schema'))`);
    await this.client.query(SCHEMA_SQL);
    await this.client.query('COMMIT');
    this.ready = true;
    return true;
  }

  async lock(key: StateKey, holder: Holder): Promise<Lease> {
    const notices = (await this.ensureTables()) ? [`Created the state tables in ${this.label} (${TABLES.join(', ')}).`] : [];
    // A session of its own: the lock lives exactly as long as this connection.
    const client = await connect(this.url, this.label);
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [lockId(key)]);
    if (!rows[0]?.ok) {
      await client.end().catch(() => {});
      const held = await this.client.query<{ holder: Holder & { since: string } }>('SELECT holder FROM upload_locks WHERE base_url = $1 AND kind = $2', [
        key.baseUrl,
        key.kind,
      ]);
      const h = held.rows[0]?.holder;
      throw new GuardRefusal(
        'LOCK_HELD',
        `another upload of ${holder.what} is in progress${h ? `: process ${h.pid} of ${h.user} on ${h.host}, since ${h.since}` : ''} (lock in ${this.label})`,
        'wait for it to finish, then run again; the lock is released when that process ends, however it ends',
      );
    }
    const since = new Date().toISOString();
    await client.query(
      'INSERT INTO upload_locks (base_url, kind, holder) VALUES ($1, $2, $3) ON CONFLICT (base_url, kind) DO UPDATE SET holder = EXCLUDED.holder',
      [key.baseUrl, key.kind, JSON.stringify({ ...holder, since })],
    );
    const id = JSON.stringify(key);
    let released = false;
    const lease: Lease = {
      holder,
      notices,
      stillHeld: async () => {
        if (released) return false;
        const r = await client
          .query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted`)
          .catch(() => undefined);
        return Number(r?.rows[0]?.n ?? 0) > 0;
      },
      release: async () => {
        if (released) return;
        released = true;
        this.locks.delete(id);
        await client.end().catch(() => {});
      },
    };
    // A lock connection that drops while held must not bring the process down; the next check sees it gone.
    client.on('error', () => {});
    this.locks.set(id, { client, lease });
    return lease;
  }

  async head(key: StateKey): Promise<Generation | undefined> {
    if (!this.ready) return undefined;
    const { rows } = await this.client.query<Row>(
      `SELECT g.* FROM upload_heads h JOIN upload_generations g USING (base_url, kind, generation) WHERE h.base_url = $1 AND h.kind = $2`,
      [key.baseUrl, key.kind],
    );
    return rows[0] ? toGeneration(rows[0]) : undefined;
  }

  async generations(key: StateKey, limit = 1_000_000): Promise<ListedGeneration[]> {
    if (!this.ready) return [];
    const { rows } = await this.client.query<Row>(
      `SELECT g.*, g.snapshot IS NOT NULL AS kept FROM upload_generations g
        JOIN upload_heads h USING (base_url, kind)
       WHERE g.base_url = $1 AND g.kind = $2 AND g.generation <= h.generation
       ORDER BY g.generation DESC LIMIT $3`,
      [key.baseUrl, key.kind, limit],
    );
    return rows.map((r) => ({ ...toGeneration(r), kept: r.kept === true }));
  }

  async readSnapshot(key: StateKey, generation: number): Promise<Buffer> {
    const found = this.ready
      ? await this.client.query<Row>('SELECT * FROM upload_generations WHERE base_url = $1 AND kind = $2 AND generation = $3', [
          key.baseUrl,
          key.kind,
          generation,
        ])
      : undefined;
    const row = found?.rows[0];
    if (!row)
      throw new UsageError('BAD_GENERATION', `upload #${generation} is not recorded in ${this.label}`, 'see the recorded ones with: upload history KIND');
    const body = row.snapshot as Buffer | null;
    if (!body)
      throw new UsageError(
        'BAD_GENERATION',
        `the snapshot of upload #${generation} is no longer kept in ${this.label} (only the newest --keep are)`,
        'pick a newer one (see upload history); --keep N keeps more in future',
      );
    if (createHash('sha256').update(body).digest('hex') !== row.sha256) {
      throw new GuardRefusal(
        'SNAPSHOT_CORRUPT',
        `upload #${generation} of ${key.kind} to ${key.baseUrl} in ${this.label} is damaged (its bytes do not match their sha256)`,
        'pass --baseline FILE (an export that matches what the service holds) to compare with it instead',
      );
    }
    return body;
  }

  async commit(key: StateKey, expected: number, body: readonly Uint8Array[], meta: Omit<Generation, 'generation'>, keep: number): Promise<Generation> {
    const held = this.locks.get(JSON.stringify(key));
    if (!held || !(await held.lease.stillHeld()))
      throw new GuardRefusal(
        'LOCK_HELD',
        `the lock on ${key.kind} to ${key.baseUrl} in ${this.label} was lost before the upload could be recorded`,
        'check what the service holds, then run again',
      );
    const generation: Generation = { ...meta, generation: expected + 1 };
    const c = this.client;
    await c.query('BEGIN');
    try {
      // The compare-and-swap: the head moves only from the generation this upload was compared with.
      const moved =
        expected === 0
          ? await c.query('INSERT INTO upload_heads (base_url, kind, generation) VALUES ($1, $2, 1) ON CONFLICT DO NOTHING', [key.baseUrl, key.kind])
          : await c.query('UPDATE upload_heads SET generation = $3 + 1 WHERE base_url = $1 AND kind = $2 AND generation = $3', [
              key.baseUrl,
              key.kind,
              expected,
            ]);
      if (moved.rowCount !== 1)
        throw new GuardRefusal('STATE_MOVED', `the state of ${key.kind} to ${key.baseUrl} in ${this.label} is no longer at upload #${expected}`, 'run again');
      await c.query(
        `INSERT INTO upload_generations (base_url, kind, generation, uploaded_at, uploaded_by, host, tool_version, source, records, bytes, sha256, restored_from, plan, snapshot)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         ON CONFLICT (base_url, kind, generation) DO UPDATE SET uploaded_at = EXCLUDED.uploaded_at, uploaded_by = EXCLUDED.uploaded_by, host = EXCLUDED.host,
           tool_version = EXCLUDED.tool_version, source = EXCLUDED.source, records = EXCLUDED.records, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256,
           restored_from = EXCLUDED.restored_from, plan = EXCLUDED.plan, snapshot = EXCLUDED.snapshot`,
        [
          key.baseUrl,
          key.kind,
          generation.generation,
          meta.uploadedAt,
          meta.user,
          meta.host,
          meta.toolVersion,
          meta.source,
          meta.records,
          meta.bytes,
          meta.sha256,
          meta.restoredFrom,
          meta.plan,
          Buffer.concat(body),
        ],
      );
      await c.query('DELETE FROM upload_intents WHERE base_url = $1 AND kind = $2 AND generation <= $3', [key.baseUrl, key.kind, generation.generation]);
      await c.query('UPDATE upload_generations SET snapshot = NULL WHERE base_url = $1 AND kind = $2 AND generation <= $3 AND snapshot IS NOT NULL', [
        key.baseUrl,
        key.kind,
        generation.generation - keep,
      ]);
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    }
    return generation;
  }

  async intend(key: StateKey, expected: number, body: readonly Uint8Array[], meta: Omit<Generation, 'generation'>): Promise<void> {
    const intent: Intent = { ...meta, generation: expected + 1, intendedAt: new Date().toISOString() };
    await this.client.query(
      `INSERT INTO upload_intents (base_url, kind, generation, meta, snapshot) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (base_url, kind) DO UPDATE SET generation = EXCLUDED.generation, meta = EXCLUDED.meta, snapshot = EXCLUDED.snapshot`,
      [key.baseUrl, key.kind, intent.generation, JSON.stringify(intent), Buffer.concat(body)],
    );
  }

  async pending(key: StateKey): Promise<Intent | undefined> {
    if (!this.ready) return undefined;
    const { rows } = await this.client.query<{ meta: Intent }>(
      `SELECT i.meta FROM upload_intents i LEFT JOIN upload_heads h USING (base_url, kind)
        WHERE i.base_url = $1 AND i.kind = $2 AND i.generation > coalesce(h.generation, 0)`,
      [key.baseUrl, key.kind],
    );
    return rows[0]?.meta;
  }

  async readPending(key: StateKey): Promise<Buffer> {
    const intent = await this.pending(key);
    const { rows } = await this.client.query<{ snapshot: Buffer }>('SELECT snapshot FROM upload_intents WHERE base_url = $1 AND kind = $2', [
      key.baseUrl,
      key.kind,
    ]);
    const body = rows[0]?.snapshot;
    if (!intent || !body)
      throw new UsageError('NO_PENDING', `no unconfirmed upload of ${key.kind} to ${key.baseUrl} is recorded in ${this.label}`, 'nothing to settle');
    if (createHash('sha256').update(body).digest('hex') !== intent.sha256)
      throw new GuardRefusal(
        'SNAPSHOT_CORRUPT',
        `the unconfirmed upload in ${this.label} is damaged (its bytes do not match their sha256)`,
        'settle it with --previous, or pass --baseline FILE',
      );
    return body;
  }

  async forget(key: StateKey): Promise<void> {
    await this.client.query('DELETE FROM upload_intents WHERE base_url = $1 AND kind = $2', [key.baseUrl, key.kind]);
  }

  async audit(key: StateKey, entry: AuditEntry): Promise<void> {
    await this.ensureTables();
    await this.client.query('INSERT INTO upload_audit (base_url, kind, entry) VALUES ($1, $2, $3)', [key.baseUrl, key.kind, JSON.stringify(entry)]);
  }

  async attempts(key: StateKey, limit = 1_000_000): Promise<AuditEntry[]> {
    if (!this.ready) return [];
    const { rows } = await this.client.query<{ entry: AuditEntry }>(
      'SELECT entry FROM upload_audit WHERE base_url = $1 AND kind = $2 ORDER BY id DESC LIMIT $3',
      [key.baseUrl, key.kind, limit],
    );
    return rows.map((r) => r.entry);
  }

  async keys(): Promise<StateKey[]> {
    if (!this.ready) return [];
    const { rows } = await this.client.query<StateKey>(
      `SELECT DISTINCT base_url AS "baseUrl", kind FROM upload_generations UNION SELECT DISTINCT base_url, kind FROM upload_audit`,
    );
    return rows;
  }

  async close(): Promise<void> {
    for (const { lease } of [...this.locks.values()]) await lease.release();
    await this.client.end().catch(() => {});
  }
}

function toGeneration(r: Row): Generation {
  return {
    generation: Number(r.generation),
    uploadedAt: new Date(r.uploaded_at as string).toISOString(),
    user: String(r.uploaded_by),
    host: String(r.host),
    toolVersion: String(r.tool_version),
    source: String(r.source),
    records: Number(r.records),
    bytes: Number(r.bytes),
    sha256: String(r.sha256),
    restoredFrom: r.restored_from === null ? null : Number(r.restored_from),
    plan: typeof r.plan === 'string' ? r.plan : null,
  };
}

/** One advisory lock number per base URL and kind (64 bits of a sha256). */
function lockId(key: StateKey): string {
  return BigInt.asIntN(64, BigInt(`0x${createHash('sha256').update(`${key.baseUrl}\n${key.kind}`).digest('hex').slice(0, 16)}`)).toString();
}

async function connect(url: string, label: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 'scheduling-upload' });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(
      'STATE_UNREACHABLE',
      `cannot reach the state store ${label}: ${(e.code ?? e.message).replaceAll(url, label)}`,
      'check the URL in --state / UPLOAD_STATE, that the server runs, and the role and password',
    );
  }
  return client;
}
