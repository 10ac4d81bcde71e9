// The command line, parsed by commander: the program with the one command that runs (or, for the
// program's --help and a mistyped command, all of them), each from its file in src/commands/.
import { Command, Option } from 'commander';
import { EXIT } from '../errors.js';
import { versionLine } from '../version.js';
import { isCommanderError } from './command.js';
import type { CommandSpec } from './command.js';
import { FLAGS, type FlagName, type Flags, type Spec } from './flags.js';
import type { RunIo } from './io.js';
import type { CommandResult } from './result.js';
import { runCommand } from './runner.js';
import { isCommand, loadCommand, loadCommands } from './table.js';
import type { CommandLine } from './targets.js';

/**
 * Parses the command line and runs the command it names; 'shown' when commander printed what was asked
 * (the version). A bad command line throws commander's error, which it has printed already.
 */
export async function parse(argv: readonly string[], io: RunIo): Promise<CommandResult | 'shown'> {
  let pending: Promise<CommandResult> | undefined;
  const program = new Command('upload')
    .version(await versionLine(), '-V, --version', 'print the version, with the Node it runs on')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  // Only the command that runs is loaded; a mistyped command needs them all (commander suggests one).
  const commands = isCommand(argv[0]) ? [[argv[0], await loadCommand(argv[0])] as const] : await loadCommands();
  const run = (result: Promise<CommandResult>) => {
    pending = result;
  };
  for (const [name, spec] of commands) addCommand(program, name, spec, io, run, argv);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    if (isCommanderError(err) && ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(err.code)) return 'shown';
    throw err;
  }
  return pending ?? { exitCode: EXIT.ok };
}

/** Adds a command to the program; `run` receives the result of its run when it is the one that runs. */
export function addCommand(
  program: Command,
  name: string,
  spec: CommandSpec,
  io: RunIo,
  run: (result: Promise<CommandResult>) => void,
  argv: readonly string[],
): void {
  const cmd = program.command(spec.usage).summary(spec.summary);
  if (spec.description) cmd.description(spec.description);
  const flags = declareFlags(cmd, spec.flags);
  cmd.action((...args: unknown[]) => {
    // commander passes the arguments by position (a variadic one as a list), then the options and the command.
    const given = args.slice(0, cmd.registeredArguments.length) as (string | string[] | undefined)[];
    // Which options the command line itself gave (a target's settings never override those).
    const line: CommandLine = { argv, given: (key) => cmd.getOptionValueSource(key) === 'cli' };
    run(runCommand(name, spec, given, flags(), io, line));
  });
}

/**
 * Adds a command's options to commander and returns what was given, typed, with the table's defaults
 * for the rest. Values are collected from commander's per-option events rather than its attributes, so
 * `--baseline FILE` and `--no-baseline` (one attribute to commander) stay two facts.
 */
function declareFlags(cmd: Command, names: readonly FlagName[]): () => Flags {
  const given: Record<string, unknown> = {};
  for (const key of names) {
    const spec: Spec = FLAGS[key];
    const option = new Option(spec.flags, spec.help);
    if (spec.choices) option.choices(spec.choices);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.required) option.makeOptionMandatory();
    if (spec.hidden) option.hideHelp();
    cmd.addOption(option);
    cmd.on(`option:${option.name()}`, (value: string | undefined) => {
      given[key] = spec.repeat ? [...((given[key] as string[] | undefined) ?? []), value] : (value ?? true);
    });
  }
  return (): Flags => {
    const flags: Record<string, unknown> = { ...given };
    for (const key of names) {
      const fallback = (FLAGS[key] as Spec).default;
      if (flags[key] === undefined && fallback !== undefined) flags[key] = fallback;
    }
    return flags;
  };
}
