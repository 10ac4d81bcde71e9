// The flags every kind of command shares, parsed: counts, the state store and the guards' limits. Light
// on purpose (no reader, no mapping): the runner and the commands that only read need it.
import { hostname } from 'node:os';
import { UsageError } from '../../errors.js';
import { parseLimit } from '../../guard/limit.js';
import type { Limits, StateOptions } from '../../pipeline/options.js';
import { currentUser } from '../../state/whoami.js';
import type { ProcessIo } from '../../cli/io.js';
import type { TargetedFlags } from '../../cli/targets.js';

export function count(flag: string, value: unknown, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || String(value).trim() === '') {
    throw new UsageError('BAD_FLAG', `${flag} '${String(value)}' must be a whole number of at least ${min}`, `e.g. ${flag} ${Math.max(min, 3)}`);
  }
  return n;
}

export function seconds(flag: string, value: unknown): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || String(value).trim() === '') {
    throw new UsageError('BAD_FLAG', `${flag} '${String(value)}' must be a number of seconds above 0`, `e.g. ${flag} 60`);
  }
  return n;
}

/**
 * Where the state lives (as the settings resolved it: --state, the target's, UPLOAD_STATE or the
 * system's), how much of it to keep, how this run is named in it, and what the target asks (four eyes).
 */
export function parseState(flags: TargetedFlags, io: ProcessIo): StateOptions {
  return {
    state: String(flags.settings.state.value),
    keep: count('--keep', flags.settings.keep.value, 1),
    identity: identity(io.env),
    fourEyes: flags.fourEyes,
  };
}

/**
 * --max-removals, --max-changes, --max-emptied and --allow-empty as the settings resolved them (a flag,
 * the target's guards, or the defaults): the one Limits value a run is judged by.
 */
export function parseLimits({ settings }: TargetedFlags): Limits {
  return {
    maxRemovals: parseLimit('--max-removals', String(settings.maxRemovals.value)),
    maxChanges: parseLimit('--max-changes', String(settings.maxChanges.value)),
    maxEmptied: parseLimit('--max-emptied', String(settings.maxEmptied.value)),
    allowEmpty: settings.allowEmpty.value === true,
  };
}

/** How this run is named in the history: UPLOAD_USER and UPLOAD_HOST override the OS's names. */
function identity(env: NodeJS.ProcessEnv): { user: string; host: string } {
  return { user: env.UPLOAD_USER || currentUser(), host: env.UPLOAD_HOST || hostname() };
}

/**
 * The resolved settings checked as a run checks them (the guards' limits, the counts, the timeout), for
 * `upload config`: what a run would refuse, it refuses too, with the same error.
 */
export function checkSettings(flags: TargetedFlags): void {
  const { settings } = flags;
  parseLimits(flags);
  count('--retries', settings.retries.value, 0);
  seconds('--timeout', settings.timeout.value);
  count('--keep', settings.keep.value, 1);
}
