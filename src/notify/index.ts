// After a run: whether to notify, and where. The addresses come from --notify (repeatable), else
// UPLOAD_NOTIFY (several separated by spaces), else the target's config; --notify-on likewise.
import { UsageError } from '../errors.js';
import { deliver, hostOf, parseNotifyUrl, type NotifyTiming } from './post.js';
import { formatNotification, NOTIFY_FORMATS, type NotifyFormat } from './formats.js';
import { NOTIFY_ON, notification, shouldNotify, type NotifiedReport, type NotifyOn, type RunFacts } from './summary.js';

export type { NotifyOn, RunFacts } from './summary.js';
export type { NotifyFormat } from './formats.js';

export interface NotifySettings {
  readonly urls: readonly URL[];
  readonly on: NotifyOn;
  readonly format: NotifyFormat;
}

export const NO_NOTIFY: NotifySettings = { urls: [], on: 'failure', format: 'json' };

export function parseNotifyFormat(value: string, from: string): NotifyFormat {
  if ((NOTIFY_FORMATS as readonly string[]).includes(value)) return value as NotifyFormat;
  throw new UsageError(
    'BAD_FLAG',
    `${from} '${value}' is not one of ${NOTIFY_FORMATS.join(', ')}`,
    'e.g. --notify-format slack (a Slack incoming webhook), teams (a Teams Workflows webhook) or json (the default)',
  );
}

export function parseNotifyOn(value: string, from: string): NotifyOn {
  if ((NOTIFY_ON as readonly string[]).includes(value)) return value as NotifyOn;
  throw new UsageError('BAD_FLAG', `${from} '${value}' is not one of ${NOTIFY_ON.join(', ')}`, 'e.g. --notify-on failure (the default: any exit but 0 and 8)');
}

export function parseNotify(
  flags: { notify?: unknown; notifyOn?: unknown; notifyFormat?: unknown },
  env: NodeJS.ProcessEnv,
  config: { notify?: readonly string[] | undefined; notifyOn?: NotifyOn | undefined; notifyFormat?: NotifyFormat | undefined; from?: string | undefined },
  keepSecret: (secret: string) => void,
): NotifySettings {
  // Where several are given: the flag, then the chosen target, then the variable (as `upload config` shows).
  const given = Array.isArray(flags.notify) ? (flags.notify as string[]) : typeof flags.notify === 'string' ? [flags.notify] : [];
  const fromEnv = (env.UPLOAD_NOTIFY ?? '').split(/\s+/).filter(Boolean);
  const [texts, from] = given.length ? [given, '--notify'] : config.notify?.length ? [config.notify, config.from ?? 'the config'] : [fromEnv, 'UPLOAD_NOTIFY'];
  const urls = texts.map((t) => parseNotifyUrl(t, from, keepSecret));
  const pick = <T>(flag: unknown, flagName: string, fromConfig: T | undefined, envName: string, parse: (v: string, from: string) => T, fallback: T): T =>
    typeof flag === 'string' ? parse(flag, flagName) : (fromConfig ?? (env[envName] ? parse(env[envName], envName) : fallback));
  const on = pick(flags.notifyOn, '--notify-on', config.notifyOn, 'UPLOAD_NOTIFY_ON', parseNotifyOn, 'failure');
  const format = pick(flags.notifyFormat, '--notify-format', config.notifyFormat, 'UPLOAD_NOTIFY_FORMAT', parseNotifyFormat, 'json');
  return { urls, on, format };
}

/**
 * Sends the run's summary where the settings say, when they say. Each address that cannot be reached
 * gets one warning line naming its host; the run's exit code is not touched.
 */
export async function notifyAfterRun(
  settings: NotifySettings,
  report: NotifiedReport,
  facts: RunFacts,
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
  timing?: NotifyTiming,
  redact?: (text: string) => string,
): Promise<void> {
  if (!settings.urls.length || !shouldNotify(settings.on, report)) return;
  const results = await deliver(settings.urls, formatNotification(settings.format, notification(report, facts)), env, timing, redact);
  for (const r of results) {
    if (!r.ok) warn(`warning: the notification to ${hostOf(r.url)} was not delivered (${r.why}); the run's outcome is unchanged`);
  }
}
