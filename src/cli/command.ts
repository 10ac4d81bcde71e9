// What a command is to the runner (./runner.ts): a file in src/commands/ that says its syntax, its help,
// its flags (composed from the shared groups of ./flags.ts) and what it does once the runner has done
// what every command needs (the target, the state store, Ctrl-C, the terminal, --json, the exit code,
// the notification). Adding a command is one such file plus its docs.
import type { Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import type { LoadedConfig } from '../config/load.js';
import type { Settings } from '../config/settings.js';
import type { ChosenTarget } from '../config/target.js';
import type { RunContext } from '../pipeline/context.js';
import type { RunFacts } from '../report/result.js';
import type { StateStore } from '../state/types.js';
import type { FlagName, Flags } from './flags.js';
import type { RunIo } from './io.js';
import type { CommandLine, TargetedFlags } from './targets.js';

/** The arguments by position (an optional one not given is undefined; a variadic one is a list). */
export type Args = readonly (string | readonly string[] | undefined)[];

export interface CommandContext {
  readonly args: Args;
  /** The flags, with the chosen target's settings laid under those the command line gave. */
  readonly flags: TargetedFlags;
  readonly io: RunIo;
  readonly line: CommandLine;
  readonly target: ChosenTarget | undefined;
  /** The config file read for the run (none found: undefined). */
  readonly config: LoadedConfig | undefined;
  /** The settings the run uses and where each came from (../config/settings.ts): what `upload config` shows. */
  readonly settings: Settings;
  /** What the engine is given: events to the terminal, the question, Ctrl-C, the state store. */
  readonly run: RunContext;
  /** The state store a spec (default: --state, its target's, $UPLOAD_STATE or the system's) names, opened once; the runner closes it. */
  readonly store: (spec?: string) => Promise<StateStore>;
  /** One line for a person on stderr (through the terminal UI where there is one); never with --json's data. */
  readonly say: (line: string) => void;
}

/** What a command hands back: the run's facts (a report is assembled from them), data for --json, or why it failed. */
export interface CommandOutcome {
  readonly facts?: RunFacts;
  readonly failure?: unknown;
  /** What --json prints for a command whose result is not a run's report. */
  readonly data?: unknown;
}

/** A command as the runner has it: its row of the table of commands (./table.ts) with its file's definition. */
export interface CommandSpec extends CommandFile {
  /** The command with its arguments, in the syntax --help shows: `history <kind>`, `remove <kind> [keys...]`. */
  readonly usage: string;
  readonly summary: string;
}

/** What a command's file defines; its usage, summary and place in --help are its row of ./table.ts. */
export interface CommandFile {
  readonly description?: string;
  readonly examples: readonly string[];
  /** Its options, in the order --help lists them. */
  readonly flags: readonly FlagName[];
  /** Extra help after the examples (the uploads' exit codes). */
  readonly helpAfter?: string;
  /** The kind a run is about, when an argument names it (a target's --map is that kind's; the report says it). */
  readonly kind?: (args: Args, flags: Flags) => Kind | undefined;
  /** A command that only reads may be pointed at a protected target by UPLOAD_TARGET or defaultTarget. */
  readonly readOnly?: boolean;
  /** Ends in order on the first Ctrl-C or SIGTERM (its run watches the signal); else Node's default stops it. */
  readonly interruptible?: boolean;
  /** A command that streams its own terminal output (a server) handles its own signals and has no spinner. */
  readonly ownsTerminal?: boolean;
  /** Only shows what a run would use (upload config): its --notify is shown, never set up to send. */
  readonly showsSettings?: boolean;
  /**
   * Four eyes (./four-eyes.ts): whether this run writes, and how — `direct` (an upload, restore or
   * remove that sends: refused where a target needs approvals) or `planned` (apply, approve: work on a
   * saved plan). A run that writes to a guarded target its address made it must name it, or type it.
   */
  readonly writes?: (flags: Flags) => 'direct' | 'planned' | undefined;
  /** The run's address when an argument names it (a saved plan's), for protection that follows the address. */
  readonly address?: (args: Args) => string | undefined;
  /** What the report says before anything else is known (commands whose --json is a run's report). */
  readonly facts?: (args: Args, flags: Flags) => RunFacts;
  readonly run: (ctx: CommandContext) => Promise<CommandOutcome>;
}

/** Names the type of a command file's default export (and checks it). */
export const defineCommand = (spec: CommandFile): CommandFile => spec;

/** The first argument as a kind, or a usage error that says which kinds there are. */
export function kindArg(value: unknown): Kind {
  if (value === 'store-cards' || value === 'team-members') return value;
  throw new UsageError('BAD_USAGE', `'${String(value)}' is not a kind`, 'use store-cards or team-members');
}
