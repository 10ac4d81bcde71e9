// --config and --target on the commands that send: the chosen target's settings laid under the flags
// the command line gave (commander says which those are), before the flags are parsed as usual.
import type { Kind } from '../contract/kinds.js';
import type { ChosenTarget } from '../config/target.js';
import type { Flags } from './flags.js';
import type { ProcessIo } from './io.js';

/** The flags with a target's settings laid under them, and the target's name (a saved plan records it). */
export type TargetedFlags = Flags & { readonly targetName?: string | undefined };

/** What the command line itself said, beyond the parsed flags. */
export interface CommandLine {
  readonly argv: readonly string[];
  /** Whether a flag (by its camelCase key) was given on the command line, not defaulted. */
  readonly given: (flag: string) => boolean;
}

export async function withTarget(
  flags: Flags,
  io: ProcessIo,
  line: CommandLine,
  kind: Kind | undefined,
  how: { showOnly?: boolean } = {},
): Promise<{ flags: Flags; target: ChosenTarget | undefined }> {
  const [{ loadConfig }, { chooseTarget, targetFlags, checkAddress, explicitAddress }] = await Promise.all([
    import('../config/load.js'),
    import('../config/target.js'),
  ]);
  const loaded = await loadConfig(flags.config, io.env);
  const target = chooseTarget(loaded, flags.target, io.env, how);
  checkAddress(target, explicitAddress(flags.baseUrl, line.given, io.env));
  if (!target) return { flags, target };
  // The target's values are flag values, of the flags' own types (texts).
  return { flags: { ...flags, ...(targetFlags(target, kind, line.given) as Flags) }, target };
}

/**
 * `apply`: a plan made for a named target is applied to that target only. A run pointed at another one
 * is refused (PLAN_TARGET); a plan for a protected target needs `--target NAME` on the command line.
 */
export async function planTargetCheck(flags: TargetedFlags, io: ProcessIo): Promise<(planTarget: string | null) => void> {
  const [{ loadConfig }, { UsageError }] = await Promise.all([import('../config/load.js'), import('../errors.js')]);
  const chosen = typeof flags.targetName === 'string' ? flags.targetName : undefined;
  const explicit = typeof flags.target === 'string';
  const targets = (await loadConfig(typeof flags.config === 'string' ? flags.config : undefined, io.env))?.config.targets ?? {};
  return (planTarget) => {
    if (planTarget === null) return;
    if (chosen !== undefined && chosen !== planTarget) {
      throw new UsageError(
        'PLAN_TARGET',
        `the plan was made for the target '${planTarget}', but this run is pointed at '${chosen}'; nothing was sent`,
        `apply it with --target ${planTarget}, or make a new plan for '${chosen}'`,
      );
    }
    const target = Object.hasOwn(targets, planTarget) ? targets[planTarget] : undefined;
    if (target?.protected === true && !explicit) {
      throw new UsageError(
        'PROTECTED_TARGET',
        `the plan was made for the protected target '${planTarget}', which must be named on the command line; nothing was sent`,
        `run: upload apply PLAN --target ${planTarget}`,
      );
    }
  };
}
