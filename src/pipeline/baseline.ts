// Loaders that read other files through the same stages as an upload: the --baseline file, the
// --store-cards file and the last snapshot. They sit above the stages, so the stages never call the
// orchestrator.
import { KINDS, type Kind } from '../contract/kinds.js';
import type { RecordsByKey } from '../diff/records.js';
import { GuardRefusal, InputError, resolveFixes, UploadError, UsageError } from '../errors.js';
import type { Mapping } from '../map/mapping-file.js';
import { displayName } from '../read/index.js';
import { plural } from '../numbers.js';
import { baselineOf, NO_BASELINE, type BaselineReport } from '../report/report.js';
import type { Generation, Intent, StateKey } from '../state/types.js';
import { buildPlan, type Baseline } from './plan.js';
import type { State } from './state.js';
import type { Stdin } from '../read/types.js';

export interface BaselineRequest {
  readonly kind: Kind;
  /** --baseline FILE */
  readonly file?: string | undefined;
  /** The input file: the baseline cannot also come from standard input when this does. */
  readonly input: string;
  readonly encoding?: string | undefined;
  readonly mapping: Mapping;
  /** --hours-as-of: a baseline file's hours bound to dates are read for the same week as the input's. */
  readonly hoursAsOf?: string | undefined;
  readonly stdin?: Stdin;
  /** The store and key for this base URL and kind; undefined when no base URL is known. */
  readonly state?: State | undefined;
  /** The store's latest generation for the key, read once by the caller. */
  readonly head?: Generation | undefined;
}

export interface BaselineResult {
  readonly baseline: Baseline | undefined;
  /** Why there is none, for the user. */
  readonly why: string;
  /** What it is, with its provenance, for the report and the question. */
  readonly against: BaselineReport;
}

/** --baseline FILE when given, else the last confirmed upload in the store, else nothing (and why). */
export async function loadBaseline(req: BaselineRequest): Promise<BaselineResult> {
  if (req.file !== undefined) {
    const records = await readBaselineFile(req, req.file);
    return { baseline: { source: 'file', records }, why: '', against: { ...NO_BASELINE, source: 'file', records: records.size } };
  }
  if (!req.state) {
    return {
      baseline: undefined,
      why: 'no base URL was given, so there is no record of a last upload to compare with (give --base-url, or --baseline FILE)',
      against: NO_BASELINE,
    };
  }
  const { store, key } = req.state;
  if (!req.head) {
    return { baseline: undefined, why: `no upload of ${KINDS[req.kind].noun}s to ${key.baseUrl} is recorded in ${store.label}`, against: NO_BASELINE };
  }
  return latestUpload(req.state, req.head);
}

/** The store's latest upload as the baseline: what restore, remove and apply compare with too. */
export async function latestUpload(state: State, head: Generation): Promise<BaselineResult> {
  return { baseline: { source: 'snapshot', records: await generationRecords(state, head) }, why: '', against: baselineOf(head) };
}

/**
 * An upload sent but never confirmed (its write-ahead intent still pending) may be what the service
 * holds: no diff against the generation before it can be trusted, so nothing is planned against it
 * until a person settles it. Sending that same body again (`sending`, its sha256) is safe: whichever
 * set the service holds, it then holds this one. An intent whose run still holds the lock is an upload
 * in flight, not one to settle: LOCK_HELD says so (run again once it ends).
 */
export async function assertSettled(state: State, sending: () => Promise<string>): Promise<void> {
  const pending = await state.store.pending(state.key);
  if (!pending || pending.sha256 === (await sending())) return;
  const inFlight = await state.store.inFlight(state.key, `${KINDS[state.key.kind].noun}s to ${state.key.baseUrl}`);
  if (inFlight) throw inFlight;
  throw uncertain(state.store.label, state.key, pending);
}

/** BASELINE_UNCERTAIN: what was sent, by whom, and how to settle it. */
export function uncertain(label: string, key: StateKey, pending: Intent): GuardRefusal {
  const { kind, baseUrl } = key;
  return new GuardRefusal(
    'BASELINE_UNCERTAIN',
    `an upload of ${plural(pending.records, KINDS[kind].noun)} to ${baseUrl} (${pending.source}, by ${pending.user}@${pending.host} at ${pending.intendedAt}) was sent but never confirmed in ${label}: the service may hold it or still the upload before it, so the changes cannot be worked out; nothing was sent`,
    `the service offers no way to read what it holds: look in the scheduling application whether a record this upload added or changed is there (the review page of a dry run lists them), then settle it with \`upload state resolve ${kind} --sent\` (it holds that upload) or \`--previous\` (it does not); or send that same file again`,
  ).withFixes(...resolveFixes(kind, '--sent', '--previous'));
}

/** A generation's records by key. The store has checked the bytes against their sha256. */
export async function generationRecords(state: State, generation: Generation): Promise<RecordsByKey> {
  const body = await state.store.readSnapshot(state.key, generation.generation);
  const { decodeCanonical } = await import('../diff/snapshot.js');
  const records = decodeCanonical(body, KINDS[state.key.kind].keyField);
  if (!records) {
    throw new GuardRefusal(
      'SNAPSHOT_CORRUPT',
      `upload #${generation.generation} of ${state.key.kind} to ${state.key.baseUrl} in ${state.store.label} is not a body this tool wrote, so the changes and removals cannot be worked out`,
      'pass --baseline FILE (an export that matches what the service holds) to compare with it instead',
    );
  }
  return records;
}

/**
 * Any input file, read through the same stages as the upload itself, so its records are the canonical
 * wire JSON the plan is compared with. It is read with --map and --encoding (an earlier export of the
 * same system); a file in wire field names, such as a copy of a snapshot, is read without --map.
 */
async function readBaselineFile(req: BaselineRequest, file: string): Promise<RecordsByKey> {
  if (file === '-' && req.input === '-') {
    throw new UsageError('STDIN_TWICE', 'the records and the baseline cannot both come from standard input', 'give the baseline as a file: --baseline FILE');
  }
  const read = (mapping: Mapping) =>
    buildPlan({
      kind: req.kind,
      path: file,
      read: { source: displayName(file), encoding: req.encoding },
      mapping,
      hoursAsOf: req.hoursAsOf,
      ...(req.stdin ? { stdin: req.stdin } : {}),
    }).catch((err: unknown) => {
      // The file named by a flag is named with the flag, so the user knows which of two files it is.
      if (err instanceof InputError) throw new InputError(err.code, `--baseline ${err.message}`, err.hint, { cause: err.cause });
      throw err;
    });
  let plan = await read(req.mapping);
  if (Object.keys(req.mapping.fields ?? {}).length > 0 && plan.issues.some((i) => i.code === 'MAPPED_COLUMN_MISSING'))
    plan = await read({ ...req.mapping, fields: {} });
  const first = plan.issues.find((i) => i.severity === 'error');
  if (first) {
    throw new InputError(
      'BASELINE_INVALID',
      `--baseline ${file} has ${plural(plan.errors, 'error')}, first ${file}${first.line === null ? '' : `:${first.line}`}: ${first.message}`,
      'a baseline must be valid to be compared with: fix it, or use another file',
    );
  }
  const { RecordsByKey } = await import('../diff/records.js');
  return RecordsByKey.index(plan.bodies, KINDS[req.kind].keyField)!;
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
export async function loadKnownParents(req: { kind: Kind; storeCards?: string | undefined; state?: State | undefined; stdin?: Stdin }): Promise<KnownParents> {
  if (req.kind !== 'team-members') return {};
  if (req.storeCards !== undefined) return { knownParents: await readStoreCardKeys(req.storeCards, req.stdin), knownParentsFrom: displayName(req.storeCards) };
  if (!req.state) return {};
  const stores: State = { store: req.state.store, key: { ...req.state.key, kind: 'store-cards' } };
  try {
    const head = await stores.store.head(stores.key);
    if (!head) return {};
    const records = await generationRecords(stores, head);
    return { knownParents: new Set(records.keys()), knownParentsFrom: `the store cards last uploaded to ${stores.key.baseUrl}` };
  } catch (err) {
    // Only warnings hang on it: a damaged store-card snapshot costs the parent check, never the upload.
    if (!(err instanceof UploadError && err.code === 'SNAPSHOT_CORRUPT')) throw err;
    return { warning: `The last store-card upload to ${stores.key.baseUrl} cannot be read (${err.message}), so parentKeys are not checked against it.` };
  }
}

const KEYS_ONLY_IGNORES = ['MISSING_DAYS', 'UNUSED_COLUMNS'] as const;

async function readStoreCardKeys(path: string, stdin?: Stdin): Promise<ReadonlySet<string>> {
  const source = displayName(path);
  let plan;
  try {
    plan = await buildPlan({ kind: 'store-cards', path, read: { source }, mapping: {}, ...(stdin ? { stdin } : {}) });
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(err.code, `--store-cards ${err.message}`, err.hint, { cause: err.cause });
  }
  // Only the keys are wanted: weekdays or fields the file leaves out (MISSING_DAYS, UNUSED_COLUMNS,
  // each said once for the header) do not make a store's key less sure.
  const beside = KEYS_ONLY_IGNORES.reduce((n, code) => n + (plan.issueCounts[code] ?? 0), 0);
  if (plan.errors - beside > 0) {
    // Half a list of stores would turn every member of a rejected store into a false warning.
    throw new InputError(
      'STORE_CARDS_INVALID',
      `--store-cards ${source}: ${plural(plan.errors, 'error')} in the store-card file, so the parentKeys cannot be checked against it`,
      `see them with: upload store-cards ${path === '-' ? 'FILE' : asWord(path)} --dry-run; or drop --store-cards`,
      // From standard input the file is gone once read: the person names it, no script can.
    ).withFixes(...(path === '-' ? [] : [{ kind: 'command' as const, args: ['store-cards', path, '--dry-run'] }]));
  }
  return new Set(plan.keys);
}

/** A path as one word of a shell command: as it is when it is plain, else in single quotes. */
function asWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
