// Choosing a target (its settings are laid under the command line's by ./settings.ts). The service's
// address is the exception to the precedence there: a target's and one given by
// --base-url or UPLOAD_BASE_URL that differ are a question (CONFLICTING_ADDRESS), never a precedence,
// because the token follows the address. A protected target is only ever chosen by name, on the
// command line.
import { UsageError } from '../errors.js';
import { addressKey } from './address.js';
import { configCandidates, type LoadedConfig } from './load.js';
import type { Target } from './schema.js';

export interface ChosenTarget {
  readonly name: string;
  readonly target: Target;
  /**
   * How it was chosen: --target on the command line, UPLOAD_TARGET, the config's defaultTarget, or the
   * run's address being this target's (./address.ts).
   */
  readonly how: '--target' | 'UPLOAD_TARGET' | 'defaultTarget' | 'address';
  readonly configPath: string;
}

export function chooseTarget(
  loaded: LoadedConfig | undefined,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  /** Only reading (history, config): a protected target may be named by UPLOAD_TARGET too. */
  how_: { showOnly?: boolean } = {},
): ChosenTarget | undefined {
  const how = flag !== undefined ? '--target' : env.UPLOAD_TARGET ? 'UPLOAD_TARGET' : loaded?.config.defaultTarget !== undefined ? 'defaultTarget' : undefined;
  if (how === undefined) return undefined;
  const name = (flag ?? (env.UPLOAD_TARGET || loaded?.config.defaultTarget))!;
  if (!loaded) {
    throw new UsageError(
      'UNKNOWN_TARGET',
      `${how} names the target '${name}', but there is no config file (looked for ${configCandidates(env).join(' and ')})`,
      'create one (see docs/targets.md) or pass --config FILE',
    );
  }
  const target = Object.hasOwn(loaded.config.targets, name) ? loaded.config.targets[name] : undefined;
  if (!target) {
    throw new UsageError(
      'UNKNOWN_TARGET',
      `${how} names the target '${name}', which ${loaded.path} does not have (it has: ${Object.keys(loaded.config.targets).join(', ') || 'none'})`,
      'use one of those names, or add the target to the config file',
    );
  }
  if (target.protected === true && how !== '--target' && !how_.showOnly) {
    throw new UsageError(
      'PROTECTED_TARGET',
      `the target '${name}' is protected, and was chosen by ${how === 'UPLOAD_TARGET' ? 'UPLOAD_TARGET' : `the defaultTarget of ${loaded.path}`}, not on the command line`,
      `name it on the command line: --target ${name}`,
    );
  }
  return { name, target, how, configPath: loaded.path };
}

/** An address set explicitly besides the target's (--base-url or UPLOAD_BASE_URL), and where it came from. */
export interface ExplicitAddress {
  readonly value: string;
  readonly from: string;
}

/**
 * Refuses (CONFLICTING_ADDRESS, exit 2) when the chosen target names another service than the one
 * given explicitly: the token goes nowhere until the person says which. The same address written two
 * ways (a trailing slash, upper-case host, `localhost.`) is one address (./address.ts, the one normaliser).
 */
export function checkAddress(
  chosen: ChosenTarget | undefined,
  explicit: ExplicitAddress | undefined,
  /** Whether the two are one service, as ./address.ts's sameService found (a host name resolved); else compared as written. */
  same?: boolean,
): void {
  if (!chosen || !explicit || (same ?? addressKey(chosen.target.baseUrl) === addressKey(explicit.value))) return;
  const by = chosen.how === 'defaultTarget' ? `the defaultTarget of ${chosen.configPath}` : chosen.how;
  throw new UsageError(
    'CONFLICTING_ADDRESS',
    `two service addresses: ${chosen.target.baseUrl} from the target '${chosen.name}' (chosen by ${by}) and ${explicit.value} from ${explicit.from}; nothing was sent`,
    `say which: to use the target, ${explicit.from === '--base-url' ? 'drop --base-url' : 'unset UPLOAD_BASE_URL'}; to use ${explicit.value}, ${dropTarget[chosen.how](chosen.configPath)}`,
  );
}

const dropTarget: Record<ChosenTarget['how'], (config: string) => string> = {
  '--target': () => 'drop --target',
  UPLOAD_TARGET: () => 'unset UPLOAD_TARGET',
  defaultTarget: (config) => `remove defaultTarget from ${config} (if you did not put it there, move the file away)`,
  address: (config) => `know that the first is the address of a target in ${config}, which this run is`,
};
