// The directory store: local, or a folder on a shared drive. Per (base URL, kind) a folder holds
//   key.json               which base URL and kind this is
//   generations/<n>.json   the provenance of each confirmed upload (kept for ever)
//   snapshots/<n>.json     the exact bytes of the newest --keep uploads (0600)
//   head.json              {"generation": n}: written last, the commit point
//   intent.json            an upload about to be sent (created exclusively), until its run's commit
//   intent.<id>.body.json  its exact bytes (intent.body.json for an intent of an earlier version)
//   .intent.<id>.body.json.<pid>.<random>.tmp  a large body written as it is planned (spool()), until intend() renames it
//                          (the first upload to a key makes the folder for it, and a run that stops early removes it)
//   audit.jsonl            one line per attempt that reached the service
//   plans/, approvals/     four eyes: write-once records of plans made and approvals given (./dir-approvals.ts)
//   lock                   the lease (./lease.ts)
// Every file is written atomically (temp file, fsync, rename), so a crash leaves the old state or the
// new one. A commit checks under the lease that the head is still the generation the plan expected.
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GuardRefusal, UsageError } from '../errors.js';
import * as fourEyes from './dir-approvals.js';
import * as policies from './dir-policy.js';
import { atLeastAsStrict, stricterPolicy } from '../guard/policy.js';
import {
  appendRegularFile,
  createFileExclusive,
  linkFileAtomic,
  NotAFile,
  placeTemp,
  readChecked,
  readRegularFile,
  tempFileSync,
  writeBytesAtomic,
  writeFileAtomic,
} from '../files/atomic.js';
import { onExit } from 'signal-exit';
import type { Spool } from '../contract/json-array.js';
import { posixModes, sharedWithGroup } from '../files/modes.js';
import { siteName } from './paths.js';
import { LEASE_DEFAULTS, liveHolder, takeLease, type LeaseTimes } from './lease.js';
import { dumpKey, loadKey, type KeyDump } from './dump.js';
import { pauseAt } from './pause.js';
import { anotherPending, lockLost, lostBeforeRecord, pendingDamaged, snapshotDamaged, stateMoved } from './refusals.js';
import { readLegacy, type Legacy } from './legacy.js';
import type {
  Approval,
  AuditEntry,
  Generation,
  Holder,
  Intended,
  IntentFacts,
  Intent,
  Lease,
  ListedGeneration,
  PlanRecord,
  Policy,
  RecordedPolicy,
  StateKey,
  StateStore,
  WaitingPlan,
} from './types.js';

/** A spool this store opened (spool()): the key it is for, and its temp file. */
interface OpenSpool {
  readonly key: string;
  readonly temp: string;
}

export class DirectoryStore implements StateStore {
  readonly notices: string[] = [];
  private readonly leases = new Map<string, Lease>();
  /** Spools not yet taken by intend(): removed by close(), or as the process exits or dies of a signal. */
  private readonly spools = new Map<Spool, OpenSpool>();
  /** Folders spool() made for a first upload's spool, deepest first: removed with the spools while empty. */
  private madeForSpools: string[] = [];
  private unhookExit: (() => void) | undefined;
  private readonly removeSpools = () => {
    for (const { temp } of this.spools.values()) {
      try {
        unlinkSync(temp);
      } catch {
        // Gone already.
      }
    }
    this.spools.clear();
    this.removeMadeForSpools();
  };

  /** Files and folders are private (0600/0700), or readable by the group a shared state folder belongs to. */
  private fileMode = 0o600;
  private dirMode = 0o700;
  /** The root's mode without access for others, when it has some and is ours to change (on the first write). */
  private tightened: number | undefined;

  private constructor(
    readonly label: string,
    private readonly root: string,
    private readonly times: LeaseTimes,
    private readonly platform: NodeJS.Platform,
  ) {}

  static async open(root: string, times: Partial<LeaseTimes> = {}, platform = process.platform): Promise<DirectoryStore> {
    const store = new DirectoryStore(root, root, { ...LEASE_DEFAULTS, ...times }, platform);
    await store.checkRoot();
    return store;
  }

  /**
   * A state directory holds names and emails. A new one is made 0700. One that a team shares through a
   * group (say 2770, the HR staff and the cron user in one group) keeps its group: what the tool writes
   * there is 0660/0770 so every member can read the baseline and take the lock. Access for everyone
   * else is removed when the directory is ours (by the first upload: opening it changes nothing), and
   * named in a notice otherwise. A symlinked state
   * directory is followed (a shared drive is often mounted that way), but the files inside are never
   * written through a symlink.
   */
  private async checkRoot(): Promise<void> {
    const info = await stat(this.root).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
    if (!info) return;
    if (!info.isDirectory())
      throw new UsageError('STATE_UNUSABLE', `the state ${this.root} is not a directory`, 'give --state a directory (or a postgres:// URL)');
    if (!posixModes(this.platform)) return;
    if (sharedWithGroup(info.mode)) {
      this.fileMode = 0o660;
      // The setgid bit of a shared folder (2770) is kept, so that everything in it stays the group's.
      this.dirMode = 0o770 | (info.mode & 0o2000);
    }
    if ((info.mode & 0o007) === 0) return;
    if (typeof process.getuid === 'function' && info.uid === process.getuid()) {
      // A read never writes: the access is removed by the first upload, under its lock.
      this.tightened = info.mode & 0o7770;
      this.notices.push(`The state directory ${this.root} can be read by everyone (it holds names and emails): the next upload removes access for others.`);
    } else {
      this.notices.push(
        `Warning: the state directory ${this.root} can be read by everyone and is not yours to tighten (it holds names and emails): ask its owner to run chmod o-rwx on it.`,
      );
    }
  }

  private dir(key: StateKey): string {
    return join(this.root, 'stores', `${siteName(new URL(key.baseUrl))}.${key.kind}`);
  }

  private async ensure(key: StateKey): Promise<string> {
    const dir = this.dir(key);
    for (const sub of ['generations', 'snapshots']) {
      // The umask would take the group's write access away from a shared folder: the mode is set outright.
      const made = await mkdir(join(dir, sub), { recursive: true, mode: this.dirMode });
      if (made !== undefined && this.dirMode !== 0o700) for (const d of [join(this.root, 'stores'), dir, join(dir, sub)]) await chmod(d, this.dirMode);
    }
    const keyFile = join(dir, 'key.json');
    if (!(await exists(keyFile))) await writeFileAtomic(keyFile, [`${JSON.stringify(key)}\n`], this.fileMode);
    return dir;
  }

  async lock(key: StateKey, holder: Holder): Promise<Lease> {
    const notices: string[] = [];
    if (this.tightened !== undefined) {
      await chmod(this.root, this.tightened);
      this.tightened = undefined;
      notices.push(`The state directory ${this.root} could be read by everyone; access for others is now removed (it holds names and emails).`);
    }
    const dir = await this.ensure(key);
    const lease = await takeLease(join(dir, 'lock'), holder, { ...this.times, fileMode: this.fileMode });
    const id = JSON.stringify(key);
    this.leases.set(id, lease);
    try {
      const migrated = await this.migrate(key);
      if (migrated) notices.push(`Moved the last upload recorded by an earlier version (${migrated.source}) into the history as upload #1.`);
    } catch (err) {
      this.leases.delete(id);
      await lease.release();
      throw err;
    }
    return {
      ...lease,
      notices,
      release: async () => {
        this.leases.delete(id);
        await lease.release();
      },
    };
  }

  /** An earlier version's record, written into the new layout: only under the lock, only once. */
  private async migrate(key: StateKey): Promise<Generation | undefined> {
    if (await exists(join(this.dir(key), 'head.json'))) return undefined;
    const legacy = await readLegacy(this.root, key);
    if (!legacy) return undefined;
    await this.write(key, legacy.generation, [legacy.body], legacy.audit);
    return legacy.generation;
  }

  /** A key an earlier version recorded and no upload has migrated yet; read as it is. */
  private async legacy(key: StateKey): Promise<Legacy | undefined> {
    if (await exists(join(this.dir(key), 'head.json'))) return undefined;
    return readLegacy(this.root, key);
  }

  async head(key: StateKey): Promise<Generation | undefined> {
    const dir = this.dir(key);
    const head = await readJson<{ generation: number }>(join(dir, 'head.json'));
    if (!head) return (await readLegacy(this.root, key))?.generation;
    const meta = await readJson<Generation>(join(dir, 'generations', `${head.generation}.json`));
    if (!meta) throw snapshotDamaged(key, this.label, head.generation, 'its record is missing');
    return meta;
  }

  async generations(key: StateKey, limit = Number.MAX_SAFE_INTEGER): Promise<ListedGeneration[]> {
    const old = await this.legacy(key);
    if (old) return limit > 0 ? [{ ...old.generation, kept: true }] : [];
    const head = await this.head(key);
    if (!head) return [];
    const dir = this.dir(key);
    const out: ListedGeneration[] = [];
    for (let n = head.generation; n >= 1 && out.length < limit; n--) {
      const meta = await readJson<Generation>(join(dir, 'generations', `${n}.json`));
      if (meta) out.push({ ...meta, kept: await exists(join(dir, 'snapshots', `${n}.json`)) });
    }
    return out;
  }

  async readSnapshot(key: StateKey, generation: number): Promise<Buffer> {
    const old = await this.legacy(key);
    if (old && generation === old.generation.generation) return old.body;
    const dir = this.dir(key);
    const meta = await readJson<Generation>(join(dir, 'generations', `${generation}.json`));
    if (!meta)
      throw new UsageError('BAD_GENERATION', `upload #${generation} is not recorded in ${this.label}`, 'see the recorded ones with: upload history KIND');
    const body = await readChecked(join(dir, 'snapshots', `${generation}.json`), meta.bytes, meta.sha256).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT')
        throw new UsageError(
          'BAD_GENERATION',
          `the snapshot of upload #${generation} is no longer kept in ${this.label} (only the newest --keep are)`,
          'pick a newer one (see upload history); --keep N keeps more in future',
        );
      return unusable(err);
    });
    if (!body) throw snapshotDamaged(key, this.label, generation);
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
    const lease = this.leases.get(JSON.stringify(key));
    if (!lease || !(await lease.stillHeld())) throw lostBeforeRecord(key, this.label);
    const now = (await this.head(key))?.generation ?? 0;
    if (now !== expected)
      throw new GuardRefusal(
        'STATE_MOVED',
        `the state of ${key.kind} to ${key.baseUrl} moved from upload #${expected} to #${now} in ${this.label}`,
        'run again',
      );
    const generation = { ...meta, generation: expected + 1 };
    await this.write(key, generation, body, null);
    // This run's intent is confirmed now (pending() says so too, should the removal not happen); another
    // run's stays, whatever its generation: only that run, or a person settling it, removes it.
    if (intent !== undefined) await this.forget(key, intent);
    await this.prune(key, generation.generation, keep);
    return generation;
  }

  /** Snapshot, then provenance, then the head: until the head moves, the new generation does not exist. */
  private async write(key: StateKey, generation: Generation, body: readonly Uint8Array[], audit: readonly AuditEntry[] | null): Promise<void> {
    // Something other than a file where a record goes (a folder, a FIFO) is the store's to mend: STATE_UNUSABLE.
    await this.writeRecords(key, generation, body, audit).catch(unusable);
  }

  private async writeRecords(key: StateKey, generation: Generation, body: readonly Uint8Array[], audit: readonly AuditEntry[] | null): Promise<void> {
    const dir = await this.ensure(key);
    const snapshot = join(dir, 'snapshots', `${generation.generation}.json`);
    // The body just sent is already on disk, whole and synced, as the intent's: it becomes the snapshot
    // by a second name instead of being written (and synced) a second time.
    const intent = await this.intentHolding(dir, generation);
    if (!intent || !(await linkFileAtomic(join(dir, bodyFile(intent)), snapshot))) await writeFileAtomic(snapshot, body, this.fileMode);
    await writeFileAtomic(join(dir, 'generations', `${generation.generation}.json`), [`${JSON.stringify(generation)}\n`], this.fileMode);
    // The earlier version's audit lines arrive whole, once: two runs migrating at once write the same file.
    if (audit && !(await exists(join(dir, 'audit.jsonl'))))
      await writeFileAtomic(
        join(dir, 'audit.jsonl'),
        audit.map((a) => `${JSON.stringify(a)}\n`),
        this.fileMode,
      );
    await writeFileAtomic(join(dir, 'head.json'), [`${JSON.stringify({ generation: generation.generation })}\n`], this.fileMode);
  }

  /** The recorded intent when it is this generation, with the same bytes (length and sha256). */
  private async intentHolding(dir: string, generation: Generation): Promise<Intent | undefined> {
    const intent = await readJson<Intent>(join(dir, 'intent.json'));
    return intent?.generation === generation.generation && intent.sha256 === generation.sha256 && intent.bytes === generation.bytes ? intent : undefined;
  }

  private async prune(key: StateKey, latest: number, keep: number): Promise<void> {
    const dir = join(this.dir(key), 'snapshots');
    for (const name of await readdir(dir)) {
      const n = Number(name.replace(/\.json$/, ''));
      if (Number.isInteger(n) && n <= latest - keep) await rm(join(dir, name), { force: true });
    }
  }

  /**
   * A temp file named as an intent's bytes are while they are written, in the key's folder. The first
   * upload to a key makes that folder for it (and the state folder, if there is none yet), and notes
   * what it made: a run that stops before its intent (an invalid file, a guard, a signal) removes its
   * spool and then those folders, while nothing else is in them, so it leaves the store as it found it.
   */
  spool(key: StateKey): Spool | undefined {
    try {
      const dir = this.dir(key);
      // As the lock is (./lease.ts): a terminal closed at the question (SIGHUP) ends the run without an
      // `exit` event. Hooked first, so that folders made for a spool that then fails go too.
      this.unhookExit ??= onExit(this.removeSpools);
      if (!this.folderForSpool(dir)) return undefined;
      // Named as the temp file of an intent's bytes; step 6 gives it the name of the intent it becomes.
      const { fd, temp } = tempFileSync(join(dir, bodyFile({ id: randomBytes(8).toString('hex') })), this.fileMode);
      const spool: Spool = { fd };
      this.spools.set(spool, { key: JSON.stringify(key), temp });
      pauseAt('spooled');
      return spool;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether the key's folder `dir` is there, made now if it is not: the state folder (whose parent must
   * be there), `stores` and the key's folder, each missing one made on its own and noted in
   * madeForSpools (one another run made meanwhile is not). A link where `stores` or the key's folder
   * should be is no place for a spool. Synchronous: called on the plan's thread, as the spool is.
   */
  private folderForSpool(dir: string): boolean {
    const isFolder = (path: string, follow: boolean) => (follow ? statSync(path) : lstatSync(path)).isDirectory();
    // The state folder may be a link to a shared drive's (checkRoot()); nothing inside it is followed.
    for (const [path, follow] of [
      [this.root, true],
      [join(this.root, 'stores'), false],
      [dir, false],
    ] as const) {
      try {
        if (isFolder(path, follow)) continue;
        return false;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return false;
      }
      try {
        mkdirSync(path, { mode: this.dirMode });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST' && isFolder(path, follow)) continue;
        return false;
      }
      this.madeForSpools.unshift(path);
      // As ensure() does: the umask would take the group's write access away from a shared folder.
      if (this.dirMode !== 0o700) chmodSync(path, this.dirMode);
    }
    return true;
  }

  /** The folders spool() made, each removed only while empty (a lock, a record or another run's spool in one keeps it). */
  private removeMadeForSpools(): void {
    for (const d of this.madeForSpools) {
      try {
        rmdirSync(d);
      } catch {
        // Not empty (the upload went on to its lock, or another run uses it), or gone already.
      }
    }
    this.madeForSpools = [];
  }

  /** Whether this store opened a spool for `key` (spool()) that is not yet taken or removed. */
  private spoolsFor(key: StateKey): boolean {
    const id = JSON.stringify(key);
    return [...this.spools.values()].some((open) => open.key === id);
  }

  /**
   * This store's spool for `key` that holds the body whole, taken (intend() renames it), or undefined.
   * Any other of the key's goes now (a spool whose write failed, a plan's whose set was then changed):
   * on a nearly full disk its bytes would leave no room for the body's.
   */
  private async takeSpool(key: StateKey, spooled: (() => Promise<Spool | undefined>) | undefined): Promise<OpenSpool | undefined> {
    const spool = await spooled?.();
    const id = JSON.stringify(key);
    const open = spool && this.spools.get(spool);
    const taken = open?.key === id ? open : undefined;
    for (const [other, { key: its, temp }] of this.spools) {
      if (its !== id) continue;
      this.spools.delete(other);
      if (other !== spool) await rm(temp, { force: true });
    }
    return taken;
  }

  /**
   * The intent is created exclusively (never over another run's), and only then are the lock and the
   * head proved: a run that lost its lock, or whose plan went stale, before that moment takes its intent
   * back and sends nothing; one that loses the lock after it leaves an intent every later run sees.
   */
  async intend(key: StateKey, expected: number, body: readonly Uint8Array[], meta: IntentFacts, spooled?: () => Promise<Spool | undefined>): Promise<Intended> {
    const dir = await this.ensure(key);
    const id = randomBytes(8).toString('hex');
    // The bytes first, under a name of this run's own: an intent is only ever seen with its body whole.
    // The intent's facts are made (the body's sha256 among them, and the send started) while the kernel
    // copies them, or while the spool that holds them already, written and synced as the plan was made,
    // is put in place.
    const bytes = join(dir, bodyFile({ id }));
    const facts = async (): Promise<Intent> => ({ ...(await meta()), generation: expected + 1, intendedAt: new Date().toISOString(), id });
    let intent: Intent;
    // With no spool of the key's, the write is handed to the kernel before the facts are begun: making
    // them loads the HTTP client, 40–70 ms of this thread the copy no longer waits for.
    if (!this.spoolsFor(key)) intent = await writeBytesAtomic(bytes, body, this.fileMode, facts);
    else {
      // Begun before the spool is waited for (its thread's last sync), so the send starts meanwhile.
      const made = facts();
      // Awaited below, or by the write; a failure first is not an unhandled rejection.
      made.catch(() => {});
      const spool = await this.takeSpool(key, spooled);
      intent = spool ? await this.placeSpool(spool.temp, bytes, body, made) : await writeBytesAtomic(bytes, body, this.fileMode, () => made);
    }
    pauseAt('writing-intent');
    let created = false;
    let adopted: string | undefined;
    try {
      for (let attempt = 0; attempt < 2 && !created; attempt++) {
        created = await createFileExclusive(join(dir, 'intent.json'), `${JSON.stringify(intent)}\n`, this.fileMode);
        if (created) break;
        const other = await readJson<Intent>(join(dir, 'intent.json'));
        // The same bytes for the same generation, sent before and never confirmed: this run sends them again.
        if (other && other.generation === intent.generation && other.sha256 === intent.sha256 && other.bytes === intent.bytes) {
          adopted = other.id ?? '';
          break;
        }
        // An intent left behind by a commit cut short (its generation recorded, with its bytes) is done with.
        if (other && !(await this.unconfirmed(key, other))) await this.forget(key, other.id ?? '');
        else throw anotherPending(key, this.label, other);
      }
      if (!created && adopted === undefined) throw anotherPending(key, this.label, undefined);
    } catch (err) {
      await rm(bytes, { force: true });
      throw err;
    }
    if (adopted !== undefined) await rm(bytes, { force: true });
    // Proved after the create, or the adoption (as PostgreSQL's transaction proves both): from here on
    // a run that takes the lock over sees this intent.
    const lease = this.leases.get(JSON.stringify(key));
    const refusal =
      !lease || !(await lease.stillHeld())
        ? lockLost(key, this.label)
        : ((await this.head(key))?.generation ?? 0) !== expected
          ? stateMoved(key, this.label, expected, (await this.head(key))?.generation ?? 0)
          : undefined;
    if (refusal) {
      // Only this run's own intent is taken back; an adopted one stays for the run that wrote it, or a person.
      if (adopted === undefined) await this.forget(key, id);
      throw refusal;
    }
    return adopted === undefined ? { id, adopted: false } : { id: adopted, adopted: true };
  }

  async pending(key: StateKey): Promise<Intent | undefined> {
    const intent = await readJson<Intent>(join(this.dir(key), 'intent.json'));
    return intent && (await this.unconfirmed(key, intent)) ? intent : undefined;
  }

  /**
   * Whether an intent is still unconfirmed: one past the head, or for a generation recorded with other
   * bytes (a run that lost its lock sent it after another was recorded). One whose generation was
   * recorded with its very bytes outlived its commit (a crash between the two): confirmed.
   */
  private async unconfirmed(key: StateKey, intent: Intent): Promise<boolean> {
    const head = (await readJson<{ generation: number }>(join(this.dir(key), 'head.json')))?.generation ?? 0;
    if (intent.generation > head) return true;
    const recorded = await readJson<Generation>(join(this.dir(key), 'generations', `${intent.generation}.json`));
    return recorded?.sha256 !== intent.sha256 || recorded.bytes !== intent.bytes;
  }

  async readPending(key: StateKey): Promise<Buffer> {
    const intent = await this.pending(key);
    if (!intent) throw new UsageError('NO_PENDING', `no unconfirmed upload of ${key.kind} to ${key.baseUrl} is recorded in ${this.label}`, 'nothing to settle');
    const body = await readChecked(join(this.dir(key), bodyFile(intent)), intent.bytes, intent.sha256).catch(unusable);
    if (!body) throw pendingDamaged(this.label);
    return body;
  }

  async forget(key: StateKey, id?: string): Promise<void> {
    const dir = this.dir(key);
    const intent = await readJson<Intent>(join(dir, 'intent.json')).catch(() => undefined);
    if (id !== undefined && (intent?.id ?? '') !== id) {
      // Not (or no longer) the intent named: only its body file, if this run wrote one, goes.
      if (id) await rm(join(dir, `intent.${id}.body.json`), { force: true });
      return;
    }
    await rm(join(dir, 'intent.json'), { force: true });
    if (intent) await rm(join(dir, bodyFile(intent)), { force: true });
  }

  async inFlight(key: StateKey, what: string): Promise<GuardRefusal | undefined> {
    return liveHolder(join(this.dir(key), 'lock'), what);
  }

  /** One line in one write in append mode, so concurrent writers never interleave a line. */
  async audit(key: StateKey, entry: AuditEntry): Promise<void> {
    const dir = await this.ensure(key);
    await appendRegularFile(join(dir, 'audit.jsonl'), `${JSON.stringify(entry)}\n`, this.fileMode).catch(unusable);
  }

  async attempts(key: StateKey, limit = Number.MAX_SAFE_INTEGER): Promise<AuditEntry[]> {
    const old = await this.legacy(key);
    if (old) return old.audit.toReversed().slice(0, limit);
    const text = await readState(join(this.dir(key), 'audit.jsonl')).then(
      (bytes) => bytes.toString('utf8'),
      (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? '' : Promise.reject(err)),
    );
    const lines = text.split('\n').filter(Boolean);
    const out: AuditEntry[] = [];
    for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
      try {
        out.push(JSON.parse(lines[i]!) as AuditEntry);
      } catch {
        /* a line cut by a crash is skipped; the rest of the log stands */
      }
    }
    return out;
  }

  private modes(): fourEyes.RecordModes {
    return { fileMode: this.fileMode, dirMode: this.dirMode };
  }

  whoami(): Promise<string> {
    return Promise.resolve(fourEyes.currentPerson());
  }

  async recordPlan(key: StateKey, plan: Omit<PlanRecord, 'planner' | 'plannedAt'>): Promise<PlanRecord> {
    return fourEyes.recordPlan(await this.ensure(key), plan, this.modes());
  }

  plans(key: StateKey): Promise<PlanRecord[]> {
    return fourEyes.listPlans(this.dir(key));
  }

  async approve(key: StateKey, plan: Pick<PlanRecord, 'digest' | 'planId'>, host: string): Promise<Approval> {
    return fourEyes.approve(await this.ensure(key), plan, host, this.modes());
  }

  approvals(key: StateKey, digest: string): Promise<Approval[]> {
    return fourEyes.listApprovals(this.dir(key), digest);
  }

  policyAddresses(): Promise<string[]> {
    return policies.policyAddresses(this.root);
  }

  policy(address: string): Promise<RecordedPolicy | undefined> {
    return policies.readPolicy(this.root, siteName(new URL(address)), address, (a, b) => stricterPolicy(a, b)!);
  }

  async setPolicy(address: string, policy: Policy, how: 'strengthen' | 'set'): Promise<RecordedPolicy> {
    const recorded = await this.policy(address);
    const weaker = recorded !== undefined && !atLeastAsStrict(policy, recorded.policy);
    await policies.writePolicy(this.root, siteName(new URL(address)), { address, policy, how }, this.modes(), weaker, this.label);
    return (await this.policy(address))!;
  }

  async keepPlan(key: StateKey, plan: { planId: string; digest: string; document: string }, body: Buffer): Promise<WaitingPlan> {
    return policies.keepPlan(await this.ensure(key), plan, body, this.modes());
  }

  waitingPlans(key: StateKey): Promise<WaitingPlan[]> {
    return policies.listWaiting(this.dir(key));
  }

  readWaitingBody(key: StateKey, planId: string): Promise<Buffer> {
    return policies.readWaitingBody(this.dir(key), planId);
  }

  async dump(key: StateKey): Promise<KeyDump> {
    return dumpKey(this, key);
  }

  async load(dump: KeyDump): Promise<void> {
    await loadKey(this, dump, async (key, intent, body) => {
      // As intend() writes it, with the intent's own id and time: its bytes first, then the record.
      const dir = await this.ensure(key);
      await writeFileAtomic(join(dir, bodyFile(intent)), [body], this.fileMode);
      if (!(await createFileExclusive(join(dir, 'intent.json'), `${JSON.stringify(intent)}\n`, this.fileMode)))
        throw new UsageError(
          'STATE_UNUSABLE',
          `${this.label} already holds an unconfirmed upload of ${key.kind} to ${key.baseUrl}`,
          'copy into an empty store',
        );
    });
  }

  async keys(): Promise<StateKey[]> {
    const stores = join(this.root, 'stores');
    const names = await readdir(stores).catch(() => [] as string[]);
    const keys: StateKey[] = [];
    for (const name of names) {
      const key = await readJson<StateKey>(join(stores, name, 'key.json'));
      if (key) keys.push(key);
    }
    return keys;
  }

  /**
   * A spool's file renamed to `bytes` (its bytes synced already by the thread that wrote them), while
   * `facts` are made; the bytes written as without a spool when the rename fails (the file was taken
   * away, or something not a file now stands at `bytes`).
   */
  private async placeSpool(temp: string, bytes: string, body: readonly Uint8Array[], made: Promise<Intent>): Promise<Intent> {
    try {
      await placeTemp(temp, bytes);
    } catch {
      return writeBytesAtomic(bytes, body, this.fileMode, () => made);
    }
    try {
      return await made;
    } catch (err) {
      await rm(bytes, { force: true });
      throw err;
    }
  }

  async close(): Promise<void> {
    for (const lease of this.leases.values()) await lease.release();
    this.leases.clear();
    // Each thread told to end, and its descriptor closed, before its file and folders are removed.
    await Promise.all([...this.spools.keys()].map((spool) => finished(spool)));
    await Promise.all([...this.spools.values()].map(({ temp }) => rm(temp, { force: true })));
    this.spools.clear();
    this.removeMadeForSpools();
    this.unhookExit?.();
    this.unhookExit = undefined;
  }
}

/** A spool's thread ended and its descriptor closed (Spool.finish), or SPOOL_FINISH_MS gone by (a hung disk). */
async function finished(spool: Spool): Promise<void> {
  if (spool.finish) await Promise.race([spool.finish().catch(() => {}), sleep(SPOOL_FINISH_MS, undefined, { ref: false })]);
}

/** How long close() waits for a spool's thread: it has at most a sync of 32 MiB and the chunks sent to it left. */
const SPOOL_FINISH_MS = 5_000;

/** Where an intent's bytes are: beside it, named by its run (an earlier version's: intent.body.json). */
function bodyFile(intent: Pick<Intent, 'id'>): string {
  return intent.id ? `intent.${intent.id}.body.json` : 'intent.body.json';
}

async function exists(path: string): Promise<boolean> {
  // Only "not there" is false: a folder this user may not read is a refusal (./dir-errors.ts), not an empty store.
  return lstat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'ENOTDIR' ? false : Promise.reject(err)),
  );
}

/** A file of the state folder: never read through a link, never waited on as a FIFO. */
function readState(path: string): Promise<Buffer> {
  return readRegularFile(path).catch(unusable);
}

/** Something other than a file where the store keeps one: a documented refusal, not a crash or a hang. */
function unusable(err: unknown): never {
  if (err instanceof NotAFile)
    throw new UsageError(
      'STATE_UNUSABLE',
      `${err.message} in the state folder`,
      'move it aside: the state folder holds only the files this tool writes (and never follows links in it)',
      { cause: err },
    );
  throw err;
}

async function readJson<T>(path: string): Promise<T | undefined> {
  let text: string;
  try {
    text = (await readState(path)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new GuardRefusal(
      'SNAPSHOT_CORRUPT',
      `${path} is damaged (not JSON)`,
      'restore it from a backup, or move the state directory aside and start again with --baseline FILE',
    );
  }
}
