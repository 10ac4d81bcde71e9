// The state store: everything the tool remembers per (base URL, kind) — the current generation, the
// snapshots of the last N confirmed uploads, their provenance, the audit log and the lock — behind one
// interface with two backends, a directory (./dir.ts) and PostgreSQL (./postgres.ts).
import type { Spool } from '../contract/json-array.js';
import type { Kind } from '../contract/kinds.js';
import type { GuardRefusal, ServiceSaid } from '../errors.js';

export interface StateKey {
  readonly baseUrl: string;
  readonly kind: Kind;
}

export interface Generation {
  readonly generation: number;
  readonly uploadedAt: string;
  readonly user: string;
  readonly host: string;
  readonly toolVersion: string;
  readonly source: string;
  readonly records: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly restoredFrom: number | null;
  readonly plan: string | null;
  /** What the upload was; absent in uploads recorded before it was kept (./operation.ts derives it). */
  readonly operation?: Operation | undefined;
  /** Keys --hold-removals kept on the service although the file left them out (absent: none). */
  readonly heldRemovals?: readonly string[] | undefined;
  /** --hours-as-of: the day whose week the hours bound to dates were read for (absent: none were). */
  readonly hoursAsOf?: string | undefined;
  /** For a plan applied under four eyes: who planned, approved and applied it (absent: no approval needed). */
  readonly approval?: ApprovalStory | undefined;
  /** The file's header, in order, and the mapping it was read with (absent: not a file with a header row, or recorded before it was kept). */
  readonly layout?: RecordedLayout | undefined;
}

/** What map/layout-memory.ts records and reads back (checking it): the store keeps it as JSON. */
export interface RecordedLayout {
  readonly header: readonly string[];
  readonly mapping: unknown;
}

/**
 * Four eyes (docs/review-then-apply.md): a plan for a target that needs approvals is recorded when it is
 * made, approved by other people, and applied once. Every name here is one the store vouches for
 * (StateStore.whoami), never one a person can type: PostgreSQL's session_user, or the operating-system
 * account that owns the record on a directory store.
 */
export interface PlanRecord {
  /** The approval digest (pipeline/approval.ts): body bytes, kind, address, base generation, guard limits. */
  readonly digest: string;
  /** The plan file's own id, which the record is kept under: a changed plan keeps it and has another digest (PLAN_CHANGED). */
  readonly planId: string;
  readonly planner: string;
  readonly plannedAt: string;
  /** The generation the plan was made against. */
  readonly generation: number;
  readonly source: string;
  /**
   * Why the store cannot vouch for this record, when it cannot (a directory record whose file's owner
   * is not the person it names, or that has no owner to check): it never counts (FORGED_RECORD).
   */
  readonly unverified?: string | undefined;
}

export interface Approval {
  readonly digest: string;
  /** The plan it approved (its id): an approval counts for that plan only. Null: given before approvals named their plan. */
  readonly planId: string | null;
  readonly approver: string;
  readonly approvedAt: string;
  /** How long ago it was given, on the store's clock (the database's, or this machine's for a directory). */
  readonly ageSeconds: number;
  /** The machine it was given from (UPLOAD_HOST or the host name): for the history, never for counting. */
  readonly host: string;
  /** Why the store cannot vouch for this record, as PlanRecord.unverified: it never counts (FORGED_RECORD). */
  readonly unverified?: string | undefined;
}

/** What the history keeps of an applied plan. */
export interface ApprovalStory {
  readonly digest: string;
  readonly planner: string;
  readonly plannedAt: string;
  readonly approvers: readonly { readonly name: string; readonly at: string }[];
  readonly appliedBy: string;
  /** Sent without a second person because the plan was within the address's autoApply bounds (absent: people approved it). */
  readonly policy?: AutoApply | undefined;
}

/**
 * The bounds within which an unattended run on an address that needs approvals is sent without a
 * second person (docs/review-then-apply.md, "A night within a policy"). maxChanged is a count or a
 * percentage of the records recorded ("2%").
 */
export interface AutoApply {
  readonly maxAdded: number;
  readonly maxChanged: number | string;
  readonly maxRemoved: number;
}

/** What protects an address, as its state store records it (plans/policy.ts combines it with a config). */
export interface Policy {
  readonly protected: boolean;
  /** 0: no approvals needed. */
  readonly approvals: number;
  readonly approvalHours: number;
  /** null: every upload needs its approvals. */
  readonly autoApply: AutoApply | null;
  /** The guard limits as floors: the most any run at the address may allow, as the flags write them ("37", "2%"). */
  readonly limits?: GuardFloors | undefined;
}

export interface GuardFloors {
  readonly maxRemovals?: string | undefined;
  readonly maxChanges?: string | undefined;
  readonly maxEmptied?: string | undefined;
}

/** A policy as recorded: for which address, by whom (the store's name for them) and when. */
export interface RecordedPolicy {
  readonly address: string;
  readonly policy: Policy;
  readonly setBy: string;
  readonly setAt: string;
}

/**
 * A plan kept in the store because an unattended run's plan was outside its autoApply bounds: the plan
 * document as a plan file holds it, and its body's exact bytes, until someone approves and applies it.
 */
export interface WaitingPlan {
  /** Its place in the key's list of kept plans, oldest first, from 1: what `--plan N` names. */
  readonly number: number;
  readonly planId: string;
  readonly digest: string;
  readonly planner: string;
  readonly plannedAt: string;
  /** The plan document (JSON text, as writePlan writes it). */
  readonly document: string;
}

/**
 * What an upload was: a full upload of a file, a merge of a file onto the last recorded set, a removal
 * of keys from it, a restore of an earlier upload, or the apply of a saved plan.
 */
export type Operation = 'upload' | 'merge' | 'remove' | 'restore' | 'apply' | 'release';

export interface AuditEntry {
  readonly time: string;
  readonly user: string;
  readonly host: string;
  readonly pid: number;
  readonly kind: Kind;
  readonly baseUrl: string;
  readonly source: string;
  readonly count: number;
  readonly bytes: number;
  readonly sha256: string;
  /** The generation the upload was compared with (0: none). */
  readonly baseGeneration: number;
  readonly diff: { baseline: string; added: number | null; removed: number | null; changed: number | null; unchanged: number | null };
  readonly outcome: string;
  readonly status: number | null;
  readonly error: string | null;
  /** What a refusing service said (its message and `errors[]`, bounded, plain text); absent when it said nothing. */
  readonly said?: ServiceSaid | undefined;
  /** The generation this attempt created, when it was confirmed. */
  readonly generation: number | null;
}

export interface Holder {
  readonly user: string;
  readonly host: string;
  readonly pid: number;
  readonly what: string;
}

export interface Lease {
  readonly holder: Holder;
  /** The holder of a lock this one took over (its lease expired, or its process died on this host). */
  readonly recovered?: (Holder & { since: string }) | undefined;
  /** What the store did, under the lock, to be written to (an old state folder migrated, tables created). */
  readonly notices?: readonly string[];
  /**
   * Whether the lock is still this run's (a lease can lapse during a long suspend). `afterAnswer`: the
   * service has answered, so a signal (SIGTERM) does not cut the check short; only the store's bounds do.
   */
  stillHeld(afterAnswer?: boolean): Promise<boolean>;
  release(): Promise<void>;
}

/** The facts an intent records (its sha256 among them), asked for once the store is writing its bytes. */
export type IntentFacts = () => Omit<Generation, 'generation'> | Promise<Omit<Generation, 'generation'>>;

/**
 * A body about to be sent, recorded before its last chunk leaves (write-ahead): the generation it will
 * become once the service confirms it. An intent that no commit confirmed is an upload whose outcome
 * is not known (unrecorded, unknown, or the lock lost while sending): the service may hold it.
 */
export interface Intent extends Generation {
  /** When the body was about to be sent. */
  readonly intendedAt: string;
  /** The run that wrote it: only that run removes it (absent in intents an earlier version wrote). */
  readonly id?: string | undefined;
}

/** The intent a run may confirm (commit) or, when the service certainly did not apply it, take back. */
export interface Intended {
  readonly id: string;
  /**
   * An intent of an earlier run, for the same generation with the same bytes, was pending already: this
   * run sends those very bytes, so its commit confirms it, but a failure of this run never removes it
   * (the earlier send may have landed).
   */
  readonly adopted: boolean;
}

/** A generation in a dump (./dump.ts): with its bytes, or null once --keep pruned them. */
export interface DumpedGeneration extends Generation {
  /** Its exact bytes, or null once --keep pruned them (the provenance is kept for ever). */
  readonly snapshot: Buffer | null;
}

/** Everything a store holds for one base URL and kind: what `upload state` copies (./dump.ts). */
export interface KeyDump {
  readonly key: StateKey;
  /** Oldest first. */
  readonly generations: readonly DumpedGeneration[];
  /** The upload sent but never confirmed, with its bytes; null when none waits to be settled. */
  readonly pending: (Intent & { readonly body: Buffer }) | null;
  /** Oldest first. */
  readonly attempts: readonly AuditEntry[];
}

/** A generation as listed: with whether its snapshot is still kept (--keep prunes old ones). */
export interface ListedGeneration extends Generation {
  readonly kept: boolean;
}

export interface StateStore {
  /** What to call the store in messages: the directory, or the URL without its password. */
  readonly label: string;
  /** Things worth telling the user on opening. Opening and reading never write: see Lease.notices. */
  readonly notices: readonly string[];
  /** Takes the lock for a key, or refuses with LOCK_HELD naming who holds it. */
  lock(key: StateKey, holder: Holder): Promise<Lease>;
  /** The latest generation, or undefined when nothing was uploaded yet. */
  head(key: StateKey): Promise<Generation | undefined>;
  /** Every generation recorded, newest first (pruned ones too, with kept: false). */
  generations(key: StateKey, limit?: number): Promise<ListedGeneration[]>;
  /** The exact bytes of a kept generation, checked against its sha256 (SNAPSHOT_CORRUPT otherwise). */
  readSnapshot(key: StateKey, generation: number): Promise<Buffer>;
  /**
   * Records a confirmed upload as generation expected + 1, under the lock, only if the latest is still
   * `expected` (0: none); otherwise STATE_MOVED and nothing changes. Keeps the newest `keep` snapshots.
   */
  /** `intent`: the intent this commit confirms, removed with it; any other intent stays (pending). */
  commit(
    key: StateKey,
    expected: number,
    body: readonly Uint8Array[],
    meta: Omit<Generation, 'generation'>,
    keep: number,
    intent?: string,
  ): Promise<Generation>;
  /**
   * Records that `body` is about to be sent as generation expected + 1, with its bytes, so that what was
   * sent is known whatever becomes of the run — only while the lock is still this run's (LOCK_LOST),
   * the latest is still `expected` (STATE_MOVED) and no other intent is pending (BASELINE_UNCERTAIN);
   * otherwise nothing is written. A pending intent of the same bytes for the same generation is adopted.
   * `meta` is called once, as the store starts to put the body's bytes in place, and may take its time
   * (the body's sha256, the send's start: the run's work and the disk's overlap).
   * `spooled`: the file of this store's spool() that holds these very bytes already, if any; the store
   * puts it in place of writing them.
   */
  intend(key: StateKey, expected: number, body: readonly Uint8Array[], meta: IntentFacts, spooled?: () => Promise<Spool | undefined>): Promise<Intended>;
  /**
   * Opens a file in the store for `key` that a body about to be planned may be written to as it is made
   * (src/contract/json-array.ts, `Bodies.hashAsItGoes`), so that intend() finds the bytes there; or
   * undefined where the store has none (PostgreSQL: the bytes go in the intent's transaction). Called
   * while the plan is being made, so synchronous and never throwing. A spool intend() did not take is
   * removed by close(), or as the process exits, with any folder the store made for it.
   */
  spool?(key: StateKey): Spool | undefined;
  /**
   * The intent no commit confirmed, if any: one past the latest generation, or one for a generation that
   * exists with other bytes (sent by a run that lost its lock: the service may hold it instead).
   */
  pending(key: StateKey): Promise<Intent | undefined>;
  /** The bytes of the pending intent (checked against its sha256). */
  readPending(key: StateKey): Promise<Buffer>;
  /**
   * Forgets the pending intent: with `id`, only that run's own (the service certainly did not apply
   * it); without, whichever is pending (a person settled it).
   */
  forget(key: StateKey, id?: string): Promise<void>;
  /**
   * Whether another run holds the lock now (read only, nothing taken): the refusal lock() would give,
   * or undefined. An intent found while its run still holds the lock is an upload in flight.
   */
  inFlight(key: StateKey, what: string): Promise<GuardRefusal | undefined>;
  audit(key: StateKey, entry: AuditEntry): Promise<void>;
  /** The audit log, newest first. */
  attempts(key: StateKey, limit?: number): Promise<AuditEntry[]>;
  /** Who this store says the person running is: PostgreSQL's session_user, or the OS account. */
  whoami(): Promise<string>;
  /** Records that a plan was made (write-once, by its planId: one recorded before keeps its first record, which is returned). */
  recordPlan(key: StateKey, plan: Omit<PlanRecord, 'planner' | 'plannedAt'>): Promise<PlanRecord>;
  /** The plans recorded for a key, oldest first. */
  plans(key: StateKey): Promise<PlanRecord[]>;
  /** Records an approval of a plan (its id and digest) by whoami() (write-once: appended, never changed). */
  approve(key: StateKey, plan: Pick<PlanRecord, 'digest' | 'planId'>, host: string): Promise<Approval>;
  /**
   * The approvals of a digest (of every plan with that content), oldest first; a directory store marks
   * records whose owner is not who they name (`unverified`) and dates an approval by both the time
   * written in it and its file's modification time (the older of the two; the earlier if either is ahead).
   */
  approvals(key: StateKey, digest: string): Promise<Approval[]>;
  /** The policy recorded for an address (a state key's baseUrl), or undefined. */
  policy(address: string): Promise<RecordedPolicy | undefined>;
  /** Every address a policy is recorded for: another spelling of a run's address may be one of them. */
  policyAddresses(): Promise<string[]>;
  /**
   * Records a policy for an address. 'strengthen': anyone who runs a target may record a policy at
   * least as strict as the recorded one (POLICY_WEAKER otherwise). 'set': the store's administrator
   * (PostgreSQL: a role with UPDATE on upload_policies; a directory: the owner of its folder) may
   * record any policy, weaker too.
   */
  setPolicy(address: string, policy: Policy, how: 'strengthen' | 'set'): Promise<RecordedPolicy>;
  /** Keeps a plan awaiting approval, its document and exact bytes, under whoami() (write-once, by its planId). */
  keepPlan(key: StateKey, plan: { planId: string; digest: string; document: string }, body: Buffer): Promise<WaitingPlan>;
  /** The plans kept awaiting approval, oldest first (applied ones too: the caller knows which were used). */
  waitingPlans(key: StateKey): Promise<WaitingPlan[]>;
  /** A kept plan's body, exactly as kept. */
  readWaitingBody(key: StateKey, planId: string): Promise<Buffer>;
  /** Every key with anything recorded (for copying a store). */
  keys(): Promise<StateKey[]>;
  /**
   * Everything recorded for a key (./dump.ts): generations, snapshots still kept, the pending intent with
   * its bytes, the audit log; never a lease. Read under the key's lock, which the caller holds.
   */
  dump(key: StateKey): Promise<KeyDump>;
  /** Puts a dump back, under the key's lock the caller holds, so that every read answers as in the source. */
  load(dump: KeyDump): Promise<void>;
  close(): Promise<void>;
}

/** Options a backend takes; the lease timings are the lock's (tests make them short). */
export interface StoreOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Ctrl-C or SIGTERM: the PostgreSQL store gives up a statement it is waiting on at once. */
  readonly signal?: AbortSignal | undefined;
  readonly leaseMs?: number;
  readonly heartbeatMs?: number;
}
