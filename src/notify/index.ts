// After a run: whether to notify, and where. The addresses come from --notify (repeatable), else the
// chosen target, else UPLOAD_NOTIFY (several separated by spaces); --notify-on likewise. Which one wins
// is the settings resolver's decision (../config/settings.ts); this checks what it chose.
import { UsageError } from '../errors.js';
import { NOTIFY_FORMATS, NOTIFY_ON, type NotifyFormat, type NotifyOn } from './choices.js';
import { deliver, hostOf, parseNotifyUrl, type NotifyTiming } from './post.js';
import type { NotifiedReport, RunFacts } from './summary.js';

export type { NotifyOn, NotifyFormat } from './choices.js';
export type { RunFacts } from './summary.js';

export interface NotifySettings {
  readonly urls: readonly URL[];
  readonly on: NotifyOn;
  readonly format: NotifyFormat;
}

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

/** A setting as resolved (../config/settings.ts): its value and where it came from, for messages. */
interface Resolved {
  readonly value: unknown;
  readonly from: string;
}

/** The resolved --notify, --notify-on and --notify-format, checked: which source won was decided once, where every setting's is. */
export function parseNotify(
  settings: { readonly notify: Resolved; readonly notifyOn: Resolved; readonly notifyFormat: Resolved },
  keepSecret: (secret: string) => void,
): NotifySettings {
  const { notify, notifyOn, notifyFormat } = settings;
  const urls = (notify.value as readonly string[]).map((t) => parseNotifyUrl(t, notify.from, keepSecret));
  return { urls, on: parseNotifyOn(String(notifyOn.value), notifyOn.from), format: parseNotifyFormat(String(notifyFormat.value), notifyFormat.from) };
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
  stop?: AbortSignal,
): Promise<void> {
  if (!settings.urls.length) return;
  // What a notification says and its shapes load only for a run that has somewhere to send one.
  const [{ notification, shouldNotify }, { formatNotification }] = await Promise.all([import('./summary.js'), import('./formats.js')]);
  if (!shouldNotify(settings.on, report)) return;
  const results = await deliver(settings.urls, formatNotification(settings.format, notification(report, facts)), env, timing, redact, stop);
  for (const r of results) {
    if (!r.ok) warn(`warning: the notification to ${hostOf(r.url)} was not delivered (${r.why}); the run's outcome is unchanged`);
  }
}
