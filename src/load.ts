// Loaders that read other files through the same stages as an upload: the --baseline file, the
// --store-cards file and the last snapshot. They sit above the stages, so the stages never call the
// orchestrator.
import type { Kind } from './contract/kinds.js';
import { InputError, UploadError, UsageError } from './errors.js';
import type { Mapping } from './map/mapping-file.js';
import { buildPlan, type Baseline } from './plan.js';
import { displayName } from './read/index.js';
import { readSnapshot, snapshotKeys } from './record/snapshot.js';
import { plural } from './report/human.js';

export interface BaselineRequest {
  readonly kind: Kind;
  /** --baseline FILE */
  readonly file?: string | undefined;
  /** The input file: the baseline cannot also come from standard input when this does. */
  readonly input: string;
  readonly encoding?: string | undefined;
  readonly mapping: Mapping;
  readonly stdin?: NodeJS.ReadableStream;
  /** The snapshot for this base URL and kind; undefined when no base URL is known. */
  readonly snapshot?: string | undefined;
}

export interface BaselineResult {
  readonly baseline: Baseline | undefined;
  /** Why there is none, for the user. */
  readonly why: string;
}

/** --baseline FILE when given, else the snapshot of the last confirmed upload, else nothing (and why). */
export async function loadBaseline(req: BaselineRequest): Promise<BaselineResult> {
  if (req.file !== undefined) return { baseline: { source: 'file', records: await readBaselineFile(req, req.file) }, why: '' };
  if (req.snapshot === undefined) {
    return { baseline: undefined, why: 'no base URL was given, so there is no snapshot of a last upload to compare with (give --base-url, or --baseline FILE)' };
  }
  const records = await readSnapshot(req.snapshot, req.kind);
  if (!records) return { baseline: undefined, why: `no earlier upload to this address is recorded in this state directory (${req.snapshot}); pass --baseline FILE to compare with an earlier export` };
  return { baseline: { source: 'snapshot', records }, why: '' };
}

/**
 * Any input file, read through the same stages as the upload itself, so its records are the canonical
 * wire JSON the plan is compared with. It is read with --map and --encoding (an earlier export of the
 * same system); a file in wire field names, such as a copy of a snapshot, is read without --map.
 */
async function readBaselineFile(req: BaselineRequest, file: string): Promise<Map<string, string>> {
  if (file === '-' && req.input === '-') {
    throw new UsageError('STDIN_TWICE', 'the records and the baseline cannot both come from standard input', 'give the baseline as a file: --baseline FILE');
  }
  const read = (mapping: Mapping) =>
    buildPlan({ kind: req.kind, path: file, read: { source: displayName(file), encoding: req.encoding }, mapping, ...(req.stdin ? { stdin: req.stdin } : {}) }).catch((err: unknown) => {
      // The file named by a flag is named with the flag, so the user knows which of two files it is.
      if (err instanceof InputError) throw new InputError(err.code, `--baseline ${err.message}`, err.hint);
      throw err;
    });
  let plan = await read(req.mapping);
  if (Object.keys(req.mapping).length > 0 && plan.issues.some((i) => i.code === 'MAPPED_COLUMN_MISSING')) plan = await read({});
  const first = plan.issues.find((i) => i.severity === 'error');
  if (first) {
    throw new InputError(
      'BASELINE_INVALID',
      `--baseline ${file} has ${plural(plan.errors, 'error')}, first ${file}${first.line === null ? '' : `:${first.line}`}: ${first.message}`,
      'a baseline must be valid to be compared with: fix it, or use another file',
    );
  }
  return new Map(plan.keys.map((key, i) => [key, plan.bodies[i]!]));
}

export interface KnownParents {
  readonly knownParents?: ReadonlySet<string>;
  readonly knownParentsFrom?: string;
  /** Why the parentKeys are not checked although they could have been (a damaged snapshot). */
  readonly warning?: string;
}

/**
 * The nodeKeys a team member's parentKey should match: from --store-cards FILE (read like any
 * store-card upload, so what is checked against is exactly what `upload store-cards FILE` would send),
 * else from the store cards last uploaded to the same address, if any.
 */
export async function loadKnownParents(req: { kind: Kind; storeCards?: string | undefined; snapshot?: string | undefined; where?: string | undefined; stdin?: NodeJS.ReadableStream }): Promise<KnownParents> {
  if (req.kind !== 'team-members') return {};
  if (req.storeCards !== undefined) return { knownParents: await readStoreCardKeys(req.storeCards, req.stdin), knownParentsFrom: displayName(req.storeCards) };
  if (req.snapshot === undefined) return {};
  let knownParents;
  try {
    knownParents = await snapshotKeys(req.snapshot, 'store-cards');
  } catch (err) {
    // Only warnings hang on it: a damaged store-card snapshot costs the parent check, never the upload.
    if (!(err instanceof UploadError && err.code === 'SNAPSHOT_CORRUPT')) throw err;
    return { warning: `The store-card snapshot ${req.snapshot} is damaged, so parentKeys are not checked against it.` };
  }
  return knownParents ? { knownParents, knownParentsFrom: `the store cards last uploaded to ${req.where}` } : {};
}

async function readStoreCardKeys(path: string, stdin?: NodeJS.ReadableStream): Promise<ReadonlySet<string>> {
  const source = displayName(path);
  let plan;
  try {
    plan = await buildPlan({ kind: 'store-cards', path, read: { source }, mapping: {}, ...(stdin ? { stdin } : {}) });
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(err.code, `--store-cards ${err.message}`, err.hint);
  }
  if (plan.errors > 0) {
    // Half a list of stores would turn every member of a rejected store into a false warning.
    throw new InputError(
      'STORE_CARDS_INVALID',
      `--store-cards ${source}: ${plural(plan.errors, 'error')} in the store-card file, so the parentKeys cannot be checked against it`,
      `see them with: upload store-cards ${path} --dry-run; or drop --store-cards`,
    );
  }
  return new Set(plan.keys);
}
