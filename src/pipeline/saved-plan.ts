// Saved plans (`--plan-out FILE` on a dry run, `upload apply FILE`): what was reviewed, to be sent byte
// for byte or not at all. The plan is JSON a person can read; the body sits beside it in a file named
// by its sha256. A plan never holds the token. Its own digest makes an edited or cut plan detectable.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { sharedWithGroup } from '../files/modes.js';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import type { Payload } from '../contract/json-array.js';
import { GuardRefusal, InputError, isUploadError } from '../errors.js';
import { readSmallFile } from '../read/small-file.js';
import { writePrivateFile } from '../files/private-file.js';
import { toolVersion } from '../version.js';
import { defaultOf } from '../config/settings.js';

export const PLAN_FORMAT = 'scheduling-upload-plan/1';

const counts = z.strictObject({
  added: z.number().nullable(),
  removed: z.number().nullable(),
  changed: z.number().nullable(),
  unchanged: z.number().nullable(),
});

const planDocument = z.strictObject({
  format: z.literal(PLAN_FORMAT),
  kind: z.enum(['store-cards', 'team-members']),
  baseUrl: z.string(),
  /** The config's named target the plan was made for (null: none); apply refuses another. */
  target: z.string().nullable().optional(),
  source: z.string(),
  createdAt: z.string(),
  user: z.string(),
  host: z.string(),
  toolVersion: z.string(),
  /** The store's generation for this base URL and kind when the plan was made (0: none yet). */
  generation: z.number().int().min(0),
  baseline: z.enum(['snapshot', 'file', 'none']),
  diff: counts,
  /** What the guards said of the plan (a plan is only written when they let it through). */
  notes: z.array(z.string()),
  /** The guard limits the plan was judged with; `apply` judges it again with the same ones. Absent in older plans: the defaults. */
  limits: z.strictObject({ maxRemovals: z.string(), maxChanges: z.string(), maxEmptied: z.string(), allowEmpty: z.boolean() }).optional(),
  /** Random, written once: a plan changed after it was made keeps it under another digest (PLAN_CHANGED). Absent in older plans. */
  planId: z.string().optional(),
  /** Four eyes: the target needs this many approvals, each valid this long; the planner as the state store named them. */
  approval: z.strictObject({ approvals: z.number().int().min(1), hours: z.number().positive(), planner: z.string() }).optional(),
  /** --hold-removals: the recorded keys the body keeps although the file leaves them out (absent: none held, or an older plan). */
  heldRemovals: z.array(z.string()).min(1).optional(),
  /** --hours-as-of: the day whose week the plan's hours bound to dates were read for (absent: none named). */
  hoursAsOf: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /** `upload release`: the upload whose held removals the plan removes, and those keys. */
  release: z.strictObject({ generation: z.number().int().min(1), keys: z.array(z.string()).min(1) }).optional(),
  body: z.strictObject({ file: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().min(2), records: z.number().int().min(0) }),
  digest: z.string(),
});

export type PlanDocument = z.infer<typeof planDocument>;
export type PlanLimits = NonNullable<PlanDocument['limits']>;

/** The limits a plan was judged with; a plan written before plans recorded them: the defaults. */
export function limitsOf(doc: Pick<PlanDocument, 'limits'>): PlanLimits {
  return doc.limits ?? { maxRemovals: defaultOf('maxRemovals'), maxChanges: defaultOf('maxChanges'), maxEmptied: defaultOf('maxEmptied'), allowEmpty: false };
}
type Unsigned = Omit<PlanDocument, 'digest' | 'body' | 'format' | 'toolVersion'>;

/** JSON with every object's keys sorted, so the digest does not depend on how the file was indented. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** sha256 of everything in the plan but the digest itself. */
export function digestOf(doc: Omit<PlanDocument, 'digest'>): string {
  return createHash('sha256').update(canonical(doc)).digest('hex');
}

/** Writes the body (named by its hash, beside the plan) and then the plan; both 0600. */
export async function writePlan(path: string, facts: Unsigned, payload: Payload): Promise<PlanDocument> {
  const bodyFile = `${basename(path)}.${payload.sha256.slice(0, 16)}.body.json`;
  // In a folder shared through its group (the team's plans folder), the approvers of the group must read it.
  const mode = sharedWithGroup((await stat(dirname(resolve(path)))).mode) ? 0o660 : 0o600;
  await writePrivateFile(join(dirname(path), bodyFile), '--plan-out', payload.chunks, mode);
  const doc = await planDocumentOf(facts, payload, bodyFile);
  await writePrivateFile(path, '--plan-out', [`${JSON.stringify(doc, null, 2)}\n`], mode);
  return doc;
}

/** A plan is a page of JSON (with any held keys): far more than this is not a plan. */
const MAX_PLAN_BYTES = 16 * 1024 * 1024;

/** Reads a plan and its body, checking both are exactly what was written; PLAN_INVALID otherwise. */
export async function readPlan(path: string): Promise<{ doc: PlanDocument; body: Buffer }> {
  const remake = 'make a new plan with --dry-run --plan-out FILE, review it, and apply that one';
  let invalid = (why: string): never => {
    throw new InputError('PLAN_INVALID', `${path}: ${why}`, remake);
  };
  let text: string;
  try {
    // Opened like a config file: a FIFO, device or directory is NOT_A_FILE at once, never waited on.
    text = readSmallFile(path, 'the plan', MAX_PLAN_BYTES).toString('utf8');
  } catch (err) {
    if (isUploadError(err)) throw err;
    return invalid(`cannot read the plan: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const parsed = parsedPlan(text);
  if (parsed === 'not JSON') return invalid('the plan is not valid JSON (was it cut short or edited?)');
  if (typeof parsed === 'string') return invalid(`the plan is not a plan this tool wrote (${parsed})`);
  const doc = parsed;
  // A plan that needs approvals and was changed is a way round them: refused as such (exit 4), not as damage.
  if (doc.approval)
    invalid = (why: string): never => {
      throw new GuardRefusal('PLAN_CHANGED', `${path}: ${why}; approvals are bound to a plan's exact content, and nothing was sent`, remake);
    };
  const { digest, ...rest } = doc;
  if (digestOf(rest) !== digest) return invalid('the plan has been changed since it was written (its digest does not match)');
  if (basename(doc.body.file) !== doc.body.file) return invalid('the plan names a body file outside its own folder');
  const bodyPath = resolve(dirname(path), doc.body.file);
  let body: Buffer;
  try {
    // Read no further than one byte past the size the plan records: a longer body has changed.
    body = readSmallFile(bodyPath, 'the plan body', doc.body.bytes + 1);
  } catch (err) {
    if (isUploadError(err) && err.code === 'FLAG_FILE_TOO_LARGE') return invalid(`its body ${bodyPath} has changed since the plan was made (it is larger)`);
    if (isUploadError(err)) throw err;
    return invalid(`its body ${bodyPath} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const sha256 = createHash('sha256').update(body).digest('hex');
  if (body.length !== doc.body.bytes || sha256 !== doc.body.sha256) {
    return invalid(
      `its body ${bodyPath} has changed since the plan was made (${body.length} bytes, sha256 ${sha256.slice(0, 12)}…; the plan says ${doc.body.bytes} bytes, ${doc.body.sha256.slice(0, 12)}…)`,
    );
  }
  return { doc, body };
}

/** A plan's document, signed: what writePlan writes, and a plan kept in the state store (./waiting.ts). */
export async function planDocumentOf(facts: Unsigned, payload: Payload, bodyFile: string): Promise<PlanDocument> {
  const unsigned = {
    format: PLAN_FORMAT,
    ...facts,
    toolVersion: await toolVersion(),
    body: { file: bodyFile, sha256: payload.sha256, bytes: payload.bytes, records: payload.records },
  } as const;
  return { ...unsigned, digest: digestOf(unsigned) };
}

/** A plan kept in the store, checked as readPlan checks a file: its document intact, its body the bytes it names. */
export function checkKeptPlan(document: string, body: Buffer, label: string): { doc: PlanDocument; body: Buffer } {
  const changed = (why: string): never => {
    throw new GuardRefusal('PLAN_CHANGED', `${label}: ${why}; approvals are bound to a plan's exact content, and nothing was sent`, 'make a new plan');
  };
  const doc = parsedPlan(document);
  if (doc === 'not JSON') return changed('the plan kept in the store is not valid JSON');
  if (typeof doc === 'string') return changed('the plan kept in the store is not a plan this tool wrote');
  const { digest, ...rest } = doc;
  if (digestOf(rest) !== digest) return changed('the plan kept in the store has been changed since it was made');
  const sha256 = createHash('sha256').update(body).digest('hex');
  if (body.length !== doc.body.bytes || sha256 !== doc.body.sha256) return changed('its body in the store has changed since the plan was made');
  return { doc, body };
}

/** A plan's text as its document; else 'not JSON', or where it is not a plan this tool wrote (`path: message`). */
function parsedPlan(text: string): PlanDocument | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const result = planDocument.safeParse(parsed);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  return `${first?.path.join('.') || 'format'}: ${first?.message}`;
}
