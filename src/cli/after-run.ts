// What happens once a run's outcome is final: the review page is written (--report-html) and the
// notification sent (--notify). Neither changes the exit code: a page that cannot be written or a
// webhook that does not answer is a warning. Both are set up before the run, from flags and target.
import { hostname } from 'node:os';
import type { ChosenTarget } from '../config/target.js';
import type { NotifySettings, RunFacts } from '../notify/index.js';
import type { Reviewed } from '../pipeline/reviewed.js';
import type { UploadReport } from '../report/report.js';
import type { TargetedFlags } from './targets.js';
import type { RunIo } from './io.js';

export interface AfterRun {
  /** The command as typed (for the page), and its name (for the notification). */
  readonly argv: readonly string[];
  readonly command: string;
  readonly startedAt: number;
  readonly target: ChosenTarget | undefined;
  readonly html: { readonly path: string; readonly review: Reviewed } | undefined;
  readonly notify: NotifySettings | undefined;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Checks the flags (a page path that cannot be written, a bad webhook address) before the run starts. */
export async function prepareAfterRun(
  command: string,
  flags: TargetedFlags,
  io: RunIo,
  target: ChosenTarget | undefined,
  argv: readonly string[],
): Promise<AfterRun> {
  const path = text(flags.reportHtml);
  if (path !== undefined) await (await import('../files/private-file.js')).checkWritable(path, '--report-html');
  const { parseNotify } = await import('../notify/index.js');
  const notify = parseNotify(flags.settings, (secret) => io.secrets.keep(secret));
  return {
    argv,
    command,
    startedAt: Date.now(),
    target,
    html: path === undefined ? undefined : { path, review: {} },
    notify: notify.urls.length ? notify : undefined,
  };
}

/** `stop`: aborted by a signal during the post-run point, which ends a notification's post. */
export async function afterRun(
  after: AfterRun,
  report: UploadReport,
  baseUrl: string | null,
  io: RunIo,
  warn: (line: string) => void,
  stop?: AbortSignal,
): Promise<void> {
  if (after.html) {
    const [{ reviewPage }, { writePrivateFile }] = await Promise.all([import('../render/html/review.js'), import('../files/private-file.js')]);
    const { review } = after.html;
    const html = reviewPage({
      report,
      records: review.records,
      provenance: {
        // The command line may carry a webhook address (--notify), a secret like the token.
        command: io.secrets.redact(['upload', ...after.argv].join(' ')),
        generatedAt: new Date().toISOString(),
        baseUrl,
        target: after.target?.name ?? null,
        sha256: review.sha256 ?? null,
        plan: review.plan ?? null,
      },
    });
    await writePrivateFile(after.html.path, '--report-html', [io.secrets.redact(html)]).catch((err: Error) =>
      warn(`warning: ${err.message}; the run's outcome is unchanged`),
    );
  }
  if (after.notify) {
    const { notifyAfterRun } = await import('../notify/index.js');
    const facts: RunFacts = {
      command: after.command,
      operation: operationOf(after.command, after.argv),
      // Redacted before anything reads it: the command line may carry a webhook address.
      argv: after.argv.map((a) => io.secrets.redact(a)),
      target: after.target?.name ?? null,
      service: baseUrl ? hostOfAddress(baseUrl) : null,
      host: io.env.UPLOAD_HOST || hostname(),
      durationMs: Date.now() - after.startedAt,
    };
    await notifyAfterRun(after.notify, report, facts, io.env, warn, io.notifyTiming, io.secrets.redact, stop);
  }
}

/** What the command line asked for: the commands that are not an upload of a file say it by name. */
function operationOf(command: string, argv: readonly string[]): RunFacts['operation'] {
  if (command === 'remove' || command === 'restore' || command === 'apply' || command === 'release' || command === 'export') return command;
  if (command === 'state') return argv.includes('resolve') ? 'resolve' : 'state';
  return argv.includes('--merge') ? 'merge' : 'upload';
}

function hostOfAddress(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).host;
  } catch {
    return null;
  }
}
