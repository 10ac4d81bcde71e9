// The command table: each command's arguments, help and examples, its options (from ./flags.ts) and the
// action it runs. Each action is imported only when its command runs, so `--help` loads no undici or
// zod and no reader.
import type { Command } from 'commander';
import type { Kind } from '../contract/kinds.js';
import { UsageError } from '../errors.js';
import { declareFlags, type CommandName, type Flags } from './flags.js';
import type { RunIo } from './io.js';
import type { CommandResult } from './result.js';
import type { CommandLine } from './targets.js';

interface CommandSpec {
  /** The command with its arguments, in commander's syntax. */
  readonly usage: string;
  readonly summary: string;
  readonly description?: string;
  readonly examples: readonly string[];
  /** The arguments by position (an optional one not given is undefined). */
  readonly action: (args: readonly (string | undefined)[], flags: Flags, io: RunIo, line: CommandLine) => Promise<CommandResult>;
}

const checkKind = (kind: string | undefined): Kind => {
  if (kind === 'store-cards' || kind === 'team-members') return kind;
  throw new UsageError('BAD_KIND', `'${kind}' is not a kind`, 'use store-cards or team-members');
};

/** A kind's upload; the examples name a file of that kind. */
function uploadSpec(kind: Kind): CommandSpec {
  const noun = kind === 'store-cards' ? 'store card' : 'team member';
  const summary = `upload the complete set of ${noun}s`;
  const file = kind === 'store-cards' ? 'stores.csv' : 'staff.csv';
  const column = kind === 'store-cards' ? 'nodeKey": "Filiale' : 'employeeID": "Personalnummer';
  return {
    usage: `${kind} <file>`,
    summary,
    description: `${summary}\n\n<file> is a CSV, JSON (array) or NDJSON file, a workbook (.xlsx, .xlsm, .xls or .ods; the first sheet unless --sheet), or - for standard input. Every ${noun} on the service is replaced by the file's records.`,
    examples: [
      `$ upload ${kind} ${file} --dry-run                 check the file, see the mapping and the changes; send nothing`,
      `$ upload ${kind} ${file}                           the same, then confirm and upload`,
      `$ upload ${kind} ${file} --yes --json              unattended (cron): no prompt, one JSON report on stdout`,
      `$ upload ${kind} export.csv --map '{"${column}"}'   name a column the tool does not know`,
      `$ upload ${kind} ${file} --max-removals 37         allow exactly the 37 removals you expect`,
      `$ upload ${kind} ${file} --max-changes 120         allow exactly the 120 changed records you expect`,
      `$ upload ${kind} ${kind === 'store-cards' ? 'fix.csv' : 'new-hires.csv'} --merge          add or replace only these records (docs/everyday.md)`,
      `$ upload ${kind} ${file} --yes --hold-removals     nightly: send additions and changes, hold back doubtful removals (exit 9)`,
    ],
    action: async ([path], flags, io, line) => (await import('./actions.js')).uploadAction(kind, path!, flags, io, line),
  };
}

export const COMMANDS: Readonly<Record<CommandName, CommandSpec>> = {
  'store-cards': uploadSpec('store-cards'),
  'team-members': uploadSpec('team-members'),
  history: {
    usage: 'history <kind>',
    summary: 'list the recorded uploads of store-cards or team-members, newest first',
    description:
      'The uploads the state store recorded for one service address and kind, newest first, with what each changed and the failed attempts between them.',
    examples: [
      '$ upload history team-members --base-url https://scheduling.example.com',
      '$ upload history store-cards --limit 5 --json',
      '$ upload history store-cards --target production --html history.html',
    ],
    action: async ([kind], flags, io, line) => (await import('./history.js')).historyAction(checkKind(kind), flags, io, line),
  },
  restore: {
    usage: 'restore <kind>',
    summary: 'upload an earlier recorded set again (default: the one before the latest)',
    description:
      'Send an earlier generation of the store again, through the same diff, guards, confirmation and record as any upload. It becomes a new generation that says what it restored. A nightly job will send its own file again on its next run: pause it first.',
    examples: [
      '$ upload restore team-members --dry-run                 what going back one upload would change',
      '$ upload restore team-members --generation 41 --yes',
    ],
    action: async ([kind], flags, io, line) => (await import('./actions.js')).restoreAction(checkKind(kind), flags, io, line),
  },
  apply: {
    usage: 'apply <plan>',
    summary: 'send exactly a plan saved by --dry-run --plan-out, if the service has not moved since',
    description:
      'Send the body a dry run saved with --plan-out, byte for byte, after checking that the plan is intact and that no upload happened since it was made (else PLAN_STALE, nothing sent).',
    examples: ['$ upload team-members staff.csv --dry-run --plan-out reviewed.plan.json', '$ upload apply reviewed.plan.json --yes'],
    action: async ([plan], flags, io, line) => (await import('./actions.js')).applyAction(plan!, flags, io, line),
  },
  approve: {
    usage: 'approve <plan>',
    summary: 'approve a plan someone else made, for a target that needs approvals (four eyes)',
    description:
      "Show a plan saved with --dry-run --plan-out exactly as `upload apply` would (the target, the changes against the latest upload, the guards with the plan's own limits), then record your approval of it in the state store, bound to its digest: the body's bytes, the kind, the address, the upload it was planned against and its guard limits. Your name is the one the store knows you by (PostgreSQL's session_user, or your operating-system account), never UPLOAD_USER. The planner cannot approve their own plan (SELF_APPROVAL). Asks on a terminal; elsewhere takes --yes. Nothing is sent.",
    examples: [
      '$ upload team-members staff.csv --dry-run --plan-out staff.plan.json --target production   the planner',
      '$ upload approve staff.plan.json --target production                                       someone else',
      '$ upload apply staff.plan.json --target production --yes                                    anyone allowed to send; once',
    ],
    action: async ([plan], flags, io, line) => (await import('./actions.js')).approveAction(plan!, flags, io, line),
  },
  remove: {
    usage: 'remove <kind> [keys...]',
    summary: 'upload the last recorded set without some records: remove a leaver by key',
    description:
      'Send the last recorded set of store-cards or team-members without the records of the keys given (and those in --keys-file), through the same diff, guards, confirmation, lock, send and record as any upload. Naming the keys is the exact removal count. A key that is not in the set is an error that names it; nothing is sent.',
    examples: ['$ upload remove team-members E1042 --dry-run', '$ upload remove team-members --keys-file leavers.txt --yes'],
    // commander hands a variadic argument over as a list.
    action: async ([kind, keys], flags, io, line) =>
      (await import('./actions.js')).removeAction(checkKind(kind), (keys as unknown as string[] | undefined) ?? [], flags, io, line),
  },
  export: {
    usage: 'export <kind> [file]',
    summary: 'write the last recorded set of store-cards or team-members as CSV, xlsx or JSON',
    description:
      'Write the set the service last confirmed (or an earlier one, while its snapshot is kept) as a file to edit and upload again: CSV or an Excel workbook in the layout of `upload template`, or the wire JSON. Uploading the untouched file changes nothing. The file holds names and emails: it is written 0600 (0660 in a folder shared with a group).',
    examples: [
      '$ upload export team-members staff.xlsx                 for Excel; upload it again when edited',
      '$ upload export store-cards > stores.csv                 CSV on standard output',
      '$ upload export team-members --generation 41 --format json --output before.json',
    ],
    action: async ([kind, file], flags, io) => (await import('./export.js')).exportAction(checkKind(kind), file, flags, io),
  },
  state: {
    usage: 'state [action] [kind]',
    summary: 'copy the state to another store (--to), or settle an upload sent but never confirmed (resolve)',
    description: `Without an action: copy everything a state store holds — every base URL and kind, each with its generations, snapshots and audit log — into another store, e.g. from the local directory into PostgreSQL. The target must not hold any of it yet.

resolve <kind> --sent|--previous: an upload whose outcome was never learnt (the answer lost, the lock lost while sending, or a store that could not record it) is recorded as "sent, not confirmed", and every run compared with the recorded uploads refuses (BASELINE_UNCERTAIN) until it is settled. Check on the service which set it holds, then say --sent (it holds that upload: its recorded bytes become the latest) or --previous (it does not).`,
    examples: [
      '$ upload state --to postgres://uploader@db.example.com/scheduling',
      '$ upload state --from /mnt/shared/upload-state --to ~/.local/state/scheduling-upload',
      '$ upload state resolve team-members --sent        the service holds the upload that was sent but not confirmed',
    ],
    action: async ([action, kind], flags, io) => {
      const { stateAction, resolveAction } = await import('./state.js');
      if (action === undefined) return stateAction(flags, io);
      if (action === 'resolve') return resolveAction(checkKind(kind), flags, io);
      return {
        failure: new UsageError(
          'BAD_USAGE',
          `'${action}' is not an action of upload state`,
          'use upload state --to STORE, or upload state resolve KIND --sent|--previous',
        ),
      };
    },
  },
  config: {
    usage: 'config',
    summary: 'show the settings a run would use, and where each comes from (secrets redacted)',
    description:
      'Print the effective settings — service address, state store, token source, mapping, guard limits, notifications — for a target of the config file (or none), with where each value comes from: a flag, a target, a variable or the default. Tokens are never shown; webhook addresses only by their host.',
    examples: ['$ upload config', '$ upload config --target production --kind store-cards --json'],
    action: async (_args, flags, io, line) => (await import('./config.js')).configAction(flags, io, line),
  },
  sandbox: {
    usage: 'sandbox',
    summary: 'run the reference service on loopback',
    description: 'Run the reference service (a faithful local copy of the scheduling service) for rehearsals and tests. The token is read from SANDBOX_TOKEN.',
    examples: [
      '$ SANDBOX_TOKEN=dev-token upload sandbox --port 0 --data-dir ./sandbox-data',
      '$ UPLOAD_TOKEN=dev-token upload team-members staff.csv --base-url http://127.0.0.1:PORT --yes',
    ],
    action: async (_args, flags, io) => (await import('./sandbox.js')).sandboxAction(flags, io),
  },
  template: {
    usage: 'template <kind>',
    summary: 'print a CSV template for store-cards or team-members',
    examples: ['$ upload template store-cards > stores.csv', '$ upload template team-members > staff.csv'],
    action: async ([kind], _flags, io) => (await import('./template.js')).templateAction(kind!, io),
  },
};

/** Adds every command of the table to the program; `run` receives the result of the one that runs. */
export function addCommands(program: Command, io: RunIo, run: (result: Promise<CommandResult>) => void, exitCodes: string, argv: readonly string[] = []): void {
  for (const [name, spec] of Object.entries(COMMANDS) as [CommandName, CommandSpec][]) {
    const cmd = program.command(spec.usage).summary(spec.summary);
    if (spec.description) cmd.description(spec.description);
    const flags = declareFlags(cmd, name);
    const uploads = name === 'store-cards' || name === 'team-members';
    cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}${uploads ? `\n${exitCodes}` : ''}`);
    cmd.action((...args: unknown[]) => {
      // commander passes the arguments by position, then the options and the command.
      const given = args.slice(0, cmd.registeredArguments.length) as (string | undefined)[];
      // Which options the command line itself gave (a target's settings never override those).
      const line: CommandLine = { argv, given: (key) => cmd.getOptionValueSource(key) === 'cli' };
      run(spec.action(given, flags(), io, line));
    });
  }
}
