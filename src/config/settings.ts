// The settings a run uses, declared once, and the one place the precedence rule lives: a flag given on
// the command line, else the chosen target, else the environment variable, else the default. The
// record says where each value came from; the runner lays the values under the flags, and `upload
// config` prints the same record, redacted (./show.ts). Nothing else decides precedence.
import { dirname, resolve } from 'node:path';
import type { Kind } from '../contract/kinds.js';
import { DEFAULTS } from '../pipeline/options.js';
import { UsageError } from '../errors.js';
import { isStoreUrl, resolveStateDir } from '../state/paths.js';
import type { Target } from './schema.js';
import type { ChosenTarget } from './target.js';

/** A setting's value in the flags' own form: a text, a list (--notify), a switch, or nothing. */
export type SettingValue = string | readonly string[] | boolean | null;

export interface Setting {
  readonly value: SettingValue;
  /** `--flag`, `target NAME`, `VARIABLE` or `default`. */
  readonly from: string;
}

/** The settings a run uses, by the keys of their flags; `token` says where the token is read. */
export type SettingKey =
  | 'baseUrl'
  | 'state'
  | 'tokenEnv'
  | 'tokenFile'
  | 'map'
  | 'maxRemovals'
  | 'maxChanges'
  | 'maxEmptied'
  | 'allowEmpty'
  | 'retries'
  | 'timeout'
  | 'keep'
  | 'notify'
  | 'notifyOn'
  | 'notifyFormat';

interface Row {
  /** The flag's key (camelCase), which is also the setting's name. */
  readonly key: SettingKey;
  readonly flag: `--${string}`;
  /** An older name of the flag, accepted but not shown (--state-dir). */
  readonly alias?: { readonly key: string; readonly flag: `--${string}` };
  readonly env?: string;
  /** The target's value for a run of a kind, its paths resolved against the config file's folder. */
  readonly target?: (t: Target, kind: Kind | undefined, relative: (path: string) => string) => SettingValue | undefined;
  /** Flags that, given on the command line, replace the target's value whole (the token's source is one choice). */
  readonly yieldsTo?: readonly string[];
  /** A value from a flag or the variable, made what the run uses (a state directory made absolute). */
  readonly normalise?: (text: string, env: NodeJS.ProcessEnv) => string;
  readonly default: (env: NodeJS.ProcessEnv) => SettingValue;
  /** The variable holds a list, separated by spaces. */
  readonly list?: true;
  /** How it may be shown: the secret parts of an address redacted. */
  readonly show?: (value: SettingValue) => SettingValue;
}

const TOKEN_FLAGS = ['tokenEnv', 'tokenFile'];
const isUrl = (spec: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(spec);
const fixed = (value: SettingValue) => () => value;

/** A state store as a run opens it: a postgres:// URL as given, a directory made absolute. */
export function storeLocation(spec: string, env: NodeJS.ProcessEnv): string {
  return isStoreUrl(spec) ? spec : resolveStateDir(spec, env);
}

/** A webhook address as it may be shown: scheme and host; its path is the credential. A database's password as ***. */
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

export const redactStore = (spec: string): string => (/^postgres/i.test(spec) ? redactUrl(spec) : spec);

/** Every setting, in the order `upload config` shows them. */
export const SETTINGS: readonly Row[] = [
  { key: 'baseUrl', flag: '--base-url', env: 'UPLOAD_BASE_URL', target: (t) => t.baseUrl, default: fixed(null) },
  {
    key: 'state',
    flag: '--state',
    alias: { key: 'stateDir', flag: '--state-dir' },
    env: 'UPLOAD_STATE',
    target: (t, _, at) => (t.state === undefined ? undefined : isUrl(t.state) ? t.state : at(t.state)),
    normalise: storeLocation,
    default: (env) => resolveStateDir(undefined, env),
    show: (v) => redactStore(String(v)),
  },
  { key: 'tokenEnv', flag: '--token-env', target: (t) => t.tokenEnv, yieldsTo: TOKEN_FLAGS, default: fixed(DEFAULTS.tokenEnv) },
  { key: 'tokenFile', flag: '--token-file', target: (t, _, at) => t.tokenFile && at(t.tokenFile), yieldsTo: TOKEN_FLAGS, default: fixed(null) },
  { key: 'map', flag: '--map', target: (t, kind, at) => mapOf(t, kind, at), default: fixed(null) },
  // Every guard, with its default when nothing sets it: the limits a run is judged by are never implicit.
  { key: 'maxRemovals', flag: '--max-removals', target: (t) => guard(t.guards?.maxRemovals), default: fixed(DEFAULTS.maxRemovals) },
  { key: 'maxChanges', flag: '--max-changes', target: (t) => guard(t.guards?.maxChanges), default: fixed(DEFAULTS.maxChanges) },
  { key: 'maxEmptied', flag: '--max-emptied', target: (t) => guard(t.guards?.maxEmptied), default: fixed(DEFAULTS.maxEmptied) },
  { key: 'allowEmpty', flag: '--allow-empty', default: fixed(false) },
  { key: 'retries', flag: '--retries', default: fixed(String(DEFAULTS.retries)) },
  { key: 'timeout', flag: '--timeout', default: fixed(String(DEFAULTS.timeoutSeconds)) },
  { key: 'keep', flag: '--keep', default: fixed(String(DEFAULTS.keep)) },
  {
    key: 'notify',
    flag: '--notify',
    env: 'UPLOAD_NOTIFY',
    list: true,
    target: (t) => t.notify,
    default: fixed([]),
    show: (v) => (v as readonly string[]).map(redactUrl),
  },
  { key: 'notifyOn', flag: '--notify-on', env: 'UPLOAD_NOTIFY_ON', target: (t) => t.notifyOn, default: fixed('failure') },
  { key: 'notifyFormat', flag: '--notify-format', env: 'UPLOAD_NOTIFY_FORMAT', target: (t) => t.notifyFormat, default: fixed('json') },
];

/** A target's mapping for a kind: a file (relative to the config file), inline JSON text, or the mapping itself as JSON. */
function mapOf(t: Target, kind: Kind | undefined, at: (path: string) => string): string | undefined {
  const map = kind ? t.map?.[kind] : undefined;
  if (map === undefined) return undefined;
  return typeof map === 'string' ? (map.trim().startsWith('{') ? map : at(map)) : JSON.stringify(map);
}

/** A target's guard limit as the flag takes it (the config may write 40 for "40"). */
const guard = (limit: string | number | undefined) => (limit === undefined ? undefined : String(limit));

export type Settings = Readonly<Record<SettingKey | 'token', Setting>>;

export interface SettingsInput {
  /** The parsed flags (the table's defaults filled in for those not given: ../cli/argv.ts). */
  readonly flags: Readonly<Record<string, unknown>>;
  /** Whether the command line itself gave a flag (by its key). */
  readonly given: (key: string) => boolean;
  readonly target: ChosenTarget | undefined;
  /** The kind a run is about: a target's --map is per kind. */
  readonly kind: Kind | undefined;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The values a run uses and where each came from, plus `token`: where the token is read (never its
 * value). An empty variable counts as not set.
 */
export function resolveSettings({ flags, given: onLine, target, kind, env }: SettingsInput): Settings {
  // A target the run's address chose is that address: its own spelling of it is what the run uses.
  const given = (key: string) => onLine(key) && !(key === 'baseUrl' && target?.how === 'address');
  const relative = besideConfig(target);
  const settings = Object.fromEntries(SETTINGS.map((row) => [row.key, resolveOne(row, flags, given, target, kind, relative, env)])) as Record<
    SettingKey,
    Setting
  >;
  return { ...settings, token: tokenSource(settings, env) };
}

/** A path of a target, relative to its config file's folder. */
const besideConfig = (target: ChosenTarget | undefined) => (path: string) => resolve(dirname(target!.configPath), path);

/** What a target says for a setting (for a kind), as a run would use it; undefined when it says nothing. */
export function targetValue(key: SettingKey, target: ChosenTarget, kind: Kind | undefined): SettingValue | undefined {
  return SETTINGS.find((row) => row.key === key)?.target?.(target.target, kind, besideConfig(target));
}

function resolveOne(
  row: Row,
  flags: Readonly<Record<string, unknown>>,
  given: (key: string) => boolean,
  target: ChosenTarget | undefined,
  kind: Kind | undefined,
  relative: (path: string) => string,
  env: NodeJS.ProcessEnv,
): Setting {
  const own = (text: string) => (row.normalise ? row.normalise(text, env) : text);
  const flag = fromFlag(row, flags, given);
  if (flag) return { value: typeof flag.value === 'string' ? own(flag.value) : flag.value, from: flag.from };
  const yielded = [row.key, ...(row.alias ? [row.alias.key] : []), ...(row.yieldsTo ?? [])].some(given);
  const fromTarget = target && row.target && !yielded ? row.target(target.target, kind, relative) : undefined;
  if (fromTarget !== undefined) return { value: fromTarget, from: `target ${target!.name}` };
  const text = row.env ? env[row.env] : undefined;
  const fromEnv = text && row.list ? text.split(/\s+/).filter(Boolean) : text;
  if (fromEnv && fromEnv.length > 0) return { value: typeof fromEnv === 'string' ? own(fromEnv) : fromEnv, from: row.env! };
  return { value: row.default(env), from: 'default' };
}

/** The value the command line gave, by the flag's name or its older one (two different stores named are refused). */
function fromFlag(row: Row, flags: Readonly<Record<string, unknown>>, given: (key: string) => boolean): Setting | undefined {
  const named = [row, ...(row.alias ? [row.alias] : [])].filter((f) => given(f.key));
  const [first, second] = named;
  if (second && flags[first!.key] !== flags[second.key]) {
    throw new UsageError(
      'BAD_FLAG',
      `${first!.flag} '${String(flags[first!.key])}' and ${second.flag} '${String(flags[second.key])}' name two different stores`,
      `give one of them (${second.flag} is the older name of ${first!.flag})`,
    );
  }
  return first ? { value: flags[first.key] as SettingValue, from: first.flag } : undefined;
}

/** Where the token is read: a file, or a variable (and whether it is set). Its value is never here. */
function tokenSource(settings: Record<SettingKey, Setting>, env: NodeJS.ProcessEnv): Setting {
  const file = settings.tokenFile;
  if (file.value !== null) return { value: `read from the file ${String(file.value)}`, from: file.from };
  const variable = String(settings.tokenEnv.value);
  return { value: `$${variable} (${env[variable] ? 'set' : 'not set'})`, from: settings.tokenEnv.from };
}

/** The settings as flags a command reads (the values the run uses, under the names it knows them by). */
export function settingsAsFlags(settings: Settings): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const row of SETTINGS) {
    const { value } = settings[row.key];
    flags[row.key] = value === null || value === false ? undefined : value;
  }
  return flags;
}

/** The record as it may be shown: every secret part redacted (a token is only ever named by where it is). */
export function shownSettings(settings: Settings): Settings {
  const shown: Record<SettingKey | 'token', Setting> = { ...settings };
  for (const row of SETTINGS) {
    const s = settings[row.key];
    if (row.show && s.value !== null) shown[row.key] = { value: row.show(s.value), from: s.from };
  }
  return shown;
}
