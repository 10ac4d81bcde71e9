// What the plan is compared with: --baseline FILE when given, else the snapshot of the last confirmed
// upload to the same base URL and kind, else nothing (and the reason, said plainly).
import type { Mapping } from '../map/mapping-file.js';
import type { Kind } from '../contract/kinds.js';
import { InputError, UsageError } from '../errors.js';
import { buildPlan, type Baseline } from '../plan.js';
import { readSnapshot } from '../record/snapshot.js';

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
    buildPlan({ kind: req.kind, path: file, read: { source: file === '-' ? 'stdin' : file, encoding: req.encoding }, mapping, stdin: req.stdin }).catch((err: unknown) => {
      // The file named by a flag is named with the flag, so the user knows which of two files it is.
      if (err instanceof InputError) throw new InputError(err.code, `--baseline ${err.message}`, err.hint);
      throw err;
    });
  let plan = await read(req.mapping);
  if (Object.keys(req.mapping.fields ?? {}).length > 0 && plan.issues.some((i) => i.code === 'MAPPED_COLUMN_MISSING')) plan = await read({ ...req.mapping, fields: {} });
  const first = plan.issues.find((i) => i.severity === 'error');
  if (first) {
    throw new InputError(
      'BASELINE_INVALID',
      `--baseline ${file} has ${plan.errors} error${plan.errors === 1 ? '' : 's'}, first ${file}${first.line === null ? '' : `:${first.line}`}: ${first.message}`,
      'a baseline must be valid to be compared with: fix it, or use another file',
    );
  }
  return new Map(plan.keys.map((key, i) => [key, plan.bodies[i]!]));
}
