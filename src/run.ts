// The engine of `upload store-cards|team-members`: options in, a report out. It plans (read, map,
// validate, diff), guards, confirms, sends and records; every stop is a typed error turned into the
// report here, so the CLI only prints it.
import { KINDS, type Kind } from './contract/kinds.js';
import { loadBaseline } from './diff/baseline.js';
import { GuardRefusal, InputError, Interrupted, UploadError, UsageError } from './errors.js';
import { checkGuards, parseMaxRemovals } from './guard/index.js';
import { confirmQuestion } from './guard/confirm.js';
import { buildPlan } from './plan.js';
import { acquireLock, recordAttempt, resolveStateDir, statePaths, type StatePaths } from './record/index.js';
import { normaliseBaseUrl } from './record/state.js';
import { snapshotKeys } from './record/snapshot.js';
import { loadMapping } from './map/mapping-file.js';
import { displayName, type InputFormat } from './read/index.js';
import { parseDelimiterFlag } from './read/csv.js';
import { checkEncoding } from './read/decode.js';
import { loadKnownParents } from './validate/parents.js';
import { formatDiff, formatIssues, invalidSummary, plural } from './report/human.js';
import { checkWritable, RejectedRows, writeErrorsCsv } from './report/errors-csv.js';
import { diffReport, emptyReport, type UploadReport } from './report/types.js';
import type { Ui } from './report/ui.js';
import { resolveBaseUrl, resolveToken, type Token } from './send/config.js';
import { send } from './send/index.js';
import { showSendEvent } from './send/progress.js';

export interface UploadOptions {
  readonly kind: Kind;
  readonly file: string;
  readonly dryRun: boolean;
  readonly yes: boolean;
  readonly baseUrl?: string | undefined;
  readonly tokenEnv?: string | undefined;
  readonly tokenFile?: string | undefined;
  readonly map?: string | undefined;
  readonly format?: InputFormat | undefined;
  readonly delimiter?: string | undefined;
  readonly encoding?: string | undefined;
  readonly ignoreColumns?: readonly string[] | undefined;
  readonly timeFormat?: string | undefined;
  readonly sheet?: string | undefined;
  readonly baseline?: string | undefined;
  readonly storeCards?: string | undefined;
  readonly maxRemovals?: string | undefined;
  readonly allowEmpty: boolean;
  readonly retries: number;
  readonly timeoutSeconds: number;
  readonly errorsCsv?: string | undefined;
  readonly stateDir?: string | undefined;
}

export interface RunContext {
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
  /** A person is there to answer a question: stdin and stderr are terminals. */
  readonly interactive: boolean;
  readonly ui: Ui;
  /** Aborted on Ctrl-C, with an Interrupted error as its reason. */
  readonly signal?: AbortSignal | undefined;
}

export async function runUpload(options: UploadOptions, ctx: RunContext): Promise<UploadReport> {
  const source = displayName(options.file);
  const report = emptyReport(options.kind, source, options.dryRun);
  try {
    await execute(options, ctx, report);
  } catch (err) {
    if (!(err instanceof UploadError)) throw err;
    report.outcome = err.outcome;
    report.exitCode = err.exitCode;
    report.error = { code: err.code, message: err.message, hint: err.hint ?? null };
    report.response = err.response ?? report.response;
  } finally {
    ctx.ui.done();
  }
  return report;
}

async function execute(options: UploadOptions, ctx: RunContext, report: UploadReport): Promise<void> {
  const { ui } = ctx;
  const info = KINDS[options.kind];
  const source = report.source!;

  // Configuration first: nothing is read until the flags make sense for the run asked for.
  const wantsUrl = !options.dryRun || options.baseUrl !== undefined || ctx.env.UPLOAD_BASE_URL;
  const baseUrl = wantsUrl ? resolveBaseUrl(options.baseUrl, ctx.env) : undefined;
  if (options.file === '-' && options.tokenFile === '-') {
    throw new UsageError('STDIN_TWICE', 'the records and the token cannot both come from standard input', 'put the token in UPLOAD_TOKEN or a --token-file');
  }
  let token: Token | undefined;
  const canConfirm = options.yes || (ctx.interactive && options.file !== '-');
  // What a real run would also need: a dry run sends nothing, so it asks for neither a token nor a
  // confirmation, but says so; a token that is configured is checked all the same.
  const realRunNeeds: string[] = [];
  if (!options.dryRun) {
    token = await resolveToken(options, ctx.env, ctx.stdin);
    if (!canConfirm) {
      throw new UsageError('NO_CONFIRMATION', 'this upload replaces every record on the service and there is no terminal to confirm it', 'review it with --dry-run, then pass --yes');
    }
  } else {
    if (options.tokenFile !== undefined || ctx.env[options.tokenEnv ?? 'UPLOAD_TOKEN'] !== undefined) await resolveToken(options, ctx.env, ctx.stdin);
    else realRunNeeds.push(`an access token (${options.tokenEnv ?? 'UPLOAD_TOKEN'} or --token-file)`);
    if (!baseUrl) realRunNeeds.push('a base URL (--base-url or UPLOAD_BASE_URL)');
    if (!canConfirm) realRunNeeds.push('--yes, as there is no terminal to confirm it');
  }
  if (options.errorsCsv !== undefined) await checkWritable(options.errorsCsv);
  checkEncoding(options.encoding);
  const delimiter = options.delimiter === undefined ? undefined : parseDelimiterFlag(options.delimiter);
  const mapping = loadMapping(options.map, options.kind, { ignoreColumns: options.ignoreColumns, timeFormat: options.timeFormat });
  const limit = parseMaxRemovals(options.maxRemovals);
  const state = baseUrl ? statePaths(resolveStateDir(options.stateDir, ctx.env), baseUrl, options.kind) : undefined;
  const where = baseUrl ? normaliseBaseUrl(baseUrl) : undefined;

  if (options.storeCards === '-' && (options.file === '-' || options.tokenFile === '-')) {
    throw new UsageError('STDIN_TWICE', '--store-cards - cannot share standard input with the records or the token', 'give --store-cards a file');
  }
  const rejected = options.errorsCsv === undefined ? undefined : new RejectedRows();
  let csvDelimiter = ',';

  // A real run holds the lock from before the baseline is read until the snapshot is written, so the
  // diff and the guards it is judged by cannot go stale under another run. Dry runs change nothing.
  const lock = options.dryRun ? undefined : await acquireLock(state!.lock, `${info.noun}s to ${where}`);
  try {
    if (lock?.recovered) {
      const r = lock.recovered;
      ui.notice(ui.style.yellow(`Recovered a stale lock left by process ${r.pid} of ${r.user} on ${r.host} (since ${r.since}), which is no longer running.`));
    }

    const { baseline, why } = await loadBaseline({ kind: options.kind, file: options.baseline, input: options.file, encoding: options.encoding, mapping, stdin: ctx.stdin, snapshot: state?.snapshot });
    const parents =
      options.storeCards === undefined
        ? await lastStoreCards(options, state, baseUrl, ui)
        : { knownParents: await loadKnownParents(options.storeCards, ctx.stdin), knownParentsFrom: displayName(options.storeCards) };
    ui.progress(`Reading ${source}…`);
    const plan = await buildPlan({
      kind: options.kind,
      path: options.file,
      read: { source, format: options.format, delimiter, encoding: options.encoding, sheet: options.sheet, onDelimiter: (d) => (csvDelimiter = d) },
      mapping,
      baseline,
      ...parents,
      stdin: ctx.stdin,
      onProgress: (n) => {
        ctx.signal?.throwIfAborted();
        ui.progress(`Reading ${source}: ${n.toLocaleString('en-US')} records`);
      },
      onColumns: rejected?.columns,
      onRejected: rejected?.add,
    });
    ui.done();
    report.records = plan.rows;
    report.issues = plan.issues;
    report.diff = diffReport(plan.diff);
    for (const line of formatIssues(source, plan.issues, ui.style)) ui.notice(line);
    if (rejected) await writeErrorsCsv(options.errorsCsv!, rejected.toCsv(csvDelimiter, plan.issues.filter((i) => i.severity === 'error')));
    if (plan.errors > 0) {
      const { message, hint } = invalidSummary(source, { rows: plan.rows, valid: plan.keys.length, errors: plan.errors, warnings: plan.warnings }, options.errorsCsv);
      throw new InputError('INVALID_RECORDS', message, hint);
    }
    ui.info(`${source}: ${plural(plan.rows, 'record')} valid${plan.warnings ? `, ${plural(plan.warnings, 'warning')}` : ''}`);
    for (const line of formatDiff(plan.diff, ui.style)) ui.info(line);
    if (!baseline) ui.info(`  ${why}`);

    const notes = checkGuards({ kind: options.kind, source, count: plan.keys.length, diff: plan.diff, limit, allowEmpty: options.allowEmpty });
    for (const note of notes) ui.notice(ui.style.yellow(note));

    // A Ctrl-C during the reading ends the run here, before anything is sent or audited.
    ctx.signal?.throwIfAborted();
    if (options.dryRun) {
      report.outcome = 'dry-run';
      report.exitCode = 0;
      ui.notice(`Dry run: ${plural(plan.keys.length, info.noun)} would replace every ${info.noun} on the service. Nothing was sent.`);
      if (realRunNeeds.length) ui.notice(`A real run would also need ${realRunNeeds.join('; ')}.`);
      return;
    }
    if (!options.yes) {
      const yes = await ui.confirm(confirmQuestion(options.kind, plan.keys.length, where!, plan.diff)).catch((err: unknown) => {
        // Ctrl-C at the prompt rejects the question: an interruption, not a bug.
        if ((err as Error).name === 'AbortError') throw new Interrupted('INTERRUPTED', 'interrupted at the confirmation; nothing was sent');
        throw err;
      });
      if (!yes) throw new GuardRefusal('DECLINED', 'not confirmed; nothing was sent', 'run again and answer y to upload');
    }

    ctx.signal?.throwIfAborted();
    const attempt = { paths: state!, baseUrl: baseUrl!, plan };
    ui.progress(`Sending ${plural(plan.keys.length, info.noun)} to ${baseUrl!.origin}…`);
    let answer;
    try {
      ({ answer } = await send({
        info, baseUrl: baseUrl!, token: token!, bodies: plan.bodies, retries: options.retries, timeoutSeconds: options.timeoutSeconds,
        env: ctx.env, signal: ctx.signal, onEvent: (event) => showSendEvent(ui, event, baseUrl!.origin),
      }));
    } catch (err) {
      // Every attempt that reached the service is audited with its outcome; only success moves the snapshot.
      if (err instanceof UploadError) {
        ui.done();
        const status = err.response?.status ?? null;
        for (const w of await recordAttempt(attempt, { outcome: err.outcome, status, error: err.code })) ui.notice(ui.style.yellow(w));
      }
      throw err;
    }
    ui.done();
    report.response = { status: answer.status, message: answer.message };
    report.outcome = 'uploaded';
    report.exitCode = 0;
    ui.notice(ui.style.green(`✓ ${answer.message}`));
    for (const w of await recordAttempt(attempt, { outcome: 'uploaded', status: answer.status, error: null })) ui.notice(ui.style.yellow(w));
  } finally {
    await lock?.release();
  }
}

/**
 * Team members without --store-cards: the store cards last uploaded to the same address, if any, are
 * the nodeKeys a parentKey should match.
 */
async function lastStoreCards(options: UploadOptions, state: StatePaths | undefined, baseUrl: URL | undefined, ui: Ui) {
  if (options.kind !== 'team-members' || options.storeCards !== undefined || !state || !baseUrl) return {};
  const path = statePaths(state.dir, baseUrl, 'store-cards').snapshot;
  let knownParents;
  try {
    knownParents = await snapshotKeys(path, 'store-cards');
  } catch (err) {
    // Only warnings hang on it: a damaged store-card snapshot costs the parent check, never the upload.
    if (!(err instanceof UploadError && err.code === 'SNAPSHOT_CORRUPT')) throw err;
    ui.notice(ui.style.yellow(`The store-card snapshot ${path} is damaged, so parentKeys are not checked against it.`));
    return {};
  }
  return knownParents ? { knownParents, knownParentsFrom: `the store cards last uploaded to ${normaliseBaseUrl(baseUrl)}` } : {};
}
