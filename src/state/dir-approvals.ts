// Plans and approvals in a directory store (four eyes, docs/state.md). Each record is a file created
// once and never rewritten (files/atomic.ts createFileExclusive), read-only, in a folder with the sticky bit, so
// nobody but its owner (and root) can remove it. Who made a record is the file's owner as the operating
// system set it (personOf): a record whose owner is not the person it names, or that has no owner to
// check, is marked `unverified` and never counts (FORGED_RECORD). This is weaker than
// PostgreSQL's session_user (root, or anyone with the owner's account, can do anything), and is
// documented as such.
import { readFileSync } from 'node:fs';
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { emptyIfAbsent } from './dir-errors.js';
import { join } from 'node:path';
import { createFileExclusive, readRegularFile } from '../files/atomic.js';
import { currentUser } from './whoami.js';
import type { Approval, PlanRecord } from './types.js';

/**
 * The account of a uid, as the system's user list names it ("uid 1002" when it has no entry there, as
 * for a directory service's users): the same for whoami() and for every record read, so two people can
 * never look alike, nor one person like two.
 */
export function personOf(id: number | null): string {
  if (id === null) return currentUser();
  let names = ACCOUNTS;
  if (!names) {
    names = new Map();
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const [name, , uidText] = line.split(':');
        if (name && uidText && !names.has(Number(uidText))) names.set(Number(uidText), name);
      }
    } catch {
      /* no user list: every account is named by its uid */
    }
    ACCOUNTS = names;
  }
  return names.get(id) ?? `uid ${id}`;
}
let ACCOUNTS: Map<number, string> | undefined;

/** Who runs this process, as personOf names it. */
export function currentPerson(): string {
  return personOf(uid());
}

/** A plan id as the tool makes them (a UUID): safe as a file name. */
const PLAN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The folder's modes: read-only files (owner, and the group of a shared store), sticky folders. */
export interface RecordModes {
  readonly fileMode: number;
  readonly dirMode: number;
}

interface Owned {
  /** The uid the record says made it: checked against the file's owner. */
  readonly uid: number | null;
}

const uid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

async function folder(dir: string, name: string, modes: RecordModes): Promise<string> {
  const path = join(dir, name);
  const made = await mkdir(path, { recursive: true, mode: modes.dirMode });
  // The sticky bit: in a folder the group may write to, only a file's owner may remove or rename it.
  if (made !== undefined) await chmod(path, modes.dirMode | 0o1000);
  return path;
}

/** A record file's content, and whether the file's owner is the person it names (on systems with uids). */
async function readOwned<T extends Owned>(path: string, who: 'planner' | 'approver'): Promise<(T & Checked) | undefined> {
  let record: T;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    const [bytes, info_] = await Promise.all([readRegularFile(path), stat(path)]);
    record = JSON.parse(bytes.toString('utf8')) as T;
    info = info_;
  } catch {
    // A record cut short by a crash, or something that is not a record: it vouches for nothing.
    return undefined;
  }
  const named = (record as Record<string, unknown>)[who];
  const owner = uid() === null ? undefined : personOf(info.uid);
  // Only the system's word counts: the owner it keeps for the file, never a name or uid written inside.
  const unverified =
    owner === undefined
      ? `${path} names ${String(named)}, and files on this system have no owner to check it against`
      : record.uid !== info.uid || named !== owner
        ? `${path} names ${String(named)}${record.uid === null ? ' (and no uid)' : record.uid !== info.uid ? ` (uid ${String(record.uid)})` : ''}, but the file is owned by ${owner}`
        : undefined;
  return { ...record, modifiedMs: info.mtimeMs, ...(unverified ? { unverified } : {}) };
}

/** What the reading adds: the file's modification time, and why the record does not count, if it does not. */
interface Checked {
  readonly modifiedMs: number;
  readonly unverified?: string;
}

/** Only the owner (and a shared store's group) may read, nobody may write: the record is never changed. */
const readOnly = (modes: RecordModes) => modes.fileMode & 0o440;

export async function recordPlan(dir: string, plan: Omit<PlanRecord, 'planner' | 'plannedAt'>, modes: RecordModes): Promise<PlanRecord> {
  if (!PLAN_ID.test(plan.planId)) throw new Error(`'${plan.planId}' is not a plan id this tool makes`);
  const plans = await folder(dir, 'plans', modes);
  const path = join(plans, `${plan.planId}.json`);
  const record: PlanRecord & Owned = { ...plan, planner: currentPerson(), plannedAt: new Date().toISOString(), uid: uid() };
  if (await createFileExclusive(path, `${JSON.stringify(record)}\n`, readOnly(modes))) return strip(record);
  const first = await readOwned<PlanRecord & Owned>(path, 'planner');
  if (!first) throw new Error(`${path} is not a plan record this tool wrote`);
  return strip(first);
}

export async function listPlans(dir: string): Promise<PlanRecord[]> {
  const plans = join(dir, 'plans');
  const names = await readdir(plans).catch(emptyIfAbsent);
  const found: PlanRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && PLAN_ID.test(n.slice(0, -5)))) {
    const record = await readOwned<PlanRecord & Owned>(join(plans, name), 'planner');
    if (!record || `${record.planId}.json` !== name) continue;
    // Anyone in the group can write a file here: its fields are taken as the types they must be.
    const { digest, planId, planner, plannedAt, generation, source, unverified } = record;
    found.push({
      digest: String(digest),
      planId,
      planner: String(planner),
      plannedAt: String(plannedAt),
      generation: Number(generation),
      source: String(source),
      ...(unverified ? { unverified } : {}),
    });
  }
  return found.sort((a, b) => a.plannedAt.localeCompare(b.plannedAt));
}

export async function approve(dir: string, plan: Pick<PlanRecord, 'digest' | 'planId'>, host: string, modes: RecordModes): Promise<Approval> {
  const { digest, planId } = plan;
  if (!PLAN_ID.test(planId)) throw new Error(`'${planId}' is not a plan id this tool makes`);
  const approvals = await folder(dir, 'approvals', modes);
  const approvedAt = new Date().toISOString();
  const record = { digest, planId, approver: currentPerson(), approvedAt, host, uid: uid() };
  const name = `${digest}.${planId}.${record.uid ?? record.approver}.${Date.now()}.json`;
  if (!(await createFileExclusive(join(approvals, name), `${JSON.stringify(record)}\n`, readOnly(modes))))
    throw new Error(`${name} exists already: approve again in a moment`);
  return { digest, planId, approver: record.approver, approvedAt, host, ageSeconds: 0 };
}

export async function listApprovals(dir: string, digest: string): Promise<Approval[]> {
  const approvals = join(dir, 'approvals');
  const names = await readdir(approvals).catch(emptyIfAbsent);
  const found: Approval[] = [];
  for (const name of names.filter((n) => n.startsWith(`${digest}.`) && n.endsWith('.json'))) {
    const record = await readOwned<Omit<Approval, 'ageSeconds'> & Owned>(join(approvals, name), 'approver');
    if (!record || record.digest !== digest) continue;
    found.push({
      digest,
      planId: typeof record.planId === 'string' ? record.planId : null,
      approver: String(record.approver),
      approvedAt: String(record.approvedAt),
      host: String(record.host),
      ageSeconds: ageOf(record.approvedAt, record.modifiedMs),
      ...(record.unverified ? { unverified: record.unverified } : {}),
    });
  }
  return found.sort((a, b) => a.approvedAt.localeCompare(b.approvedAt));
}

/**
 * An approval's age on this machine's clock, by both the time written in it and its file's modification
 * time (either can be set by hand: `touch -d`, an edited record): the older of the two, so that neither
 * makes it younger; or, when either is ahead of the clock, the one furthest ahead (a negative age, which
 * ../pipeline/approval.ts counts as dated in the future).
 */
function ageOf(approvedAt: unknown, modifiedMs: number): number {
  const now = Date.now();
  const written = typeof approvedAt === 'string' ? Date.parse(approvedAt) : Number.NaN;
  // A time that is not a time is as far in the future as can be: it never counts.
  const ages = [Number.isNaN(written) ? -Infinity : (now - written) / 1000, (now - modifiedMs) / 1000];
  return Math.min(...ages) < 0 ? Math.min(...ages) : Math.max(...ages);
}

function strip<T extends Owned & Partial<Checked>>(record: T): Omit<T, 'uid' | 'modifiedMs'> {
  const { uid: _uid, modifiedMs: _modified, ...rest } = record;
  return rest;
}
