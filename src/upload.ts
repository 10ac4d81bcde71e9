// The engine of `upload store-cards|team-members`: parsed options in, a report out. It opens the state
// store, loads what the plan is compared with, plans (read, map, validate, diff), judges the plan, and —
// on a real run — hands it to ./run.ts to lock, check, confirm, send and record. A failure ends the run
// and comes back with the report as far as it got; the entry point maps it to an outcome and exit code.
import type { Payload } from './contract/json-array.js';
import { InputError } from './errors.js';
import { judge } from './guard/index.js';
import { loadBaseline, loadKnownParents, type State } from './load.js';
import type { UploadOptions } from './options.js';
import { buildPlan, type Plan } from './plan.js';
import { normaliseBaseUrl } from './state/paths.js';
import { invalidSummary } from './report/human.js';
import { diffReport, emptyReport, type BaselineReport, type UploadReport, markUploaded } from './report/types.js';
import { execute, type RunContext } from './run.js';
import { openStore } from './state/index.js';
import type { Kind } from './contract/kinds.js';

export type { RunContext } from './run.js';

/** Records shown as they will be sent, before the diff and the question. */
const PREVIEW = 3;

export interface RunResult {
  /** The report as far as the run got; outcome and exit code are set for a run that succeeded. */
  readonly report: UploadReport;
  /** Why the run stopped, when it did not succeed. */
  readonly failure?: unknown;
}

function planFacts(options: UploadOptions, state: State, against: BaselineReport, plan: Plan, notes: readonly string[], generation: number) {
  const { added, removed, changed, unchanged } = plan.diff;
  return {
    kind: options.kind,
    baseUrl: state.key.baseUrl,
    source: options.source,
    createdAt: new Date().toISOString(),
    ...options.identity,
    generation,
    baseline: against.source,
    diff: { added, removed, changed, unchanged },
    notes: [...notes],
  };
}

/** The store and the key of one base URL and kind, with what the store has to say on opening. */
export async function openState(spec: string, baseUrl: URL, kind: Kind, ctx: RunContext): Promise<State> {
  const store = await openStore(spec, { env: ctx.env });
  for (const message of store.notices) ctx.emit({ type: 'notice', message });
  return { store, key: { baseUrl: normaliseBaseUrl(baseUrl), kind } };
}

export async function runUpload(options: UploadOptions, ctx: RunContext): Promise<RunResult> {
  const report = emptyReport(options.kind, options.source, options.dryRun);
  let state: State | undefined;
  try {
    // Without an address (a dry run may have none) there is no history to compare with.
    if (options.baseUrl) state = await openState(options.state, options.baseUrl, options.kind, ctx);
    const prepared = await prepare(options, ctx, report, state);
    if (options.dryRun) return { report };
    const { baseUrl, token } = options;
    if (!state || !baseUrl || !token) throw new Error('a real run without an address or a token got past the options');
    const { store, key } = state;
    const executed = await execute(
      {
        ...options,
        baseUrl,
        token,
        store,
        key,
        expected: prepared.head,
        against: report.baseline,
        payload: prepared.payload!,
        diff: prepared.plan.diff,
      },
      ctx,
    );
    markUploaded(report, executed);
    return { report };
  } catch (failure) {
    return { report, failure };
  } finally {
    await state?.store.close();
  }
}

/**
 * Everything a dry run does: load, plan, write the files asked for, judge. Returns the plan, the store's
 * generation it was made against, and — when a real run will send it or --payload-out asked for it —
 * its body, encoded once.
 */
async function prepare(
  options: UploadOptions,
  ctx: RunContext,
  report: UploadReport,
  state: State | undefined,
): Promise<{ plan: Plan; payload: Payload | undefined; head: number }> {
  const { kind, source } = options;
  const head = state ? await state.store.head(state.key) : undefined;
  const { baseline, why, against } = await loadBaseline({
    kind,
    file: options.baseline,
    input: options.file,
    encoding: options.encoding,
    mapping: options.mapping,
    stdin: ctx.stdin,
    state,
    head,
  });
  report.baseline = against;
  const parents = await loadKnownParents({ kind, storeCards: options.storeCards, state, stdin: ctx.stdin });
  if (parents.warning) ctx.emit({ type: 'warning', message: parents.warning });

  ctx.emit({ type: 'reading', source, records: null });
  const plan = await buildPlan({
    kind,
    path: options.file,
    read: { source, format: options.format, delimiter: options.delimiter, encoding: options.encoding, sheet: options.sheet },
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
  report.issueCounts = plan.issueCounts;
  report.issuesTruncated = plan.issuesTruncated;
  report.diff = diffReport(plan.diff);
  ctx.emit({
    type: 'planned',
    source,
    issues: plan.issues,
    truncated: plan.issuesTruncated,
    rows: plan.rows,
    valid: plan.keys.length,
    errors: plan.errors,
    warnings: plan.warnings,
  });
  // The writers of the files asked for by flags load only when asked for: most runs write none.
  if (options.errorsCsv !== undefined) {
    const { errorsCsvLines, writeErrorsCsv } = await import('./report/errors-csv.js');
    await writeErrorsCsv(
      options.errorsCsv,
      errorsCsvLines(
        plan.header,
        plan.rejected,
        plan.delimiter ?? ',',
        plan.issues.filter((i) => i.severity === 'error'),
      ),
    );
  }
  if (plan.errors > 0) {
    const { message, hint } = invalidSummary(
      source,
      { rows: plan.rows, valid: plan.keys.length, errors: plan.errors, warnings: plan.warnings },
      options.errorsCsv,
    );
    throw new InputError('INVALID_RECORDS', message, hint);
  }
  // Written once the records are valid, whatever the guards say: they are what a review needs most.
  const payload = !options.dryRun || options.payloadOut !== undefined ? plan.bodies.payload() : undefined;
  if (options.payloadOut !== undefined) {
    const { writePrivateFile } = await import('./report/private-file.js');
    await writePrivateFile(options.payloadOut, '--payload-out', payload!.chunks);
  }
  if (options.diffOut !== undefined) {
    if (!baseline) ctx.emit({ type: 'warning', message: `--diff-out ${options.diffOut}: there is no baseline to compare with, so the file lists no changes` });
    const [{ writePrivateFile }, { diffCsvLines }] = await Promise.all([import('./report/private-file.js'), import('./report/diff-csv.js')]);
    await writePrivateFile(options.diffOut, '--diff-out', diffCsvLines(kind, baseline?.records, plan.keys, plan.bodies, plan.delimiter ?? ','));
  }
  report.mapping = plan.mapping;
  report.unchanged = plan.diff.baseline === 'none' ? null : plan.diff.added === 0 && plan.diff.removed === 0 && plan.diff.changed === 0;
  ctx.emit({ type: 'preview', mapping: plan.mapping, first: plan.bodies.first(PREVIEW), total: plan.bodies.length });
  ctx.emit({ type: 'diff', kind, diff: plan.diff, against, noBaselineWhy: baseline ? undefined : why });

  const verdict = judge({
    kind,
    source,
    count: plan.keys.length,
    diff: plan.diff,
    limit: options.maxRemovals,
    allowEmpty: options.allowEmpty,
    acknowledgeNoBaseline: options.noBaseline,
    noBaselineWhy: why,
    has: {
      token: options.token !== undefined,
      tokenEnv: options.tokenEnv,
      baseUrl: options.baseUrl !== undefined,
      confirmation: options.confirm !== 'impossible',
    },
  });
  ctx.emit({ type: 'guard-notes', notes: verdict.notes });
  if (verdict.refusal) throw verdict.refusal;

  // A Ctrl-C during the reading ends the run here, before anything is sent or audited.
  ctx.signal?.throwIfAborted();
  if (options.dryRun) {
    if (options.planOut !== undefined && state) {
      const { writePlan } = await import('./plan-file.js');
      await writePlan(options.planOut, planFacts(options, state, against, plan, verdict.notes, head?.generation ?? 0), payload ?? plan.bodies.payload());
      ctx.emit({ type: 'notice', message: `Plan saved to ${options.planOut}: send exactly it with: upload apply ${options.planOut}` });
    }
    report.outcome = 'dry-run';
    report.exitCode = 0;
    ctx.emit({ type: 'dry-run', kind, count: plan.keys.length, needs: verdict.needs });
  }
  return { plan, payload, head: head?.generation ?? 0 };
}
