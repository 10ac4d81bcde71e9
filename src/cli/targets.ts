// --config and --target on the commands that send: the chosen target's settings laid under the flags
// the command line gave (./argv.ts says which those are), before the flags are parsed as usual.
import type { Kind } from '../contract/kinds.js';
import type { LoadedConfig } from '../config/load.js';
import type { Settings } from '../config/settings.js';
import type { ChosenTarget } from '../config/target.js';
import { DEFAULT_APPROVAL_HOURS, stricter, type FourEyes } from '../pipeline/approval.js';
import { UsageError } from '../errors.js';
import { normaliseBaseUrl } from '../state/paths.js';
import type { Flags } from './flags.js';
import type { ProcessIo } from './io.js';

/**
 * The flags with the run's settings laid under them (a flag given, else the target's, else the
 * variable, else the default), where each came from, and the target's name (a saved plan records it).
 */
export type TargetedFlags = Flags & {
  readonly targetName?: string | undefined;
  readonly fourEyes?: FourEyes | undefined;
  readonly settings: Settings;
};

/** What the command line itself said, beyond the parsed flags. */
export interface CommandLine {
  readonly argv: readonly string[];
  /** Whether a flag (by its camelCase key) was given on the command line, not defaulted. */
  readonly given: (flag: string) => boolean;
}

export interface Targeted {
  /** The flags, with the settings a run uses (../config/settings.ts) laid under the command line's. */
  readonly flags: Flags;
  /** Where each of those settings came from. */
  readonly settings: Settings;
  readonly config: LoadedConfig | undefined;
  readonly target: ChosenTarget | undefined;
  /** What the target asks of an upload (four eyes): its "approvals", or --approvals, whichever asks more. */
  readonly fourEyes: FourEyes | undefined;
  /** Said when the run's address made it a target it did not name (docs/targets.md). */
  readonly notice?: string | undefined;
  /** The approvals were asked by the policy recorded in this state store (its label), not by a config (./policy-gate.ts). */
  readonly policyFrom?: string | undefined;
}

export async function withTarget(
  flags: Flags,
  io: ProcessIo,
  line: CommandLine,
  kind: Kind | undefined,
  how: { showOnly?: boolean; address?: string | undefined; noTarget?: boolean } = {},
): Promise<Targeted> {
  const { resolveSettings, settingsAsFlags, targetValue } = await import('../config/settings.js');
  // `targetsSpelling`: the address given is the target's, written another way; the run uses the target's
  // own spelling, so that its history, plans and approvals stay under one address.
  const resolve_ = (target: ChosenTarget | undefined, targetsSpelling = false) =>
    resolveSettings({ flags, given: targetsSpelling ? (key) => key !== 'baseUrl' && line.given(key) : line.given, target, kind, env: io.env });
  const laidUnder = (settings: Settings): Flags => ({ ...flags, ...(settingsAsFlags(settings) as Flags) });
  if (how.noTarget) {
    const settings = resolve_(undefined);
    return { flags: laidUnder(settings), settings, config: undefined, target: undefined, fourEyes: flagRule(flags) };
  }
  const [{ loadConfig }, { chooseTarget, checkAddress }, { guardedAt, resolverForRun, sameService }] = await Promise.all([
    import('../config/load.js'),
    import('../config/target.js'),
    import('../config/address.js'),
  ]);
  const loaded = await loadConfig(flags.config, io.env);
  let target = chooseTarget(loaded, flags.target, io.env, how);
  let settings = resolve_(target);
  let notice: string | undefined;
  // Each host name looked up once in this run, and only when a name meets an IP literal (config/address.ts).
  const resolve = resolverForRun();
  // Protection follows the address: wherever it came from, a guarded target's address is that target.
  const address = how.address ?? (settings.baseUrl.value as string | null) ?? undefined;
  // A saved plan for another address than the target named with --target is that mismatch (PLAN_BASE_URL).
  const namedElsewhere = how.address !== undefined && target?.how === '--target' && !(await sameService(target.target.baseUrl, how.address, resolve));
  const at = loaded && address && !namedElsewhere ? await guardedAt(loaded.config, address, resolve) : [];
  if (loaded && at.length > 0 && !at.some((m) => m.name === target?.name)) {
    if (at.length > 1)
      throw new UsageError(
        'PROTECTED_TARGET',
        `${address} is the address of the targets ${at.map((m) => `'${m.name}'`).join(' and ')} in ${loaded.path}; a run there must say which`,
        `name one on the command line: --target ${at[0]!.name}`,
      );
    const { name } = at[0]!;
    notice = `${address} is the address of the target '${name}' in ${loaded.path}${target ? ` (not of '${target.name}')` : ''}: this run is '${name}', with its state store, approvals and settings.`;
    target = { name, target: at[0]!.target, how: 'address', configPath: loaded.path };
    settings = resolve_(target);
  }
  // Two addresses are a question, asked once the address has made the run the target it is: the
  // target's and the one the command line or the environment gives (the settings without a target).
  const explicit = resolve_(undefined).baseUrl;
  const given = explicit.from === 'default' ? undefined : { value: explicit.value as string, from: explicit.from };
  const same = target && given ? await sameService(target.target.baseUrl, given.value, resolve) : true;
  checkAddress(target, given, same);
  // Written as the target writes it (the same state key), the flag keeps its name as the value's source.
  if (target && given && same && storeKey(given.value) !== storeKey(target.target.baseUrl)) settings = resolve_(target, true);
  if (target) checkTargetState(target, settings, targetValue('state', target, kind));
  return { flags: laidUnder(settings), settings, config: loaded, target, fourEyes: stricter(ruleOf(target), flagRule(flags)), notice };
}

/** The address as the state store files it (../state/paths.ts). */
function storeKey(address: string): string {
  try {
    return normaliseBaseUrl(new URL(address));
  } catch {
    return address;
  }
}

/** A guarded target's plans, approvals and history are in its own store: another one named is refused. */
function checkTargetState(target: ChosenTarget, { state }: Settings, theirs: unknown): void {
  const named = state.from === '--state' || state.from === '--state-dir';
  if (theirs === undefined || !named || theirs === state.value || !(target.target.protected === true || (target.target.approvals ?? 0) > 0)) return;
  throw new UsageError(
    'PROTECTED_TARGET',
    `the target '${target.name}' keeps its history, plans and approvals in its own state store, and this run names another (${state.from} ${String(state.value)}); nothing was read or sent`,
    `drop ${state.from}: a run at ${target.target.baseUrl} uses the target's store`,
  );
}

/** What a target asks: its "approvals" (and "approvalHours"), or nothing. */
function ruleOf(target: ChosenTarget | undefined): FourEyes | undefined {
  const n = target?.target.approvals;
  return n ? { approvals: n, hours: target.target.approvalHours ?? DEFAULT_APPROVAL_HOURS } : undefined;
}

/** --approvals N, for a service without a config file; it can only ask for more than the target does. */
function flagRule(flags: Flags): FourEyes | undefined {
  if (flags.approvals === undefined) return undefined;
  const n = Number(flags.approvals);
  if (!Number.isInteger(n) || n < 1 || n > 10)
    throw new UsageError('BAD_FLAG', `--approvals '${flags.approvals}' must be a whole number from 1 to 10`, 'e.g. --approvals 1');
  return { approvals: n, hours: DEFAULT_APPROVAL_HOURS };
}

/**
 * `apply`: a plan made for a named target is applied to that target only. A run pointed at another one
 * is refused (PLAN_BASE_URL); a plan for a protected target needs `--target NAME` on the command line.
 */
export async function planTargetCheck(
  flags: TargetedFlags,
  io: ProcessIo,
  /** The command and the plan, for a hint that runs as written. */
  line: { step: 'approve' | 'apply'; plan: string } = { step: 'apply', plan: 'PLAN' },
): Promise<(planTarget: string | null) => void> {
  const { nextCommand } = await import('../pipeline/approval.js');
  const { loadConfig } = await import('../config/load.js');
  const chosen = typeof flags.targetName === 'string' ? flags.targetName : undefined;
  const explicit = typeof flags.target === 'string';
  const targets = (await loadConfig(typeof flags.config === 'string' ? flags.config : undefined, io.env))?.config.targets ?? {};
  return (planTarget) => {
    if (planTarget === null) return;
    if (chosen !== undefined && chosen !== planTarget) {
      const next = nextCommand(line.step, line.plan, planTarget);
      throw new UsageError(
        'PLAN_BASE_URL',
        `the plan was made for the target '${planTarget}', but this run is pointed at '${chosen}'; nothing was sent`,
        `run it for its own target: ${next.text}; or make a new plan for '${chosen}'`,
      ).withFixes(next.fix);
    }
    const target = Object.hasOwn(targets, planTarget) ? targets[planTarget] : undefined;
    if (target?.protected === true && !explicit) {
      const next = nextCommand(line.step, line.plan, planTarget);
      throw new UsageError(
        'PROTECTED_TARGET',
        `the plan was made for the protected target '${planTarget}', which must be named on the command line; nothing was sent`,
        `run: ${next.text}`,
      ).withFixes(next.fix);
    }
  };
}
