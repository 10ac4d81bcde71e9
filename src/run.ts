// The engine of `upload store-cards|team-members`: options in, a report out. It plans (read, map,
// validate, diff), guards, confirms, sends and records; every stop is a typed error turned into the
// report here, so the CLI only prints it.
import { KINDS, type Kind } from './contract/kinds.js';
import { GuardRefusal, InputError, UploadError, UsageError } from './errors.js';
import { buildPlan, type Plan } from './plan.js';
import { loadMapping } from './map/mapping-file.js';
import { displayName, type InputFormat } from './read/index.js';
import { parseDelimiterFlag } from './read/csv.js';
import { formatDiff, formatIssues, plural } from './report/human.js';
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
    if ('status' in err && typeof err.status === 'number') {
      const said = (err as { serviceMessage?: string }).serviceMessage;
      report.response = { status: err.status, message: said ?? '' };
    }
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
  if (!options.dryRun) {
    token = await resolveToken(options, ctx.env, ctx.stdin);
    if (!options.yes && (!ctx.interactive || options.file === '-')) {
      throw new UsageError('NO_CONFIRMATION', 'this upload replaces every record on the service and there is no terminal to confirm it', 'review it with --dry-run, then pass --yes');
    }
  }
  const delimiter = options.delimiter === undefined ? undefined : parseDelimiterFlag(options.delimiter);
  const mapping = loadMapping(options.map, options.kind);

  ui.progress(`Reading ${source}…`);
  const plan = await buildPlan({
    kind: options.kind,
    path: options.file,
    read: { source, format: options.format, delimiter, encoding: options.encoding },
    mapping,
    stdin: ctx.stdin,
    onProgress: (n) => {
      ctx.signal?.throwIfAborted();
      ui.progress(`Reading ${source}: ${n.toLocaleString('en-US')} records`);
    },
  });
  ui.done();
  report.records = plan.rows;
  report.issues = plan.issues;
  report.diff = diffReport(plan.diff);
  for (const line of formatIssues(source, plan.issues, ui.style)) ui.notice(line);
  if (plan.errors > 0) {
    throw new InputError('INVALID_RECORDS', `${source}: ${plural(plan.errors, 'error')}${plan.warnings ? ` and ${plural(plan.warnings, 'warning')}` : ''} in ${plural(plan.rows, 'record')}; nothing was sent`, 'fix the rows named above and run again');
  }
  ui.info(`${source}: ${plural(plan.rows, 'record')} valid${plan.warnings ? `, ${plural(plan.warnings, 'warning')}` : ''}`);
  for (const line of formatDiff(plan.diff, ui.style)) ui.info(line);

  guard(plan, options);

  if (options.dryRun) {
    report.outcome = 'dry-run';
    report.exitCode = 0;
    ui.notice(`Dry run: ${plural(plan.keys.length, info.noun)} would replace every ${info.noun} on the service. Nothing was sent.`);
    return;
  }
  if (!options.yes) {
    const yes = await ui.confirm(`Replace all ${info.noun}s at ${baseUrl!.origin} with these ${plural(plan.keys.length, info.noun)}?`);
    if (!yes) throw new GuardRefusal('DECLINED', 'not confirmed; nothing was sent', 'run again and answer y to upload');
  }

  ui.progress(`Sending ${plural(plan.keys.length, info.noun)} to ${baseUrl!.origin}…`);
  const { answer } = await send({
    info, baseUrl: baseUrl!, token: token!, bodies: plan.bodies, retries: options.retries, timeoutSeconds: options.timeoutSeconds,
    env: ctx.env, signal: ctx.signal, onEvent: (event) => showSendEvent(ui, event, baseUrl!.origin),
  });
  ui.done();
  report.response = { status: answer.status, message: answer.message };
  report.outcome = 'uploaded';
  report.exitCode = 0;
  ui.notice(ui.style.green(`✓ ${answer.message}`));
}

function guard(plan: Plan, options: UploadOptions): void {
  if (plan.keys.length === 0 && !options.allowEmpty) {
    throw new GuardRefusal('EMPTY_UPLOAD', `${plan.source} holds no records; uploading it would delete every ${KINDS[plan.kind].noun} on the service`, 'if that is really what you want, pass --allow-empty');
  }
}
