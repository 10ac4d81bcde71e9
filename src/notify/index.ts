// After a run: whether to notify, and where. The addresses come from --notify (repeatable), else
// UPLOAD_NOTIFY (several separated by spaces), else the target's config; --notify-on likewise.
import { UsageError } from '../errors.js';
import { deliver, hostOf, parseNotifyUrl, type NotifyTiming } from './post.js';
import { NOTIFY_ON, notification, shouldNotify, type NotifiedReport, type NotifyOn, type RunFacts } from './summary.js';

export type { NotifyOn, RunFacts } from './summary.js';

export interface NotifySettings {
  readonly urls: readonly URL[];
  readonly on: NotifyOn;
}

export const NO_NOTIFY: NotifySettings = { urls: [], on: 'failure' };

export function parseNotifyOn(value: string, from: string): NotifyOn {
  if ((NOTIFY_ON as readonly string[]).includes(value)) return value as NotifyOn;
  throw new UsageError('BAD_FLAG', `${from} '${value}' is not one of ${NOTIFY_ON.join(', ')}`, 'e.g. --notify-on failure (the default: any exit but 0 and 8)');
}

export function parseNotify(
  flags: { notify?: unknown; notifyOn?: unknown },
  env: NodeJS.ProcessEnv,
  config: { notify?: readonly string[] | undefined; notifyOn?: NotifyOn | undefined; from?: string | undefined },
  keepSecret: (secret: string) => void,
): NotifySettings {
  const given = Array.isArray(flags.notify) ? (flags.notify as string[]) : typeof flags.notify === 'string' ? [flags.notify] : [];
  const fromEnv = (env.UPLOAD_NOTIFY ?? '').split(/\s+/).filter(Boolean);
  const [texts, from] = given.length ? [given, '--notify'] : fromEnv.length ? [fromEnv, 'UPLOAD_NOTIFY'] : [config.notify ?? [], config.from ?? 'the config'];
  const urls = texts.map((t) => parseNotifyUrl(t, from, keepSecret));
  const on =
    typeof flags.notifyOn === 'string'
      ? parseNotifyOn(flags.notifyOn, '--notify-on')
      : env.UPLOAD_NOTIFY_ON
        ? parseNotifyOn(env.UPLOAD_NOTIFY_ON, 'UPLOAD_NOTIFY_ON')
        : (config.notifyOn ?? 'failure');
  return { urls, on };
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
  const results = await deliver(settings.urls, notification(report, facts), env, timing, redact);
  for (const r of results) {
    if (!r.ok) warn(`warning: the notification to ${hostOf(r.url)} was not delivered (${r.why}); the run's outcome is unchanged`);
  }
}
