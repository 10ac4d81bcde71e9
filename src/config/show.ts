// `upload config`: the settings a run would use and where each comes from, with every secret shown
// only as where it lives (a token's variable or file, a webhook's host), never its value.
import type { Kind } from '../contract/kinds.js';
import { DEFAULTS } from '../engine/options.js';
import { configCandidates, type LoadedConfig } from './load.js';
import type { Target } from './schema.js';
import { targetFlags, type ChosenTarget } from './target.js';

export interface Setting {
  readonly value: unknown;
  /** --flag, a variable, `target NAME`, or `default`. */
  readonly from: string;
}

export interface EffectiveConfig {
  readonly config: string | null;
  readonly lookedIn: readonly string[];
  readonly target: string | null;
  readonly chosenBy: string | null;
  readonly protected: boolean;
  readonly settings: Readonly<Record<string, Setting>>;
  readonly targets: Readonly<Record<string, unknown>>;
}

/** A webhook address as it may be shown: scheme and host; its path is the credential. */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') {
      if (url.password) url.password = '***';
      return url.href;
    }
    return `${url.protocol}//${url.host}/***`;
  } catch {
    return '***';
  }
}

function redactTarget(t: Target): Record<string, unknown> {
  return {
    ...t,
    ...(t.notify ? { notify: t.notify.map(redactUrl) } : {}),
    ...(t.state ? { state: /^postgres/i.test(t.state) ? redactUrl(t.state) : t.state } : {}),
  };
}

export function effectiveConfig(
  loaded: LoadedConfig | undefined,
  chosen: ChosenTarget | undefined,
  flags: Record<string, unknown>,
  given: (flag: string) => boolean,
  env: NodeJS.ProcessEnv,
  kind?: Kind,
): EffectiveConfig {
  const fromTarget = chosen ? targetFlags(chosen, kind, given) : {};
  const settings: Record<string, Setting> = {};
  const pick = (key: string, flag: string, envName: string | undefined, fallback: unknown, show: (v: unknown) => unknown = (v) => v) => {
    if (given(key)) settings[key] = { value: show(flags[key]), from: flag };
    else if (key in fromTarget) settings[key] = { value: show(fromTarget[key]), from: `target ${chosen!.name}` };
    else if (envName && env[envName]) settings[key] = { value: show(env[envName]), from: envName };
    else settings[key] = { value: fallback, from: 'default' };
  };
  pick('baseUrl', '--base-url', 'UPLOAD_BASE_URL', null);
  pick('state', '--state', 'UPLOAD_STATE', '(the XDG state directory)', (v) => (/^postgres/i.test(String(v)) ? redactUrl(String(v)) : v));
  pick('tokenEnv', '--token-env', undefined, DEFAULTS.tokenEnv);
  pick('tokenFile', '--token-file', undefined, null);
  pick('map', '--map', undefined, null);
  // Every guard, with its default when nothing sets it: the limits a run is judged by are never implicit.
  pick('maxRemovals', '--max-removals', undefined, DEFAULTS.maxRemovals);
  pick('maxChanges', '--max-changes', undefined, DEFAULTS.maxChanges);
  pick('maxEmptied', '--max-emptied', undefined, DEFAULTS.maxEmptied);
  pick('allowEmpty', '--allow-empty', undefined, false);
  const notifyFlag = Array.isArray(flags.notify) && flags.notify.length > 0;
  settings.notify = notifyFlag
    ? { value: (flags.notify as string[]).map(redactUrl), from: '--notify' }
    : chosen?.target.notify
      ? { value: chosen.target.notify.map(redactUrl), from: `target ${chosen.name}` }
      : env.UPLOAD_NOTIFY
        ? { value: env.UPLOAD_NOTIFY.split(/\s+/).filter(Boolean).map(redactUrl), from: 'UPLOAD_NOTIFY' }
        : { value: [], from: 'default' };
  settings.notifyOn =
    typeof flags.notifyOn === 'string'
      ? { value: flags.notifyOn, from: '--notify-on' }
      : chosen?.target.notifyOn
        ? { value: chosen.target.notifyOn, from: `target ${chosen.name}` }
        : env.UPLOAD_NOTIFY_ON
          ? { value: env.UPLOAD_NOTIFY_ON, from: 'UPLOAD_NOTIFY_ON' }
          : { value: 'failure', from: 'default' };
  settings.notifyFormat =
    typeof flags.notifyFormat === 'string'
      ? { value: flags.notifyFormat, from: '--notify-format' }
      : chosen?.target.notifyFormat
        ? { value: chosen.target.notifyFormat, from: `target ${chosen.name}` }
        : env.UPLOAD_NOTIFY_FORMAT
          ? { value: env.UPLOAD_NOTIFY_FORMAT, from: 'UPLOAD_NOTIFY_FORMAT' }
          : { value: 'json', from: 'default' };
  const tokenVar = String(settings.tokenEnv!.value);
  settings.token = {
    value:
      settings.tokenFile!.value !== null ? `read from the file ${shown(settings.tokenFile!.value)}` : `$${tokenVar} (${env[tokenVar] ? 'set' : 'not set'})`,
    from: settings.tokenFile!.value !== null ? settings.tokenFile!.from : settings.tokenEnv!.from,
  };
  return {
    config: loaded?.path ?? null,
    lookedIn: loaded ? [loaded.path] : configCandidates(env),
    target: chosen?.name ?? null,
    chosenBy: chosen?.how ?? null,
    protected: chosen?.target.protected === true,
    settings,
    targets: Object.fromEntries(Object.entries(loaded?.config.targets ?? {}).map(([name, t]) => [name, redactTarget(t)])),
  };
}

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function formatConfig(c: EffectiveConfig): string[] {
  const lines = [c.config ? `Config: ${c.config}` : `Config: none (looked in ${c.lookedIn.join(', ')})`];
  lines.push(c.target ? `Target: ${c.target} (chosen by ${c.chosenBy}${c.protected ? '; protected: a run asks you to type its name' : ''})` : 'Target: none');
  lines.push('Effective settings:');
  const width = Math.max(...Object.keys(c.settings).map((k) => k.length));
  for (const [key, s] of Object.entries(c.settings)) {
    const value = Array.isArray(s.value) ? (s.value.length ? s.value.join(' ') : '(none)') : s.value === null ? '(none)' : shown(s.value);
    lines.push(`  ${key.padEnd(width)}  ${value}   ← ${s.from}`);
  }
  const names = Object.keys(c.targets);
  if (names.length) lines.push(`Targets: ${names.map((n) => `${n}${(c.targets[n] as Target).protected ? ' (protected)' : ''}`).join(', ')}`);
  return lines;
}
