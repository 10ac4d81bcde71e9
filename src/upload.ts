// The engine of `upload store-cards|team-members`: parsed options in, a report out. It loads what the
// plan is compared with, plans (read, map, validate, diff), judges the plan, and — on a real run —
// hands it to ./run.ts to lock, confirm, send and record. A failure ends the run and comes back with
// the report as far as it got; the entry point maps it to an outcome and an exit code.
import { encodePayload, type Payload } from './contract/json-array.js';
import { KINDS } from './contract/kinds.js';
import { InputError } from './errors.js';
import { judge } from './guard/index.js';
import { loadBaseline, loadKnownParents } from './load.js';
import type { UploadOptions } from './options.js';
import { buildPlan, type Plan } from './plan.js';
import { statePaths, type StatePaths } from './record/index.js';
import { normaliseBaseUrl } from './record/state.js';
import { RejectedRows, writeErrorsCsv } from './report/errors-csv.js';
import { diffCsvLines } from './report/diff-csv.js';
import { invalidSummary } from './report/human.js';
import { writePrivateFile } from './report/private-file.js';
import { diffReport, emptyReport, type UploadReport } from './report/types.js';
import { execute, withLock, type RunContext } from './run.js';

export type { RunContext } from './run.js';

/** Records shown as they will be sent, before the diff and the question. */
const PREVIEW = 3;

export interface RunResult {
  /** The report as far as the run got; outcome and exit code are set for a run that succeeded. */
  readonly report: UploadReport;
  /** Why the run stopped, when it did not succeed. */
  readonly failure?: unknown;
}

export async function runUpload(options: UploadOptions, ctx: RunContext): Promise<RunResult> {
  const report = emptyReport(options.kind, options.source, options.dryRun);
  try {
    const where = options.baseUrl ? normaliseBaseUrl(options.baseUrl) : undefined;
    const paths = options.baseUrl ? statePaths(options.stateDir, options.baseUrl, options.kind) : undefined;
    const { baseUrl, token } = options;
    if (options.dryRun || !paths || !baseUrl || !token) {
      await prepare(options, ctx, report, paths);
      return { report };
    }
    await withLock(paths, `${KINDS[options.kind].noun}s to ${where}`, ctx, async () => {
      const { plan, payload } = await prepare(options, ctx, report, paths);
      const answer = await execute({ options: { ...options, baseUrl, token }, paths, payload: payload!, diff: plan.diff }, ctx);
      report.response = { status: answer.status, message: answer.message };
      report.outcome = 'uploaded';
      report.exitCode = 0;
    });
    return { report };
  } catch (failure) {
    return { report, failure };
  }
}

/**
 * Everything a dry run does: load, plan, write the files asked for, judge. Returns the plan and, when a
 * real run will send it or --payload-out asked for it, its body, encoded once.
 */
async function prepare(options: UploadOptions, ctx: RunContext, report: UploadReport, paths: StatePaths | undefined): Promise<{ plan: Plan; payload: Payload | undefined }> {
  const { kind, source } = options;
  const where = options.baseUrl ? normaliseBaseUrl(options.baseUrl) : undefined;
  const { baseline, why } = await loadBaseline({ kind, file: options.baseline, input: options.file, encoding: options.encoding, mapping: options.mapping, stdin: ctx.stdin, snapshot: paths?.snapshot });
  const parents = await loadKnownParents({ kind, storeCards: options.storeCards, snapshot: paths && statePaths(options.stateDir, options.baseUrl!, 'store-cards').snapshot, where, stdin: ctx.stdin });
  if (parents.warning) ctx.emit({ type: 'warning', message: parents.warning });

  ctx.emit({ type: 'reading', source, records: null });
  const plan = await buildPlan({
    kind,
    path: options.file,
    read: { source, format: options.format, delimiter: options.delimiter, encoding: options.encoding },
    mapping: options.mapping,
    baseline,
    knownParents: parents.knownParents,
    knownParentsFrom: parents.knownParentsFrom,
    stdin: ctx.stdin,
    keepRejected: options.errorsCsv !== undefined,
    onProgress: (records) => {
      ctx.signal?.throwIfAborted();
      ctx.emit({ type: 'reading', source, records });
    },
  });
  ctx.emit({ type: 'read', source });
  report.records = plan.rows;
  report.issues = plan.issues;
  report.diff = diffReport(plan.diff);
  ctx.emit({ type: 'planned', source, issues: plan.issues, rows: plan.rows, valid: plan.keys.length, errors: plan.errors, warnings: plan.warnings });
  if (options.errorsCsv !== undefined) {
    const rows = new RejectedRows();
    if (plan.header) rows.columns(plan.header);
    for (const r of plan.rejected) rows.add(r.raw, r.issues);
    await writeErrorsCsv(options.errorsCsv, rows.toCsv(plan.delimiter ?? ',', plan.issues.filter((i) => i.severity === 'error')));
  }
  if (plan.errors > 0) {
    const { message, hint } = invalidSummary(source, { rows: plan.rows, valid: plan.keys.length, errors: plan.errors, warnings: plan.warnings }, options.errorsCsv);
    throw new InputError('INVALID_RECORDS', message, hint);
  }
  // Written once the records are valid, whatever the guards say: they are what a review needs most.
  const payload = !options.dryRun || options.payloadOut !== undefined ? encodePayload(plan.bodies) : undefined;
  if (options.payloadOut !== undefined) await writePrivateFile(options.payloadOut, '--payload-out', payload!.chunks);
  if (options.diffOut !== undefined) {
    if (!baseline) ctx.emit({ type: 'warning', message: `--diff-out ${options.diffOut}: there is no baseline to compare with, so the file lists no changes` });
    await writePrivateFile(options.diffOut, '--diff-out', diffCsvLines(kind, baseline?.records ?? new Map(), plan.keys, plan.bodies, plan.delimiter ?? ','));
  }
  report.mapping = plan.mapping;
  ctx.emit({ type: 'preview', mapping: plan.mapping, first: plan.bodies.slice(0, PREVIEW), total: plan.bodies.length });
  ctx.emit({ type: 'diff', diff: plan.diff, noBaselineWhy: baseline ? undefined : why });

  const verdict = judge({
    kind,
    source,
    count: plan.keys.length,
    diff: plan.diff,
    limit: options.maxRemovals,
    allowEmpty: options.allowEmpty,
    has: { token: options.token !== undefined, tokenEnv: options.tokenEnv, baseUrl: options.baseUrl !== undefined, confirmation: options.confirm !== 'impossible' },
  });
  ctx.emit({ type: 'guard-notes', notes: verdict.notes });
  if (verdict.refusal) throw verdict.refusal;

  // A Ctrl-C during the reading ends the run here, before anything is sent or audited.
  ctx.signal?.throwIfAborted();
  if (options.dryRun) {
    report.outcome = 'dry-run';
    report.exitCode = 0;
    ctx.emit({ type: 'dry-run', kind, count: plan.keys.length, needs: verdict.needs });
  }
  return { plan, payload };
}
