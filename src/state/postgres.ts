// The PostgreSQL store, for teams and servers: every machine that uploads to a service shares one
// baseline, one lock and one history. The lock is a lease row (./pg-lease.ts), which works through a
// pooler in transaction mode; every write is a compare-and-swap on the generation inside a
// transaction. Tables are created on first use (docs/state.md has the SQL). Every statement and wait
// is bounded and every failure named (./pg-session.ts).
import { createHash, randomBytes } from 'node:crypto';
import { GuardRefusal, UsageError } from '../errors.js';
import { DEFAULT_LEASE, liveHolder, renew, takeLease, type LeaseTimes } from './pg-lease.js';
import { dumpKey, loadKey, type KeyDump } from './dump.js';
import { pauseAt } from './pause.js';
import { anotherPending, lockLost, lostBeforeRecord, pendingDamaged, snapshotDamaged, stateMoved } from './refusals.js';
import { boundsFrom, Session, type Bounds } from './pg-session.js';
import { lackingRole, type Need } from './pg-roles.js';
import * as policies from './pg-policy.js';
import { atLeastAsStrict } from '../guard/policy.js';
import type {
  Approval,
  ApprovalStory,
  AuditEntry,
  Generation,
  Holder,
  Intended,
  IntentFacts,
  Intent,
  Lease,
  ListedGeneration,
  Operation,
  PlanRecord,
  Policy,
  RecordedLayout,
  RecordedPolicy,
  StateKey,
  StateStore,
  WaitingPlan,
} from './types.js';

/** Columns added after the first release, for tables an earlier version created. */
export const ADDED_COLUMNS = `ALTER TABLE upload_generations ADD COLUMN IF NOT EXISTS operation text, ADD COLUMN IF NOT EXISTS held_removals jsonb, ADD COLUMN IF NOT EXISTS approval jsonb, ADD COLUMN IF NOT EXISTS hours_as_of text, ADD COLUMN IF NOT EXISTS layout jsonb`;

/** Approvals name the plan they approved (an earlier version's approve only its digest, and count for no plan). */
export const APPROVAL_PLAN_COLUMN = `ALTER TABLE upload_approvals ADD COLUMN IF NOT EXISTS plan_id text`;

/**
 * Four eyes: plans made and approvals given, each row written once. Who made a row is the database's
 * session_user, filled in by the column's default: the roles that plan and approve are granted INSERT on
 * every column but that one and the time (docs/state.md), so nobody can write another person's name.
 */
export const FOUR_EYES_SQL = `
CREATE TABLE IF NOT EXISTS upload_plans (
  base_url   text        NOT NULL,
  kind       text        NOT NULL,
  plan_id    text        NOT NULL,   -- the plan file's id
  digest     text        NOT NULL,   -- body bytes, kind, address, base generation, guard limits
  generation integer     NOT NULL,   -- the generation the plan was made against
  source     text        NOT NULL,
  planned_by text        NOT NULL DEFAULT session_user,
  planned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (base_url, kind, plan_id)
);
CREATE TABLE IF NOT EXISTS upload_approvals (
  id          bigserial   PRIMARY KEY,
  base_url    text        NOT NULL,
  kind        text        NOT NULL,
  digest      text        NOT NULL,
  plan_id     text,                  -- the plan approved (NULL: approved before approvals named it)
  host        text        NOT NULL,
  approved_by text        NOT NULL DEFAULT session_user,
  approved_at timestamptz NOT NULL DEFAULT now()
);`;

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
  operation     text,             -- upload, merge, remove, restore, apply (NULL: recorded before it was kept)
  held_removals jsonb,            -- keys --hold-removals kept on the service
  approval      jsonb,            -- a plan applied under four eyes: planner, approvers, applier
  hours_as_of   text,             -- --hours-as-of: the day whose week hours bound to dates were read for
  layout        jsonb,            -- the file's header, in order, and the mapping it was read with
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
CREATE TABLE IF NOT EXISTS upload_leases (
  base_url   text        NOT NULL,
  kind       text        NOT NULL,
  token      text        NOT NULL,   -- random: only its holder knows it
  holder     jsonb       NOT NULL,   -- user, host, pid, what, machine
  taken_at   timestamptz NOT NULL,
  renewed_at timestamptz NOT NULL,   -- the heartbeat
  expires_at timestamptz NOT NULL,   -- on the database's clock
  PRIMARY KEY (base_url, kind)
);${FOUR_EYES_SQL}${policies.POLICY_SQL}`;

const TABLES = ['upload_generations', 'upload_heads', 'upload_audit', 'upload_intents', 'upload_leases'];

export interface PostgresOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly lease?: LeaseTimes | undefined;
  /** Ctrl-C or SIGTERM: a statement being waited on is given up at once. */
  readonly signal?: AbortSignal | undefined;
}

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

/**
 * The URL with what it leaves out taken from the run's environment, as libpq does: the role (PGUSER),
 * its password (PGPASSWORD), the port (PGPORT), the database (PGDATABASE). A shared config names the
 * server; each person connects as themselves. The run's environment, not this process's: the pg driver
 * would read process.env, which is the same for the command line but not for main() given another.
 */
export function withLogin(url: string, env: NodeJS.ProcessEnv): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const fill = {
    username: !u.username && env.PGUSER ? encodeURIComponent(env.PGUSER) : undefined,
    password: !u.password && env.PGPASSWORD ? encodeURIComponent(env.PGPASSWORD) : undefined,
    port: !u.port && env.PGPORT && /^\d+$/.test(env.PGPORT) ? env.PGPORT : undefined,
    pathname: (u.pathname === '' || u.pathname === '/') && env.PGDATABASE ? `/${encodeURIComponent(env.PGDATABASE)}` : undefined,
  };
  if (Object.values(fill).every((v) => v === undefined)) return url;
  for (const [part, value] of Object.entries(fill)) if (value !== undefined) u[part as keyof typeof fill] = value;
  return u.href;
}

type Row = Record<string, unknown>;

export class PostgresStore implements StateStore {
  readonly notices: string[] = [];
  private readonly locks = new Map<string, { token: string; lease: Lease }>();
  /** Whether the tables exist. Opening and reading never create them: the first upload does, under its lock. */
  private ready = false;

  private constructor(
    readonly label: string,
    private readonly url: string,
    private readonly session: Session,
    private readonly bounds: Bounds,
    private readonly times: LeaseTimes,
    private readonly signal: AbortSignal | undefined,
  ) {}

  static async open(given: string, options: PostgresOptions): Promise<PostgresStore> {
    const url = withLogin(given, options.env);
    // What was used, not only what was written: the role, port and database PG* variables filled in.
    const label = safeLabel(url);
    const bounds = boundsFrom(options.env);
    const session = new Session(url, label, bounds, options.signal);
    await session.open();
    const store = new PostgresStore(label, url, session, bounds, options.lease ?? DEFAULT_LEASE, options.signal);
    try {
      store.ready = await store.hasTables();
      if (store.ready) store.missingColumns = await store.lacksColumns();
    } catch (err) {
      await session.end();
      throw err;
    }
    return store;
  }

  /** Columns added after the first release: looked at on opening, added by the first upload under its lock. */
  private missingColumns = false;

  private async lacksColumns(): Promise<boolean> {
    const { rows } = await this.q<{ n: string; t: string; p: string }>(
      `SELECT (SELECT count(*) FROM information_schema.columns WHERE table_name = 'upload_generations' AND column_name IN ('operation', 'held_removals', 'approval', 'hours_as_of', 'layout')) AS n,
              (SELECT count(*) FROM pg_tables WHERE tablename IN ('upload_plans', 'upload_approvals', ${policies.POLICY_TABLES.map((t) => `'${t}'`).join(', ')})) AS t,
              -- The catalog, not information_schema, which shows only the columns this role may use.
              (SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass('upload_approvals') AND attname = 'plan_id' AND NOT attisdropped) AS p`,
    );
    return Number(rows[0]?.n) < 5 || Number(rows[0]?.t) < 2 + policies.POLICY_TABLES.length || Number(rows[0]?.p) < 1;
  }

  /** Tables of an earlier version gain ADDED_COLUMNS on the write path, before anything is sent. */
  private async addColumns(): Promise<string[]> {
    if (!this.missingColumns) return [];
    try {
      await this.q(`${ADDED_COLUMNS};${FOUR_EYES_SQL};${APPROVAL_PLAN_COLUMN};${policies.POLICY_SQL}`);
    } catch (err) {
      throw new UsageError(
        'STATE_UNUSABLE',
        `the state tables in ${this.label} are of an earlier version and this role cannot add the columns and tables this version records (${(err as Error).message}); nothing was sent`,
        `as the tables' owner, run: ${ADDED_COLUMNS}; ${APPROVAL_PLAN_COLUMN}; and the four-eyes tables in docs/state.md`,
        { cause: err },
      );
    }
    this.missingColumns = false;
    return [
      `Added the columns operation, held_removals, approval, hours_as_of and layout to upload_generations, and the tables upload_plans and upload_approvals, in ${this.label} (what each upload was, four eyes, and each file's layout).`,
    ];
  }

  private get q() {
    return this.session.query;
  }

  private async hasTables(): Promise<boolean> {
    const { rows } = await this.q<{ n: string }>(`SELECT count(*) AS n FROM pg_tables WHERE tablename IN (${TABLES.map((t) => `'${t}'`).join(',')})`);
    return Number(rows[0]?.n) >= TABLES.length;
  }

  /** Creates the tables when they are missing; true when this call did. */
  private async ensureTables(): Promise<boolean> {
    if (this.ready || (await this.hasTables())) return !(this.ready = true);
    // Two runs creating the tables at once: a transaction-scoped advisory lock (which a pooler in
    // transaction mode keeps on one connection) makes them take turns.
    await this.session
      .transaction(async (q) => {
        await q(`SELECT pg_advisory_xact_lock(hashtext('scheduling-upload schema'))`);
        await q(SCHEMA_SQL);
      })
      .catch((err: unknown) => {
        throw (err as { code?: string }).code === 'STATE_UNUSABLE'
          ? new UsageError(
              'STATE_UNUSABLE',
              `the state tables are missing in ${this.label} and its role may not create them (${(err as Error).message})`,
              'create them once as the database owner with the SQL in docs/state.md (section "PostgreSQL"), and grant the role the rights listed there',
              { cause: err },
            )
          : err;
      });
    this.ready = true;
    return true;
  }

  async lock(key: StateKey, holder: Holder): Promise<Lease> {
    const notices = (await this.ensureTables()) ? [`Created the state tables in ${this.label} (${TABLES.join(', ')}).`] : [];
    notices.push(...(await this.addColumns()));
    // A connection of its own, so the heartbeat never waits behind a long statement of the run.
    const session = new Session(this.url, this.label, this.bounds, this.signal);
    const id = JSON.stringify(key);
    const { lease, token } = await takeLease(session, key, holder, this.times, this.label).catch(async (err: unknown) => {
      await session.end();
      throw await this.lacking('send', err);
    });
    const tracked: Lease = {
      ...lease,
      notices,
      release: async () => {
        this.locks.delete(id);
        await lease.release();
      },
    };
    this.locks.set(id, { token, lease: tracked });
    return tracked;
  }

  async head(key: StateKey): Promise<Generation | undefined> {
    if (!this.ready) return undefined;
    const { rows } = await this.q<Row>(
      `SELECT g.* FROM upload_heads h JOIN upload_generations g USING (base_url, kind, generation) WHERE h.base_url = $1 AND h.kind = $2`,
      [key.baseUrl, key.kind],
    );
    return rows[0] ? toGeneration(rows[0]) : undefined;
  }

  async generations(key: StateKey, limit = 1_000_000): Promise<ListedGeneration[]> {
    if (!this.ready) return [];
    const { rows } = await this.q<Row>(
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
      ? await this.q<Row>('SELECT * FROM upload_generations WHERE base_url = $1 AND kind = $2 AND generation = $3', [key.baseUrl, key.kind, generation])
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
    if (createHash('sha256').update(body).digest('hex') !== row.sha256) throw snapshotDamaged(key, this.label, generation);
    return body;
  }

  async commit(
    key: StateKey,
    expected: number,
    body: readonly Uint8Array[],
    meta: Omit<Generation, 'generation'>,
    keep: number,
    intent?: string,
  ): Promise<Generation> {
    const held = this.locks.get(JSON.stringify(key));
    const lost = () => lostBeforeRecord(key, this.label);
    if (!held) throw lost();
    const generation: Generation = { ...meta, generation: expected + 1 };
    await this.session.transaction(async (query) => {
      const c = { query };
      // The lease renewed inside the transaction: its row stays locked until the commit, so nobody
      // takes it over half-way; a lease already lost (expired, taken over) records nothing.
      if (!(await renew(this.session, key, held.token, this.times, query))) throw lost();
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
      // The body just sent is in the database already, as the intent's: copied there, not sent again.
      const intended = await c.query(
        `SELECT 1 FROM upload_intents WHERE base_url = $1 AND kind = $2 AND generation = $3 AND meta->>'sha256' = $4 AND octet_length(snapshot) = $5`,
        [key.baseUrl, key.kind, generation.generation, meta.sha256, meta.bytes],
      );
      await c.query(
        `INSERT INTO upload_generations (base_url, kind, generation, uploaded_at, uploaded_by, host, tool_version, source, records, bytes, sha256, restored_from, plan, snapshot, operation, held_removals, approval, hours_as_of, layout)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
                 coalesce($14::bytea, (SELECT snapshot FROM upload_intents WHERE base_url = $1 AND kind = $2)), $15, $16, $17, $18, $19)
         ON CONFLICT (base_url, kind, generation) DO UPDATE SET uploaded_at = EXCLUDED.uploaded_at, uploaded_by = EXCLUDED.uploaded_by, host = EXCLUDED.host,
           tool_version = EXCLUDED.tool_version, source = EXCLUDED.source, records = EXCLUDED.records, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256,
           restored_from = EXCLUDED.restored_from, plan = EXCLUDED.plan, snapshot = EXCLUDED.snapshot,
           operation = EXCLUDED.operation, held_removals = EXCLUDED.held_removals, approval = EXCLUDED.approval,
           hours_as_of = EXCLUDED.hours_as_of, layout = EXCLUDED.layout`,
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
          intended.rowCount === 1 ? null : Buffer.concat(body),
          meta.operation ?? null,
          meta.heldRemovals?.length ? JSON.stringify(meta.heldRemovals) : null,
          meta.approval ? JSON.stringify(meta.approval) : null,
          meta.hoursAsOf ?? null,
          meta.layout ? JSON.stringify(meta.layout) : null,
        ],
      );
      // Only this run's intent is confirmed by this commit; another run's stays pending.
      if (intent !== undefined)
        await c.query(`DELETE FROM upload_intents WHERE base_url = $1 AND kind = $2 AND coalesce(meta->>'id', '') = $3`, [key.baseUrl, key.kind, intent]);
      await c.query('UPDATE upload_generations SET snapshot = NULL WHERE base_url = $1 AND kind = $2 AND generation <= $3 AND snapshot IS NOT NULL', [
        key.baseUrl,
        key.kind,
        generation.generation - keep,
      ]);
    }, true);
    return generation;
  }

  /**
   * One transaction: the lease renewed (its row stays locked until the commit, so nobody takes it over
   * half-way), the head compared with the plan's, and the intent inserted only where none is: a
   * compare-and-set on all three, or nothing is written.
   */
  async intend(key: StateKey, expected: number, body: readonly Uint8Array[], meta: IntentFacts): Promise<Intended> {
    const held = this.locks.get(JSON.stringify(key));
    if (!held) throw lockLost(key, this.label);
    const id = randomBytes(8).toString('hex');
    const intent: Intent = { ...(await meta()), generation: expected + 1, intendedAt: new Date().toISOString(), id };
    return this.session.transaction(async (q) => {
      if (!(await renew(this.session, key, held.token, this.times, q))) throw lockLost(key, this.label);
      pauseAt('writing-intent');
      const { rows } = await q<{ generation: number }>('SELECT generation FROM upload_heads WHERE base_url = $1 AND kind = $2 FOR UPDATE', [
        key.baseUrl,
        key.kind,
      ]);
      const now = rows[0]?.generation ?? 0;
      if (now !== expected) throw stateMoved(key, this.label, expected, now);
      // A confirmed intent an earlier version left behind is done with; any other stays.
      await q(
        `DELETE FROM upload_intents i USING upload_generations g
          WHERE i.base_url = $1 AND i.kind = $2 AND g.base_url = i.base_url AND g.kind = i.kind AND g.generation = i.generation AND g.sha256 = i.meta->>'sha256'`,
        [key.baseUrl, key.kind],
      );
      const inserted = await q(
        'INSERT INTO upload_intents (base_url, kind, generation, meta, snapshot) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (base_url, kind) DO NOTHING',
        [key.baseUrl, key.kind, intent.generation, JSON.stringify(intent), Buffer.concat(body)],
      );
      if (inserted.rowCount === 1) return { id, adopted: false };
      const other = (await q<{ meta: Intent }>('SELECT meta FROM upload_intents WHERE base_url = $1 AND kind = $2', [key.baseUrl, key.kind])).rows[0]?.meta;
      // The same bytes for the same generation, sent before and never confirmed: this run sends them again.
      if (other && other.generation === intent.generation && other.sha256 === intent.sha256 && other.bytes === intent.bytes)
        return { id: other.id ?? '', adopted: true };
      throw anotherPending(key, this.label, other);
    });
  }

  async pending(key: StateKey): Promise<Intent | undefined> {
    if (!this.ready) return undefined;
    // One past the head, or for a generation recorded with other bytes (sent by a run that lost its lock).
    const { rows } = await this.q<{ meta: Intent }>(
      `SELECT i.meta FROM upload_intents i LEFT JOIN upload_heads h USING (base_url, kind)
         LEFT JOIN upload_generations g ON g.base_url = i.base_url AND g.kind = i.kind AND g.generation = i.generation
        WHERE i.base_url = $1 AND i.kind = $2 AND (i.generation > coalesce(h.generation, 0) OR g.sha256 IS DISTINCT FROM i.meta->>'sha256')`,
      [key.baseUrl, key.kind],
    );
    return rows[0]?.meta;
  }

  async readPending(key: StateKey): Promise<Buffer> {
    const intent = await this.pending(key);
    const { rows } = await this.q<{ snapshot: Buffer }>('SELECT snapshot FROM upload_intents WHERE base_url = $1 AND kind = $2', [key.baseUrl, key.kind]);
    const body = rows[0]?.snapshot;
    if (!intent || !body)
      throw new UsageError('NO_PENDING', `no unconfirmed upload of ${key.kind} to ${key.baseUrl} is recorded in ${this.label}`, 'nothing to settle');
    if (createHash('sha256').update(body).digest('hex') !== intent.sha256) throw pendingDamaged(this.label);
    return body;
  }

  async forget(key: StateKey, id?: string): Promise<void> {
    if (!this.ready) return;
    if (id === undefined) await this.q('DELETE FROM upload_intents WHERE base_url = $1 AND kind = $2', [key.baseUrl, key.kind]);
    else await this.q(`DELETE FROM upload_intents WHERE base_url = $1 AND kind = $2 AND coalesce(meta->>'id', '') = $3`, [key.baseUrl, key.kind, id]);
  }

  async inFlight(key: StateKey, what: string): Promise<GuardRefusal | undefined> {
    return this.ready ? liveHolder(this.session, key, what, this.label, this.times) : undefined;
  }

  async audit(key: StateKey, entry: AuditEntry): Promise<void> {
    await this.ensureTables();
    await this.session.once('INSERT INTO upload_audit (base_url, kind, entry) VALUES ($1, $2, $3)', [key.baseUrl, key.kind, JSON.stringify(entry)]);
  }

  async attempts(key: StateKey, limit = 1_000_000): Promise<AuditEntry[]> {
    if (!this.ready) return [];
    const { rows } = await this.q<{ entry: AuditEntry }>('SELECT entry FROM upload_audit WHERE base_url = $1 AND kind = $2 ORDER BY id DESC LIMIT $3', [
      key.baseUrl,
      key.kind,
      limit,
    ]);
    return rows.map((r) => r.entry);
  }

  /** A permission refused: the message names the role the person lacks (./pg-roles.ts). */
  private lacking(need: Need, err: unknown): Promise<unknown> {
    return lackingRole(this.q, this.label, need, err);
  }

  async whoami(): Promise<string> {
    const { rows } = await this.q<{ who: string }>('SELECT session_user AS who');
    return rows[0]!.who;
  }

  /** The four-eyes tables, made (or added to an earlier version's) by the first write that needs them. */
  private async fourEyesReady(): Promise<void> {
    await this.ensureTables();
    this.notices.push(...(await this.addColumns()));
  }

  async recordPlan(key: StateKey, plan: Omit<PlanRecord, 'planner' | 'plannedAt'>): Promise<PlanRecord> {
    await this.fourEyesReady();
    // Written once: a plan id recorded before keeps its first record.
    await this.q(`INSERT INTO upload_plans (base_url, kind, digest, plan_id, generation, source) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, [
      key.baseUrl,
      key.kind,
      plan.digest,
      plan.planId,
      plan.generation,
      plan.source,
    ]).catch(async (err: unknown) => {
      throw await this.lacking('plan', err);
    });
    const found = (await this.plans(key)).find((p) => p.planId === plan.planId);
    if (!found) throw new Error('the plan just recorded cannot be read back');
    return found;
  }

  async plans(key: StateKey): Promise<PlanRecord[]> {
    if (!this.ready || this.missingColumns) return [];
    const { rows } = await this.q<Row>('SELECT * FROM upload_plans WHERE base_url = $1 AND kind = $2 ORDER BY planned_at, plan_id', [key.baseUrl, key.kind]);
    return rows.map((r) => ({
      digest: String(r.digest),
      planId: String(r.plan_id),
      planner: String(r.planned_by),
      plannedAt: new Date(r.planned_at as string).toISOString(),
      generation: Number(r.generation),
      source: String(r.source),
    }));
  }

  async approve(key: StateKey, plan: Pick<PlanRecord, 'digest' | 'planId'>, host: string): Promise<Approval> {
    await this.fourEyesReady();
    await this.session
      .once('INSERT INTO upload_approvals (base_url, kind, digest, plan_id, host) VALUES ($1, $2, $3, $4, $5)', [
        key.baseUrl,
        key.kind,
        plan.digest,
        plan.planId,
        host,
      ])
      .catch(async (err: unknown) => {
        throw await this.lacking('approve', err);
      });
    const me = await this.whoami();
    const mine = (await this.approvals(key, plan.digest)).filter((a) => a.approver === me && a.planId === plan.planId);
    return mine[mine.length - 1]!;
  }

  async approvals(key: StateKey, digest: string): Promise<Approval[]> {
    if (!this.ready || this.missingColumns) return [];
    // The age on the database's clock: the same clock that stamped the approval.
    const { rows } = await this.q<Row>(
      `SELECT plan_id, approved_by, approved_at, host, extract(epoch FROM now() - approved_at)::float8 AS age
         FROM upload_approvals WHERE base_url = $1 AND kind = $2 AND digest = $3 ORDER BY id`,
      [key.baseUrl, key.kind, digest],
    );
    return rows.map((r) => ({
      digest,
      planId: typeof r.plan_id === 'string' ? r.plan_id : null,
      approver: String(r.approved_by),
      approvedAt: new Date(r.approved_at as string).toISOString(),
      host: String(r.host),
      ageSeconds: Number(r.age),
    }));
  }

  async policy(address: string): Promise<RecordedPolicy | undefined> {
    if (!this.ready || this.missingColumns) return undefined;
    return policies.readPolicy(this.q, address);
  }

  async policyAddresses(): Promise<string[]> {
    if (!this.ready || this.missingColumns) return [];
    return policies.policyAddresses(this.q);
  }

  async setPolicy(address: string, policy: Policy, how: 'strengthen' | 'set'): Promise<RecordedPolicy> {
    await this.fourEyesReady();
    const recorded = await this.policy(address);
    await policies.writePolicy(this.q, address, policy, recorded !== undefined && !atLeastAsStrict(policy, recorded.policy), how, this.label);
    return (await this.policy(address))!;
  }

  async keepPlan(key: StateKey, plan: { planId: string; digest: string; document: string }, body: Buffer): Promise<WaitingPlan> {
    await this.fourEyesReady();
    await policies.keepPlan(this.q, key, plan, body);
    const kept = (await this.waitingPlans(key)).find((p) => p.planId === plan.planId);
    if (!kept) throw new Error('the plan just kept cannot be read back');
    return kept;
  }

  async waitingPlans(key: StateKey): Promise<WaitingPlan[]> {
    if (!this.ready || this.missingColumns) return [];
    return policies.listWaiting(this.q, key);
  }

  readWaitingBody(key: StateKey, planId: string): Promise<Buffer> {
    return policies.readWaitingBody(this.q, key, planId);
  }

  async dump(key: StateKey): Promise<KeyDump> {
    return dumpKey(this, key);
  }

  async load(dump: KeyDump): Promise<void> {
    await loadKey(this, dump, async (key, intent, body) => {
      // As intend() writes it, with the intent's own id and time.
      await this.q('INSERT INTO upload_intents (base_url, kind, generation, meta, snapshot) VALUES ($1, $2, $3, $4, $5)', [
        key.baseUrl,
        key.kind,
        intent.generation,
        JSON.stringify(intent),
        body,
      ]);
    });
  }

  async keys(): Promise<StateKey[]> {
    if (!this.ready) return [];
    const { rows } = await this.q<StateKey>(
      `SELECT DISTINCT base_url AS "baseUrl", kind FROM upload_generations UNION SELECT DISTINCT base_url, kind FROM upload_audit
       UNION SELECT DISTINCT base_url, kind FROM upload_intents`,
    );
    return rows;
  }

  async close(): Promise<void> {
    for (const { lease } of [...this.locks.values()]) await lease.release();
    await this.session.end();
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
    ...(typeof r.operation === 'string' ? { operation: r.operation as Operation } : {}),
    ...(Array.isArray(r.held_removals) && r.held_removals.length ? { heldRemovals: r.held_removals as string[] } : {}),
    ...(r.approval && typeof r.approval === 'object' ? { approval: r.approval as ApprovalStory } : {}),
    ...(typeof r.hours_as_of === 'string' ? { hoursAsOf: r.hours_as_of } : {}),
    ...(r.layout && typeof r.layout === 'object' ? { layout: r.layout as RecordedLayout } : {}),
  };
}
