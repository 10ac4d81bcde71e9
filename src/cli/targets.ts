// --config and --target on the commands that send: the chosen target's settings laid under the flags
// the command line gave (commander says which those are), before the flags are parsed as usual.
import type { Kind } from '../contract/kinds.js';
import type { ChosenTarget } from '../config/target.js';
import type { ProcessIo } from './io.js';

/** What the command line itself said, beyond the parsed flags. */
export interface CommandLine {
  readonly argv: readonly string[];
  /** Whether a flag (by its camelCase key) was given on the command line, not defaulted. */
  readonly given: (flag: string) => boolean;
}

export async function withTarget(
  flags: Record<string, unknown>,
  io: ProcessIo,
  line: CommandLine,
  kind: Kind | undefined,
  how: { showOnly?: boolean } = {},
): Promise<{ flags: Record<string, unknown>; target: ChosenTarget | undefined }> {
  const configFlag = typeof flags.config === 'string' ? flags.config : undefined;
  const targetFlag = typeof flags.target === 'string' ? flags.target : undefined;
  const [{ loadConfig }, { chooseTarget, targetFlags }] = await Promise.all([import('../config/load.js'), import('../config/target.js')]);
  const loaded = await loadConfig(configFlag, io.env);
  const target = chooseTarget(loaded, targetFlag, io.env, how);
  if (!target) return { flags, target };
  return { flags: { ...flags, ...targetFlags(target, kind, line.given) }, target };
}

/**
 * `apply`: a plan made for a named target is applied to that target only. A run pointed at another one
 * is refused (PLAN_TARGET); a plan for a protected target needs `--target NAME` on the command line.
 */
export async function planTargetCheck(flags: Record<string, unknown>, io: ProcessIo): Promise<(planTarget: string | null) => void> {
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
