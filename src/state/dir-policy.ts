// The policy of an address and the plans kept awaiting approval, in a directory store
// (docs/state.md, "The policy of an address"). Like the four-eyes records (./dir-approvals.ts), each is
// a file created once, read-only, in a folder with the sticky bit, and who wrote it is the file's
// owner. The store's administrator is the owner of its root folder: the policy is that owner's latest
// record, made stricter by every record anyone wrote after it. So anyone may strengthen a policy (a run
// whose config asks more records it), nobody but the owner can weaken it, and a weaker record written
// by hand by someone else changes nothing.
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { emptyIfAbsent } from './dir-errors.js';
import { join } from 'node:path';
import { GuardRefusal } from '../errors.js';
import { createFileExclusive, readRegularFile } from '../files/atomic.js';
import { currentPerson, personOf, type RecordModes } from './dir-approvals.js';
import type { Policy, RecordedPolicy, WaitingPlan } from './types.js';

const uid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);
const PLAN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function folder(path: string, modes: RecordModes): Promise<string> {
  const made = await mkdir(path, { recursive: true, mode: modes.dirMode });
  // The sticky bit: in a folder the group may write to, only a file's owner may remove or rename it.
  if (made !== undefined) await chmod(path, modes.dirMode | 0o1000);
  return path;
}

interface PolicyFile {
  readonly address: string;
  readonly policy: Policy;
  readonly how: 'strengthen' | 'set';
}

interface Found {
  readonly record: PolicyFile;
  readonly owner: number | null;
  readonly at: number;
}

/**
 * The policy of an address: the root owner's latest record, combined with every later record
 * (`stricter`, from the engine: the one rule of what is stricter) by anyone else.
 */
export async function readPolicy(root: string, site: string, address: string, stricter: (a: Policy, b: Policy) => Policy): Promise<RecordedPolicy | undefined> {
  const dir = join(root, 'policies', site);
  const names = await readdir(dir).catch(emptyIfAbsent);
  const admin = await ownerOf(root);
  const found: Found[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const path = join(dir, name);
      const [bytes, info] = await Promise.all([readRegularFile(path), stat(path)]);
      const record = JSON.parse(bytes.toString('utf8')) as PolicyFile;
      if (record.address !== address || typeof record.policy?.approvals !== 'number') continue;
      found.push({ record, owner: typeof process.getuid === 'function' ? info.uid : null, at: info.mtimeMs });
    } catch {
      // A record cut short, or not a record: it says nothing.
    }
  }
  found.sort((a, b) => a.at - b.at);
  const lastAdmin = found.map((f) => f.owner === admin).lastIndexOf(true);
  const counted = found.slice(Math.max(0, lastAdmin));
  if (!counted.length) return undefined;
  const policy = counted.slice(1).reduce((p, f) => stricter(p, f.record.policy), counted[0]!.record.policy);
  const last = counted[counted.length - 1]!;
  return { address, policy, setBy: personOf(last.owner), setAt: new Date(last.at).toISOString() };
}

/** Every address a policy record names, in any folder of `policies/`. */
export async function policyAddresses(root: string): Promise<string[]> {
  const found = new Set<string>();
  for (const site of await readdir(join(root, 'policies')).catch(() => [] as string[])) {
    for (const name of (await readdir(join(root, 'policies', site)).catch(() => [] as string[])).filter((n) => n.endsWith('.json'))) {
      try {
        const record = JSON.parse((await readRegularFile(join(root, 'policies', site, name))).toString('utf8')) as Partial<PolicyFile>;
        if (typeof record.address === 'string') found.add(record.address);
      } catch {
        // A record cut short, or not a record: it names nothing.
      }
    }
  }
  return [...found].sort();
}

/** Writes a policy record; 'set' (which may weaken) only by the owner of the store's folder. */
export async function writePolicy(root: string, site: string, record: PolicyFile, modes: RecordModes, weaker: boolean, label: string): Promise<void> {
  const admin = await ownerOf(root);
  if (weaker && (record.how === 'strengthen' || admin !== uid()))
    throw new GuardRefusal(
      'POLICY_WEAKER',
      `the policy recorded for ${record.address} in ${label} asks more than this one, and only the store's administrator (the owner of ${root}, ${personOf(admin)}) may weaken it; ${currentPerson()} may only record a stricter one; nothing was recorded`,
      `ask ${personOf(admin)} to run: upload policy set with the same target`,
    );
  await folder(join(root, 'policies'), modes);
  const dir = await folder(join(root, 'policies', site), modes);
  const name = `${Date.now()}.${uid() ?? currentPerson()}.${process.pid}.json`;
  if (!(await createFileExclusive(join(dir, name), `${JSON.stringify(record)}\n`, modes.fileMode & 0o440)))
    throw new Error(`${name} exists already: record the policy again in a moment`);
}

async function ownerOf(path: string): Promise<number | null> {
  if (typeof process.getuid !== 'function') return null;
  return (await stat(path).catch(() => undefined))?.uid ?? null;
}

interface WaitingFile {
  readonly planId: string;
  readonly digest: string;
  readonly plannedAt: string;
  readonly document: string;
}

/** Keeps a plan awaiting approval: its body, then its record (the record is what lists it). */
export async function keepPlan(
  dir: string,
  plan: { planId: string; digest: string; document: string },
  body: Buffer,
  modes: RecordModes,
): Promise<WaitingPlan> {
  if (!PLAN_ID.test(plan.planId)) throw new Error(`'${plan.planId}' is not a plan id this tool makes`);
  const waiting = await folder(join(dir, 'waiting'), modes);
  const readOnly = modes.fileMode & 0o440;
  await createFileExclusive(join(waiting, `${plan.planId}.body.json`), body.toString('utf8'), readOnly);
  const record: WaitingFile = { ...plan, plannedAt: new Date().toISOString() };
  await createFileExclusive(join(waiting, `${plan.planId}.json`), `${JSON.stringify(record)}\n`, readOnly);
  const kept = (await listWaiting(dir)).find((p) => p.planId === plan.planId);
  if (!kept) throw new Error('the plan just kept cannot be read back');
  return kept;
}

export async function listWaiting(dir: string): Promise<WaitingPlan[]> {
  const waiting = join(dir, 'waiting');
  const names = (await readdir(waiting).catch(emptyIfAbsent)).filter((n) => n.endsWith('.json') && PLAN_ID.test(n.slice(0, -5)));
  const found: Omit<WaitingPlan, 'number'>[] = [];
  for (const name of names) {
    try {
      const path = join(waiting, name);
      const [bytes, info] = await Promise.all([readRegularFile(path), stat(path)]);
      const record = JSON.parse(bytes.toString('utf8')) as WaitingFile;
      if (`${record.planId}.json` !== name) continue;
      // Who planned it is the file's owner, never a name inside it.
      const planner = typeof process.getuid === 'function' ? personOf(info.uid) : currentPerson();
      found.push({ planId: record.planId, digest: record.digest, plannedAt: record.plannedAt, document: record.document, planner });
    } catch {
      // Not a record this tool wrote: it is not listed.
    }
  }
  return found.sort((a, b) => a.plannedAt.localeCompare(b.plannedAt) || a.planId.localeCompare(b.planId)).map((p, i) => ({ ...p, number: i + 1 }));
}

export function readWaitingBody(dir: string, planId: string): Promise<Buffer> {
  if (!PLAN_ID.test(planId)) throw new Error(`'${planId}' is not a plan id this tool makes`);
  return readRegularFile(join(dir, 'waiting', `${planId}.body.json`));
}
