// `upload config`: the settings a run would use and where each comes from, with every secret shown
// only as where it lives (a token's variable or file, a webhook's host), never its value.
import { configCandidates, type LoadedConfig } from './load.js';
import type { Target } from './schema.js';
import { redactUrl, redactStore, shownSettings, type Setting, type Settings } from './settings.js';
import type { ChosenTarget } from './target.js';

export { redactUrl } from './settings.js';
export type { Setting } from './settings.js';

export interface EffectiveConfig {
  readonly config: string | null;
  readonly lookedIn: readonly string[];
  readonly target: string | null;
  readonly chosenBy: string | null;
  readonly protected: boolean;
  /** The record the run resolved (./settings.ts), redacted: the same values, from the same places. */
  readonly settings: Readonly<Record<string, Setting>>;
  readonly targets: Readonly<Record<string, unknown>>;
}

function redactTarget(t: Target): Record<string, unknown> {
  return {
    ...t,
    ...(t.notify ? { notify: t.notify.map(redactUrl) } : {}),
    ...(t.state ? { state: redactStore(t.state) } : {}),
  };
}

export function effectiveConfig(
  loaded: LoadedConfig | undefined,
  chosen: ChosenTarget | undefined,
  settings: Settings,
  env: NodeJS.ProcessEnv,
): EffectiveConfig {
  return {
    config: loaded?.path ?? null,
    lookedIn: loaded ? [loaded.path] : configCandidates(env),
    target: chosen?.name ?? null,
    chosenBy: chosen?.how ?? null,
    protected: chosen?.target.protected === true,
    settings: shownSettings(settings),
    targets: Object.fromEntries(Object.entries(loaded?.config.targets ?? {}).map(([name, t]) => [name, redactTarget(t)])),
  };
}

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function formatConfig(c: EffectiveConfig): string[] {
  const lines = [c.config ? `Config: ${c.config}` : `Config: none (looked in ${c.lookedIn.join(', ')})`];
  lines.push(c.target ? `Target: ${c.target} (chosen by ${c.chosenBy}${c.protected ? '; protected: a run asks you to type its name' : ''})` : 'Target: none');
  lines.push('Effective settings:');
  const width = Math.max(...Object.keys(c.settings).map((k) => k.length));
  const values = Object.values(c.settings).map((s) =>
    Array.isArray(s.value) ? (s.value.length ? s.value.join(' ') : '(none)') : s.value === null ? '(none)' : shown(s.value),
  );
  // The sources in one column, read down the screen; a long value (a path) does not push the rest out.
  const column = Math.min(Math.max(...values.map((v) => v.length)), 40);
  Object.entries(c.settings).forEach(([key, s], i) => lines.push(`  ${key.padEnd(width)}  ${values[i]!.padEnd(column)}  ← ${s.from}`));
  const names = Object.keys(c.targets);
  if (names.length) lines.push(`Targets: ${names.map((n) => `${n}${(c.targets[n] as Target).protected ? ' (protected)' : ''}`).join(', ')}`);
  return lines;
}
