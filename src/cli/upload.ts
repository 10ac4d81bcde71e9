// `upload store-cards|team-members <file>`: flags → options → runUpload → print the report.
import type { Kind } from '../contract/kinds.js';
import { Interrupted, UsageError } from '../errors.js';
import type { InputFormat } from '../read/types.js';
import { emptyReport, type UploadReport } from '../report/types.js';
import { runUpload, type UploadOptions } from '../run.js';
import { redact } from '../send/secrets.js';
import type { ProcessIo } from './main.js';
import { terminalUi } from './terminal.js';

function count(flag: string, value: unknown, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || String(value).trim() === '') {
    throw new UsageError('BAD_FLAG', `${flag} '${String(value)}' must be a whole number of at least ${min}`, `e.g. ${flag} ${Math.max(min, 3)}`);
  }
  return n;
}

function seconds(flag: string, value: unknown): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || String(value).trim() === '') {
    throw new UsageError('BAD_FLAG', `${flag} '${String(value)}' must be a number of seconds above 0`, `e.g. ${flag} 60`);
  }
  return n;
}

export function toOptions(kind: Kind, file: string, f: Record<string, unknown>): UploadOptions {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    kind,
    file,
    dryRun: f.dryRun === true,
    yes: f.yes === true,
    baseUrl: str(f.baseUrl),
    tokenEnv: str(f.tokenEnv),
    tokenFile: str(f.tokenFile),
    map: str(f.map),
    format: str(f.format) as InputFormat | undefined,
    delimiter: str(f.delimiter),
    encoding: str(f.encoding),
    ignoreColumns: Array.isArray(f.ignoreColumn) ? (f.ignoreColumn as string[]) : undefined,
    timeFormat: str(f.timeFormat),
    sheet: str(f.sheet),
    baseline: str(f.baseline),
    storeCards: str(f.storeCards),
    maxRemovals: str(f.maxRemovals),
    allowEmpty: f.allowEmpty === true,
    retries: count('--retries', f.retries ?? 4, 0),
    timeoutSeconds: seconds('--timeout', f.timeout ?? 300),
    errorsCsv: str(f.errorsCsv),
    stateDir: str(f.stateDir),
  };
}

/** The report of a run that never started: a bad command line. */
export function usageReport(argv: readonly string[], code: string, message: string, hint?: string): UploadReport {
  const kind = argv.find((a) => a === 'store-cards' || a === 'team-members') as Kind | undefined;
  const report = emptyReport(kind ?? null, null, argv.includes('--dry-run'));
  report.error = { code, message, hint: hint ?? null };
  return report;
}

export async function uploadAction(kind: Kind, file: string, flags: Record<string, unknown>, io: ProcessIo): Promise<number> {
  const json = flags.json === true;
  const interrupt = onInterrupt();
  const ui = await terminalUi({ color: flags.color !== false, quiet: flags.quiet === true || json, stderr: io.stderr, stdin: io.stdin, env: io.env, signal: interrupt.signal });
  let report: UploadReport;
  try {
    const options = toOptions(kind, file, flags);
    report = await runUpload(options, { env: io.env, stdin: io.stdin, interactive: io.stdin.isTTY === true && io.stderr.isTTY === true, ui, signal: interrupt.signal });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    report = usageReport([kind], err.code, err.message, err.hint);
    report.source = file === '-' ? 'stdin' : file;
  } finally {
    interrupt.dispose();
  }
  if (report.error) {
    ui.notice(`${ui.style.red('upload:')} ${report.error.message}`);
    if (report.error.hint) ui.notice(`  → ${report.error.hint}`);
  }
  // redact() is the last line of defence: no code path puts the token in a report.
  if (json) io.stdout.write(`${redact(JSON.stringify(report, null, 2))}\n`);
  return report.exitCode;
}

/**
 * The first Ctrl-C (or a SIGTERM, as from `timeout` or a cron supervisor) aborts the run, which then
 * ends as `interrupted` with its report and releases its lock; a second one gets Node's default
 * behaviour and ends the process at once.
 */
function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const dispose = () => signals.forEach((s) => process.off(s, handler));
  function handler(signal: NodeJS.Signals): void {
    if (controller.signal.aborted) {
      dispose();
      process.kill(process.pid, signal);
      return;
    }
    const how = signal === 'SIGINT' ? 'Ctrl-C' : signal;
    controller.abort(new Interrupted('INTERRUPTED', `interrupted (${how}) before the upload was sent; nothing was changed on the service`, 'run again when ready'));
  }
  signals.forEach((s) => process.on(s, handler));
  return { signal: controller.signal, dispose };
}
